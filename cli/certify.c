/* cellcheck certify: every check for one engine, or for every engine that can run here, then a
 * certificate table printed and written as Markdown and JSON (each file whole or not at all). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sodium.h>

#include "cli/commands.h"
#include "cli/shard_record.h"
#include "supervise/supervisor.h"
#include "cli/common.h"
#include "cli/version.h"
#include "engines/cuda/common/gpu.h"
#include "harness/bench.h"
#include "harness/campaign.h"
#include "harness/harness.h"
#include "harness/lightcone.h"
#include "harness/progress.h"
#include "golden/golden.h"
#include "oracle/gridio.h"

#define CERTIFY_DEFAULT_CASES 2000

/* The version of certificate.json's layout (cli/certificate.schema.json): raised whenever a field
 * is removed, renamed or changes its meaning, so readers can tell which layout they hold. */
#define CERTIFICATE_SCHEMA_VERSION 2

/* INCOMPLETE: every check that ran passed, and some were left out (the row's gaps) that the user
 * did not accept by name. CERTIFIED means none was left out, or only accepted ones. */
typedef enum { VERDICT_CERTIFIED, VERDICT_FAILED, VERDICT_NOT_RUN, VERDICT_INCOMPLETE } verdict;

typedef struct engine_row {
    const cc_engine *engine;
    verdict v;
    char reason[640]; /* why it was not run, or what failed */
    cc_conformance_summary conf;
    golden_report golden;
    double golden_seconds;
    double seconds;
    const char *plugin;       /* the plugin it came from, NULL for a built-in engine */
    char plugin_sha256[65];   /* the plugin file's SHA-256, or why it has none */
    double kept_bytes;        /* the most its workers kept with no context live (a pool) */
} engine_row;

/* Memory kept after destroy worth a note: past what a fresh worker's allocator keeps. */
#define KEPT_NOTE_BYTES (64.0 * 1048576.0)

static const char *verdict_name(verdict v) {
    return v == VERDICT_CERTIFIED    ? "CERTIFIED"
           : v == VERDICT_FAILED     ? "FAILED"
           : v == VERDICT_INCOMPLETE ? "INCOMPLETE"
                                     : "NOT RUN";
}

/* A row that passed is CERTIFIED only with no gap left open after accept's names. */
static void settle_gaps(engine_row *row, const char *accept) {
    cc_gap_list_accept(&row->conf.gaps, accept);
    if (row->v == VERDICT_CERTIFIED || row->v == VERDICT_INCOMPLETE)
        row->v = cc_gap_list_open(&row->conf.gaps) ? VERDICT_INCOMPLETE : VERDICT_CERTIFIED;
}

/* The gaps of every row, where a person looks: at the end of the run. */
static void print_gaps(FILE *f, const engine_row *rows, int n) {
    int any = 0;
    for (int i = 0; i < n; i++) any |= rows[i].conf.gaps.n > 0 || rows[i].conf.gaps.dropped > 0;
    if (!any) return;
    fprintf(f, "\nGaps (checks left out; accept one knowingly with --accept-gap ID):\n");
    for (int i = 0; i < n; i++) cc_gap_list_print(f, rows[i].engine->name, &rows[i].conf.gaps);
}

static void certify_engine(engine_row *row, const cc_campaign_options *opt,
                           const golden_catalogue *cat) {
    const cc_engine *e = row->engine;
    cc_error err = {0};
    cc_supervisor_stats before, after;
    cc_supervisor *sv = cc_supervisor_of(e);
    if (sv) {
        cc_supervisor_kept_reset(sv);
        cc_supervisor_stats_get(sv, &before);
    }
    if (cc_call_available(e, &err)) {
        row->v = VERDICT_NOT_RUN;
        snprintf(row->reason, sizeof row->reason, "%s", err.msg);
        if (cc_hardware_required(e->hardware)) {
            row->v = VERDICT_FAILED;
            snprintf(row->reason, sizeof row->reason, "required %s absent: %.500s",
                     cc_hardware_name(e->hardware), err.msg);
        }
        return;
    }
    double start = cc_now_seconds();
    printf("== certifying %s\n", e->name);
    fflush(stdout);
    int rc = cc_conformance_run(e, opt, &row->conf, &err);
    if (rc == CC_OK && row->conf.passed) {
        double golden_start = cc_now_seconds();
        rc = golden_verify_engine_shard(cat, e, stdout, opt->shard_index, opt->shard_count,
                                        &row->golden, &err);
        row->golden_seconds = cc_now_seconds() - golden_start;
        if (rc == CC_ERR_MISMATCH)
            snprintf(row->reason, sizeof row->reason, "%zu golden cases differ", row->golden.failed);
        else if (rc)
            snprintf(row->reason, sizeof row->reason, "golden: %.500s", err.msg);
        else if (row->golden.passed == 0 && opt->shard_count <= 1) {
            /* A shard's share may hold none; the merge asks it of the whole. */
            rc = CC_ERR_MISMATCH;
            snprintf(row->reason, sizeof row->reason, "no golden case fits the engine");
        }
    } else if (rc) {
        snprintf(row->reason, sizeof row->reason, "conformance could not run: %.500s", err.msg);
    } else {
        rc = CC_ERR_MISMATCH;
        if (row->conf.first_kind != CC_FAILURE_NONE)
            snprintf(row->reason, sizeof row->reason, "%s%s: %.560s",
                     cc_failure_kind_name(row->conf.first_kind),
                     row->conf.stopped ? " (its checks stopped there)" : "",
                     row->conf.first_failure);
        else
            snprintf(row->reason, sizeof row->reason, "conformance failed (see the report above)");
    }
    row->v = rc ? VERDICT_FAILED : VERDICT_CERTIFIED;
    row->seconds = cc_now_seconds() - start;
    if (sv) {
        /* What running it in workers cost: each call is a round trip, each worker a start. */
        cc_supervisor_stats_get(sv, &after);
        row->kept_bytes = after.kept_bytes_max;
        printf("== %s: %.1f s, %llu engine calls in %llu worker processes (%llu ended by a "
               "fault)\n",
               e->name, row->seconds, (unsigned long long)(after.calls - before.calls),
               (unsigned long long)(after.workers_started - before.workers_started),
               (unsigned long long)(after.faults - before.faults));
    }
    /* Where the time went, so a slow certify can be traced to its section. */
    printf("== %s: seconds by section:", e->name);
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++)
        if (row->conf.sections[s].run)
            printf(" %s %.1f,", cc_check_section_name((cc_check_section)s),
                   row->conf.sections[s].seconds);
    printf(" goldens %.1f\n", row->golden_seconds);
}

/* A section's seconds, as its JUnit test case and the certificate give them. */
static double section_seconds(const engine_row *r, int section) {
    return section == CC_CHECK_SECTION_COUNT ? r->golden_seconds : r->conf.sections[section].seconds;
}

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* s as JSON, or null where s is NULL or "". */
static void json_string_or_null(FILE *f, const char *s) {
    if (s && s[0]) json_string(f, s);
    else fprintf(f, "null");
}

/* The SHA-256 of the file at path as 64 hex digits. */
static int file_sha256(const char *path, char hex[65], cc_error *err) {
    if (sodium_init() < 0) return cc_fail(err, CC_ERR_IO, "libsodium cannot start");
    FILE *f = fopen(path, "rb");
    if (!f) return cc_fail(err, CC_ERR_IO, "cannot read %s to hash it", path);
    crypto_hash_sha256_state state;
    crypto_hash_sha256_init(&state);
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) crypto_hash_sha256_update(&state, buf, got);
    int failed = ferror(f);
    fclose(f);
    if (failed) return cc_fail(err, CC_ERR_IO, "reading %s to hash it failed", path);
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&state, digest);
    sodium_bin2hex(hex, 65, digest, sizeof digest);
    return CC_OK;
}

/* What an engine's failure was, for the certificates: its class, section, detail, case, the
 * campaign case index (-1: none) and the reproducer; all "" where unknown. */
typedef struct failure_view {
    const char *klass;
    const char *section;
    const char *detail;
    const char *case_line;
    const char *calls;
    int64_t index;
    const char *reproducer;
} failure_view;

