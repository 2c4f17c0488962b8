/* Checking a case too large to hold twice: the worker's shared grid is the only copy of it.
 * The seed's grid is drawn once and kept packed a bit a cell; load's cells are written from it,
 * the light cones' windows are cut from it and only the oracle's blocks are kept, and every
 * store is read where the engine wrote it: the round trip against the packed grid, the final
 * grid against the blocks. The harness then holds 1 1/8 grids (CC_CHECK_IN_PLACE_GRIDS) and
 * the engine its own context. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/check_result.h"
#include "harness/check_in_place.h"
#include "harness/lightcone.h"
#include "harness/progress.h"
#include "oracle/cells.h"
#include "supervise/supervisor.h"

/* The cells each piece of the seed's grid covers when it is drawn. */
#define PIECE_CELLS ((size_t)1 << 20)

/* The seed's grid, drawn once and kept packed a bit a cell (an eighth of the grid): load's
 * cells, the check that load left them alone, the round trip and the second pattern's load all
 * read it instead of drawing 2 bytes a cell from the stream again. */
typedef struct seed_grid {
    const cc_case *c;
    uint64_t *bits;
    size_t n;
} seed_grid;

static int seed_grid_draw(seed_grid *s, const cc_case *c, cc_error *err) {
    s->c = c;
    s->n = (size_t)c->w * (size_t)c->h;
    s->bits = malloc((s->n + 63) / 64 * sizeof *s->bits);
    if (!s->bits)
        return cc_fail(err, CC_ERR_NOMEM, "out of memory for the %dx%d grid packed a bit a cell",
                       (int)c->w, (int)c->h);
    const long pieces = (long)((s->n + PIECE_CELLS - 1) / PIECE_CELLS);
    int rc = CC_OK;
#pragma omp parallel
    {
        uint8_t *piece = malloc(PIECE_CELLS);
        cc_error mine;
        int my_rc = piece ? CC_OK : cc_fail(&mine, CC_ERR_NOMEM, "out of memory for a piece");
#pragma omp for schedule(static)
        for (long p = 0; p < pieces; p++) {
            size_t from = (size_t)p * PIECE_CELLS;
            size_t len = s->n - from < PIECE_CELLS ? s->n - from : PIECE_CELLS;
            if (my_rc || (my_rc = case_grid_cells(c, from, piece, len, &mine))) continue;
            cc_cells_pack(s->bits + from / 64, piece, len);
        }
#pragma omp critical(seed_grid_error)
        if (my_rc && !rc) rc = my_rc, *err = mine;
        free(piece);
    }
    return rc;
}

static int seed_cells(void *arg, uint64_t first, uint8_t *out, size_t n, cc_error *err) {
    (void)err;
    const seed_grid *s = arg;
    cc_cells_unpack(out, s->bits, (size_t)first, n);
    return CC_OK;
}

static int seed_fill(void *arg, uint8_t *cells, size_t n, cc_error *err) {
    return seed_cells(arg, 0, cells, n, err);
}

static int seed_differing(void *arg, const uint8_t *cells, size_t n, size_t *count, size_t *first,
                          cc_error *err) {
    (void)err;
    const seed_grid *s = arg;
    *count = cc_cells_count_differing_packed(cells, s->bits, n, first);
    return CC_OK;
}

/* A store's grid against the seed's: the round trip right after load. */
typedef struct round_trip {
    const seed_grid *seed;
    size_t differing, first;
    uint8_t stored;
} round_trip;

static int read_round_trip(void *arg, const uint8_t *cells, size_t n, cc_error *err) {
    round_trip *rt = arg;
    int rc = seed_differing((void *)rt->seed, cells, n, &rt->differing, &rt->first, err);
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
static void run_once(const cc_engine *engine, const seed_grid *seed, cc_pattern p, cc_context *ctx,
                     const cc_lightcones *cones, cc_check_result *res) {
    const cc_case *c = seed->c;
    cc_error eng_err;
    cc_error_clear(&eng_err);
    cc_grid_source src = {seed_fill, seed_differing, (void *)seed};
    round_trip rt = {.seed = seed};
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
    seed_grid seed = {0};
    const double draw_start = cc_now_seconds();
    if (!rc) rc = seed_grid_draw(&seed, c, err);
    const double oracle_start = cc_now_seconds();
    res->draw_seconds += oracle_start - draw_start;
    if (!rc && (rc = cc_lightcone_prepare(c, seed_cells, &seed, &lo, &cones, err)))
        cc_prefix(err, "light cones");
    res->oracle_seconds += cc_now_seconds() - oracle_start;
    if (rc) {
        free(seed.bits);
        cc_call_destroy(ctx, NULL);
        return rc;
    }
    run_once(engine, &seed, CC_PATTERN_ONE_CALL, ctx, cones, res);
    /* Past the pattern budget only the split runs (as in check.c), here against the cones. */
    if (res->outcome != CC_OUTCOME_FAIL && (opt->patterns & CC_PATTERN_BIT(CC_PATTERN_SPLIT)) &&
        c->steps >= 2) {
        run_once(engine, &seed, CC_PATTERN_SPLIT, NULL, cones, res);
        if (res->outcome != CC_OUTCOME_FAIL) res->patterns_run |= CC_PATTERN_BIT(CC_PATTERN_SPLIT);
    }
    cc_lightcone_free(cones);
    free(seed.bits);
    cc_supervisor_shrink_shared(cc_supervisor_of(engine));
    if (res->outcome != CC_OUTCOME_FAIL) res->outcome = CC_OUTCOME_PASS;
    return CC_OK;
}
