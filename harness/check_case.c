/* Checking one case against the oracle: create, the load/store round trip, step(k), and the
 * comparison of the final grid; then the call patterns (see check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check.h"
#include "harness/check_in_place.h"
#include "harness/lightcone.h"
#include "harness/progress.h"
#include "harness/step_counts.h"
#include "oracle/cells.h"
#include "oracle/oracle.h"
#include "supervise/supervisor.h"

/* The companion of a case for the two-context patterns: another case within the engine's caps,
 * drawn from the case's seed (small, uniform). */
static int companion_of(const cc_engine *engine, const cc_case *c, cc_case *out, cc_error *err) {
    uint8_t seed[CC_SEED_BYTES];
    case_seed_derive(c->seed, 0x636f6d70616e696full, seed); /* "companio" */
    int rc = cc_case_draw_small(engine, seed, out, err);
    return rc ? cc_prefix(err, "drawing the second context's case") : CC_OK;
}

/* A context of case c loaded with its grid and stepped k steps; NULL and *rc on failure. */
static cc_context *started(const cc_engine *engine, const cc_case *c, const uint8_t *cells,
                           int64_t k, int *rc, cc_error *err) {
    cc_context *ctx = NULL;
    if ((*rc = cc_call_create(engine, &c->rule, c->w, c->h, &ctx, err))) return NULL;
    if (!(*rc = cc_call_load(ctx, cells, err)) && k > 0) *rc = cc_call_step(ctx, k, err);
    if (*rc) {
        cc_call_destroy(ctx, NULL);
        return NULL;
    }
    return ctx;
}

/* Runs case c under pattern p into got. CC_OK, or the engine's error in err. */
static int run_pattern(const cc_engine *engine, const cc_case *c, const cc_grid *init,
                       cc_pattern p, cc_grid *got, cc_error *err) {
    int64_t k = c->steps, a = harness_split_point(c);
    int rc = CC_OK;
    cc_context *ctx = NULL, *other = NULL;
    cc_case second;
    cc_grid second_grid = {0};
    if (p == CC_PATTERN_TWO_LIVE || p == CC_PATTERN_RECREATE) {
        if ((rc = companion_of(engine, c, &second, err)) || (rc = case_grid(&second, &second_grid, err)))
            return rc;
    }
    if (p == CC_PATTERN_RECREATE) {
        if (!(other = started(engine, &second, second_grid.cells, 1, &rc, err))) goto done;
        rc = cc_call_destroy(other, err);
        other = NULL;
        if (rc) goto done;
    }
    switch (p) {
    case CC_PATTERN_SPLIT:
        if ((ctx = started(engine, c, init->cells, a, &rc, err))) rc = cc_call_step(ctx, k - a, err);
        break;
    case CC_PATTERN_SINGLES:
        ctx = started(engine, c, init->cells, 0, &rc, err);
        for (int64_t i = 0; i < k && !rc; i++) rc = cc_call_step(ctx, 1, err);
        break;
    case CC_PATTERN_RELOAD: {
        /* The complement differs from the case's grid in every cell. */
        for (size_t i = 0, n = cc_grid_cells(got); i < n; i++) got->cells[i] = !init->cells[i];
        ctx = started(engine, c, got->cells, 1, &rc, err);
        if (!rc && !(rc = cc_call_load(ctx, init->cells, err))) rc = cc_call_step(ctx, k, err);
        break;
    }
    case CC_PATTERN_TWO_LIVE:
        /* The second context is created after the first, as a second user would. */
        ctx = started(engine, c, init->cells, a, &rc, err);
        if (!rc) other = started(engine, &second, second_grid.cells, 1, &rc, err);
        if (!rc) rc = cc_call_step(ctx, k - a, err);
        if (!rc) rc = cc_call_step(other, 1, err);
        break;
    case CC_PATTERN_RECREATE:
        ctx = started(engine, c, init->cells, k, &rc, err);
        break;
    default: rc = cc_fail(err, CC_ERR_ARG, "no call pattern %d", (int)p);
    }
    if (!rc) rc = cc_call_store(ctx, got->cells, err);
done:;
    cc_error destroy_err;
    int d1 = cc_call_destroy(ctx, &destroy_err);
    if (!rc && d1) *err = destroy_err, rc = d1;
    int d2 = cc_call_destroy(other, &destroy_err);
    if (!rc && d2) *err = destroy_err, rc = d2;
    cc_grid_free(&second_grid);
    return rc;
}