static void failure_of(const engine_row *r, failure_view *v) {
    memset(v, 0, sizeof *v);
    v->klass = v->section = v->detail = v->case_line = v->calls = v->reproducer = "";
    v->index = -1;
    if (r->v != VERDICT_FAILED) return;
    v->detail = r->reason;
    if (r->seconds == 0) {
        v->klass = "hardware absent";
        return;
    }
    const cc_conformance_summary *c = &r->conf;
    if (!c->passed && (c->failed > 0 || c->campaign.has_failure)) {
        v->klass = c->first_kind != CC_FAILURE_NONE ? cc_failure_kind_name(c->first_kind)
                                                    : "accepted a parameter outside its caps";
        v->section = cc_check_section_name(c->first_section);
        v->detail = c->first_failure;
        v->case_line = c->first_case;
        v->calls = c->first_calls;
        v->index = c->first_index;
        v->reproducer = c->first_reproducer;
    } else if (c->passed) {
        v->klass = "golden mismatch";
        v->section = "goldens";
        if (r->golden.first_case[0]) {
            v->detail = r->golden.first_detail;
            v->case_line = r->golden.first_case;
        }
    } else {
        v->klass = "could not check";
    }
}

/* The table: printed, and the body of certificate.md. */
static void write_table(FILE *f, const engine_row *rows, int n) {
    fprintf(f, "| engine | needs | verdict | edge cases | past the tiles | past 2^32 cells | "
               "past 2^16 rows, columns, tiles | seams | bounded plane | step counts (largest) | "
               "call sequences | GPU timing | "
               "light-cone cells | round trips | campaign passed / failed | "
               "golden passed / not supported | seconds |\n");
    fprintf(f, "| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: "
               "| ---: | ---: | ---: | ---: | ---: |\n");
    for (int i = 0; i < n; i++) {
        const engine_row *r = &rows[i];
        if (r->v == VERDICT_NOT_RUN || (r->v == VERDICT_FAILED && r->seconds == 0)) {
            fprintf(f, "| %s | %s | %s | | | | | | | | | | | | | | |\n", r->engine->name,
                    cc_hardware_name(r->engine->hardware), verdict_name(r->v));
            continue;
        }
        /* The checks under a disturbed timing between streams: a dimension of GPU engines. */
        char timing[24] = "n/a";
        if (r->engine->hardware == CC_HW_GPU)
            snprintf(timing, sizeof timing, "%d", r->conf.timing_passed);
        const cc_campaign_result *c = &r->conf.campaign;
        char tile[48], huge[240], classes[160], verdict[80];
        cc_conformance_geometry(&r->conf, tile, sizeof tile, huge, sizeof huge);
        cc_seam_classes_describe(r->conf.seam_classes, classes, sizeof classes);
        if (r->v == VERDICT_FAILED && r->conf.first_kind != CC_FAILURE_NONE)
            snprintf(verdict, sizeof verdict, "FAILED (%s)", cc_failure_kind_name(r->conf.first_kind));
        else if (r->v == VERDICT_INCOMPLETE)
            snprintf(verdict, sizeof verdict, "INCOMPLETE (%d gaps)",
                     cc_gap_list_open(&r->conf.gaps));
        else
            snprintf(verdict, sizeof verdict, "%s", verdict_name(r->v));
        char needs[48];
        if (r->conf.devices)
            snprintf(needs, sizeof needs, "%s x %d", cc_hardware_name(r->engine->hardware),
                     (int)r->conf.devices);
        else
            snprintf(needs, sizeof needs, "%s", cc_hardware_name(r->engine->hardware));
        fprintf(f,
                "| %s | %s | %s | %d | %d (%s) | %s | %d | %d | %d | %d (%" PRId64 ")%s | %d | %s | "
                "%" PRIu64 " (%s) | %d | %" PRIu64 " / %" PRIu64 " | %zu / %zu | %.1f |\n",
                r->engine->name, needs, verdict,
                r->conf.edge_passed, r->conf.scale_passed, tile, huge, r->conf.shapes_passed,
                r->conf.seams_passed, r->conf.plane_passed, r->conf.step_counts,
                r->conf.step_counts_max, r->conf.step_counts_blind ? " (some left out)" : "", r->conf.sequences,
                timing, r->conf.lightcone_cells, classes[0] ? classes : "none", r->conf.round_trips,
                c->passed, c->failed, r->golden.passed, r->golden.unsupported, r->seconds);
    }
    /* Markdown: each block (the table, the reasons, the notes, the caps) after one blank line,
     * so the file renders as it reads, also appended to a CI job summary. */
    int reasons = 0;
    for (int i = 0; i < n; i++)
        if (rows[i].reason[0]) {
            /* One list item each, whatever the reason holds: a line break would end it. */
            reasons++;
            fprintf(f, "\n- %s, %s: ", rows[i].engine->name,
                    verdict_name(rows[i].v));
            for (const char *c = rows[i].reason; *c; c++) fputc(*c == '\n' ? ' ' : *c, f);
            failure_view fv;
            failure_of(&rows[i], &fv);
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
                fprintf(f, "- %s, `%s`: %d left out%s: ", rows[i].engine->name, id,
                        l->gaps[g].count, l->gaps[g].accepted ? ", accepted by --accept-gap" : "");
                for (const char *c = l->gaps[g].reason; *c; c++) fputc(*c == '\n' ? ' ' : *c, f);
                fputc('\n', f);
            }
            if (l->dropped)
                fprintf(f, "- %s: %d more checks left out, past the %d gaps listed\n",
                        rows[i].engine->name, l->dropped, CC_GAPS_MAX);
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
        char caps[512];
        cc_engine_describe_caps(rows[i].engine, caps, sizeof caps);
        fprintf(f, "- %s: %s\n", rows[i].engine->name, caps);
    }
    /* Memory kept past every destroy is allowed up to a pool of the largest context; said. */
    int kept = 0;
    for (int i = 0; i < n; i++) kept |= rows[i].kept_bytes >= KEPT_NOTE_BYTES;
    if (kept) {
        fprintf(f, "\nMemory kept with no context live (a pool up to 1.5 x the largest "
                   "context's estimate is allowed; a leak grows past it and fails):\n\n");
        for (int i = 0; i < n; i++)
            if (rows[i].kept_bytes >= KEPT_NOTE_BYTES)
                fprintf(f, "- %s: %.0f MiB\n", rows[i].engine->name,
                        rows[i].kept_bytes / 1048576.0);
    }
    fprintf(f, "\nWhat each section's passing checks covered (shapes, radii, centres, edges, "
               "OpenMP teams, steps, sizes):\n\n");
    for (int i = 0; i < n; i++) {
        if (rows[i].v == VERDICT_NOT_RUN) continue;
        for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
            const cc_section_tally *t = &rows[i].conf.sections[s];
            if (!t->run && !t->cov.cases) continue;
            char text[400];
            cc_coverage_describe(&t->cov, text, sizeof text);
            fprintf(f, "- %s, %s: %s\n", rows[i].engine->name,
                    cc_check_section_name((cc_check_section)s), text);
        }
    }
}

/* A section's coverage as a JSON object (cc_coverage's fields, and its line of text). */
static void json_coverage(FILE *f, const cc_coverage *v) {
    fprintf(f, "{\"cases\": %d, \"shapes\": [", v->cases);
    const char *sep = "";
    for (int sh = 0; sh < CC_SHAPE_COUNT; sh++)
        if (v->shapes & CC_SHAPE_BIT(sh)) {
            fprintf(f, "%s\"%s\"", sep, cc_shape_code((cc_shape)sh));
            sep = ", ";
        }
    fprintf(f, "], \"radius_min\": %d, \"radius_max\": %d, \"centres\": [%s%s%s], "
               "\"topologies\": [%s%s%s], \"teams\": [",
            (int)v->radius_min, (int)v->radius_max, v->centres & 1u ? "\"M0\"" : "",
            v->centres == 3u ? ", " : "", v->centres & 2u ? "\"M1\"" : "",
            v->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) ? "\"torus\"" : "",
            v->topologies == (CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) | CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE))
                ? ", "
                : "",
            v->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE) ? "\"plane\"" : "");
    sep = "";
    for (int b = 0; b < 64; b++)
        if (v->teams & (1ull << b)) {
            fprintf(f, "%s%d", sep, b + 1);
            sep = ", ";
        }
    fprintf(f, "], \"default_team\": %s, \"steps_max\": %lld, \"cells_max\": %.0f, "
               "\"side_max\": %d, \"text\": ",
            v->default_team ? "true" : "false", (long long)v->steps_max, v->cells_max,
            (int)v->side_max);
    char text[400];
    cc_coverage_describe(v, text, sizeof text);
    json_string(f, text);
    fputc('}', f);
}

