/* Checking a case too large to hold twice: the worker's shared grid is the only copy of it.
 * The initial grid is written there from the case's seed, the light cones' windows are drawn
 * from the seed too and only the oracle's blocks are kept, and every store is read where the
 * engine wrote it: the round trip against the seed's cells, the final grid against the blocks.
 * The harness then holds one grid and the engine its own context. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check_result.h"
#include "harness/check_in_place.h"
#include "harness/lightcone.h"
#include "harness/progress.h"
#include "oracle/cells.h"
#include "supervise/supervisor.h"

/* The cells each piece of the seed's grid covers when it is compared in place. */
#define PIECE_CELLS ((size_t)1 << 20)

static int seed_cells(void *arg, uint64_t first, uint8_t *out, size_t n, cc_error *err) {
    return case_grid_cells((const cc_case *)arg, first, out, n, err);
}

static int seed_fill(void *arg, uint8_t *cells, size_t n, cc_error *err) {
    return case_grid_cells((const cc_case *)arg, 0, cells, n, err);
}

/* Cells of `cells` that differ from the seed's grid, piece by piece on every core. */
static int seed_differing(void *arg, const uint8_t *cells, size_t n, size_t *count, size_t *first,
                          cc_error *err) {
    const cc_case *c = arg;
    const long pieces = (long)((n + PIECE_CELLS - 1) / PIECE_CELLS);
    size_t total = 0, lowest = n;
    int rc = CC_OK;
#pragma omp parallel
    {
        uint8_t *want = malloc(PIECE_CELLS);
        cc_error mine;
        int my_rc = want ? CC_OK : cc_fail(&mine, CC_ERR_NOMEM, "out of memory for a piece");
#pragma omp for schedule(static) reduction(+ : total)
        for (long p = 0; p < pieces; p++) {
            size_t from = (size_t)p * PIECE_CELLS, len = n - from < PIECE_CELLS ? n - from : PIECE_CELLS;
            if (my_rc || (my_rc = case_grid_cells(c, from, want, len, &mine))) continue;
            size_t at = len, d = cc_cells_count_differing(cells + from, want, len, &at);
            total += d;
            if (d) {
#pragma omp critical(seed_differing_first)
                if (from + at < lowest) lowest = from + at;
            }
        }
#pragma omp critical(seed_differing_error)
        if (my_rc && !rc) rc = my_rc, *err = mine;
        free(want);
    }
    *count = total;
    *first = lowest;
    return rc;
}

/* A store's grid against the seed's: the round trip right after load. */
typedef struct round_trip {
    const cc_case *c;
    size_t differing, first;
    uint8_t stored;
} round_trip;

static int read_round_trip(void *arg, const uint8_t *cells, size_t n, cc_error *err) {
    round_trip *rt = arg;
    int rc = seed_differing((void *)rt->c, cells, n, &rt->differing, &rt->first, err);
    if (!rc && rt->differing) rt->stored = cells[rt->first];
    return rc;
}

/* A store's grid against the light cones' blocks. */
typedef struct final_grid {
    const cc_lightcones *cones;
    cc_lightcone_result lr;
} final_grid;

static int read_final(void *arg, const uint8_t *cells, size_t n, cc_error *err) {
    (void)n;
    (void)err;
    final_grid *f = arg;
    cc_lightcone_compare(f->cones, cells, &f->lr);
    return CC_OK;
}

/* step(k) in one call, or step(a) then step(k - a) for the split pattern. */
static int stepped(cc_context *ctx, const cc_case *c, cc_pattern p, double *seconds,
                   cc_error *err) {
    const double start = cc_now_seconds();
    int64_t a = p == CC_PATTERN_SPLIT ? harness_split_point(c) : c->steps;
    int rc = cc_call_step(ctx, a, err);
    if (!rc && a < c->steps) rc = cc_call_step(ctx, c->steps - a, err);
    *seconds = cc_now_seconds() - start;
    return rc;
}

/* One run of the case on a context of its own (ctx, created already, or NULL): load, the round
 * trip (one-call only), step, store against the light cones; ctx is destroyed. */
