/* Shrinking keeps a failure's meaning: a test engine that misreads one count near the top fails
 * on rules that tell the counts apart, and the shrunk case still tells them apart and still fails.
 * The engine runs in a worker of this executable: the harness is given its supervisor's
 * description. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, access */

#include "harness/campaign.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/mutants/mutants.h"
#include "harness/harness.h"
#include "testing/check.h"

#define CAMPAIGN_TEST_NAME "shrink_test"
#include "harness/tests_shared.h"

/* A test-local engine: Moore, r 1..16, M1, right except that a count of the largest less two is
 * read as the largest less one. Only rules that tell those two counts apart show it. */
typedef struct near_top {
    cc_rule rule;
    int32_t w, h;
    uint8_t *cells, *spare;
} near_top;

static const cc_engine near_top_engine;

static int near_top_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    size_t n = (size_t)w * (size_t)h;
    near_top *e = malloc(sizeof *e);
    uint8_t *cells = calloc(n, 1), *spare = calloc(n, 1);
    if (!e || !cells || !spare) {
        free(e), free(cells), free(spare);
        return cc_fail(err, CC_ERR_NOMEM, "test.near-top: no memory for %dx%d", (int)w, (int)h);
    }
    *e = (near_top){.rule = *rule, .w = w, .h = h, .cells = cells, .spare = spare};
    *ctx = e;
    return CC_OK;
}

/* Load and store: the grid in or out, whole. */
static int near_top_copy(const near_top *e, uint8_t *to, const uint8_t *from) {
    memcpy(to, from, (size_t)e->w * (size_t)e->h);
    return CC_OK;
}

static int near_top_load(void *ctx, const uint8_t *cells, cc_error *err) {
    return (void)err, near_top_copy(ctx, ((near_top *)ctx)->cells, cells);
}

static int near_top_store(void *ctx, uint8_t *cells, cc_error *err) {
    return (void)err, near_top_copy(ctx, cells, ((near_top *)ctx)->cells);
}

static int near_top_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    near_top *e = ctx;
    int32_t r = e->rule.radius, top = cc_rule_max_count(&e->rule);
    for (int64_t s = 0; s < k; s++) {
        for (int32_t y = 0; y < e->h; y++)
            for (int32_t x = 0; x < e->w; x++) {
                int32_t count = 0; /* M1: the centre counts */
                for (int32_t dy = -r; dy <= r; dy++)
                    for (int32_t dx = -r; dx <= r; dx++)
                        count += e->cells[(size_t)((y + dy + e->h) % e->h) * (size_t)e->w +
                                          (size_t)((x + dx + e->w) % e->w)];
                if (count == top - 2) count = top - 1; /* the mistake */
                uint8_t was = e->cells[(size_t)y * (size_t)e->w + (size_t)x];
                e->spare[(size_t)y * (size_t)e->w + (size_t)x] =
                    (uint8_t)cc_set_has(was ? &e->rule.survive : &e->rule.birth, count);
            }
        uint8_t *t = e->cells;
        e->cells = e->spare;
        e->spare = t;
    }
    return CC_OK;
}

static void near_top_destroy(void *ctx) {
    if (ctx) free(((near_top *)ctx)->cells), free(((near_top *)ctx)->spare);
    free(ctx);
}

static const cc_engine near_top_engine = {
    .name = "test.near-top",
    .summary = "a count of max-2 read as max-1",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 16, .centres = CC_CENTRE_M1},
    .create = near_top_create,
    .load = near_top_load,
    .step = near_top_step,
    .store = near_top_store,
    .destroy = near_top_destroy,
};