/* Where a certificate came from: cellcheck's commit and version, the date, the command line, the
 * machine (OS, CPU, the GPU and CUDA where an engine ran on one), the goldens in force (the
 * plugins' hashes are in each engine's row; the seed is written beside). */
typedef struct provenance {
    char date[32];
    char command[1024];
    char gpu[320]; /* "" where no engine ran on a GPU */
    char cuda_driver[32], cuda_runtime[32]; /* "13.0"; "" where no engine ran on a GPU */
    char os[400];  /* uname: "Linux 6.1.0-18-amd64 #1 SMP ... x86_64" */
    char cpu_model[256]; /* /proc/cpuinfo's whole "model name" */
    char cpu_vendor[64];
    int cpu_family, cpu_model_number, cpu_stepping; /* -1 where /proc/cpuinfo does not say */
    long cpu_logical;                               /* CPUs online */
    char golden_generation[256]; /* the generation golden/current named, as resolved */
    uint32_t shard_index, shard_count; /* a shard's partial certificate: which (count 1: whole) */
    int merged;                        /* a certificate merged from this many shards (0: none) */
    char hosts[1024];                  /* the shards' hosts, for a merged certificate */
} provenance;

/* The first processor's fields of /proc/cpuinfo. */
static void cpu_read(provenance *p) {
    snprintf(p->cpu_model, sizeof p->cpu_model, "unknown CPU");
    p->cpu_vendor[0] = '\0';
    p->cpu_family = p->cpu_model_number = p->cpu_stepping = -1;
    p->cpu_logical = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n') break; /* the end of the first processor's block */
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *value = colon + 1;
        while (*value == ' ' || *value == '\t') value++;
        size_t len = strlen(value);
        while (len > 0 && (value[len - 1] == '\n' || value[len - 1] == ' ')) value[--len] = '\0';
        char *key_end = colon;
        while (key_end > line && (key_end[-1] == ' ' || key_end[-1] == '\t')) key_end--;
        *key_end = '\0';
        if (strcmp(line, "model name") == 0)
            snprintf(p->cpu_model, sizeof p->cpu_model, "%s", value);
        else if (strcmp(line, "vendor_id") == 0)
            snprintf(p->cpu_vendor, sizeof p->cpu_vendor, "%s", value);
        else if (strcmp(line, "cpu family") == 0)
            p->cpu_family = atoi(value);
        else if (strcmp(line, "model") == 0)
            p->cpu_model_number = atoi(value);
        else if (strcmp(line, "stepping") == 0)
            p->cpu_stepping = atoi(value);
    }
    fclose(f);
}

/* "13.0" from CUDA's 13000. */
static void cuda_version_text(char *buf, size_t size, int version) {
    snprintf(buf, size, "%d.%d", version / 1000, version % 1000 / 10);
}

static void provenance_init(provenance *p, const engine_row *rows, int n, int argc, char **argv,
                            const char *golden_dir) {
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    char plugins[512];
    cc_plugin_args(plugins, sizeof plugins);
    size_t used = (size_t)snprintf(p->command, sizeof p->command, "cellcheck%s", plugins);
    for (int i = 0; i < argc && used < sizeof p->command; i++) {
        char word[1024];
        cc_shell_word(word, sizeof word, argv[i]);
        used += (size_t)snprintf(p->command + used, sizeof p->command - used, " %s", word);
    }
    p->gpu[0] = p->cuda_driver[0] = p->cuda_runtime[0] = '\0';
    for (int i = 0; i < n; i++)
        if (rows[i].engine->hardware == CC_HW_GPU && rows[i].seconds > 0) {
            cc_error err;
            if (cc_gpu_describe(p->gpu, sizeof p->gpu, &err))
                snprintf(p->gpu, sizeof p->gpu, "(not described: %.200s)", err.msg);
            int driver, runtime;
            if (cc_gpu_versions(&driver, &runtime, &err)) {
                snprintf(p->cuda_driver, sizeof p->cuda_driver, "unknown");
                snprintf(p->cuda_runtime, sizeof p->cuda_runtime, "unknown");
            } else {
                cuda_version_text(p->cuda_driver, sizeof p->cuda_driver, driver);
                cuda_version_text(p->cuda_runtime, sizeof p->cuda_runtime, runtime);
            }
            break;
        }
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(p->os, sizeof p->os, "%.60s %.100s %.160s %.40s", u.sysname, u.release,
                 u.version, u.machine);
    else
        snprintf(p->os, sizeof p->os, "unknown");
    cpu_read(p);
    /* The generation's directory name (.gen-<hash>) says which goldens were in force. */
    const char *slash = strrchr(golden_dir, '/');
    snprintf(p->golden_generation, sizeof p->golden_generation, "%.250s",
             slash ? slash + 1 : golden_dir);
}

