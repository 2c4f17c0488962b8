/* The golden catalogue: the oracle reproduces every committed hash and snapshot, and the committed
 * catalogue is the one in force; hand-checked results (patterns, uniform grids) agree with the
 * committed hashes computed here directly with crypto_generichash; engines are verified and their
 * unsupported cases skipped. What verify detects and refuses: golden_verify_test.c; update:
 * golden_update_test.c. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "golden/golden.h"
#include "golden/test_trees.h"
#include "harness/harness.h"
#include "oracle/gridio.h"
#include "oracle/oracle.h"
#include "testing/check.h"

/* crypto_generichash of bytes, computed here directly. */
static void direct_hash(const uint8_t *bytes, size_t len, char hex[GOLDEN_HASH_HEX]) {
    unsigned char digest[32];
    crypto_generichash(digest, sizeof digest, bytes, len, NULL, 0);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

static void uniform_hash(size_t cells, uint8_t value, char hex[GOLDEN_HASH_HEX]) {
    uint8_t *bytes = malloc(cells);
    memset(bytes, value, cells);
    direct_hash(bytes, cells, hex);
    free(bytes);
}

/* The glider bo$2bo$3o! shifted by (sx, sy) on a w x h torus. */
static void glider_at(cc_grid *g, int32_t w, int32_t h, int32_t sx, int32_t sy) {
    static const int32_t cells[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
    cc_error err = {0};
    cc_grid_alloc(g, w, h, &err);
    for (int i = 0; i < 5; i++) g->cells[((cells[i][1] + sy) % h) * w + (cells[i][0] + sx) % w] = 1;
}

static void test_oracle_reproduces_committed(checks *t) {
    golden_catalogue cat;
    cc_error err = {0};
    if (!CHECKF(t, golden_open(CATALOGUE, &cat, stdout, &err) == CC_OK,
                "opening the catalogue in force: %s", err.msg))
        return;
    /* A committed edit of catalogue.txt without its update would leave its cases unchecked. */
    CHECKF(t, !cat.edited,
           "golden/catalogue.txt is not the catalogue in force: run `cellcheck golden update` and "
           "commit what it writes");
    CHECKF(t, cat.count >= 40, "the catalogue has only %zu cases", cat.count);
    golden_report report;
    int rc = golden_verify_oracle(&cat, stdout, &report, &err);
    CHECKF(t, rc == CC_OK, "golden verify: %s", err.msg);
    CHECKF(t, report.passed == cat.count && report.failed == 0, "%zu of %zu passed", report.passed,
           cat.count);
    size_t snapshots = 0;
    for (size_t i = 0; i < cat.count; i++) snapshots += golden_has_snapshot(&cat.entries[i]);
    CHECKF(t, snapshots >= 20 && snapshots == count_files(IN_FORCE "/snapshots"),
           "%zu snapshots expected, %zu files", snapshots, count_files(IN_FORCE "/snapshots"));
    printf("oracle reproduces %zu committed hashes and %zu snapshots\n", report.passed, snapshots);
    golden_free(&cat);
}

static void expect_result(checks *t, const golden_catalogue *cat, const char *name,
                          const cc_grid *expected) {
    const golden_entry *e = entry(t, cat, name);
    if (!e) return;
    cc_grid result;
    cc_error err = {0};
    if (!CHECKF(t, golden_oracle_result(cat, e, &result, &err) == CC_OK, "%s: %s", name, err.msg))
        return;
    CHECKF(t, cc_grid_equal(&result, expected),
           "%s: the oracle's result is not the hand-built grid", name);
    char want[GOLDEN_HASH_HEX], have[GOLDEN_HASH_HEX];
    direct_hash(expected->cells, cc_grid_cells(expected), want);
    CHECKF(t, committed_hash(name, have) == 0 && strcmp(want, have) == 0,
           "%s: committed hash is not the hash of the hand-built grid", name);
    cc_grid_free(&result);
}

static void expect_uniform(checks *t, const char *name, size_t cells, uint8_t value) {
    char want[GOLDEN_HASH_HEX], have[GOLDEN_HASH_HEX];
    uniform_hash(cells, value, want);
    CHECKF(t, committed_hash(name, have) == 0 && strcmp(want, have) == 0,
           "%s: committed hash is not the hash of %zu cells all %s", name, cells,
           value ? "alive" : "dead");
}

static void test_hand_checked(checks *t) {
    golden_catalogue cat;
    cc_error err = {0};
    if (!CHECKF(t, golden_load(CATALOGUE, &cat, &err) == CC_OK, "loading the catalogue: %s",
                err.msg))
        return;
    cc_grid g;
    /* A glider moves (1, 1) every 4 steps. */
    glider_at(&g, 8, 8, 1, 1);
    expect_result(t, &cat, "life_glider_8x8", &g);
    cc_grid_free(&g);
    /* 44 steps: (11, 11), which is (1, 4) on a 10 x 7 torus, across both edges. */
    glider_at(&g, 10, 7, 1, 4);
    expect_result(t, &cat, "life_glider_10x7_wrap", &g);
    cc_grid_free(&g);
    /* The blinker starts as a row at y = 1 and has period 2: after 3 steps it is a column. */
    cc_grid_alloc(&g, 5, 5, &err);
    g.cells[0 * 5 + 1] = g.cells[1 * 5 + 1] = g.cells[2 * 5 + 1] = 1;
    expect_result(t, &cat, "life_blinker_5x5", &g);
    cc_grid_free(&g);

    /* Uniform grids: dead stays dead; all-alive Life dies (8 neighbours); Majority keeps all 80;
     * Bosco M1 all alive counts 121 > 58 and dies; birth on 0 fills a dead grid. */
    expect_uniform(t, "life_dead_16x16", 16 * 16, 0);
    expect_uniform(t, "life_alive_16x16", 16 * 16, 0);
    expect_uniform(t, "table6_r16_dead_33x33", 33 * 33, 0);
    expect_uniform(t, "majority_r04_alive_20x20", 20 * 20, 1);
    expect_uniform(t, "bosco_m1_alive_24x24", 24 * 24, 0);
    expect_uniform(t, "birth0_dead_9x9", 9 * 9, 1);

    /* At 33 x 33 and r = 16 every cell sees the whole torus: with P alive, a live cell counts
     * P-1, a dead one P. Tangy Ramen (S170..296, B170..300) makes everything alive when
     * 171 <= P <= 296. */
    const golden_entry *e = entry(t, &cat, "table6_r16_33x33");
    if (e && golden_initial_grid(&cat, e, &g, &err) == CC_OK) {
        size_t p = cc_grid_population(&g);
        CHECKF(t, p >= 171 && p <= 296 && e->steps == 1, "table6_r16_33x33: population %zu", p);
        expect_uniform(t, "table6_r16_33x33", 33 * 33, 1);
        cc_grid_free(&g);
    }

    /* Life as B3/S23 (M0) and as M1 S3..4 B3 is the same rule: same seed, same hash. */
    char m0[GOLDEN_HASH_HEX], m1[GOLDEN_HASH_HEX];
    CHECKF(t,
           committed_hash("life_m0_40x40", m0) == 0 && committed_hash("life_m1_40x40", m1) == 0 &&
               strcmp(m0, m1) == 0,
           "Life under M0 and M1 disagree");
    e = entry(t, &cat, "life_m0_40x40");
    if (e && golden_oracle_result(&cat, e, &g, &err) == CC_OK) {
        CHECKF(t, cc_grid_population(&g) > 0, "life_m0_40x40 died out: a weak check");
        cc_grid_free(&g);
    }

    /* Zero steps: the result is the initial grid. */
    e = entry(t, &cat, "table6_r08_zero_steps_64x64");
    cc_grid initial;
    if (e && golden_initial_grid(&cat, e, &initial, &err) == CC_OK) {
        CHECKF(t, cc_grid_population(&initial) > 0, "zero-step case starts empty");
        expect_result(t, &cat, "table6_r08_zero_steps_64x64", &initial);
        cc_grid_free(&initial);
    }

    /* golden_hash_grid is crypto_generichash over the cells, nothing else. */
    cc_grid_alloc(&g, 7, 3, &err);
    for (int i = 0; i < 21; i++) g.cells[i] = (uint8_t)(i % 3 == 0);
    char via_golden[GOLDEN_HASH_HEX], direct[GOLDEN_HASH_HEX];
    golden_hash_grid(&g, via_golden);
    direct_hash(g.cells, 21, direct);
    CHECKF(t, strcmp(via_golden, direct) == 0, "golden_hash_grid %s, direct %s", via_golden,
           direct);
    cc_grid_free(&g);
    golden_free(&cat);
    printf("hand-checked results agree\n");
}

/* A test engine over the oracle: Moore only, r 1..2, M0 only; "lazy" never steps. */
typedef struct oracle_engine {
    cc_rule rule;
    cc_grid grid;
    int lazy;
} oracle_engine;

static int oe_available(cc_error *err) {
    (void)err;
    return CC_OK;
}

static int oe_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    oracle_engine *e = ctx;
    memcpy(e->grid.cells, cells, cc_grid_cells(&e->grid));
    return CC_OK;
}

static int oe_step(void *ctx, int64_t k, cc_error *err) {
    oracle_engine *e = ctx;
    return e->lazy ? CC_OK : oracle_run(&e->rule, &e->grid, k, err);
}

static int oe_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    oracle_engine *e = ctx;
    memcpy(cells, e->grid.cells, cc_grid_cells(&e->grid));
    return CC_OK;
}

