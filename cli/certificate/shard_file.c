/* Shard files: a certificate record written and read back (shard.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/certificate/shard.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/certificate/shard_fields.h"

#define FIELD(key, type, member, merge)                                                          \
    {key,                                                                                        \
     type,                                                                                       \
     offsetof(cc_certificate_engine, member),                                                    \
     sizeof(((cc_certificate_engine *)0)->member),                                               \
     merge}

const cc_shard_field cc_shard_fields[] = {
    FIELD("plugin_sha256", F_TEXT, plugin_sha256, M_SAME),
    FIELD("source_name", F_TEXT, source.name, M_SAME),
    FIELD("source_version", F_TEXT, source.version, M_SAME),
    FIELD("source_commit", F_TEXT, source.commit, M_SAME),
    FIELD("source_flags", F_TEXT, source.flags, M_SAME),
    FIELD("source_build", F_TEXT, source.build, M_SAME),
    FIELD("verdict", F_INT, verdict, M_FAILED),
    FIELD("reason", F_TEXT, reason, M_FAILED),
    FIELD("edge_passed", F_INT, conf.edge_passed, M_SUM),
    FIELD("scale_passed", F_INT, conf.scale_passed, M_SUM),
    FIELD("tile_w", F_I32, conf.tile_w, M_SAME),
    FIELD("tile_h", F_I32, conf.tile_h, M_SAME),
    FIELD("devices", F_I32, conf.devices, M_SAME),
    FIELD("ranks", F_I32, conf.ranks, M_SAME),
    FIELD("huge_passed", F_INT, conf.huge_passed, M_MAX),
    FIELD("huge_note", F_TEXT, conf.huge_note, M_SAME),
    FIELD("lightcone_cells", F_U64, conf.lightcone_cells, M_SUM),
    FIELD("seam_classes", F_U32, conf.seam_classes, M_OR),
    FIELD("round_trips", F_INT, conf.round_trips, M_SUM),
    FIELD("sequences", F_INT, conf.sequences, M_SUM),
    FIELD("transitions_0", F_U32, conf.transitions.bits[0], M_OR),
    FIELD("transitions_1", F_U32, conf.transitions.bits[1], M_OR),
    FIELD("transitions_2", F_U32, conf.transitions.bits[2], M_OR),
    FIELD("transitions_3", F_U32, conf.transitions.bits[3], M_OR),
    FIELD("timing_passed", F_INT, conf.timing_passed, M_SUM),
    FIELD("shapes_passed", F_INT, conf.shapes_passed, M_SUM),
    FIELD("seams_passed", F_INT, conf.seams_passed, M_SUM),
    FIELD("plane_passed", F_INT, conf.plane_passed, M_SUM),
    FIELD("step_counts", F_INT, conf.step_counts, M_SUM),
    FIELD("step_counts_blind", F_INT, conf.step_counts_blind, M_SUM),
    FIELD("step_counts_max", F_I64, conf.step_counts_max, M_MAX),
    FIELD("step_counts_long", F_INT, conf.step_counts_long, M_SUM),
    FIELD("step_counts_running", F_INT, conf.step_counts_running, M_SUM),
    FIELD("refusals", F_INT, conf.refusals, M_SUM),
    FIELD("failed", F_INT, conf.failed, M_SUM),
    FIELD("infra_errors", F_INT, conf.infra_errors, M_SUM),
    FIELD("first_kind", F_INT, conf.first_kind, M_FAILED),
    FIELD("first_failure", F_TEXT, conf.first_failure, M_FAILED),
    FIELD("first_section", F_INT, conf.first_section, M_FAILED),
    FIELD("first_case", F_TEXT, conf.first_case, M_FAILED),
    FIELD("first_calls", F_TEXT, conf.first_calls, M_FAILED),
    FIELD("first_index", F_I64, conf.first_index, M_FAILED),
    FIELD("first_ordinal", F_I64, conf.first_ordinal, M_FAILED),
    FIELD("first_reproducer", F_TEXT, conf.first_reproducer, M_FAILED),
    FIELD("stopped", F_INT, conf.stopped, M_FAILED),
    FIELD("passed", F_INT, conf.passed, M_FAILED),
    FIELD("campaign_run", F_U64, conf.campaign.run, M_SUM),
    FIELD("campaign_passed", F_U64, conf.campaign.passed, M_SUM),
    FIELD("campaign_refused", F_U64, conf.campaign.refused, M_SUM),
    FIELD("campaign_failed", F_U64, conf.campaign.failed, M_SUM),
    FIELD("campaign_has_failure", F_INT, conf.campaign.has_failure, M_FAILED),
    FIELD("campaign_first_failure", F_U64, conf.campaign.first_failure, M_FAILED),
    FIELD("golden_checked", F_SIZE, golden.checked, M_SUM),
    FIELD("golden_passed", F_SIZE, golden.passed, M_SUM),
    FIELD("golden_failed", F_SIZE, golden.failed, M_SUM),
    FIELD("golden_unsupported", F_SIZE, golden.unsupported, M_SUM),
    FIELD("golden_first_case", F_TEXT, golden.first_case, M_FAILED),
    FIELD("golden_first_detail", F_TEXT, golden.first_detail, M_FAILED),
    FIELD("golden_seconds", F_DOUBLE, golden_seconds, M_SUM),
    FIELD("seconds", F_DOUBLE, seconds, M_SUM),
};
const size_t cc_shard_field_count = sizeof cc_shard_fields / sizeof cc_shard_fields[0];

/* Per section: run, passed, failed, seconds, and of the seconds the oracle's, the engine's, the
 * exchange's, drawing's and shrinking's (a record without the five reads them as 0). */
