/* A grid held once gives the verdicts a grid held three times gives: wrong engines fail with the
 * same kind (the round trip, a write into load's input, a wrong cell at the far end, a second
 * step call) and the right one passes, on the same light cones. The threshold is lowered to one
 * cell, so small grids take the path that grids past 2^30 cells take. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/campaign.h"
#include "harness/harness.h"
#include "oracle/oracle.h"
#include "testing/check.h"

typedef struct grid_engine {
    cc_rule rule;
    cc_grid cur, next;
    int64_t step_calls, steps;
} grid_engine;

static int ge_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    grid_engine *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "out of memory");
    e->rule = *rule;
    int rc = cc_grid_alloc(&e->cur, w, h, err);
    if (!rc) rc = cc_grid_alloc(&e->next, w, h, err);
    if (rc) {
        cc_grid_free(&e->cur);
        free(e);
        return rc;
    }
    *out = e;
    return CC_OK;
}

static int ge_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    grid_engine *e = ctx;
    memcpy(e->cur.cells, cells, cc_grid_cells(&e->cur));
    e->steps = 0;
    return CC_OK;
}

static int ge_step(void *ctx, int64_t k, cc_error *err) {
    grid_engine *e = ctx;
    e->step_calls++;
    for (int64_t s = 0; s < k; s++) {
        int rc = oracle_step(&e->rule, &e->cur, &e->next, err);
        if (rc) return rc;
        cc_grid t = e->cur;
        e->cur = e->next;
        e->next = t;
        e->steps++;
    }
    return CC_OK;
}

static int ge_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    grid_engine *e = ctx;
    memcpy(cells, e->cur.cells, cc_grid_cells(&e->cur));
    return CC_OK;
}

static void ge_destroy(void *ctx) {
    grid_engine *e = ctx;
    if (!e) return;
    cc_grid_free(&e->cur);
    cc_grid_free(&e->next);
    free(e);
}

static size_t last_cell(const grid_engine *e) { return cc_grid_cells(&e->cur) - 1; }

/* The round trip: store before any step flips the grid's last cell. */
static int round_trip_store(void *ctx, uint8_t *cells, cc_error *err) {
    grid_engine *e = ctx;
    ge_store(ctx, cells, err);
    if (e->steps == 0) cells[last_cell(e)] ^= 1;
    return CC_OK;
}

/* Load writes into its input (a flipped cell in the middle), then loads the original. */
static int write_input_load(void *ctx, const uint8_t *cells, cc_error *err) {
    grid_engine *e = ctx;
    ge_load(ctx, cells, err);
    ((uint8_t *)cells)[last_cell(e) / 2] ^= 1;
    return CC_OK;
}

/* A wrong far end: the last cell flipped after every step. */
static int far_end_step(void *ctx, int64_t k, cc_error *err) {
    grid_engine *e = ctx;
    int rc = ge_step(ctx, k, err);
    if (!rc && k > 0) e->cur.cells[last_cell(e)] ^= 1;
    return rc;
}

/* Right in one call, wrong at the torus corner from a second call of step on. */
static int second_call_step(void *ctx, int64_t k, cc_error *err) {
    grid_engine *e = ctx;
    int rc = ge_step(ctx, k, err);
    if (!rc && e->step_calls > 1) e->cur.cells[0] ^= 1;
    return rc;
}

#define ENGINE(name_, load_, step_, store_)                                                       \
    {.name = name_, .summary = name_, .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 3}, \
     .create = ge_create, .load = load_, .step = step_, .store = store_, .destroy = ge_destroy}

static const cc_engine engines[] = {
    ENGINE("in-place.right", ge_load, ge_step, ge_store),
    ENGINE("in-place.round-trip", ge_load, ge_step, round_trip_store),
    ENGINE("in-place.write-input", write_input_load, ge_step, ge_store),
    ENGINE("in-place.far-end", ge_load, far_end_step, ge_store),
    ENGINE("in-place.second-call", ge_load, second_call_step, ge_store),
};
static const cc_engine *const table[] = {&engines[0], &engines[1], &engines[2], &engines[3],
                                         &engines[4], NULL};

static cc_case make(int64_t steps) {
    cc_case c;
    memset(&c, 0, sizeof c);
    cc_error err;
    (void)cc_rule_parse("B3/S23", &c.rule, &err);
    c.w = 301;
    c.h = 203;
    c.steps = steps;
    c.density = 0.35;
    for (int i = 0; i < CC_SEED_BYTES; i++) c.seed[i] = (uint8_t)(17 * i + (int)steps);
    return c;
}

static int check(const cc_engine *e, const cc_case *c, double in_place_cells,
                 cc_check_result *res, cc_error *err) {
    cc_check_options opt;
    cc_check_options_init(&opt);
    opt.oracle_budget = 0; /* light cones on both paths */
    opt.pattern_budget = 0; /* the split alone on both paths */
    opt.in_place_cells = in_place_cells;
    return cc_case_check_with(e, c, &opt, res, err);
}

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, table, &sv, &status)) return status;
    checks t = {"check_in_place_test", 0, 0};
    static const struct {
        const char *engine;
        int64_t steps;
        cc_failure_kind want;
    } rows[] = {
        {"in-place.right", 1, CC_FAILURE_NONE},
        {"in-place.right", 3, CC_FAILURE_NONE},
        {"in-place.round-trip", 1, CC_FAILURE_ROUND_TRIP},
        {"in-place.write-input", 1, CC_FAILURE_CONTRACT},
        {"in-place.far-end", 1, CC_FAILURE_MISMATCH},
        {"in-place.far-end", 3, CC_FAILURE_MISMATCH},
        {"in-place.second-call", 3, CC_FAILURE_CALL_PATTERN},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const cc_engine *e = cc_supervisor_find(sv, rows[i].engine);
        if (!CHECKF(&t, e, "%s is not in the table", rows[i].engine)) continue;
        cc_case c = make(rows[i].steps);
        cc_check_result once, thrice;
        cc_error err;
        int rc1 = check(e, &c, 1.0, &once, &err);
        CHECKF(&t, rc1 == CC_OK, "%s in place: %s", rows[i].engine, err.msg);
        int rc3 = check(e, &c, 1e18, &thrice, &err);
        CHECKF(&t, rc3 == CC_OK, "%s held three times: %s", rows[i].engine, err.msg);
        if (rc1 || rc3) continue;
        cc_failure_kind k1 = once.outcome == CC_OUTCOME_FAIL ? once.kind : CC_FAILURE_NONE;
        cc_failure_kind k3 = thrice.outcome == CC_OUTCOME_FAIL ? thrice.kind : CC_FAILURE_NONE;
        CHECKF(&t, k1 == rows[i].want && k3 == rows[i].want,
               "%s, %lld steps: in place '%s' (%s), held three times '%s' (%s), want '%s'",
               rows[i].engine, (long long)c.steps, cc_failure_kind_name(k1), once.detail,
               cc_failure_kind_name(k3), thrice.detail, cc_failure_kind_name(rows[i].want));
        CHECKF(&t, k1 != CC_FAILURE_NONE || (once.lightcone && once.verified == thrice.verified),
               "%s: in place verified %llu cells by light cones (%d), held three times %llu",
               rows[i].engine, (unsigned long long)once.verified, once.lightcone,
               (unsigned long long)thrice.verified);
        printf("%-22s %lld steps: in place %-36s held three times %s\n", rows[i].engine,
               (long long)c.steps, k1 ? once.detail : "passed", k3 ? thrice.detail : "passed");
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
