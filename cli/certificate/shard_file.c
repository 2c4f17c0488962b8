/* Shard records and their merge (shard_record.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/shard_record.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* How a field is stored and how shards combine into a whole run's value. */
typedef enum { F_INT, F_I32, F_U32, F_I64, F_U64, F_SIZE, F_DOUBLE, F_TEXT } field_type;
typedef enum {
    M_SUM,   /* each shard ran its share: the whole run ran them all */
    M_MAX,   /* the largest over shards */
    M_OR,    /* bits any shard covered */
    M_SAME,  /* the same in every shard that says it (else the merge refuses) */
    M_FAILED /* from the shard whose failure a whole run meets first */
} merge_op;

typedef struct field {
    const char *key;
    field_type type;
    size_t offset, size;
    merge_op merge;
} field;

#define FIELD(key, type, member, merge)                                                          \
    {key, type, offsetof(cc_shard_engine, member), sizeof(((cc_shard_engine *)0)->member), merge}

static const field fields[] = {
    FIELD("plugin_sha256", F_TEXT, plugin_sha256, M_SAME),
    FIELD("verdict", F_INT, verdict, M_FAILED),
    FIELD("reason", F_TEXT, reason, M_FAILED),
    FIELD("edge_passed", F_INT, conf.edge_passed, M_SUM),
    FIELD("scale_passed", F_INT, conf.scale_passed, M_SUM),
    FIELD("tile_w", F_I32, conf.tile_w, M_SAME),
    FIELD("tile_h", F_I32, conf.tile_h, M_SAME),
    FIELD("devices", F_I32, conf.devices, M_SAME),
    FIELD("huge_passed", F_INT, conf.huge_passed, M_MAX),
    FIELD("huge_note", F_TEXT, conf.huge_note, M_SAME),
    FIELD("lightcone_cells", F_U64, conf.lightcone_cells, M_SUM),
    FIELD("seam_classes", F_U32, conf.seam_classes, M_OR),
    FIELD("round_trips", F_INT, conf.round_trips, M_SUM),
    FIELD("sequences", F_INT, conf.sequences, M_SUM),
    FIELD("timing_passed", F_INT, conf.timing_passed, M_SUM),
    FIELD("shapes_passed", F_INT, conf.shapes_passed, M_SUM),
    FIELD("seams_passed", F_INT, conf.seams_passed, M_SUM),
    FIELD("plane_passed", F_INT, conf.plane_passed, M_SUM),
    FIELD("step_counts", F_INT, conf.step_counts, M_SUM),
    FIELD("step_counts_blind", F_INT, conf.step_counts_blind, M_SUM),
    FIELD("step_counts_max", F_I64, conf.step_counts_max, M_MAX),
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
#define NFIELDS (sizeof fields / sizeof fields[0])

/* Per section: run, passed, failed, seconds. */
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

static void put_value(FILE *f, const void *base, const field *fd) {
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

void cc_shard_write(FILE *f, const cc_shard_record *r) {
    fprintf(f, "cellcheck-shard 1\n");
    put_line(f, "version", r->version);
    put_line(f, "commit", r->commit);
    put_line(f, "compiler", r->compiler);
    put_line(f, "mode", r->mode);
    put_line(f, "flags", r->flags);
    put_line(f, "seed", r->seed);
    fprintf(f, "cases %" PRIu64 "\nshard %" PRIu32 " %" PRIu32 "\n", r->cases, r->index,
            r->count);
    put_line(f, "host", r->host);
    put_line(f, "cpu", r->cpu);
    put_line(f, "gpu", r->gpu);
    put_line(f, "golden", r->golden);
    for (int i = 0; i < r->engines; i++) {
        const cc_shard_engine *e = &r->engine[i];
        put_line(f, "engine", e->name);
        for (size_t k = 0; k < NFIELDS; k++) {
            fprintf(f, "%s ", fields[k].key);
            put_value(f, e, &fields[k]);
            fputc('\n', f);
        }
        for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
            const cc_section_tally *t = &e->conf.sections[s];
            fprintf(f, SECTION_KEY " %d %d %d %d %.17g\n", s, t->run, t->passed, t->failed,
                    t->seconds);
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

static int get_value(const char *v, void *base, const field *fd) {
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

void cc_shard_free(cc_shard_record *r) {
    free(r->engine);
    memset(r, 0, sizeof *r);
}

static int header_text(const char *key, const char *value, cc_shard_record *r) {
    struct {
        const char *key;
        char *dest;
        size_t size;
    } texts[] = {{"version", r->version, sizeof r->version},
                 {"commit", r->commit, sizeof r->commit},
                 {"compiler", r->compiler, sizeof r->compiler},
                 {"mode", r->mode, sizeof r->mode},
                 {"flags", r->flags, sizeof r->flags},
                 {"seed", r->seed, sizeof r->seed},
                 {"host", r->host, sizeof r->host},
                 {"cpu", r->cpu, sizeof r->cpu},
                 {"gpu", r->gpu, sizeof r->gpu},
                 {"golden", r->golden, sizeof r->golden}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (!strcmp(key, texts[i].key)) return get_text(value, texts[i].dest, texts[i].size) ? 1 : -1;
    return 0;
}

static int parse_line(char *line, cc_shard_record *r, cc_shard_engine **cur, int *seen_magic) {
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
            double seconds;
            char extra;
            if (sscanf(value, "%d %d %d %d %lf %c", &s, &run, &passed, &failed, &seconds,
                       &extra) != 5 ||
                s < 0 || s >= CC_CHECK_SECTION_COUNT)
                return 0;
            cc_section_tally *t = &(*cur)->conf.sections[s];
            t->run = run;
            t->passed = passed;
            t->failed = failed;
            t->seconds = seconds;
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
        for (size_t k = 0; k < NFIELDS; k++)
            if (!strcmp(key, fields[k].key)) return get_value(value, *cur, &fields[k]);
        return 0;
    }
    if (!strcmp(key, "engine")) {
        cc_shard_engine *more = realloc(r->engine, (size_t)(r->engines + 1) * sizeof *more);
        if (!more) return 0;
        r->engine = more;
        *cur = &r->engine[r->engines++];
        memset(*cur, 0, sizeof **cur);
        return get_text(value, (*cur)->name, sizeof (*cur)->name);
    }
    if (!strcmp(key, "cases")) {
        char *end;
        r->cases = strtoull(value, &end, 10);
        return *value && !*end;
    }
    if (!strcmp(key, "shard")) {
        char extra;
        return sscanf(value, "%" SCNu32 " %" SCNu32 " %c", &r->index, &r->count, &extra) == 2;
    }
    return header_text(key, value, r) > 0;
}

int cc_shard_read(const char *path, cc_shard_record *r, cc_error *err) {
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    if (!f) return cc_fail(err, CC_ERR_IO, "cannot read the shard record %s", path);
    char *line = NULL;
    size_t cap = 0;
    int number = 0, magic = 0, rc = CC_OK;
    cc_shard_engine *cur = NULL;
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
    if (rc == CC_OK && (!magic || cur || r->count < 1 || r->index >= r->count))
        rc = cc_fail(err, CC_ERR_ARG, "%s is not a whole cellcheck shard record%s", path,
                     cur ? " (an engine's block has no end)" : "");
    if (rc) cc_shard_free(r);
    return rc;
}

/* The key that orders failures as a whole run meets them: every section before the campaign,
 * in check order; then the campaign, in case order. */
static void failure_key(const cc_shard_engine *e, int *phase, int64_t *at) {
    const cc_conformance_summary *c = &e->conf;
    if (c->first_index >= 0) {
        *phase = 1;
        *at = c->first_index;
    } else if (c->failed > 0) {
        *phase = 0;
        *at = c->first_ordinal;
    } else {
        *phase = 2; /* no conformance failure: goldens, or an error */
        *at = 0;
    }
}

static int same_header(const cc_shard_record *a, const cc_shard_record *b, const char **what) {
    struct {
        const char *name, *x, *y;
    } texts[] = {{"version", a->version, b->version}, {"commit", a->commit, b->commit},
                 {"compiler", a->compiler, b->compiler}, {"build mode", a->mode, b->mode},
                 {"build flags", a->flags, b->flags}, {"master seed", a->seed, b->seed},
                 {"goldens", a->golden, b->golden}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(texts[i].x, texts[i].y)) {
            *what = texts[i].name;
            return 0;
        }
    if (a->cases != b->cases) *what = "case count";
    else if (a->count != b->count) *what = "shard count";
    else if (a->engines != b->engines) *what = "engines";
    else *what = NULL;
    if (*what) return 0;
    for (int i = 0; i < a->engines; i++)
        if (strcmp(a->engine[i].name, b->engine[i].name) ||
            strcmp(a->engine[i].plugin_sha256, b->engine[i].plugin_sha256)) {
            *what = "engines";
            return 0;
        }
    return 1;
}

/* Whether a shard states an M_SAME value: 0 and "" say nothing (the value is not its to tell). */
static int field_stated(const field *fd, const char *v) {
    for (size_t i = 0; i < (fd->type == F_TEXT ? 1 : fd->size); i++)
        if (v[i]) return 1;
    return 0;
}

/* Every M_SAME value the same in each shard that states it: shards certified with another device
 * count, say, are of another run. The first difference, named, in err. */
static int same_values(const cc_shard_record *shards, const char *const *names, int n,
                       cc_error *err) {
    for (int e = 0; e < shards[0].engines; e++)
        for (size_t k = 0; k < NFIELDS; k++) {
            const field *fd = &fields[k];
            if (fd->merge != M_SAME) continue;
            int stated = -1;
            for (int i = 0; i < n; i++) {
                const char *v = (const char *)&shards[i].engine[e] + fd->offset;
                if (!field_stated(fd, v)) continue;
                if (stated < 0) {
                    stated = i;
                    continue;
                }
                const char *w = (const char *)&shards[stated].engine[e] + fd->offset;
                if (fd->type == F_TEXT ? strcmp(v, w) != 0 : memcmp(v, w, fd->size) != 0) {
                    char values[64] = "";
                    if (fd->type == F_I32)
                        snprintf(values, sizeof values, " (%d against %d)", *(const int32_t *)v,
                                 *(const int32_t *)w);
                    return cc_fail(err, CC_ERR_ARG,
                                   "merge: %s is a shard of another run: %s's %s differs from "
                                   "%s's%s",
                                   names[i], shards[i].engine[e].name, fd->key, names[stated],
                                   values);
                }
            }
        }
    return CC_OK;
}

static void merge_engine(cc_shard_engine *out, const cc_shard_engine *in, int n) {
    /* The shard whose failure a whole run meets first; none failed: the first. */
    int chosen = -1, best_phase = 3;
    int64_t best_at = 0;
    int failed = 0, not_run = 0;
    for (int i = 0; i < n; i++) {
        failed += in[i].verdict == CC_SHARD_FAILED;
        not_run += in[i].verdict == CC_SHARD_NOT_RUN;
        if (in[i].verdict != CC_SHARD_FAILED) continue;
        int phase;
        int64_t at;
        failure_key(&in[i], &phase, &at);
        if (chosen < 0 || phase < best_phase || (phase == best_phase && at < best_at)) {
            chosen = i;
            best_phase = phase;
            best_at = at;
        }
    }
    const cc_shard_engine *from = chosen >= 0 ? &in[chosen] : &in[0];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", in[0].name);
    for (size_t k = 0; k < NFIELDS; k++) {
        const field *fd = &fields[k];
        char *dst = (char *)out + fd->offset;
        for (int i = 0; i < n; i++) {
            const char *src = (const char *)&in[i] + fd->offset;
            switch (fd->merge) {
            case M_FAILED:
                if (&in[i] == from) memcpy(dst, src, fd->size);
                break;
            case M_SAME:
                if (fd->type == F_TEXT ? !dst[0] && src[0]
                                       : memcmp(dst, (const char[16]){0}, fd->size) == 0)
                    memcpy(dst, src, fd->size);
                break;
            case M_OR: *(uint32_t *)dst |= *(const uint32_t *)src; break;
            case M_MAX:
                if (fd->type == F_INT && *(const int *)src > *(int *)dst)
                    *(int *)dst = *(const int *)src;
                if (fd->type == F_I64 && *(const int64_t *)src > *(int64_t *)dst)
                    *(int64_t *)dst = *(const int64_t *)src;
                break;
            case M_SUM:
                switch (fd->type) {
                case F_INT: *(int *)dst += *(const int *)src; break;
                case F_U64: *(uint64_t *)dst += *(const uint64_t *)src; break;
                case F_SIZE: *(size_t *)dst += *(const size_t *)src; break;
                case F_DOUBLE: *(double *)dst += *(const double *)src; break;
                default: break;
                }
                break;
            }
        }
    }
    for (int i = 0; i < n; i++) cc_gap_list_merge(&out->conf.gaps, &in[i].conf.gaps);
    if (failed == 0 && not_run == 0)
        out->verdict = cc_gap_list_open(&out->conf.gaps) ? CC_SHARD_INCOMPLETE : CC_SHARD_CERTIFIED;
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++)
        for (int i = 0; i < n; i++) {
            const cc_section_tally *t = &in[i].conf.sections[s];
            cc_section_tally *o = &out->conf.sections[s];
            o->run |= t->run;
            o->passed += t->passed;
            o->failed += t->failed;
            o->seconds += t->seconds;
            cc_coverage_merge(&o->cov, &t->cov);
        }
    /* A shard that could not run it (its hardware absent there) leaves the engine unchecked. */
    if (failed == 0 && not_run > 0) {
        out->verdict = not_run == n ? CC_SHARD_NOT_RUN : CC_SHARD_FAILED;
        if (not_run < n)
            snprintf(out->reason, sizeof out->reason,
                     "%d of %d shards could not run it (its hardware absent there): %.500s",
                     not_run, n, in[0].verdict == CC_SHARD_NOT_RUN ? in[0].reason : "");
    }
}

int cc_shards_merge(const cc_shard_record *shards, const char *const *names, int n,
                    cc_shard_record *out, cc_error *err) {
    memset(out, 0, sizeof *out);
    if (n < 1) return cc_fail(err, CC_ERR_ARG, "merge: no shards");
    const cc_shard_record *first = &shards[0];
    const uint32_t count = first->count;
    int *at = calloc(count, sizeof *at);
    cc_shard_engine *column = calloc((size_t)n, sizeof *column);
    if (!at || !column) {
        free(at);
        free(column);
        return cc_fail(err, CC_ERR_NOMEM, "merge: out of memory");
    }
    int rc = CC_OK;
    for (int i = 0; i < n && rc == CC_OK; i++) {
        const char *what;
        if (!same_header(first, &shards[i], &what))
            rc = cc_fail(err, CC_ERR_ARG,
                         "merge: %s is a shard of another run: its %s differs from %s's", names[i],
                         what, names[0]);
        else if (at[shards[i].index]++)
            rc = cc_fail(err, CC_ERR_ARG, "merge: shard %u of %u is given twice (%s)",
                         (unsigned)shards[i].index, (unsigned)count, names[i]);
    }
    for (uint32_t k = 0; k < count && rc == CC_OK; k++)
        if (!at[k])
            rc = cc_fail(err, CC_ERR_ARG, "merge: shard %u of %u is missing (%d given)",
                         (unsigned)k, (unsigned)count, n);
    if (rc == CC_OK) rc = same_values(shards, names, n, err);
    if (rc == CC_OK) {
        *out = *first;
        out->index = 0;
        out->count = 1;
        out->engine = calloc((size_t)first->engines ? (size_t)first->engines : 1, sizeof *out->engine);
        if (!out->engine) rc = cc_fail(err, CC_ERR_NOMEM, "merge: out of memory");
        for (int e = 0; e < first->engines && rc == CC_OK; e++) {
            for (int i = 0; i < n; i++) column[i] = shards[i].engine[e];
            merge_engine(&out->engine[e], column, n);
        }
        if (rc) out->engines = 0;
    }
    free(at);
    free(column);
    return rc;
}