#define SECTION_KEY "section"
/* Per section that checked a case: section, then its cc_coverage's fields in order. */
#define COVERAGE_KEY "coverage"
/* Per gap: section, kind, count, accepted, then the reason (escaped) to the end of the line. */
#define GAP_KEY "gap"

static void put_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '\n') fputs("\\n", f);
        else if (*s == '\t') fputs("\\t", f);
        else if (*s == '\\') fputs("\\\\", f);
        else fputc(*s, f);
    }
}

static void put_value(FILE *f, const void *base, const cc_shard_field *fd) {
    const char *p = (const char *)base + fd->offset;
    switch (fd->type) {
    case F_INT: fprintf(f, "%d", *(const int *)p); break;
    case F_I32: fprintf(f, "%" PRId32, *(const int32_t *)p); break;
    case F_U32: fprintf(f, "%" PRIu32, *(const uint32_t *)p); break;
    case F_I64: fprintf(f, "%" PRId64, *(const int64_t *)p); break;
    case F_U64: fprintf(f, "%" PRIu64, *(const uint64_t *)p); break;
    case F_SIZE: fprintf(f, "%zu", *(const size_t *)p); break;
    case F_DOUBLE: fprintf(f, "%.17g", *(const double *)p); break;
    case F_TEXT: put_text(f, p); break;
    }
}

static void put_line(FILE *f, const char *key, const char *text) {
    fprintf(f, "%s ", key);
    put_text(f, text);
    fputc('\n', f);
}

void cc_shard_write(FILE *f, const cc_certificate *r) {
    fprintf(f, "cellcheck-shard 1\n");
    put_line(f, "version", r->prov.build.version);
    put_line(f, "commit", r->prov.build.commit);
    put_line(f, "compiler", r->prov.build.compiler);
    put_line(f, "mode", r->prov.build.mode);
    put_line(f, "flags", r->prov.build.flags);
    put_line(f, "seed", r->prov.seed);
    fprintf(f, "cases %" PRIu64 "\nshard %" PRIu32 " %" PRIu32 "\n", r->prov.cases,
            r->prov.shard_index, r->prov.shard_count);
    put_line(f, "host", r->prov.host);
    put_line(f, "cpu", r->prov.cpu_model);
    put_line(f, "cpu_vendor", r->prov.cpu_vendor);
    fprintf(f, "cpus %ld %d %d %d\n", r->prov.cpu_logical, r->prov.cpu_family,
            r->prov.cpu_model_number, r->prov.cpu_stepping);
    put_line(f, "gpu", r->prov.gpu);
    put_line(f, "golden", r->prov.golden_generation);
    put_line(f, "sandbox", r->prov.sandbox);
    for (int i = 0; i < r->engines; i++) {
        const cc_certificate_engine *e = &r->engine[i];
        put_line(f, "engine", e->name);
        for (size_t k = 0; k < cc_shard_field_count; k++) {
            fprintf(f, "%s ", cc_shard_fields[k].key);
            put_value(f, e, &cc_shard_fields[k]);
            fputc('\n', f);
        }
        for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
            const cc_section_tally *t = &e->conf.sections[s];
            fprintf(f, SECTION_KEY " %d %d %d %d %.17g %.17g %.17g %.17g %.17g %.17g\n", s,
                    t->run, t->passed, t->failed, t->seconds, t->oracle_seconds,
                    t->engine_seconds, t->exchange_seconds, t->draw_seconds, t->shrink_seconds);
            const cc_coverage *v = &t->cov;
            if (v->cases)
                fprintf(f, COVERAGE_KEY " %d %d %u %u %u %d %d %llu %d %lld %.17g %d\n", s,
                        v->cases, v->shapes, v->centres, v->topologies, (int)v->radius_min,
                        (int)v->radius_max, (unsigned long long)v->teams, v->default_team,
                        (long long)v->steps_max, v->cells_max, (int)v->side_max);
        }
        const cc_gap_list *gaps = &e->conf.gaps;
        for (int g = 0; g < gaps->n; g++) {
            fprintf(f, GAP_KEY " %d %d %d %d ", gaps->gaps[g].section, gaps->gaps[g].kind,
                    gaps->gaps[g].count, gaps->gaps[g].accepted);
            put_text(f, gaps->gaps[g].reason);
            fputc('\n', f);
        }
        if (gaps->dropped) fprintf(f, GAP_KEY "s_dropped %d\n", gaps->dropped);
        fprintf(f, "end\n");
    }
}