static int write_certificates(const char *dir, const engine_row *rows, int n,
                              const cc_campaign_options *opt, const provenance *prov,
                              cc_error *err) {
    char seed[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(opt->master, seed);
    char *md = NULL, *json = NULL;
    size_t md_len = 0, json_len = 0;
    FILE *f = open_memstream(&md, &md_len);
    if (!f) return cc_fail(err, CC_ERR_NOMEM, "cannot build the certificate in memory");
    fprintf(f, "# cellcheck certificate\n\n- cellcheck %s (commit %s)\n- date: %s\n- command: `%s`\n"
               "- CPU: %s",
            cli_version, cli_commit, prov->date, prov->command, prov->cpu_model);
    if (prov->cpu_vendor[0])
        fprintf(f, " (%s, family %d, model %d, stepping %d)", prov->cpu_vendor, prov->cpu_family,
                prov->cpu_model_number, prov->cpu_stepping);
    fprintf(f, ", %ld logical CPUs\n- GPU: %s\n", prov->cpu_logical,
            prov->gpu[0] ? prov->gpu : "none ran");
    if (prov->cuda_driver[0])
        fprintf(f, "- CUDA: driver %s, runtime %s\n", prov->cuda_driver, prov->cuda_runtime);
    fprintf(f, "- OS: %s\n- built with: %s, %s mode, flags `%s`\n- goldens: %s\n",
            prov->os, cli_compiler, cli_compilation_mode, cli_build_flags, prov->golden_generation);
    for (int i = 0; i < n; i++)
        if (rows[i].plugin)
            fprintf(f, "- plugin of %s: `%s`, SHA-256 %s\n", rows[i].engine->name, rows[i].plugin,
                    rows[i].plugin_sha256);
    if (prov->shard_count > 1)
        fprintf(f, "- shard %u of %u (0-based): a partial certificate, for `certify --merge`\n",
                (unsigned)prov->shard_index, (unsigned)prov->shard_count);
    if (prov->merged)
        fprintf(f, "- merged from %d shards, run on %s\n", prov->merged, prov->hosts);
    fprintf(f, "- campaign: %" PRIu64 " cases per engine, master seed %s\n\n", opt->cases, seed);
    write_table(f, rows, n);
    fclose(f);

    f = open_memstream(&json, &json_len);
    if (!f) {
        free(md);
        return cc_fail(err, CC_ERR_NOMEM, "cannot build the certificate in memory");
    }
    fprintf(f, "{\n  \"schema_version\": %d,\n  \"cellcheck\": {\"version\": ",
            CERTIFICATE_SCHEMA_VERSION);
    json_string(f, cli_version);
    fprintf(f, ", \"commit\": ");
    json_string(f, cli_commit);
    fprintf(f, ", \"compiler\": ");
    json_string(f, cli_compiler);
    fprintf(f, ", \"compilation_mode\": ");
    json_string(f, cli_compilation_mode);
    fprintf(f, ", \"flags\": ");
    json_string(f, cli_build_flags);
    fprintf(f, "},\n  \"date\": \"%s\",\n  \"command\": ", prov->date);
    json_string(f, prov->command);
    fprintf(f, ",\n  \"gpu\": ");
    json_string(f, prov->gpu);
    fprintf(f, ",\n  \"cuda\": ");
    if (prov->cuda_driver[0]) {
        fprintf(f, "{\"driver\": ");
        json_string(f, prov->cuda_driver);
        fprintf(f, ", \"runtime\": ");
        json_string(f, prov->cuda_runtime);
        fprintf(f, "}");
    } else {
        fprintf(f, "null");
    }
    fprintf(f, ",\n  \"cpu\": ");
    json_string(f, prov->cpu_model);
    fprintf(f, ",\n  \"cpu_details\": {\"vendor\": ");
    json_string_or_null(f, prov->cpu_vendor);
    fprintf(f, ", \"family\": %d, \"model\": %d, \"stepping\": %d, \"logical_cpus\": %ld}",
            prov->cpu_family, prov->cpu_model_number, prov->cpu_stepping, prov->cpu_logical);
    fprintf(f, ",\n  \"os\": ");
    json_string(f, prov->os);
    fprintf(f, ",\n  \"golden_generation\": ");
    json_string(f, prov->golden_generation);
    fprintf(f, ",\n  \"shard\": ");
    if (prov->shard_count > 1)
        fprintf(f, "{\"index\": %u, \"count\": %u}", (unsigned)prov->shard_index,
                (unsigned)prov->shard_count);
    else
        fprintf(f, "null");
    fprintf(f, ",\n  \"merged_shards\": %d", prov->merged);
    fprintf(f, ",\n  \"cases\": %" PRIu64 ",\n  \"seed\": \"%s\",\n  \"engines\": [", opt->cases,
            seed);
    for (int i = 0; i < n; i++) {
        const engine_row *r = &rows[i];
        const cc_campaign_result *c = &r->conf.campaign;
        fprintf(f, "%s\n    {\"engine\": ", i ? "," : "");
        json_string(f, r->engine->name);
        fprintf(f, ", \"needs\": \"%s\", \"verdict\": \"%s\", \"failure_class\": ",
                cc_hardware_name(r->engine->hardware), verdict_name(r->v));
        if (r->v == VERDICT_FAILED && r->conf.first_kind != CC_FAILURE_NONE)
            json_string(f, cc_failure_kind_name(r->conf.first_kind));
        else
            fprintf(f, "null");
        fprintf(f, ", \"reason\": ");
        json_string(f, r->reason);
        fprintf(f, ", \"gaps\": [");
        for (int g = 0; g < r->conf.gaps.n; g++) {
            const cc_gap *gap = &r->conf.gaps.gaps[g];
            char id[64];
            cc_gap_id(gap, id, sizeof id);
            fprintf(f, "%s{\"id\": \"%s\", \"section\": ", g ? ", " : "", id);
            json_string(f, cc_check_section_name((cc_check_section)gap->section));
            fprintf(f, ", \"kind\": \"%s\", \"count\": %d, \"accepted\": %s, \"reason\": ",
                    cc_gap_kind_name((cc_gap_kind)gap->kind), gap->count,
                    gap->accepted ? "true" : "false");
            json_string(f, gap->reason);
            fprintf(f, "}");
        }
        fprintf(f, "], \"gaps_dropped\": %d", r->conf.gaps.dropped);
        fprintf(f, ", \"plugin\": ");
        if (r->plugin) {
            fprintf(f, "{\"path\": ");
            json_string(f, r->plugin);
            fprintf(f, ", \"sha256\": ");
            json_string(f, r->plugin_sha256);
            fprintf(f, "}");
        } else {
            fprintf(f, "null");
        }
        failure_view fv;
        failure_of(r, &fv);
        fprintf(f, ", \"failure\": ");
        if (r->v == VERDICT_FAILED) {
            fprintf(f, "{\"class\": ");
            json_string(f, fv.klass);
            fprintf(f, ", \"section\": ");
            json_string_or_null(f, fv.section);
            fprintf(f, ", \"detail\": ");
            json_string(f, fv.detail);
            fprintf(f, ", \"case\": ");
            json_string_or_null(f, fv.case_line);
            fprintf(f, ", \"calls\": ");
            json_string_or_null(f, fv.calls);
            fprintf(f, ", \"campaign_case\": ");
            if (fv.index >= 0) fprintf(f, "%" PRId64, fv.index);
            else fprintf(f, "null");
            fprintf(f, ", \"master_seed\": \"%s\", \"reproducer\": ", seed);
            json_string_or_null(f, fv.reproducer);
            fprintf(f, "}");
        } else {
            fprintf(f, "null");
        }
        char caps[512];
        cc_engine_describe_caps(r->engine, caps, sizeof caps);
        fprintf(f, ", \"caps\": ");
        json_string(f, caps);
        char tile[48], huge[240], classes[160];
        cc_conformance_geometry(&r->conf, tile, sizeof tile, huge, sizeof huge);
        if (r->v == VERDICT_NOT_RUN)
            snprintf(huge, sizeof huge, "not run: the engine's hardware (%s) is absent here",
                     cc_hardware_name(r->engine->hardware));
        cc_seam_classes_describe(r->conf.seam_classes, classes, sizeof classes);
        fprintf(f, ", \"devices\": %d", r->conf.devices ? (int)r->conf.devices : 1);
        fprintf(f, ", \"past_the_tiles\": {\"passed\": %d, \"tile_w\": %d, \"tile_h\": %d}, ",
                r->conf.scale_passed, (int)r->conf.tile_w, (int)r->conf.tile_h);
        fprintf(f, "\"past_2_32_cells\": ");
        json_string(f, huge);
        fprintf(f, ", \"light_cones\": {\"cells\": %" PRIu64 ", \"seam_classes\": ",
                r->conf.lightcone_cells);
        json_string(f, classes);
        fprintf(f,
                "}, \"edge_cases\": %d, \"round_trips\": %d, \"shapes\": %d, "
                "\"seams\": {\"passed\": %d, \"grids_per_alignment\": %d}, \"plane\": %d, "
                "\"step_counts\": {\"passed\": %d, \"largest\": %" PRId64
                ", \"left_out\": %d}, \"call_sequences\": %d, \"gpu_timing\": %d, "
                "\"campaign\": {\"run\": %" PRIu64 ", \"passed\": %" PRIu64
                ", \"failed\": %" PRIu64 "}, "
                "\"golden\": {\"passed\": %zu, \"failed\": %zu, \"unsupported\": %zu}, "
                "\"seconds\": %.3f, \"section_seconds\": {",
                r->conf.edge_passed, r->conf.round_trips, r->conf.shapes_passed,
                r->conf.seams_passed, CC_SEAM_GRIDS, r->conf.plane_passed, r->conf.step_counts,
                r->conf.step_counts_max, r->conf.step_counts_blind,
                r->conf.sequences, r->conf.timing_passed, c->run, c->passed, c->failed,
                r->golden.passed,
                r->golden.failed, r->golden.unsupported, r->seconds);
        for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
            json_string(f, cc_check_section_name((cc_check_section)s));
            fprintf(f, ": %.3f, ", section_seconds(r, s));
        }
        fprintf(f, "\"goldens\": %.3f}, \"coverage\": {", r->golden_seconds);
        const char *sep = "";
        for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
            if (!r->conf.sections[s].cov.cases) continue;
            fputs(sep, f);
            json_string(f, cc_check_section_name((cc_check_section)s));
            fprintf(f, ": ");
            json_coverage(f, &r->conf.sections[s].cov);
            sep = ", ";
        }
        fprintf(f, "}}");
    }
    fprintf(f, "\n  ]\n}\n");
    fclose(f);

    /* The Markdown and the JSON as one pair: both new or both old, whenever the run stops. */
    const char *const names[] = {"certificate.md", "certificate.json"};
    const char *const texts[] = {md, json};
    const size_t lens[] = {md_len, json_len};
    int rc = cc_write_files_atomic(dir, "certificate", 2, names, texts, lens, err);
    if (!rc) printf("wrote %s/certificate.md and %s/certificate.json\n", dir, dir);
    free(md);
    free(json);
    return rc;
}

/* ---- JUnit XML ---------------------------------------------------------------------------- */

