/* The entry points that call an engine's functions (entry.h), after the contract's checks. */
#define _POSIX_C_SOURCE 200809L
#include "engines/entry.h"

#include "engines/slabs/slabs.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int cc_engine_available(const cc_engine *engine, cc_error *err) {
    if (!engine) return cc_fail(err, CC_ERR_ARG, "no engine");
    if (engine->hardware != CC_HW_CPU && cc_hardware_hidden(engine->hardware))
        return cc_fail(err, CC_ERR_UNAVAILABLE, "CELLCHECK_ABSENT names %s: taken as absent here",
                       cc_hardware_name(engine->hardware));
    return engine->available ? engine->available(err) : CC_OK;
}

int cc_engine_devices(const cc_engine *engine, int32_t *count, cc_error *err) {
    *count = 1;
    if (!engine) return cc_fail(err, CC_ERR_ARG, "no engine");
    if (!engine->devices) return CC_OK;
    int32_t n = 0;
    int rc = engine->devices(&n, err);
    if (rc) return rc;
    if (n < 1)
        return cc_fail(err, CC_ERR_ARG, "%s: devices() said %d devices; it must be 1 or more",
                       engine->name, (int)n);
    *count = n;
    return CC_OK;
}

int cc_engine_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                     cc_context **out, cc_error *err) {
    if (!out) return cc_fail(err, CC_ERR_ARG, "cc_engine_create: no place for the context");
    *out = NULL;
    int rc = cc_engine_check(engine, rule, w, h, err);
    if (rc) return rc;
    cc_context *c = calloc(1, sizeof *c);
    if (!c) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate a context", engine->name);
    c->engine = engine;
    c->rule = *rule;
    c->w = w;
    c->h = h;
    if ((rc = engine->create(rule, w, h, &c->ctx, err))) {
        free(c);
        if (err && err->msg[0] == '\0')
            cc_fail(err, rc, "%s: create failed with code %d and no message", engine->name, rc);
        return rc;
    }
    *out = c;
    return CC_OK;
}

int cc_engine_rank_id(const cc_engine *engine, uint8_t *id, cc_error *err) {
    if (!engine || !engine->rank_id)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: does not run as ranks (no rank_id)",
                       engine ? engine->name : "no engine");
    memset(id, 0, CC_RANK_ID_BYTES);
    return engine->rank_id(id, err);
}

int cc_engine_rank_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                          const cc_rank *rank, cc_context **out, cc_error *err) {
    if (!out) return cc_fail(err, CC_ERR_ARG, "cc_engine_rank_create: no place for the context");
    *out = NULL;
    if (!engine || !engine->rank_create)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: does not run as ranks (no rank_create)",
                       engine ? engine->name : "no engine");
    int rc = cc_engine_check(engine, rule, w, h, err);
    if (rc) return rc;
    if (!rank || rank->ranks < 1 || rank->ranks > h || rank->rank < 0 ||
        rank->rank >= rank->ranks || rank->device < 0 ||
        rank->row0 != cc_slabs_first_row(h, rank->ranks, rank->rank) ||
        rank->rows != cc_slabs_first_row(h, rank->ranks, rank->rank + 1) - rank->row0)
        return cc_fail(err, CC_ERR_ARG,
                       "%s: rank %d of %d (device %d, rows %d + %d) is not a rank of the cut of "
                       "%d rows",
                       engine->name, rank ? (int)rank->rank : -1, rank ? (int)rank->ranks : 0,
                       rank ? (int)rank->device : -1, rank ? (int)rank->row0 : 0,
                       rank ? (int)rank->rows : 0, (int)h);
    cc_context *c = calloc(1, sizeof *c);
    if (!c) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate a context", engine->name);
    c->engine = engine;
    c->rule = *rule;
    c->w = w;
    c->h = rank->rows;
    if ((rc = engine->rank_create(rule, w, h, rank, &c->ctx, err))) {
        free(c);
        if (err && err->msg[0] == '\0')
            cc_fail(err, rc, "%s: rank_create failed with code %d and no message", engine->name,
                    rc);
        return rc;
    }
    *out = c;
    return CC_OK;
}

static int check_live(const cc_context *c, const char *what, int need_load, cc_error *err) {
    if (!c) return cc_fail(err, CC_ERR_ARG, "%s: no context", what);
    if (need_load && !c->loaded)
        return cc_fail(err, CC_ERR_ARG, "%s: %s before any load", c->engine->name, what);
    return CC_OK;
}

int cc_engine_load(cc_context *c, const uint8_t *cells, cc_error *err) {
    int rc = check_live(c, "load", 0, err);
    if (rc) return rc;
    if (!cells) return cc_fail(err, CC_ERR_ARG, "%s: load of no cells", c->engine->name);
    if ((rc = cc_engine_check_cells(c->engine->name, cells, (size_t)c->w * (size_t)c->h, err)))
        return rc;
    if ((rc = c->engine->load(c->ctx, cells, err))) return rc;
    c->loaded = 1;
    return CC_OK;
}

int cc_engine_step(cc_context *c, int64_t k, cc_error *err) {
    int rc = check_live(c, "step", 1, err);
    if (rc) return rc;
    if ((rc = cc_engine_check_steps(c->engine->name, k, err))) return rc;
    return c->engine->step(c->ctx, k, err);
}

static double monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int cc_engine_timed_step(cc_context *c, int64_t k, double *ms, int *engine_clock, cc_error *err) {
    int rc = check_live(c, "step", 1, err);
    if (rc) return rc;
    if ((rc = cc_engine_check_steps(c->engine->name, k, err))) return rc;
    if (c->engine->timed_step) {
        if (engine_clock) *engine_clock = 1;
        return c->engine->timed_step(c->ctx, k, ms, err);
    }
    if (engine_clock) *engine_clock = 0;
    double t0 = monotonic_ms();
    rc = c->engine->step(c->ctx, k, err);
    *ms = monotonic_ms() - t0;
    return rc;
}

int cc_engine_store(cc_context *c, uint8_t *cells, cc_error *err) {
    int rc = check_live(c, "store", 1, err);
    if (rc) return rc;
    if (!cells) return cc_fail(err, CC_ERR_ARG, "%s: store into no cells", c->engine->name);
    return c->engine->store(c->ctx, cells, err);
}

void cc_engine_destroy(cc_context *c) {
    if (!c) return;
    if (c->ctx) c->engine->destroy(c->ctx);
    free(c);
}

int cc_engine_memory(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                     cc_memory *need) {
    *need = (cc_memory){0.0, 0.0};
    /* Outside the caps create refuses it; the estimate is asked only of what it can hold. */
    if (!engine || !engine->memory || !rule || cc_engine_check(engine, rule, w, h, NULL) != CC_OK)
        return 0;
    engine->memory(rule, w, h, need);
    return 1;
}

const char *cc_engine_device_name(const cc_context *c) {
    return c && c->engine->device_name ? c->engine->device_name(c->ctx) : NULL;
}