/* Undoes put_text into buf (size bytes); 0 when it does not fit or an escape is unknown. */
static int get_text(const char *s, char *buf, size_t size) {
    size_t n = 0;
    for (; *s; s++) {
        char c = *s;
        if (c == '\\') {
            c = *++s;
            if (c == 'n') c = '\n';
            else if (c == 't') c = '\t';
            else if (c != '\\') return 0;
        }
        if (n + 1 >= size) return 0;
        buf[n++] = c;
    }
    buf[n] = '\0';
    return 1;
}

static int get_value(const char *v, void *base, const cc_shard_field *fd) {
    char *p = (char *)base + fd->offset, *end = NULL;
    if (fd->type == F_TEXT) return get_text(v, p, fd->size);
    if (!*v) return 0;
    switch (fd->type) {
    case F_INT: *(int *)p = (int)strtol(v, &end, 10); break;
    case F_I32: *(int32_t *)p = (int32_t)strtol(v, &end, 10); break;
    case F_U32: *(uint32_t *)p = (uint32_t)strtoul(v, &end, 10); break;
    case F_I64: *(int64_t *)p = (int64_t)strtoll(v, &end, 10); break;
    case F_U64: *(uint64_t *)p = (uint64_t)strtoull(v, &end, 10); break;
    case F_SIZE: *(size_t *)p = (size_t)strtoull(v, &end, 10); break;
    case F_DOUBLE: *(double *)p = strtod(v, &end); break;
    case F_TEXT: break;
    }
    return end && !*end;
}