/* s as XML character data or an attribute value; control characters XML cannot carry become
 * '?'. */
static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(c < 0x20 && c != '\n' && c != '\t' ? '?' : c, f);
        }
    }
}

/* The sections of an engine's JUnit suite: the conformance sections, then the goldens. */
#define JUNIT_GOLDENS CC_CHECK_SECTION_COUNT
#define JUNIT_SECTIONS (CC_CHECK_SECTION_COUNT + 1)

typedef enum { CASE_PASSED, CASE_FAILED, CASE_SKIPPED } junit_outcome;

/* One section's outcome, and the message of a failure or a skip. */
static junit_outcome junit_section(const engine_row *r, int section, char *msg, size_t size) {
    msg[0] = '\0';
    if (r->v == VERDICT_NOT_RUN) {
        snprintf(msg, size, "not run here: %s", r->reason);
        return CASE_SKIPPED;
    }
    if (r->seconds == 0) { /* required hardware absent: nothing ran, and that is a failure */
        snprintf(msg, size, "%s", r->reason);
        return CASE_FAILED;
    }
    const cc_conformance_summary *c = &r->conf;
    if (section == JUNIT_GOLDENS) {
        if (!c->passed) {
            snprintf(msg, size, "not reached: the conformance checks did not pass");
            return CASE_SKIPPED;
        }
        if (r->v == VERDICT_FAILED) {
            snprintf(msg, size, "%s", r->reason);
            return CASE_FAILED;
        }
        return CASE_PASSED;
    }
    const cc_section_tally *t = &c->sections[section];
    if (section == CC_CHECK_TIMING && r->engine->hardware != CC_HW_GPU) {
        snprintf(msg, size, "not a dimension of an engine on the %s: no streams to disturb",
                 cc_hardware_name(r->engine->hardware));
        return CASE_SKIPPED;
    }
    if (t->failed > 0) {
        if ((c->failed > 0 || c->campaign.has_failure) && (int)c->first_section == section)
            snprintf(msg, size, "%s", c->first_failure);
        else
            snprintf(msg, size, "%d failed", t->failed);
        return CASE_FAILED;
    }
    if (!t->run) {
        if (section == CC_CHECK_PAST_2_32 && !c->failed && c->huge_note[0])
            snprintf(msg, size, "not run: %s", c->huge_note);
        else if (c->failed || c->campaign.has_failure || c->stopped)
            snprintf(msg, size, "not reached: the checks stopped at the first failure");
        else
            snprintf(msg, size, "left out by the options");
        return CASE_SKIPPED;
    }
    if (t->passed == 0) {
        /* A section left out whole names its gap (the GPU timing section with no device to
         * disturb). */
        for (int g = 0; g < c->gaps.n; g++)
            if (c->gaps.gaps[g].section == section) {
                snprintf(msg, size, "left out: %s", c->gaps.gaps[g].reason);
                return CASE_SKIPPED;
            }
        snprintf(msg, size, "no case of this section fits the engine's caps or this shard");
        return CASE_SKIPPED;
    }
    return CASE_PASSED;
}

/* One <testsuite> per engine, one <testcase> per section; a failure carries its class, case line
 * and reproducer; an engine whose hardware is absent is skipped. A failed engine none of whose
 * sections failed (the checks could not run) gets a "certify" case with an <error>. */
static void write_junit(FILE *f, const engine_row *rows, int n, const cc_campaign_options *opt,
                        const provenance *prov) {
    char seed[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(opt->master, seed);
    char msg[1024];
    int total = 0, failures = 0, errors = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        int section_failed = 0;
        for (int s = 0; s < JUNIT_SECTIONS; s++) {
            junit_outcome o = junit_section(&rows[i], s, msg, sizeof msg);
            total++;
            failures += o == CASE_FAILED;
            skipped += o == CASE_SKIPPED;
            section_failed |= o == CASE_FAILED;
        }
        if (rows[i].v == VERDICT_FAILED && !section_failed) {
            total++;
            errors++;
        }
        total += rows[i].conf.gaps.n;
        skipped += rows[i].conf.gaps.n;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"cellcheck certify\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
               "skipped=\"%d\">\n",
            total, failures, errors, skipped);
    for (int i = 0; i < n; i++) {
        const engine_row *r = &rows[i];
        int t = 0, fl = 0, sk = 0, section_failed = 0;
        for (int s = 0; s < JUNIT_SECTIONS; s++) {
            junit_outcome o = junit_section(r, s, msg, sizeof msg);
            t++;
            fl += o == CASE_FAILED;
            sk += o == CASE_SKIPPED;
            section_failed |= o == CASE_FAILED;
        }
        int error = r->v == VERDICT_FAILED && !section_failed;
        fprintf(f, "  <testsuite name=\"");
        xml_text(f, r->engine->name);
        fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\" "
                   "timestamp=\"%.19s\">\n",
                t + error + r->conf.gaps.n, fl, error, sk + r->conf.gaps.n, r->seconds,
                prov->date);
        fprintf(f, "    <properties>\n      <property name=\"verdict\" value=\"%s\"/>\n"
                   "      <property name=\"needs\" value=\"%s\"/>\n"
                   "      <property name=\"master_seed\" value=\"%s\"/>\n",
                verdict_name(r->v), cc_hardware_name(r->engine->hardware), seed);
        if (r->plugin) {
            fprintf(f, "      <property name=\"plugin\" value=\"");
            xml_text(f, r->plugin);
            fprintf(f, "\"/>\n      <property name=\"plugin_sha256\" value=\"%s\"/>\n",
                    r->plugin_sha256);
        }
        fprintf(f, "    </properties>\n");
        failure_view fv;
        failure_of(r, &fv);
        for (int s = 0; s < JUNIT_SECTIONS; s++) {
            const char *name = s == JUNIT_GOLDENS ? "goldens" : cc_check_section_name((cc_check_section)s);
            junit_outcome o = junit_section(r, s, msg, sizeof msg);
            fprintf(f, "    <testcase classname=\"");
            xml_text(f, r->engine->name);
            fprintf(f, "\" name=\"%s\" time=\"%.3f\"", name, section_seconds(r, s));
            if (o == CASE_PASSED) {
                fprintf(f, "/>\n");
                continue;
            }
            fprintf(f, ">\n");
            if (o == CASE_SKIPPED) {
                fprintf(f, "      <skipped message=\"");
                xml_text(f, msg);
                fprintf(f, "\"/>\n");
            } else {
                /* The first failure's class, case and reproducer where it is this section's. */
                int first = fv.section[0] && strcmp(fv.section, name) == 0;
                const char *klass = first ? fv.klass : r->seconds == 0 ? "hardware absent" : "failed";
                fprintf(f, "      <failure type=\"");
                xml_text(f, klass);
                fprintf(f, "\" message=\"");
                xml_text(f, klass);
                fprintf(f, ": ");
                xml_text(f, msg);
                fprintf(f, "\">");
                xml_text(f, msg);
                if (first && fv.case_line[0]) {
                    fprintf(f, "\ncase: ");
                    xml_text(f, fv.case_line);
                }
                if (first && fv.calls[0]) {
                    fprintf(f, "\ncalls: ");
                    xml_text(f, fv.calls);
                }
                if (first && fv.index >= 0) fprintf(f, "\ncampaign case %" PRId64, fv.index);
                fprintf(f, "\nmaster seed: %s", seed);
                if (first && fv.reproducer[0]) {
                    fprintf(f, "\nreproduce: ");
                    xml_text(f, fv.reproducer);
                }
                fprintf(f, "</failure>\n");
            }
            fprintf(f, "    </testcase>\n");
        }
        /* Each gap a skipped case of its own, named as --accept-gap takes it. */
        for (int g = 0; g < r->conf.gaps.n; g++) {
            char id[64];
            cc_gap_id(&r->conf.gaps.gaps[g], id, sizeof id);
            fprintf(f, "    <testcase classname=\"");
            xml_text(f, r->engine->name);
            fprintf(f, "\" name=\"gap %s\" time=\"0.000\">\n      <skipped message=\"", id);
            snprintf(msg, sizeof msg, "%d left out%s: %s", r->conf.gaps.gaps[g].count,
                     r->conf.gaps.gaps[g].accepted ? " (accepted by --accept-gap)" : "",
                     r->conf.gaps.gaps[g].reason);
            xml_text(f, msg);
            fprintf(f, "\"/>\n    </testcase>\n");
        }
        if (error) {
            fprintf(f, "    <testcase classname=\"");
            xml_text(f, r->engine->name);
            fprintf(f, "\" name=\"certify\">\n      <error type=\"");
            xml_text(f, fv.klass);
            fprintf(f, "\" message=\"");
            xml_text(f, r->reason);
            fprintf(f, "\"/>\n    </testcase>\n");
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
}

/* The JUnit report at path, whole or not at all. */
static int write_junit_file(const char *path, const engine_row *rows, int n,
                            const cc_campaign_options *opt, const provenance *prov,
                            cc_error *err) {
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    if (!f) return cc_fail(err, CC_ERR_NOMEM, "cannot build the JUnit report in memory");
    write_junit(f, rows, n, opt, prov);
    if (fclose(f)) {
        free(xml);
        return cc_fail(err, CC_ERR_NOMEM, "cannot build the JUnit report in memory");
    }
    int rc = cc_write_file_atomic(path, xml, len, err);
    free(xml);
    if (rc) return cc_prefix(err, "the JUnit report %s", path);
    printf("wrote %s\n", path);
    return CC_OK;
}

/* Whether path can take a report, before any work: not a directory or another non-regular file,
 * in a directory that exists and is writable. */
static int check_report_path(const char *flag, const char *path, cc_error *err) {
    struct stat st;
    if (!path[0]) return cc_fail(err, CC_ERR_ARG, "%s: an empty file name", flag);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cc_fail(err, CC_ERR_ARG, "%s %s is not a regular file", flag, path);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0)
        return cc_fail(err, CC_ERR_ARG, "%s %s: %s is not a writable directory", flag, path, dir);
    return CC_OK;
}