/* The oracle's grid after c->steps from init into out: from the cache when it holds it (and the
 * oracle's work is worth a file), else stepped, and kept. */
static int oracle_grid(const cc_case *c, const cc_grid *init, double work, cc_oracle_cache *cache,
                       cc_grid *out, cc_error *err) {
    const size_t n = cc_grid_cells(init), packed = (n + 7) / 8;
    const int cached = cache && cache->enabled && work >= CC_ORACLE_CACHE_MIN_WORK;
    cc_oracle_key key;
    uint8_t *bits = NULL;
    size_t len = 0;
    int rc = cc_grid_alloc(out, init->w, init->h, err);
    if (rc) return rc;
    if (cached) cc_oracle_key_of(c, "grid", NULL, 0, &key);
    if (cached && cc_oracle_cache_get(cache, &key, &bits, &len) && len == packed) {
        for (size_t i = 0; i < n; i++) out->cells[i] = (bits[i / 8] >> (i % 8)) & 1u;
        free(bits);
        return CC_OK;
    }
    free(bits);
    if (c->steps > CC_ORACLE_CYCLE_STEPS) {
        /* No one steps the oracle 2^31 times: the trajectory's cycle says where k lands. */
        cc_grid_free(out);
        int verdict = -1;
        int64_t alias;
        if ((rc = cc_step_counts_distinct(c, NULL, 0, CC_ORACLE_CYCLE_VISITS, &verdict, &alias,
                                          out, err)))
            return cc_prefix(err, "oracle");
        if (verdict != 1)
            return cc_fail(err, CC_ERR_UNSUPPORTED,
                           "oracle: step count %lld on %dx%d: no cycle in the trajectory within "
                           "%.0e cell-neighbour visits, and stepping %lld times is out of reach",
                           (long long)c->steps, (int)c->w, (int)c->h, CC_ORACLE_CYCLE_VISITS,
                           (long long)c->steps);
    } else {
        memcpy(out->cells, init->cells, n);
        if ((rc = oracle_run(&c->rule, out, c->steps, err))) return cc_prefix(err, "oracle");
    }
    if (cached && (bits = calloc(1, packed ? packed : 1))) {
        for (size_t i = 0; i < n; i++) bits[i / 8] |= (uint8_t)((out->cells[i] & 1u) << (i % 8));
        cc_oracle_cache_put(cache, &key, bits, packed);
        free(bits);
    }
    return CC_OK;
}

/* The oracle's light cones of case c under lo: from the cache when it holds them, else
 * prepared from init, and kept. */
static int oracle_cones(const cc_case *c, const cc_grid *init, const cc_lightcone_options *lo,
                        cc_oracle_cache *cache, cc_lightcones **out, cc_error *err) {
    const int cached = cache && cache->enabled;
    cc_oracle_key key;
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (cached) {
        /* Every option that places the windows, field by field (no padding in the key). */
        const int64_t placed[6] = {lo->tile_w, lo->tile_h, (int64_t)lo->cells_target,
                                   (int64_t)(lo->visits_budget * 1024.0), lo->max_seams, lo->devices};
        cc_oracle_key_of(c, "cones", placed, sizeof placed, &key);
        if (cc_oracle_cache_get(cache, &key, &bytes, &len)) {
            cc_error ignored;
            int rc = cc_lightcone_decode(c, bytes, len, out, &ignored);
            free(bytes);
            if (rc == CC_OK) return CC_OK;
            if (rc == CC_ERR_NOMEM) return cc_fail(err, rc, "%s", ignored.msg);
        }
    }
    int rc = cc_lightcone_prepare_grid(c, init, lo, out, err);
    if (!rc && cached && cc_lightcone_encode(*out, &bytes, &len, err) == CC_OK) {
        cc_oracle_cache_put(cache, &key, bytes, len);
        free(bytes);
    }
    return rc;
}