static int header_text(const char *key, const char *value, cc_certificate *r) {
    struct {
        const char *key;
        char *dest;
        size_t size;
    } texts[] = {{"version", r->prov.build.version, sizeof r->prov.build.version},
                 {"commit", r->prov.build.commit, sizeof r->prov.build.commit},
                 {"compiler", r->prov.build.compiler, sizeof r->prov.build.compiler},
                 {"mode", r->prov.build.mode, sizeof r->prov.build.mode},
                 {"flags", r->prov.build.flags, sizeof r->prov.build.flags},
                 {"seed", r->prov.seed, sizeof r->prov.seed},
                 {"host", r->prov.host, sizeof r->prov.host},
                 {"cpu", r->prov.cpu_model, sizeof r->prov.cpu_model},
                 {"cpu_vendor", r->prov.cpu_vendor, sizeof r->prov.cpu_vendor},
                 {"gpu", r->prov.gpu, sizeof r->prov.gpu},
                 {"golden", r->prov.golden_generation, sizeof r->prov.golden_generation},
                 {"sandbox", r->prov.sandbox, sizeof r->prov.sandbox}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (!strcmp(key, texts[i].key))
            return get_text(value, texts[i].dest, texts[i].size) ? 1 : -1;
    return 0;
}

static int parse_line(char *line, cc_certificate *r, cc_certificate_engine **cur, int *seen_magic) {
    size_t len = strlen(line);
    if (len && line[len - 1] == '\n') line[--len] = '\0';
    char *space = strchr(line, ' ');
    const char *key = line, *value = "";
    if (space) {
        *space = '\0';
        value = space + 1;
    }
    if (!*seen_magic) return (*seen_magic = !strcmp(key, "cellcheck-shard") && !strcmp(value, "1"));
    if (*cur) {
        if (!strcmp(key, "end")) {
            *cur = NULL;
            return 1;
        }
        if (!strcmp(key, SECTION_KEY)) {
            int s, run, passed, failed;
            double seconds, part[5] = {0};
            char extra;
            const int n = sscanf(value, "%d %d %d %d %lf %lf %lf %lf %lf %lf %c", &s, &run,
                                 &passed, &failed, &seconds, &part[0], &part[1], &part[2],
                                 &part[3], &part[4], &extra);
            if ((n != 5 && n != 10) || s < 0 || s >= CC_CHECK_SECTION_COUNT) return 0;
            cc_section_tally *t = &(*cur)->conf.sections[s];
            t->run = run;
            t->passed = passed;
            t->failed = failed;
            t->seconds = seconds;
            t->oracle_seconds = part[0];
            t->engine_seconds = part[1];
            t->exchange_seconds = part[2];
            t->draw_seconds = part[3];
            t->shrink_seconds = part[4];
            return 1;
        }
        if (!strcmp(key, COVERAGE_KEY)) {
            int s, radius_min, radius_max, side_max;
            unsigned long long teams;
            long long steps_max;
            cc_coverage v = {0};
            char extra;
            if (sscanf(value, "%d %d %u %u %u %d %d %llu %d %lld %lf %d %c", &s, &v.cases,
                       &v.shapes, &v.centres, &v.topologies, &radius_min, &radius_max, &teams,
                       &v.default_team, &steps_max, &v.cells_max, &side_max, &extra) != 12 ||
                s < 0 || s >= CC_CHECK_SECTION_COUNT)
                return 0;
            v.radius_min = radius_min;
            v.radius_max = radius_max;
            v.teams = teams;
            v.steps_max = steps_max;
            v.side_max = side_max;
            (*cur)->conf.sections[s].cov = v;
            return 1;
        }
        if (!strcmp(key, GAP_KEY)) {
            cc_gap g = {0};
            int used = 0;
            cc_gap_list *gaps = &(*cur)->conf.gaps;
            if (sscanf(value, "%d %d %d %d %n", &g.section, &g.kind, &g.count, &g.accepted,
                       &used) != 4 ||
                g.section < 0 || g.section >= CC_CHECK_SECTION_COUNT || g.kind < 0 ||
                g.kind >= CC_GAP_KIND_COUNT || g.count < 1 || gaps->n == CC_GAPS_MAX ||
                !get_text(value + used, g.reason, sizeof g.reason))
                return 0;
            gaps->gaps[gaps->n++] = g;
            return 1;
        }
        if (!strcmp(key, GAP_KEY "s_dropped"))
            return sscanf(value, "%d", &(*cur)->conf.gaps.dropped) == 1;
        for (size_t k = 0; k < cc_shard_field_count; k++)
            if (!strcmp(key, cc_shard_fields[k].key))
                return get_value(value, *cur, &cc_shard_fields[k]);
        return 0;
    }
    if (!strcmp(key, "engine")) {
        cc_certificate_engine *more = realloc(r->engine, (size_t)(r->engines + 1) * sizeof *more);
        if (!more) return 0;
        r->engine = more;
        *cur = &r->engine[r->engines++];
        memset(*cur, 0, sizeof **cur);
        return get_text(value, (*cur)->name, sizeof (*cur)->name);
    }
    if (!strcmp(key, "cases")) {
        char *end;
        r->prov.cases = strtoull(value, &end, 10);
        return *value && !*end;
    }
    if (!strcmp(key, "cpus")) {
        char extra;
        return sscanf(value, "%ld %d %d %d %c", &r->prov.cpu_logical, &r->prov.cpu_family,
                      &r->prov.cpu_model_number, &r->prov.cpu_stepping, &extra) == 4;
    }
    if (!strcmp(key, "shard")) {
        char extra;
        return sscanf(value, "%" SCNu32 " %" SCNu32 " %c", &r->prov.shard_index,
                      &r->prov.shard_count, &extra) == 2;
    }
    return header_text(key, value, r) > 0;
}

int cc_shard_read(const char *path, cc_certificate *r, cc_error *err) {
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    if (!f) return cc_fail(err, CC_ERR_IO, "cannot read the shard record %s", path);
    char *line = NULL;
    size_t cap = 0;
    int number = 0, magic = 0, rc = CC_OK;
    cc_certificate_engine *cur = NULL;
    while (getline(&line, &cap, f) >= 0) {
        number++;
        if (!parse_line(line, r, &cur, &magic)) {
            rc = cc_fail(err, CC_ERR_ARG, "%s:%d is not a line of a cellcheck shard record",
                         path, number);
            break;
        }
    }
    free(line);
    fclose(f);
    if (rc == CC_OK &&
        (!magic || cur || r->prov.shard_count < 1 || r->prov.shard_index >= r->prov.shard_count))
        rc = cc_fail(err, CC_ERR_ARG, "%s is not a whole cellcheck shard record%s", path,
                     cur ? " (an engine's block has no end)" : "");
    if (rc) cc_certificate_free(r);
    return rc;
}