/* ---- Shards ------------------------------------------------------------------------------ */

/* "I/N" with 0 <= I < N. */
static int shard_option(const char *flag, const char *value, void *dest, cc_error *err) {
    cc_campaign_options *opt = dest;
    unsigned index, count;
    char extra;
    if (sscanf(value, "%u/%u%c", &index, &count, &extra) != 2 || count < 1 || index >= count ||
        count > 100000)
        return cc_fail(err, CC_ERR_ARG,
                       "%s %s: I/N, shard I (0-based, as a Slurm array's task id) of N", flag,
                       value);
    opt->shard_index = index;
    opt->shard_count = count;
    return CC_OK;
}

static void shard_engine_of(const engine_row *r, cc_shard_engine *e) {
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", r->engine->name);
    snprintf(e->plugin_sha256, sizeof e->plugin_sha256, "%s", r->plugin ? r->plugin_sha256 : "");
    e->verdict = r->v == VERDICT_CERTIFIED    ? CC_SHARD_CERTIFIED
                 : r->v == VERDICT_INCOMPLETE ? CC_SHARD_INCOMPLETE
                 : r->v == VERDICT_FAILED     ? CC_SHARD_FAILED
                                           : CC_SHARD_NOT_RUN;
    snprintf(e->reason, sizeof e->reason, "%s", r->reason);
    e->conf = r->conf;
    e->golden = r->golden;
    e->golden_seconds = r->golden_seconds;
    e->seconds = r->seconds;
}

/* shard.txt beside the partial certificate: what the merge reads back. */
static int write_shard_record(const char *dir, const engine_row *rows, int n,
                              const cc_campaign_options *opt, const provenance *prov,
                              cc_error *err) {
    cc_shard_record r;
    memset(&r, 0, sizeof r);
    snprintf(r.version, sizeof r.version, "%s", cli_version);
    snprintf(r.commit, sizeof r.commit, "%s", cli_commit);
    snprintf(r.compiler, sizeof r.compiler, "%s", cli_compiler);
    snprintf(r.mode, sizeof r.mode, "%s", cli_compilation_mode);
    snprintf(r.flags, sizeof r.flags, "%s", cli_build_flags);
    case_seed_format_hex(opt->master, r.seed);
    r.cases = opt->cases;
    r.index = opt->shard_index;
    r.count = opt->shard_count;
    if (gethostname(r.host, sizeof r.host) != 0) snprintf(r.host, sizeof r.host, "unknown");
    r.host[sizeof r.host - 1] = '\0';
    snprintf(r.cpu, sizeof r.cpu, "%s", prov->cpu_model);
    snprintf(r.gpu, sizeof r.gpu, "%s", prov->gpu);
    snprintf(r.golden, sizeof r.golden, "%s", prov->golden_generation);
    r.engines = n;
    r.engine = calloc((size_t)(n ? n : 1), sizeof *r.engine);
    if (!r.engine) return cc_fail(err, CC_ERR_NOMEM, "cannot build the shard record");
    for (int i = 0; i < n; i++) shard_engine_of(&rows[i], &r.engine[i]);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        free(r.engine);
        return cc_fail(err, CC_ERR_NOMEM, "cannot build the shard record");
    }
    cc_shard_write(f, &r);
    fclose(f);
    free(r.engine);
    const char *const names[] = {"shard.txt"};
    const char *const texts[] = {text};
    int rc = cc_write_files_atomic(dir, "shard", 1, names, texts, &len, err);
    if (!rc) printf("wrote %s/shard.txt\n", dir);
    free(text);
    return rc;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every DIR/<sub>/shard.txt, sorted by name. */
static int find_shards(const char *dir, char ***paths, int *n, cc_error *err) {
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return cc_fail(err, CC_ERR_IO, "--merge %s is not a directory that can be read", dir);
    int rc = CC_OK, room = 0;
    for (struct dirent *ent; rc == CC_OK && (ent = readdir(d)) != NULL;) {
        if (ent->d_name[0] == '.') continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s/shard.txt", dir, ent->d_name);
        if (stat(path, &st) != 0) continue;
        if (*n == room) {
            room = room ? 2 * room : 16;
            char **more = realloc(*paths, (size_t)room * sizeof *more);
            if (!more) {
                rc = cc_fail(err, CC_ERR_NOMEM, "--merge: out of memory");
                break;
            }
            *paths = more;
        }
        if (!((*paths)[*n] = strdup(path))) rc = cc_fail(err, CC_ERR_NOMEM, "--merge: out of memory");
        else (*n)++;
    }
    closedir(d);
    if (rc == CC_OK && *n == 0)
        rc = cc_fail(err, CC_ERR_ARG, "--merge %s holds no shard (no %s/*/shard.txt)", dir, dir);
    if (rc == CC_OK) qsort(*paths, (size_t)*n, sizeof **paths, by_name);
    return rc;
}

static void free_paths(char **paths, int n) {
    for (int i = 0; i < n; i++) free(paths[i]);
    free(paths);
}

/* certify --merge DIR: the shards' records into one certificate, as one run would have written
 * it. */