static void run_once(const cc_engine *engine, const cc_case *c, cc_pattern p, cc_context *ctx,
                     const cc_lightcones *cones, cc_check_result *res) {
    cc_error eng_err;
    cc_error_clear(&eng_err);
    cc_grid_source src = {seed_fill, seed_differing, (void *)c};
    round_trip rt = {.c = c};
    final_grid f = {.cones = cones};
    char what[160];
    double seconds = 0.0;
    int rc = ctx ? CC_OK : cc_call_create(engine, &c->rule, c->w, c->h, &ctx, &eng_err);
    if (rc) {
        harness_call_failed(res, rc, "create", &eng_err);
    } else if ((rc = cc_call_load_from(ctx, &src, &eng_err))) {
        harness_call_failed(res, rc, "load", &eng_err);
    } else if (p == CC_PATTERN_ONE_CALL &&
               (rc = cc_call_store_to(ctx, read_round_trip, &rt, &eng_err))) {
        harness_call_failed(res, rc, "store after load", &eng_err);
    } else if (rt.differing) {
        harness_fail_result(res, CC_FAILURE_ROUND_TRIP,
                            "store right after load differs from the loaded grid in %zu cells, "
                            "first (%d,%d): stored %d, loaded %d",
                            rt.differing, (int)(rt.first % (size_t)c->w),
                            (int)(rt.first / (size_t)c->w), rt.stored, !rt.stored);
        res->differing = rt.differing;
    } else if ((rc = stepped(ctx, c, p, &seconds, &eng_err))) {
        cc_pattern_describe(p, c, what, sizeof what);
        harness_call_failed(res, rc, what, &eng_err);
        res->pattern = p;
    } else if ((rc = cc_call_store_to(ctx, read_final, &f, &eng_err))) {
        harness_call_failed(res, rc, "store after step(k)", &eng_err);
    } else if (f.lr.differing) {
        cc_pattern_describe(p, c, what, sizeof what);
        /* Found by light cones: the report does not replay the whole grid against the oracle. */
        res->lightcone = 1;
        res->verified = f.lr.cells;
        res->differing = f.lr.differing;
        res->pattern = p;
        harness_fail_result(res, p == CC_PATTERN_ONE_CALL ? CC_FAILURE_MISMATCH : CC_FAILURE_CALL_PATTERN,
                            "%llu of %llu cells verified by light cones (%llu windows) differ from "
                            "the oracle after %s",
                            (unsigned long long)f.lr.differing, (unsigned long long)f.lr.cells,
                            (unsigned long long)f.lr.blocks, what);
        harness_result_cell(res, (int)f.lr.x, (int)f.lr.y, f.lr.engine_value, f.lr.oracle_value);
    } else if (p == CC_PATTERN_ONE_CALL) {
        res->step_seconds = seconds;
        res->lightcone = 1;
        res->verified = f.lr.cells;
        res->seam_classes = f.lr.classes;
    }
    int d = cc_call_destroy(ctx, &eng_err);
    if (d && res->outcome != CC_OUTCOME_FAIL) harness_call_failed(res, d, "destroy", &eng_err);
}

int harness_check_in_place(const cc_engine *engine, const cc_case *c, const cc_check_options *opt,
                           cc_context *ctx, cc_check_result *res, cc_error *err) {
    int32_t devices = 1;
    int rc = cc_call_devices(engine, &devices, err);
    if (rc) rc = cc_prefix(err, "devices");
    const cc_engine_caps caps = cc_engine_caps_resolved(engine);
    cc_lightcone_options lo = {.tile_w = caps.tile_w, .tile_h = caps.tile_h,
                               .cells_target = opt->lightcone_cells,
                               .visits_budget = opt->lightcone_budget, .devices = devices};
    cc_lightcones *cones = NULL;
    const double oracle_start = cc_now_seconds();
    if (!rc && (rc = cc_lightcone_prepare(c, seed_cells, (void *)c, &lo, &cones, err)))
        cc_prefix(err, "light cones");
    res->oracle_seconds += cc_now_seconds() - oracle_start;
    if (rc) {
        cc_call_destroy(ctx, NULL);
        return rc;
    }
    run_once(engine, c, CC_PATTERN_ONE_CALL, ctx, cones, res);
    /* Past the pattern budget only the split runs (as in check.c), here against the cones. */
    if (res->outcome != CC_OUTCOME_FAIL && (opt->patterns & CC_PATTERN_BIT(CC_PATTERN_SPLIT)) &&
        c->steps >= 2) {
        run_once(engine, c, CC_PATTERN_SPLIT, NULL, cones, res);
        if (res->outcome != CC_OUTCOME_FAIL) res->patterns_run |= CC_PATTERN_BIT(CC_PATTERN_SPLIT);
    }
    cc_lightcone_free(cones);
    cc_supervisor_shrink_shared(cc_supervisor_of(engine));
    if (res->outcome != CC_OUTCOME_FAIL) res->outcome = CC_OUTCOME_PASS;
    return CC_OK;
}
