/* The certificate as Markdown (render.h): certificate.md, and the table certify prints. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/certificate/render.h"
#include "harness/lightcone.h"
#include "harness/step_counts.h"

void cc_certificate_markdown(FILE *f, const cc_certificate *c) {
    const cc_provenance *p = &c->prov;
    fprintf(f, "# cellcheck certificate\n\n- cellcheck %s (commit %s)\n- date: %s\n- command: `%s`\n"
               "- CPU: %s",
            p->build.version, p->build.commit, p->date, p->command, p->cpu_model);
    if (p->cpu_vendor[0])
        fprintf(f, " (%s, family %d, model %d, stepping %d)", p->cpu_vendor, p->cpu_family,
                p->cpu_model_number, p->cpu_stepping);
    if (p->cpu_logical > 0) fprintf(f, ", %ld logical CPUs", p->cpu_logical);
    fprintf(f, "\n- GPU: %s\n", p->gpu[0] ? p->gpu : "none ran");
    if (p->cuda_driver[0])
        fprintf(f, "- CUDA: driver %s, runtime %s\n", p->cuda_driver, p->cuda_runtime);
    fprintf(f, "- OS: %s\n- built with: %s, %s mode, flags `%s`\n- goldens: %s\n",
            p->os, p->build.compiler, p->build.mode, p->build.flags, p->golden_generation);
    if (p->sandbox[0]) fprintf(f, "- workers' sandbox: %s\n", p->sandbox);
    for (int i = 0; i < c->engines; i++)
        if (c->engine[i].plugin[0])
            fprintf(f, "- plugin of %s: `%s`, SHA-256 %s\n", c->engine[i].name, c->engine[i].plugin,
                    c->engine[i].plugin_sha256);
    for (int i = 0; i < c->engines; i++) {
        const cc_engine_source *s = &c->engine[i].source;
        if (!s->name[0] && !s->version[0] && !s->commit[0] && !s->flags[0] && !s->build[0])
            continue;
        fprintf(f, "- source of %s:", c->engine[i].name);
        const char *sep = " ";
        if (s->name[0]) fprintf(f, "%sname %s", sep, s->name), sep = ", ";
        if (s->version[0]) fprintf(f, "%sversion %s", sep, s->version), sep = ", ";
        if (s->commit[0]) fprintf(f, "%scommit %s", sep, s->commit), sep = ", ";
        if (s->flags[0]) fprintf(f, "%sbuild flags `%s`", sep, s->flags), sep = ", ";
        if (s->build[0]) fprintf(f, "%sthe plugin says it was built with `%s`", sep, s->build);
        fprintf(f, "\n");
    }
    if (p->quick)
        fprintf(f, "- a quick certificate (`certify --quick`): every section at its smallest; "
                   "never CERTIFIED\n");
    if (p->shard_count > 1)
        fprintf(f, "- shard %u of %u (0-based): a partial certificate, for `certify --merge`\n",
                (unsigned)p->shard_index, (unsigned)p->shard_count);
    if (p->merged)
        fprintf(f, "- merged from %d shards, run on %s\n", p->merged, p->hosts);
    fprintf(f, "- campaign: %" PRIu64 " cases per engine, master seed %s\n\n", p->cases, p->seed);
    cc_certificate_table(f, c);
}

void cc_certificate_print_gaps(FILE *f, const cc_certificate *c) {
    int any = 0;
    for (int i = 0; i < c->engines; i++)
        any |= c->engine[i].conf.gaps.n > 0 || c->engine[i].conf.gaps.dropped > 0;
    if (!any) return;
    fprintf(f, "\nGaps (checks left out; accept one knowingly with --accept-gap ID):\n");
    for (int i = 0; i < c->engines; i++)
        cc_gap_list_print(f, c->engine[i].name, &c->engine[i].conf.gaps);
}

/* The table: printed, and the body of certificate.md. */
void cc_certificate_table(FILE *f, const cc_certificate *cert) {
    const cc_certificate_engine *rows = cert->engine;
    const int n = cert->engines;
    fprintf(f, "| engine | needs | verdict | edge cases | past the tiles | past 2^32 cells | "
               "past 2^16 rows, columns, tiles | seams | bounded plane | step counts (largest) | "
               "call sequences (transitions) | GPU timing | "
               "light-cone cells | round trips | campaign passed / failed | "
               "golden passed / not supported | seconds |\n");
    fprintf(f, "| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: "
               "| ---: | ---: | ---: | ---: | ---: |\n");
    for (int i = 0; i < n; i++) {
        const cc_certificate_engine *r = &rows[i];
        if (r->verdict == CC_VERDICT_NOT_RUN ||
            (r->verdict == CC_VERDICT_FAILED && r->seconds == 0)) {
            fprintf(f, "| %s | %s | %s | | | | | | | | | | | | | | |\n", r->name,
                    cc_hardware_name(r->hardware), cc_verdict_name(r->verdict));
            continue;
        }
        /* The checks under a disturbed timing between streams: a dimension of GPU engines. */
        char timing[24] = "n/a";
        if (r->hardware == CC_HW_GPU)
            snprintf(timing, sizeof timing, "%d", r->conf.timing_passed);
        const cc_campaign_result *c = &r->conf.campaign;
        char tile[48], huge[240], classes[160], verdict[80];
        cc_conformance_geometry(&r->conf, tile, sizeof tile, huge, sizeof huge);
        cc_seam_classes_describe(r->conf.seam_classes, classes, sizeof classes);
        if (r->verdict == CC_VERDICT_FAILED && r->conf.first_kind != CC_FAILURE_NONE)
            snprintf(verdict, sizeof verdict, "FAILED (%s)",
                     cc_failure_kind_name(r->conf.first_kind));
        else if (r->verdict == CC_VERDICT_INCOMPLETE)
            snprintf(verdict, sizeof verdict, "INCOMPLETE (%d gaps)",
                     cc_gap_list_open(&r->conf.gaps));
        else
            snprintf(verdict, sizeof verdict, "%s", cc_verdict_name(r->verdict));
        /* Counts past 2^31: what answered within the wait, and what still ran then. */
        char longs[96] = "";
        if (r->conf.step_counts_long)
            snprintf(longs, sizeof longs, "; past 2^31: %d answered, %d still running at %.1f s",
                     r->conf.step_counts_long - r->conf.step_counts_running,
                     r->conf.step_counts_running, CC_LONG_COUNT_WAIT_S);
        char needs[64];
        if (r->conf.devices && r->conf.ranks > 1)
            snprintf(needs, sizeof needs, "%s x %d, %d processes", cc_hardware_name(r->hardware),
                     (int)r->conf.devices, (int)r->conf.ranks);
        else if (r->conf.devices)
            snprintf(needs, sizeof needs, "%s x %d", cc_hardware_name(r->hardware),
                     (int)r->conf.devices);
        else
            snprintf(needs, sizeof needs, "%s", cc_hardware_name(r->hardware));
        fprintf(f,
                "| %s | %s | %s | %d | %d (%s) | %s | %d | %d | %d | %d (%" PRId64 ")%s%s | %d (%d of %d) | %s | "
                "%" PRIu64 " (%s) | %d | %" PRIu64 " / %" PRIu64 " | %zu / %zu | %.1f |\n",
                r->name, needs, verdict,
                r->conf.edge_passed, r->conf.scale_passed, tile, huge, r->conf.shapes_passed,
                r->conf.seams_passed, r->conf.plane_passed, r->conf.step_counts,
                r->conf.step_counts_max, r->conf.step_counts_blind ? " (some left out)" : "", longs,
                r->conf.sequences, cc_transitions_count(&r->conf.transitions),
                cc_transitions_reachable_count(), timing, r->conf.lightcone_cells, classes[0] ? classes : "none", r->conf.round_trips,
                c->passed, c->failed, r->golden.passed, r->golden.unsupported, r->seconds);
    }
    /* Markdown: each block (the table, the reasons, the notes, the caps) after one blank line,
     * so the file renders as it reads, also appended to a CI job summary. */
    int reasons = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].reason[0]) {
            /* One list item each, whatever the reason holds: a line break would end it. */
            reasons++;
            fprintf(f, "\n- %s, %s: ", rows[i].name,
                    cc_verdict_name(rows[i].verdict));
            for (const char *c = rows[i].reason; *c; c++) fputc(*c == '\n' ? ' ' : *c, f);
            cc_failure_view fv;
            cc_certificate_failure(&rows[i], &fv);
            if (fv.reproducer[0]) fprintf(f, "; reproduce: `%s`", fv.reproducer);
        }
    int gaps = 0;
    for (int i = 0; i < n; i++) gaps += rows[i].conf.gaps.n + (rows[i].conf.gaps.dropped > 0);
    if (gaps) {
        fprintf(f, "%s\nGaps: checks left out, each named as `--accept-gap` takes it. An engine "
                   "with a gap not accepted is INCOMPLETE, not CERTIFIED.\n\n",
                reasons ? "\n" : "");
        for (int i = 0; i < n; i++) {
            const cc_gap_list *l = &rows[i].conf.gaps;
            for (int g = 0; g < l->n; g++) {
                char id[64];
                cc_gap_id(&l->gaps[g], id, sizeof id);
                fprintf(f, "- %s, `%s`: %d left out%s: ", rows[i].name, id,
                        l->gaps[g].count, l->gaps[g].accepted ? ", accepted by --accept-gap" : "");
                for (const char *c = l->gaps[g].reason; *c; c++) fputc(*c == '\n' ? ' ' : *c, f);
                fputc('\n', f);
            }
            if (l->dropped)
                fprintf(f, "- %s: %d more checks left out, past the %d gaps listed\n",
                        rows[i].name, l->dropped, CC_GAPS_MAX);
        }
        reasons = 0; /* the list ends on its own line */
    }
    fprintf(f, "%s\nSeams: the grid's last tile one cell short, full and one cell long on each "
               "axis (nine alignments of the torus seams against the stated tile), %d grids "
               "each; a one-cell error at a seam whose stale value is right half the time passes "
               "all %d with probability 2^-%d (%.1e).\n",
            reasons ? "\n" : "", CC_SEAM_GRIDS, CC_SEAM_GRIDS, CC_SEAM_GRIDS,
            1.0 / (double)(1u << CC_SEAM_GRIDS));
    fprintf(f, "\nWhat each engine was certified for (its caps):\n\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "- %s: %s\n", rows[i].name, rows[i].caps);
    }
    /* Memory kept past every destroy is allowed up to a pool of the largest context; said. */
    int kept = 0;
    for (int i = 0; i < n; i++) kept |= rows[i].kept_bytes >= CC_KEPT_NOTE_BYTES;
    if (kept) {
        fprintf(f, "\nMemory kept with no context live (a pool up to 1.5 x the largest "
                   "context's estimate is allowed; a leak grows past it and fails):\n\n");
        for (int i = 0; i < n; i++)
            if (rows[i].kept_bytes >= CC_KEPT_NOTE_BYTES)
                fprintf(f, "- %s: %.0f MiB\n", rows[i].name,
                        rows[i].kept_bytes / 1048576.0);
    }
    fprintf(f, "\nWhat each section's passing checks covered (shapes, radii, centres, edges, "
               "OpenMP teams, steps, sizes):\n\n");
    for (int i = 0; i < n; i++) {
        if (rows[i].verdict == CC_VERDICT_NOT_RUN) continue;
        for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
            const cc_section_tally *t = &rows[i].conf.sections[s];
            if (!t->run && !t->cov.cases) continue;
            char text[400];
            cc_coverage_describe(&t->cov, text, sizeof text);
            fprintf(f, "- %s, %s: %s\n", rows[i].name,
                    cc_check_section_name((cc_check_section)s), text);
        }
    }
}