/* The engine's one-call grid against the oracle: the whole grid, or light cones. */
static int verify(const cc_engine *engine, const cc_case *c, const cc_check_options *opt,
                  double cost, const cc_grid *init, const cc_grid *got, cc_check_result *res,
                  cc_error *err) {
    size_t n = cc_grid_cells(init), first = 0;
    /* Where a light cone's window would take the whole grid, the whole grid is cheaper. */
    int64_t cone = 2 * (int64_t)c->rule.radius * c->steps + CC_LIGHTCONE_BLOCK_MIN;
    if (opt->expected && (opt->expected->w != c->w || opt->expected->h != c->h))
        return cc_fail(err, CC_ERR_ARG, "the expected grid is %dx%d, the case %dx%d",
                       (int)opt->expected->w, (int)opt->expected->h, (int)c->w, (int)c->h);
    if (opt->expected || cost <= opt->oracle_budget || (cone >= c->w && cone >= c->h)) {
        /* The caller's grid where it has one, else the oracle's. */
        cc_grid oracle = {0};
        const cc_grid *want = opt->expected;
        if (!want) {
            int rc = oracle_grid(c, init, cost, opt->oracle_cache, &oracle, err);
            if (rc) {
                cc_grid_free(&oracle);
                return rc;
            }
            want = &oracle;
        }
        res->verified = n;
        res->differing = cc_cells_count_differing(got->cells, want->cells, n, &first);
        if (res->differing) {
            harness_fail_result(res, CC_FAILURE_MISMATCH,
                                "%llu of %zu cells differ from the oracle after %lld steps",
                                (unsigned long long)res->differing, n, (long long)c->steps);
            harness_result_cell(res, (int)(first % (size_t)c->w), (int)(first / (size_t)c->w),
                                got->cells[first], want->cells[first]);
        }
        cc_grid_free(&oracle);
        return CC_OK;
    }
    cc_engine_caps caps = cc_engine_caps_resolved(engine);
    /* An engine over several devices says how many it used, so its seams are sampled. */
    int32_t devices = 1;
    int rc = cc_call_devices(engine, &devices, err);
    if (rc) return cc_prefix(err, "devices");
    cc_lightcone_options lo = {.tile_w = caps.tile_w, .tile_h = caps.tile_h,
                               .cells_target = opt->lightcone_cells,
                               .visits_budget = opt->lightcone_budget, .devices = devices};
    cc_lightcones *cones;
    cc_lightcone_result lr;
    if ((rc = oracle_cones(c, init, &lo, opt->oracle_cache, &cones, err)))
        return cc_prefix(err, "light cones");
    cc_lightcone_compare(cones, got->cells, &lr);
    cc_lightcone_free(cones);
    res->lightcone = 1;
    res->verified = lr.cells;
    res->seam_classes = lr.classes;
    res->differing = lr.differing;
    if (lr.differing) {
        harness_fail_result(res, CC_FAILURE_MISMATCH,
                    "%llu of %llu cells verified by light cones (%llu windows) differ from the "
                    "oracle after %lld steps",
                    (unsigned long long)lr.differing, (unsigned long long)lr.cells,
                    (unsigned long long)lr.blocks, (long long)c->steps);
        harness_result_cell(res, (int)lr.x, (int)lr.y, lr.engine_value, lr.oracle_value);
    }
    return CC_OK;
}

int cc_case_check(const cc_engine *engine, const cc_case *c, cc_check_result *res, cc_error *err) {
    return cc_case_check_with(engine, c, NULL, res, err);
}

/* step(k) and its wall time, which the caller may use to foresee a larger k's cost; waited for
 * wait_s at most where it is positive (*running: still running then). */
static int timed_step(cc_context *ctx, int64_t k, double wait_s, double *seconds, int *running,
                      cc_error *err) {
    const double start = cc_now_seconds();
    *running = 0;
    const int rc = wait_s > 0 ? cc_call_step_within(ctx, k, wait_s, running, err)
                              : cc_call_step(ctx, k, err);
    *seconds = cc_now_seconds() - start;
    return rc;
}