static void oe_destroy(void *ctx) {
    oracle_engine *e = ctx;
    cc_grid_free(&e->grid);
    free(e);
}

extern const cc_engine test_good_engine, test_lazy_engine;

static int oe_create(const cc_engine *self, int lazy, const cc_rule *rule, int32_t w, int32_t h,
                     void **ctx, cc_error *err) {
    int rc = cc_engine_check(self, rule, w, h, err);
    if (rc) return rc;
    oracle_engine *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "test engine");
    if ((rc = cc_grid_alloc(&e->grid, w, h, err))) {
        free(e);
        return rc;
    }
    e->rule = *rule;
    e->lazy = lazy;
    *ctx = e;
    return CC_OK;
}

static int good_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return oe_create(&test_good_engine, 0, rule, w, h, ctx, err);
}

static int lazy_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return oe_create(&test_lazy_engine, 1, rule, w, h, ctx, err);
}

#define TEST_ENGINE(NAME, SUMMARY, CREATE)                                                         \
    {                                                                                              \
        .name = NAME, .summary = SUMMARY, .hardware = CC_HW_CPU,                                   \
        .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),                                           \
                 .radius_min = 1,                                                                  \
                 .radius_max = 2,                                                                  \
                 .centres = CC_CENTRE_M0,                                                          \
                 .w_multiple = 1,                                                                  \
                 .h_multiple = 1},                                                                 \
        .available = oe_available, .create = CREATE, .load = oe_load, .step = oe_step,             \
        .store = oe_store, .destroy = oe_destroy                                                   \
    }