static void test_shrink_keeps_meaning(checks *t) {
    /* By hand: at R64, M1 the largest count is 129^2 = 16641; at R1, 9 (half 4). */
    static const struct {
        const char *rule;
        int32_t radius;
        const char *want;
    } maps[] = {
        {"R64,C2,M1,S0..16639,B16641..16641,NM", 1, "R1,C2,M1,S0..7,B9..9,NM"},
        {"R64,C2,M1,S3..16640,B0..2,NM", 1, "R1,C2,M1,S3..8,B0..2,NM"},
        {"R64,C2,M1,S8000..8400,B100..9000,NM", 1, "R1,C2,M1,S4..5,B4..5,NM"},
        {"R5,C2,M0,S34..58,B34..45,NM", 2, "R2,C2,M0,S12..12,B12..12,NM"},
        {"R3,C2,M1,S2..9,B3..4,N+", 1, "R1,C2,M1,S2..3,B2..2,N+"},
    };
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        cc_rule rule;
        cc_error err;
        if (!CHECKF(t, cc_rule_parse(maps[k].rule, &rule, &err) == CC_OK, "%s: %s", maps[k].rule,
                    err.msg))
            continue;
        cc_rule at = cc_rule_at_radius(&rule, maps[k].radius);
        char got[CC_RULE_TEXT_MAX] = "";
        cc_rule_print(&at, got, sizeof got, NULL);
        cc_rule want;
        CHECKF(t, cc_rule_parse(maps[k].want, &want, &err) == CC_OK && cc_rule_equal(&at, &want),
               "%s at r %d: %s, want %s", maps[k].rule, (int)maps[k].radius, got, maps[k].want);
    }

    /* A failure only a rule that ends just below the top shows: S0..max-2 at R12 (max 625) on a
     * nearly full grid, where some windows hold exactly two dead cells. Clamping S0..623 to a
     * smaller radius's largest count made it "every count", and the failure vanished at every
     * smaller radius; kept at the top, it shrinks. */
    const char *line = "rule=R12,C2,M1,S0..623,B625..625,NM size=25x27 steps=1 density=0.9970 "
                       "seed=5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";
    cc_case c;
    cc_error err;
    if (!CHECKF(t, case_parse(line, &c, &err) == CC_OK, "%s", err.msg)) return;
    const cc_engine *near_top = described(&near_top_engine);
    cc_check_result res;
    int rc = cc_case_check(near_top, &c, &res, &err);
    if (!CHECKF(t, rc == CC_OK && res.kind == CC_FAILURE_MISMATCH, "near-top at R12: %s %s",
                cc_failure_kind_name(res.kind), res.detail))
        return;
    cc_case smallest;
    int tries = 0;
    rc = cc_case_shrink(near_top, &c, CC_FAILURE_MISMATCH, CC_PATTERN_ONE_CALL, 200,
                        CC_SHRINK_BUDGET_S, &smallest, &tries, &err);
    char text[CC_CASE_TEXT_MAX] = "";
    case_format(&smallest, text, sizeof text, NULL);
    printf("near-top: %s\n  shrunk in %d tries to %s\n", line, tries, text);
    int32_t top = cc_rule_max_count(&smallest.rule);
    const cc_set *sv = &smallest.rule.survive;
    CHECKF(t, rc == CC_OK && smallest.rule.radius < 12, "near-top: radius not shrunk: %s", text);
    CHECKF(t, sv->n == 1 && sv->r[0].lo == 0 && sv->r[0].hi == top - 2,
           "near-top: S no longer ends at the largest count less two: %s", text);
    rc = cc_case_check(near_top, &smallest, &res, &err);
    CHECKF(t, rc == CC_OK && res.kind == CC_FAILURE_MISMATCH, "near-top: shrunk case passes: %s",
           text);
}

int main(int argc, char **argv) {
    const cc_engine *tables[] = {&near_top_engine, NULL};
    int status;
    if (cc_harness_supervise(argc, argv, tables, &supervisor, &status)) return status;
    checks t = {"shrink_test", 0, 0};
    test_shrink_keeps_meaning(&t);
    cc_supervisor_close(supervisor);
    return check_summary(&t);
}
