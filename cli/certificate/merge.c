/* The merge of shard records into one certificate record (shard.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/certificate/shard.h"
#include "cli/certificate/shard_fields.h"

/* The key that orders failures as a whole run meets them: every section before the campaign,
 * in check order; then the campaign, in case order. */
static void failure_key(const cc_certificate_engine *e, int *phase, int64_t *at) {
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

static int same_header(const cc_certificate *a, const cc_certificate *b, const char **what) {
    struct {
        const char *name, *x, *y;
    } texts[] = {{"version", a->prov.build.version, b->prov.build.version},
                 {"commit", a->prov.build.commit, b->prov.build.commit},
                 {"compiler", a->prov.build.compiler, b->prov.build.compiler},
                 {"build mode", a->prov.build.mode, b->prov.build.mode},
                 {"build flags", a->prov.build.flags, b->prov.build.flags},
                 {"master seed", a->prov.seed, b->prov.seed},
                 {"goldens", a->prov.golden_generation, b->prov.golden_generation}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(texts[i].x, texts[i].y)) {
            *what = texts[i].name;
            return 0;
        }
    if (a->prov.cases != b->prov.cases) *what = "case count";
    else if (a->prov.shard_count != b->prov.shard_count) *what = "shard count";
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
static int field_stated(const cc_shard_field *fd, const char *v) {
    for (size_t i = 0; i < (fd->type == F_TEXT ? 1 : fd->size); i++)
        if (v[i]) return 1;
    return 0;
}

/* Every M_SAME value the same in each shard that states it: shards certified with another device
 * count, say, are of another run. The first difference, named, in err. */
static int same_values(const cc_certificate *shards, const char *const *names, int n,
                       cc_error *err) {
    for (int e = 0; e < shards[0].engines; e++)
        for (size_t k = 0; k < cc_shard_field_count; k++) {
            const cc_shard_field *fd = &cc_shard_fields[k];
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

static void merge_engine(cc_certificate_engine *out, const cc_certificate_engine *in, int n) {
    /* The shard whose failure a whole run meets first; none failed: the first. */
    int chosen = -1, best_phase = 3;
    int64_t best_at = 0;
    int failed = 0, not_run = 0;
    for (int i = 0; i < n; i++) {
        failed += in[i].verdict == CC_VERDICT_FAILED;
        not_run += in[i].verdict == CC_VERDICT_NOT_RUN;
        if (in[i].verdict != CC_VERDICT_FAILED) continue;
        int phase;
        int64_t at;
        failure_key(&in[i], &phase, &at);
        if (chosen < 0 || phase < best_phase || (phase == best_phase && at < best_at)) {
            chosen = i;
            best_phase = phase;
            best_at = at;
        }
    }
    const cc_certificate_engine *from = chosen >= 0 ? &in[chosen] : &in[0];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", in[0].name);
    for (size_t k = 0; k < cc_shard_field_count; k++) {
        const cc_shard_field *fd = &cc_shard_fields[k];
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
        out->verdict =
            cc_gap_list_open(&out->conf.gaps) ? CC_VERDICT_INCOMPLETE : CC_VERDICT_CERTIFIED;
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++)
        for (int i = 0; i < n; i++) {
            const cc_section_tally *t = &in[i].conf.sections[s];
            cc_section_tally *o = &out->conf.sections[s];
            o->run |= t->run;
            o->passed += t->passed;
            o->failed += t->failed;
            o->seconds += t->seconds;
            o->oracle_seconds += t->oracle_seconds;
            o->engine_seconds += t->engine_seconds;
            o->exchange_seconds += t->exchange_seconds;
            o->draw_seconds += t->draw_seconds;
            o->shrink_seconds += t->shrink_seconds;
            cc_coverage_merge(&o->cov, &t->cov);
        }
    /* A shard that could not run it (its hardware absent there) leaves the engine unchecked. */
    if (failed == 0 && not_run > 0) {
        out->verdict = not_run == n ? CC_VERDICT_NOT_RUN : CC_VERDICT_FAILED;
        if (not_run < n)
            snprintf(out->reason, sizeof out->reason,
                     "%d of %d shards could not run it (its hardware absent there): %.500s",
                     not_run, n, in[0].verdict == CC_VERDICT_NOT_RUN ? in[0].reason : "");
    }
}

/* Where the shards ran: their hosts, the first GPU one names, their CPU if they share one. */
static void merge_provenance(cc_provenance *p, const cc_certificate *shards, int n) {
    p->shard_index = 0;
    p->shard_count = 1;
    p->merged = n;
    p->gpu[0] = p->hosts[0] = '\0';
    for (int i = 0; i < n; i++) {
        const cc_provenance *s = &shards[i].prov;
        if (!p->gpu[0] && s->gpu[0]) snprintf(p->gpu, sizeof p->gpu, "%s", s->gpu);
        if (strcmp(s->cpu_model, shards[0].prov.cpu_model) ||
            strcmp(s->cpu_vendor, shards[0].prov.cpu_vendor) ||
            s->cpu_logical != shards[0].prov.cpu_logical) {
            snprintf(p->cpu_model, sizeof p->cpu_model, "several (see the shards)");
            p->cpu_vendor[0] = '\0';
            p->cpu_logical = 0; /* not one count: none is told */
        }
        if (strcmp(s->sandbox, shards[0].prov.sandbox))
            snprintf(p->sandbox, sizeof p->sandbox,
                     "not the same in every shard (see the shards; each part missing in one is "
                     "its gap)");
        size_t used = strlen(p->hosts);
        if (!strstr(p->hosts, s->host) && used < sizeof p->hosts)
            snprintf(p->hosts + used, sizeof p->hosts - used, "%s%s", used ? ", " : "", s->host);
    }
}

int cc_shards_merge(const cc_certificate *shards, const char *const *names, int n,
                    cc_certificate *out, cc_error *err) {
    memset(out, 0, sizeof *out);
    if (n < 1) return cc_fail(err, CC_ERR_ARG, "merge: no shards");
    const cc_certificate *first = &shards[0];
    const uint32_t count = first->prov.shard_count;
    int *at = calloc(count, sizeof *at);
    cc_certificate_engine *column = calloc((size_t)n, sizeof *column);
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
        else if (at[shards[i].prov.shard_index]++)
            rc = cc_fail(err, CC_ERR_ARG, "merge: shard %u of %u is given twice (%s)",
                         (unsigned)shards[i].prov.shard_index, (unsigned)count, names[i]);
    }
    for (uint32_t k = 0; k < count && rc == CC_OK; k++)
        if (!at[k])
            rc = cc_fail(err, CC_ERR_ARG, "merge: shard %u of %u is missing (%d given)",
                         (unsigned)k, (unsigned)count, n);
    if (rc == CC_OK) rc = same_values(shards, names, n, err);
    if (rc == CC_OK) {
        *out = *first;
        merge_provenance(&out->prov, shards, n);
        out->engine = calloc(first->engines ? (size_t)first->engines : 1, sizeof *out->engine);
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