const cc_engine test_good_engine =
    TEST_ENGINE("test.good", "the oracle, Moore r 1..2 M0", good_create);

const cc_engine test_lazy_engine = TEST_ENGINE("test.lazy", "never steps", lazy_create);

static int test_supports(const golden_entry *e) {
    return e->rule.shape == CC_SHAPE_MOORE && e->rule.radius <= 2 && !e->rule.centre &&
           e->rule.topology == CC_TOPOLOGY_TORUS; /* the test engines state the torus */
}

static void test_engines(checks *t, const cc_engine *good, const cc_engine *lazy) {
    golden_catalogue cat;
    cc_error err = {0};
    if (!CHECKF(t, golden_open(CATALOGUE, &cat, stdout, &err) == CC_OK, "opening the catalogue: %s",
                err.msg))
        return;
    /* The lazy engine fails exactly the supported cases whose result differs from their start. */
    size_t supported = 0, changing = 0;
    for (size_t i = 0; i < cat.count; i++) {
        const golden_entry *e = &cat.entries[i];
        if (!test_supports(e)) continue;
        supported++;
        cc_grid start, end;
        if (golden_initial_grid(&cat, e, &start, &err) == CC_OK) {
            if (golden_oracle_result(&cat, e, &end, &err) == CC_OK) {
                changing += !cc_grid_equal(&start, &end);
                cc_grid_free(&end);
            }
            cc_grid_free(&start);
        }
    }
    golden_report report;
    int rc = golden_verify_engine(&cat, good, stdout, &report, &err);
    CHECKF(t, rc == CC_OK, "an engine equal to the oracle failed: %s", err.msg);
    CHECKF(t,
           report.checked == supported && report.passed == supported &&
               report.unsupported == cat.count - supported,
           "good engine: %zu checked, %zu passed, %zu unsupported; expected %zu supported of %zu",
           report.checked, report.passed, report.unsupported, supported, cat.count);
    printf("-- the lazy engine's failures:\n");
    rc = golden_verify_engine(&cat, lazy, stdout, &report, &err);
    CHECKF(t, rc == CC_ERR_MISMATCH && report.failed == changing && changing > 10,
           "an engine that never steps: rc %d, %zu failed of %zu, expected %zu", rc, report.failed,
           report.checked, changing);
    golden_free(&cat);
    printf("engines verified, unsupported cases skipped\n");
}

int main(int argc, char **argv) {
    /* The test engines run in workers of this executable, as every engine does. */
    const cc_engine *const tables[] = {&test_good_engine, &test_lazy_engine, NULL};
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    checks t = {"golden_test", 0, 0};
    test_oracle_reproduces_committed(&t);
    test_hand_checked(&t);
    test_engines(&t, cc_supervised(sv, &test_good_engine), cc_supervised(sv, &test_lazy_engine));
    cc_supervisor_close(sv);
    return check_summary(&t);
}
