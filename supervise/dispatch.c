/* The supervisor's interface (supervisor.h) over its two ways of running an engine: one worker
 * (calls.c), or one worker per device for an engine that runs as ranks (ranks.c), which are the
 * same calls on several workers at once. Each call here picks one; what the supervisor reports of
 * itself (its sandbox, its counts) covers the ranks' workers too. */
#include <stdio.h>
#include <stdlib.h>

#include "supervise/supervisor_internal.h"

/* The context's ranks, or NULL for a context in this supervisor's one worker. */
static sv_context *ranked(cc_context *c) {
    sv_context *sc = (sv_context *)(void *)c;
    return c && sv_remote_of(c->engine) && sc->ranked ? sc : NULL;
}

int cc_call_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                   cc_context **out, cc_error *err) {
    *out = NULL;
    sv_engine *e = sv_remote_of(engine);
    if (!e || !(e->has & SV_HAS_RANKS)) return sv_worker_create(engine, rule, w, h, NULL, out, err);
    /* The contract's checks need no engine code: a case outside the caps never reaches one. */
    int rc = cc_engine_check(engine, rule, w, h, err);
    if (rc) return rc;
    int32_t count = 1;
    if ((rc = cc_call_devices(engine, &count, err))) return rc;
    sv_context *sc = calloc(1, sizeof *sc);
    if (!sc) return cc_fail(err, CC_ERR_NOMEM, "out of memory for a context");
    if ((rc = sv_ranks_create(e, rule, w, h, count, sc, err))) {
        free(sc);
        return rc;
    }
    sc->base.engine = engine;
    sc->base.rule = *rule;
    sc->base.w = w;
    sc->base.h = h;
    *out = &sc->base;
    return CC_OK;
}

int cc_call_ranked(const cc_engine *engine) {
    const sv_engine *e = sv_remote_of(engine);
    return e && (e->has & SV_HAS_RANKS) ? 1 : 0;
}

int cc_call_rank_id(const cc_engine *engine, uint8_t *id, cc_error *err) {
    return sv_call_rank_id(engine, id, err);
}

int cc_call_rank_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                        const cc_rank *rank, cc_context **out, cc_error *err) {
    *out = NULL;
    if (!rank) return cc_fail(err, CC_ERR_ARG, "cc_call_rank_create: no rank");
    return sv_worker_create(engine, rule, w, h, rank, out, err);
}

int cc_call_load(cc_context *c, const uint8_t *cells, cc_error *err) {
    return ranked(c) ? sv_ranks_load(ranked(c), cells, NULL, err) : sv_worker_load(c, cells, err);
}

int cc_call_load_from(cc_context *c, const cc_grid_source *src, cc_error *err) {
    return ranked(c) ? sv_ranks_load(ranked(c), NULL, src, err) : sv_worker_load_from(c, src, err);
}

int cc_call_step(cc_context *c, int64_t k, cc_error *err) {
    return ranked(c) ? sv_ranks_step(ranked(c), 0, k, 0.0, NULL, NULL, NULL, err)
                     : sv_worker_step(c, k, err);
}

int cc_call_step_within(cc_context *c, int64_t k, double wait_s, int *running, cc_error *err) {
    *running = 0;
    return ranked(c) ? sv_ranks_step(ranked(c), 0, k, wait_s, running, NULL, NULL, err)
                     : sv_worker_step_within(c, k, wait_s, running, err);
}

int cc_call_timed_step(cc_context *c, int64_t k, double *ms, int *engine_clock, cc_error *err) {
    return ranked(c) ? sv_ranks_step(ranked(c), 1, k, 0.0, NULL, ms, engine_clock, err)
                     : sv_worker_timed_step(c, k, ms, engine_clock, err);
}

int cc_call_store(cc_context *c, uint8_t *cells, cc_error *err) {
    return ranked(c) ? sv_ranks_store(ranked(c), cells, NULL, NULL, err)
                     : sv_worker_store(c, cells, err);
}

int cc_call_store_to(cc_context *c, cc_grid_reader reader, void *arg, cc_error *err) {
    return ranked(c) ? sv_ranks_store(ranked(c), NULL, reader, arg, err)
                     : sv_worker_store_to(c, reader, arg, err);
}

int cc_call_destroy(cc_context *c, cc_error *err) {
    if (!ranked(c)) return sv_worker_destroy(c, err);
    cc_error local;
    const int rc = sv_ranks_destroy(ranked(c), err ? err : &local);
    free(c);
    return rc;
}

void cc_call_device_name(cc_context *c, char *buf, size_t size) {
    if (ranked(c)) sv_ranks_device_name(ranked(c), buf, size);
    else sv_worker_device_name(c, buf, size);
}

void cc_supervisor_close(cc_supervisor *sv) {
    if (!sv) return;
    sv_ranks_close(sv);
    sv_close(sv);
}

void cc_supervisor_restart(cc_supervisor *sv) {
    sv_ranks_retire(sv);
    sv_retire_worker(sv);
}

uint32_t cc_supervisor_sandbox(const cc_supervisor *sv, char *why, size_t size) {
    if (why && size) why[0] = '\0';
    if (!sv) return 0;
    if (!sv->opt.sandbox) {
        if (why && size) snprintf(why, size, "off");
        return 0;
    }
    if (why && size) snprintf(why, size, "%s", sv->sandbox_why);
    uint32_t parts = sv->sandbox_workers ? sv->sandbox_parts : CC_SANDBOX_ALL;
    sv_ranks_sandbox(sv, &parts, why, size);
    return parts;
}

void cc_supervisor_kept_reset(cc_supervisor *sv) {
    sv->stats.kept_bytes_max = 0;
    for (int r = 0; r < sv->nranks; r++)
        if (sv->ranks[r]) sv->ranks[r]->stats.kept_bytes_max = 0;
}

void cc_supervisor_stats_get(const cc_supervisor *sv, cc_supervisor_stats *out) {
    *out = sv->stats;
    sv_ranks_stats(sv, out);
}