int cc_case_check_with(const cc_engine *engine, const cc_case *c, const cc_check_options *opt,
                       cc_check_result *res, cc_error *err) {
    cc_check_options defaults;
    if (!opt) {
        cc_check_options_init(&defaults);
        opt = &defaults;
    }
    memset(res, 0, sizeof *res);
    /* The case's OpenMP team (threads=N), timing disturbance (timing=) and caller's buffers
     * (buffers=), for every call of it, and for the analysis of its failure that follows. */
    cc_supervisor_team(cc_supervisor_of(engine), c->threads);
    cc_supervisor_timing(cc_supervisor_of(engine), c->timing);
    cc_supervisor_buffers(cc_supervisor_of(engine), c->buffers);
    cc_error caps_err, eng_err;
    cc_error_clear(&caps_err);
    cc_error_clear(&eng_err);
    int in_caps = cc_engine_check(engine, &c->rule, c->w, c->h, &caps_err) == CC_OK;
    cc_context *ctx = NULL;
    int rc = cc_call_create(engine, &c->rule, c->w, c->h, &ctx, &eng_err);
    if (!in_caps) {
        /* The contract's create refused it with the limit named (engine.c); the engine never ran. */
        res->outcome = CC_OUTCOME_REFUSED;
        snprintf(res->detail, sizeof res->detail, "%s", eng_err.msg);
        return CC_OK;
    }
    if (rc == CC_ERR_NOMEM) {
        /* This machine's limit, not the engine's fault: an error, never a failing case, so it is
         * neither reported as one nor shrunk. */
        return cc_fail(err, CC_ERR_NOMEM, "%s", eng_err.msg[0] ? eng_err.msg : "out of memory");
    }
    if (rc != CC_OK) {
        if (cc_code_is_fault(rc) || rc == CC_ERR_CONTRACT)
            harness_call_failed(res, rc, "create", &eng_err);
        else
            harness_fail_result(res, CC_FAILURE_REFUSED_VALID, "create: %s",
                        eng_err.msg[0] ? eng_err.msg : "(no message)");
        return CC_OK;
    }

    /* A grid past 2^30 cells (in_place_cells) is held once, in the worker's shared grid, when its seed can draw
     * it in pieces (harness/check_in_place.c). */
    double in_place = opt->in_place_cells > 0 ? opt->in_place_cells : CC_CHECK_IN_PLACE_CELLS;
    if ((double)c->w * (double)c->h > in_place && c->grid_kind == CC_GRID_UNIFORM && !opt->expected)
        return harness_check_in_place(engine, c, opt, ctx, res, err);
    cc_grid init = {0}, got = {0}, again = {0};
    /* The oracle's work for the whole grid: it picks light cones, and bounds what runs twice
     * (the second store, the call patterns): each is a whole grid's transfer or run more. */
    double work = (double)c->w * (double)c->h * (double)cc_rule_max_count(&c->rule) *
                  (double)c->steps;
    int twice = work <= opt->pattern_budget;
    const double draw_start = cc_now_seconds();
    rc = case_grid(c, &init, err);
    res->draw_seconds += cc_now_seconds() - draw_start;
    if (rc || (rc = cc_grid_alloc(&got, c->w, c->h, err)) ||
        (rc = cc_grid_alloc(&again, c->w, c->h, err))) {
        cc_call_destroy(ctx, NULL);
        cc_grid_free(&init);
        cc_grid_free(&got);
        return rc;
    }
    size_t n = cc_grid_cells(&init), first = 0;
    int running = 0;
    if ((rc = cc_call_load(ctx, init.cells, &eng_err))) {
        harness_call_failed(res, rc, "load", &eng_err);
    } else if ((rc = cc_call_store(ctx, got.cells, &eng_err))) {
        harness_call_failed(res, rc, "store after load", &eng_err);
    } else if ((res->differing = cc_cells_count_differing(got.cells, init.cells, n, &first)) != 0) {
        harness_fail_result(res, CC_FAILURE_ROUND_TRIP,
                    "store right after load differs from the loaded grid in %llu cells, first "
                    "(%d,%d): stored %d, loaded %d",
                    (unsigned long long)res->differing, (int)(first % (size_t)c->w),
                    (int)(first / (size_t)c->w), got.cells[first], init.cells[first]);
    } else if ((rc = timed_step(ctx, c->steps, opt->step_wait_s, &res->step_seconds, &running,
                                &eng_err))) {
        char what[48];
        snprintf(what, sizeof what, "step(%lld)", (long long)c->steps);
        harness_call_failed(res, rc, what, &eng_err);
    } else if (running) {
        res->outcome = CC_OUTCOME_RUNNING;
        snprintf(res->detail, sizeof res->detail, "step(%lld) still running after %.1f s",
                 (long long)c->steps, opt->step_wait_s);
    } else if ((rc = cc_call_store(ctx, got.cells, &eng_err))) {
        harness_call_failed(res, rc, "store after step(k)", &eng_err);
    } else if (twice && (rc = cc_call_store(ctx, again.cells, &eng_err))) {
        harness_call_failed(res, rc, "a second store after step(k)", &eng_err);
    } else if (twice &&
               (res->differing = cc_cells_count_differing(again.cells, got.cells, n, &first)) != 0) {
        /* store reads the engine's state; it must not change it. */
        harness_fail_result(res, CC_FAILURE_CONTRACT,
                    "two stores in a row gave different grids: %llu cells differ, first (%d,%d): "
                    "%d, then %d",
                    (unsigned long long)res->differing, (int)(first % (size_t)c->w),
                    (int)(first / (size_t)c->w), got.cells[first], again.cells[first]);
    }
    if ((rc = cc_call_destroy(ctx, &eng_err)) && res->outcome == CC_OUTCOME_PASS)
        harness_call_failed(res, rc, "destroy", &eng_err);
    rc = CC_OK;
    if (res->outcome == CC_OUTCOME_PASS) {
        const double oracle_start = cc_now_seconds();
        rc = verify(engine, c, opt, work, &init, &got, res, err);
        res->oracle_seconds += cc_now_seconds() - oracle_start;
    }
    uint32_t patterns = opt->patterns;
    /* Each pattern is a whole run more: past the budget only the split, whose bugs (a second
     * call) can hide in large grids; the others test state that any size shows. */
    if (res->lightcone || work > opt->pattern_budget) patterns &= CC_PATTERN_BIT(CC_PATTERN_SPLIT);
    for (int p = 1; p < CC_PATTERN_COUNT && !rc && res->outcome == CC_OUTCOME_PASS; p++) {
        if (!(patterns & CC_PATTERN_BIT(p))) continue;
        /* Patterns that split the steps need two of them to split. */
        if ((p == CC_PATTERN_SPLIT || p == CC_PATTERN_SINGLES) && c->steps < 2) continue;
        char name[160], one[32];
        cc_pattern_describe((cc_pattern)p, c, name, sizeof name);
        cc_pattern_describe(CC_PATTERN_ONE_CALL, c, one, sizeof one);
        int prc = run_pattern(engine, c, &init, (cc_pattern)p, &again, &eng_err);
        if (prc) {
            char what[200];
            snprintf(what, sizeof what, "under the call pattern %s", name);
            harness_call_failed(res, prc, what, &eng_err);
            res->pattern = (cc_pattern)p;
            break;
        }
        uint64_t d = cc_cells_count_differing(again.cells, got.cells, n, &first);
        if (d) {
            res->differing = d;
            res->pattern = (cc_pattern)p;
            harness_fail_result(res, CC_FAILURE_CALL_PATTERN,
                        "%s differs from %s in %llu cells, first (%d,%d): %d, not %d", name, one,
                        (unsigned long long)d, (int)(first % (size_t)c->w),
                        (int)(first / (size_t)c->w), again.cells[first], got.cells[first]);
            break;
        }
        res->patterns_run |= CC_PATTERN_BIT(p);
    }
    if (!rc && res->outcome != CC_OUTCOME_FAIL && res->outcome != CC_OUTCOME_RUNNING)
        res->outcome = CC_OUTCOME_PASS;
    cc_grid_free(&init);
    cc_grid_free(&got);
    cc_grid_free(&again);
    return rc;
}