static int merge_shards(const cc_engine_set *engines, const char *dir, const char *out_dir,
                        const char *junit, const char *accept, int argc, char **argv) {
    cc_error err = {0};
    char **paths = NULL;
    int n = 0;
    if (find_shards(dir, &paths, &n, &err)) return cli_failed(&err) + 1; /* bad input */
    cc_shard_record *shards = calloc((size_t)n, sizeof *shards), merged;
    memset(&merged, 0, sizeof merged);
    if (!shards) {
        free_paths(paths, n);
        cc_fail(&err, CC_ERR_NOMEM, "--merge: out of memory");
        return cli_failed(&err);
    }
    int rc = CC_OK, read = 0;
    for (; read < n && rc == CC_OK; read++) rc = cc_shard_read(paths[read], &shards[read], &err);
    if (rc) read--;
    if (rc == CC_OK) rc = cc_shards_merge(shards, (const char *const *)paths, n, &merged, &err);
    /* The engines are this binary's: the shards must come from the same build. */
    if (rc == CC_OK && (strcmp(merged.commit, cli_commit) || strcmp(merged.version, cli_version) ||
                        strcmp(merged.flags, cli_build_flags) ||
                        strcmp(merged.compiler, cli_compiler)))
        rc = cc_fail(&err, CC_ERR_ARG,
                     "--merge: the shards come from cellcheck %s (commit %s), not from this "
                     "build, %s (commit %s)",
                     merged.version, merged.commit, cli_version, cli_commit);
    engine_row *rows = rc == CC_OK ? calloc((size_t)(merged.engines ? merged.engines : 1),
                                            sizeof *rows)
                                   : NULL;
    if (rc == CC_OK && !rows) rc = cc_fail(&err, CC_ERR_NOMEM, "--merge: out of memory");
    provenance prov;
    memset(&prov, 0, sizeof prov);
    for (int i = 0; rc == CC_OK && i < merged.engines; i++) {
        const cc_shard_engine *e = &merged.engine[i];
        engine_row *r = &rows[i];
        if (!(r->engine = cli_find_engine(engines, e->name, &err))) {
            rc = cc_prefix(&err, "--merge: the shards certified %s", e->name);
            break;
        }
        r->plugin = cc_engine_set_origin(engines, r->engine);
        snprintf(r->plugin_sha256, sizeof r->plugin_sha256, "%s", e->plugin_sha256);
        r->v = e->verdict == CC_SHARD_CERTIFIED    ? VERDICT_CERTIFIED
               : e->verdict == CC_SHARD_INCOMPLETE ? VERDICT_INCOMPLETE
               : e->verdict == CC_SHARD_FAILED     ? VERDICT_FAILED
                                                   : VERDICT_NOT_RUN;
        snprintf(r->reason, sizeof r->reason, "%s", e->reason);
        r->conf = e->conf;
        r->golden = e->golden;
        r->golden_seconds = e->golden_seconds;
        r->seconds = e->seconds;
        if (r->v == VERDICT_CERTIFIED && r->golden.passed == 0) {
            r->v = VERDICT_FAILED;
            snprintf(r->reason, sizeof r->reason, "no golden case fits the engine");
        }
    }
    cc_campaign_options opt;
    cli_campaign_options_init(&opt);
    if (rc == CC_OK) {
        opt.cases = merged.cases;
        if (case_seed_parse_hex(merged.seed, opt.master, &err)) rc = cc_prefix(&err, "--merge");
    }
    if (rc == CC_OK) {
        provenance_init(&prov, rows, 0, argc, argv, merged.golden);
        snprintf(prov.golden_generation, sizeof prov.golden_generation, "%s", merged.golden);
        snprintf(prov.cpu_model, sizeof prov.cpu_model, "%s", merged.cpu);
        prov.cpu_vendor[0] = '\0';
        prov.cpu_logical = 0;
        for (int i = 0; i < n; i++) {
            if (!prov.gpu[0] && shards[i].gpu[0])
                snprintf(prov.gpu, sizeof prov.gpu, "%s", shards[i].gpu);
            if (strcmp(shards[i].cpu, merged.cpu))
                snprintf(prov.cpu_model, sizeof prov.cpu_model, "several (see the shards)");
            size_t used = strlen(prov.hosts);
            if (!strstr(prov.hosts, shards[i].host) && used < sizeof prov.hosts)
                snprintf(prov.hosts + used, sizeof prov.hosts - used, "%s%s", used ? ", " : "",
                         shards[i].host);
        }
        prov.shard_count = 1;
        prov.merged = n;
    }
    int failed = 0, certified = 0, incomplete = 0;
    if (rc == CC_OK) {
        for (int i = 0; i < merged.engines; i++) settle_gaps(&rows[i], accept);
        printf("cellcheck certificate merged from %d shards (%" PRIu64 " cases per engine)\n\n", n,
               opt.cases);
        write_table(stdout, rows, merged.engines);
        print_gaps(stdout, rows, merged.engines);
        for (int i = 0; i < merged.engines; i++) {
            failed += rows[i].v == VERDICT_FAILED;
            certified += rows[i].v == VERDICT_CERTIFIED;
            incomplete += rows[i].v == VERDICT_INCOMPLETE;
        }
        rc = write_certificates(out_dir, rows, merged.engines, &opt, &prov, &err);
        if (!rc && junit) rc = write_junit_file(junit, rows, merged.engines, &opt, &prov, &err);
    }
    if (rc == CC_OK)
        printf("%d certified, %d failed, %d not run here, %d incomplete\n", certified, failed,
               merged.engines - certified - failed - incomplete, incomplete);
    for (int i = 0; i < read; i++) cc_shard_free(&shards[i]);
    free(shards);
    free(rows);
    free(merged.engine);
    free_paths(paths, n);
    /* Shards that do not make one run are bad input (2), not a failed engine (1). */
    if (rc) return cli_failed(&err) + (rc == CC_ERR_ARG);
    return failed ? 1 : incomplete ? CLI_EXIT_INCOMPLETE : 0;
}

enum { ENGINE, CASES, SEED, OUT_DIR, REPORT_DIR, CATALOGUE, HUGE_GRID, ABSENT_OK, PROGRESS,
       TIME_LIMIT, MEMORY_MARGIN, JUNIT, SHARD, MERGE, ACCEPT_GAP, LEAVE_OUT, NOPTIONS };

static const char about[] =
    "Every check for one engine, or for every engine that can run here: the\n"
    "conformance checks, a campaign (2000 cases unless --cases) and the golden\n"
    "catalogue. Prints the certificate and writes certificate.md and\n"
    "certificate.json. An engine named by --engine whose hardware is absent here,\n"
    "or any engine whose hardware CELLCHECK_REQUIRE names (gpu, amx, avx2, avx512,\n"
    "cpu; comma-separated, any case), is refused before any work (exit 1);\n"
    "--absent-ok certifies the first kind as NOT RUN instead. Without --engine,\n"
    "engines that cannot run here and are not required are NOT RUN.\n"
    "An engine whose every check passed but some were left out (a gap: the case\n"
    "past 2^32 cells past this machine's memory, a step count past its time\n"
    "bound, a section left out by --leave-out, the GPU timing disturbance where\n"
    "a worker cannot run it) is INCOMPLETE, exit 4, with each gap named\n"
    "at the end; --accept-gap ID[,ID...] accepts named gaps knowingly (a\n"
    "section, huge-grid, or SECTION:KIND, step-counts:time), and the certificate\n"
    "says so. Exit: 0 every engine CERTIFIED (or NOT RUN), 1 one FAILED,\n"
    "4 one INCOMPLETE and none FAILED.";

int cli_cmd_certify(const cc_engine_set *engines, int argc, char **argv) {
    cc_campaign_options opt;
    cli_campaign_options_init(&opt);
    opt.cases = CERTIFY_DEFAULT_CASES;
    opt.huge_grid = CC_HUGE_GRID_AUTO; /* every engine that fits, CPU engines too */
    /* Every case within the caps: a case outside them is refused by the entry point before
     * any engine code runs, so no engine could fail it. */
    opt.invalid_percent = 0;
    const char *engine_name = NULL, *out_dir = NULL, *catalogue = NULL, *junit = NULL,
               *merge_dir = NULL, *accept = NULL;
    int absent_ok = 0;
    cc_option opts[NOPTIONS] = {
        [ENGINE] = cli_engine_option(&engine_name, 0,
                                     "the engine to certify, or several as A,B (default: every "
                                     "engine)"),
        [OUT_DIR] = CC_OPTION_STRING("out-dir", "DIR", &out_dir,
                                     "where certificate.md and .json go (default .)"),
        [REPORT_DIR] = CC_OPTION_STRING("report-dir", "DIR", &opt.report_dir,
                                        "where each failure's difference pictures go, with "
                                        "their legends (default: none written)"),
        [CATALOGUE] = CC_OPTION_STRING("catalogue", "FILE", &catalogue,
                                       "the golden catalogue (default golden/catalogue.txt)"),
        [HUGE_GRID] = cc_huge_grid_option(&opt),
        [ABSENT_OK] = CC_OPTION_FLAG("absent-ok", &absent_ok,
                                     "an engine asked for but unable to run here is NOT RUN, "
                                     "exit 0"),
        [JUNIT] = CC_OPTION_STRING("junit", "FILE",
                                   &junit, "also a JUnit XML report: a suite per engine, a case "
                                           "per section"),
        [SHARD] = CC_OPTION_CUSTOM("shard", "I/N", &opt, shard_option,
                                   "run shard I (0-based) of N: every Nth check and case and "
                                   "golden; writes a partial certificate and shard.txt"),
        [MERGE] = CC_OPTION_STRING("merge", "DIR",
                                   &merge_dir, "merge the shards in DIR's subdirectories (each "
                                               "with the shard.txt of a --shard run) into one "
                                               "certificate, checking they belong together"),
        [ACCEPT_GAP] = CC_OPTION_STRING("accept-gap", "ID[,ID...]", &accept,
                                        "gaps to accept knowingly: a section (huge-grid) or "
                                        "SECTION:KIND (step-counts:time); the certificate says "
                                        "which"),
        [LEAVE_OUT] = cc_leave_out_option(&opt),
    };
    cc_command cmd = {"cellcheck certify", about, opts, NOPTIONS};
    int status;
    if (cli_parse_campaign(&cmd, &opt, &opts[CASES], &opts[PROGRESS], argc, argv, &status))
        return status;
    cc_error err = {0};
    if (accept && cc_gap_accept_check(accept, &err)) return cli_bad_usage(&cmd, &err);
    if (merge_dir) {
        if (engine_name || opt.shard_count > 1) {
            cc_fail(&err, CC_ERR_ARG, "--merge takes the shards as they are: no --engine or --shard");
            return cli_bad_usage(&cmd, &err);
        }
        if (!out_dir) out_dir = getenv("BUILD_WORKING_DIRECTORY");
        if (!out_dir) out_dir = ".";
        struct stat st;
        if (stat(out_dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(out_dir, W_OK) != 0) {
            cc_fail(&err, CC_ERR_ARG, "--out-dir %s is not a writable directory", out_dir);
            return cli_bad_usage(&cmd, &err);
        }
        if (junit && check_report_path("--junit", junit, &err)) return cli_bad_usage(&cmd, &err);
        return merge_shards(engines, merge_dir, out_dir, junit, accept, argc, argv);
    }

    const cc_engine *const *all = engines->engines;
    int n = 0;
    while (all[n]) n++;
    engine_row *rows = calloc((size_t)n, sizeof *rows);
    if (!rows) {
        cc_fail(&err, CC_ERR_NOMEM, "cannot allocate the certificate");
        return cli_failed(&err);
    }
    int count = 0;
    if (engine_name) {
        /* One engine, or several separated by commas, each once. */
        char names[1024];
        snprintf(names, sizeof names, "%s", engine_name);
        char *save = NULL;
        for (char *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            const cc_engine *e = cli_find_engine(engines, name, &err);
            for (int i = 0; e && i < count; i++)
                if (rows[i].engine == e) {
                    cc_fail(&err, CC_ERR_ARG, "--engine names %s twice", name);
                    e = NULL;
                }
            if (!e || count == n) {
                if (e) cc_fail(&err, CC_ERR_ARG, "--engine names more engines than there are");
                free(rows);
                return cli_bad_usage(&cmd, &err);
            }
            rows[count++].engine = e;
        }
    } else {
        for (int i = 0; i < n; i++) rows[count++].engine = all[i];
    }

    /* Hardware asked for and absent is refused before any work, not reported as NOT RUN after
     * it: a machine whose GPU is gone must not pass a certify step. */
    for (int i = 0; i < count; i++) {
        const cc_engine *e = rows[i].engine;
        int required = cc_hardware_required(e->hardware);
        if (((engine_name && !absent_ok) || required) && cc_call_available(e, &err)) {
            if (cc_hardware_required(e->hardware))
                cc_prefix(&err, "%s not run here (CELLCHECK_REQUIRE names %s)", e->name,
                          cc_hardware_name(e->hardware));
            else
                cc_prefix(&err,
                          "%s not run here (asked for by --engine, needs %s; --absent-ok "
                          "certifies it as NOT RUN)",
                          e->name, cc_hardware_name(e->hardware));
            free(rows);
            return cli_failed(&err);
        }
    }

    if (!out_dir) out_dir = getenv("BUILD_WORKING_DIRECTORY"); /* bazel run */
    if (!out_dir) out_dir = ".";
    /* Checked before the campaign, not after it. */
    struct stat out_st;
    if (stat(out_dir, &out_st) != 0 || !S_ISDIR(out_st.st_mode) || access(out_dir, W_OK) != 0) {
        free(rows);
        cc_fail(&err, CC_ERR_ARG, "--out-dir %s is not a writable directory", out_dir);
        return cli_bad_usage(&cmd, &err);
    }
    /* The certificate pair and a shard's record: nothing in the way of their names either. */
    static const char *const pair[] = {"certificate.md", "certificate.json"};
    static const char *const shard_names[] = {"shard.txt"};
    if (cc_write_files_check(out_dir, "certificate", 2, pair, &err) ||
        (opt.shard_count > 1 && cc_write_files_check(out_dir, "shard", 1, shard_names, &err))) {
        free(rows);
        cc_prefix(&err, "--out-dir");
        return cli_bad_usage(&cmd, &err);
    }
    if (opt.report_dir &&
        (stat(opt.report_dir, &out_st) != 0 || !S_ISDIR(out_st.st_mode) ||
         access(opt.report_dir, W_OK) != 0)) {
        free(rows);
        cc_fail(&err, CC_ERR_ARG, "--report-dir %s is not a writable directory", opt.report_dir);
        return cli_bad_usage(&cmd, &err);
    }
    if (junit && check_report_path("--junit", junit, &err)) {
        free(rows);
        return cli_bad_usage(&cmd, &err);
    }
    char catalogue_path[4096];
    if (catalogue) {
        snprintf(catalogue_path, sizeof catalogue_path, "%s", catalogue);
    } else if (golden_default_catalogue(".", catalogue_path, sizeof catalogue_path, &err)) {
        free(rows);
        return cli_failed(&err);
    }
    golden_catalogue cat;
    if (golden_open(catalogue_path, &cat, stderr, &err)) {
        free(rows);
        cc_prefix(&err, "the golden catalogue (run from the repository root, or give --catalogue)");
        return cli_failed(&err);
    }

    /* Each plugin's hash, before its engines run: the file certified is the file hashed. */
    for (int i = 0; i < count; i++) {
        rows[i].plugin = cc_engine_set_origin(engines, rows[i].engine);
        if (rows[i].plugin && file_sha256(rows[i].plugin, rows[i].plugin_sha256, &err)) {
            free(rows);
            golden_free(&cat);
            return cli_failed(&err);
        }
    }
    for (int i = 0; i < count; i++) {
        cc_supervision_apply(rows[i].engine, &opt);
        /* Each engine is certified in a fresh worker: nothing of another engine's is left. */
        cc_supervisor *sv = cc_supervisor_of(rows[i].engine);
        if (sv) cc_supervisor_restart(sv);
        certify_engine(&rows[i], &opt, &cat);
        settle_gaps(&rows[i], accept);
    }
    provenance prov;
    provenance_init(&prov, rows, count, argc, argv, cat.dir);
    prov.shard_index = opt.shard_index;
    prov.shard_count = opt.shard_count;
    prov.merged = 0;
    prov.hosts[0] = '\0';
    golden_free(&cat);

    printf("\ncellcheck certificate (%s, %" PRIu64 " cases per engine)\n\n", prov.cpu_model,
           opt.cases);
    write_table(stdout, rows, count);
    int failed = 0, certified = 0, incomplete = 0;
    for (int i = 0; i < count; i++) {
        failed += rows[i].v == VERDICT_FAILED;
        certified += rows[i].v == VERDICT_CERTIFIED;
        incomplete += rows[i].v == VERDICT_INCOMPLETE;
    }
    int rc = write_certificates(out_dir, rows, count, &opt, &prov, &err);
    if (!rc && opt.shard_count > 1) rc = write_shard_record(out_dir, rows, count, &opt, &prov, &err);
    if (!rc && junit) rc = write_junit_file(junit, rows, count, &opt, &prov, &err);
    if (!rc) print_gaps(stdout, rows, count);
    free(rows);
    if (rc) return cli_failed(&err);
    printf("%d certified, %d failed, %d not run here, %d incomplete\n", certified, failed,
           count - certified - failed - incomplete, incomplete);
    return failed ? 1 : incomplete ? CLI_EXIT_INCOMPLETE : 0;
}
