/* cc_engine_check refuses every parameter outside an engine's caps and names the limit;
 * cc_hardware_required reads CELLCHECK_REQUIRE. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */

#include "engines/engine.h"

#include "oracle/grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing/check.h"

/* A narrow engine: Moore and cross only, r 2..16, M1 only, W multiple of 8 up to 256, H multiple
 * of 4 up to 128, counts up to 300. Never created here; only its caps matter. */
static const cc_engine narrow = {
    .name = "test.narrow",
    .summary = "caps only",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_min = 2,
             .radius_max = 16,
             .centres = CC_CENTRE_M1,
             .w_multiple = 8,
             .h_multiple = 4,
             .w_max = 256,
             .h_max = 128,
             .count_max = 300,
             .limits = "FP16 partial sums"},
};

static const cc_engine general = {
    .name = "test.general",
    .summary = "caps only",
    .hardware = CC_HW_CPU,
    .caps = {.shapes = 0x1f, .radius_min = 1, .radius_max = 64, .centres = 3, .w_multiple = 1,
             .h_multiple = 1},
};

/* A port's limits: square grids, one interval per set, no B0, at most 2^20 cells. */
static const cc_engine port = {
    .name = "test.port",
    .summary = "caps only",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .square_only = 1,
             .s_ranges_max = 1,
             .b_ranges_max = 1,
             .no_b0 = 1,
             .cells_max = 1 << 20},
};

static cc_rule ltl(cc_shape shape, int32_t r, int centre, int32_t slo, int32_t shi, int32_t blo,
                   int32_t bhi) {
    cc_rule rule;
    memset(&rule, 0, sizeof rule);
    rule.shape = shape;
    rule.radius = r;
    rule.centre = centre;
    rule.survive.n = 1;
    rule.survive.r[0] = (cc_range){slo, shi};
    rule.birth.n = 1;
    rule.birth.r[0] = (cc_range){blo, bhi};
    return rule;
}

/* Expects a refusal with CC_ERR_UNSUPPORTED (or want_code) whose message holds every fragment. */
static void expect_refused(checks *t, const cc_engine *e, const cc_rule *rule, int32_t w, int32_t h,
                           int want_code, const char *frag1, const char *frag2, int line) {
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_engine_check(e, rule, w, h, &err);
    if (!CHECKF(t, rc != CC_OK, "line %d: %dx%d accepted, want refusal naming '%s'", line, (int)w,
                (int)h, frag1))
        return;
    printf("refused as expected (line %d): %s\n", line, err.msg);
    CHECKF(t, rc == want_code, "line %d: code %d, want %d (%s)", line, rc, want_code, err.msg);
    CHECKF(t, err.code == rc, "line %d: err.code %d differs from returned %d", line, err.code, rc);
    CHECKF(t, strstr(err.msg, e->name) != NULL, "line %d: message lacks engine name: %s", line,
           err.msg);
    CHECKF(t, strstr(err.msg, frag1) != NULL, "line %d: message lacks '%s': %s", line, frag1,
           err.msg);
    if (frag2)
        CHECKF(t, strstr(err.msg, frag2) != NULL, "line %d: message lacks '%s': %s", line, frag2,
               err.msg);
}

static void expect_accepted(checks *t, const cc_engine *e, const cc_rule *rule, int32_t w,
                            int32_t h, int line) {
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_engine_check(e, rule, w, h, &err);
    CHECKF(t, rc == CC_OK, "line %d: %dx%d refused: %s", line, (int)w, (int)h, err.msg);
}

static void test_check(checks *t) {
    /* Moore r = 2, M1: max count 25. */
    cc_rule ok = ltl(CC_SHAPE_MOORE, 2, 1, 3, 25, 0, 4);
    expect_accepted(t, &narrow, &ok, 8, 8, __LINE__);
    expect_accepted(t, &narrow, &ok, 256, 128, __LINE__);

    cc_rule r17 = ltl(CC_SHAPE_MOORE, 17, 1, 3, 5, 3, 4);
    expect_refused(t, &narrow, &r17, 40, 40, CC_ERR_UNSUPPORTED, "radius 17 is outside 2..16", NULL,
                   __LINE__);
    cc_rule r1 = ltl(CC_SHAPE_MOORE, 1, 1, 3, 5, 3, 4);
    expect_refused(t, &narrow, &r1, 8, 8, CC_ERR_UNSUPPORTED, "radius 1 is outside 2..16", NULL,
                   __LINE__);

    cc_rule vn = ltl(CC_SHAPE_VON_NEUMANN, 2, 1, 1, 3, 1, 2);
    expect_refused(t, &narrow, &vn, 8, 8, CC_ERR_UNSUPPORTED, "NN", "NM,N+", __LINE__);
    cc_rule circ = ltl(CC_SHAPE_CIRCULAR, 2, 1, 1, 3, 1, 2);
    expect_refused(t, &narrow, &circ, 8, 8, CC_ERR_UNSUPPORTED, "NC", "not supported", __LINE__);

    cc_rule m0 = ltl(CC_SHAPE_MOORE, 2, 0, 1, 3, 1, 2);
    expect_refused(t, &narrow, &m0, 8, 8, CC_ERR_UNSUPPORTED, "M0", NULL, __LINE__);

    expect_refused(t, &narrow, &ok, 12, 8, CC_ERR_UNSUPPORTED, "W 12 is not a multiple of 8", NULL,
                   __LINE__);
    expect_refused(t, &narrow, &ok, 8, 10, CC_ERR_UNSUPPORTED, "H 10 is not a multiple of 4", NULL,
                   __LINE__);
    expect_refused(t, &narrow, &ok, 264, 8, CC_ERR_UNSUPPORTED, "W 264", "256", __LINE__);
    expect_refused(t, &narrow, &ok, 8, 132, CC_ERR_UNSUPPORTED, "H 132", "128", __LINE__);

    /* r = 4: 2r+1 = 9; W = 8 is a multiple of 8 but too small. */
    cc_rule r4 = ltl(CC_SHAPE_MOORE, 4, 1, 3, 5, 3, 4);
    expect_refused(t, &narrow, &r4, 8, 16, CC_ERR_UNSUPPORTED, "W 8 is smaller than 2r+1 = 9", NULL,
                   __LINE__);
    expect_refused(t, &narrow, &r4, 16, 8, CC_ERR_UNSUPPORTED, "H 8 is smaller than 2r+1 = 9", NULL,
                   __LINE__);

    /* Moore r = 10 M1: max count 441 > count_max 300. */
    cc_rule big = ltl(CC_SHAPE_MOORE, 10, 1, 100, 441, 3, 4);
    expect_refused(t, &narrow, &big, 24, 24, CC_ERR_UNSUPPORTED, "S range 100..441", "300",
                   __LINE__);
    cc_rule bigb = ltl(CC_SHAPE_MOORE, 10, 1, 3, 4, 250, 301);
    expect_refused(t, &narrow, &bigb, 24, 24, CC_ERR_UNSUPPORTED, "B range 250..301", "300",
                   __LINE__);
    cc_rule fits = ltl(CC_SHAPE_MOORE, 10, 1, 3, 4, 250, 300);
    expect_accepted(t, &narrow, &fits, 24, 24, __LINE__);

    /* An invalid rule is refused whatever the caps: S beyond the largest count (25). */
    cc_rule invalid = ltl(CC_SHAPE_MOORE, 2, 1, 3, 26, 0, 4);
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_engine_check(&general, &invalid, 9, 9, &err);
    CHECKF(t, rc != CC_OK && strstr(err.msg, "25") && strstr(err.msg, "test.general"),
           "invalid rule: rc %d msg %s", rc, err.msg);
    printf("refused as expected: %s\n", err.msg);

    /* The general engine takes odd, prime, non-square sizes down to 2r+1. */
    cc_rule gr = ltl(CC_SHAPE_CIRCULAR, 3, 0, 1, 3, 1, 2);
    expect_accepted(t, &general, &gr, 7, 7, __LINE__);
    expect_accepted(t, &general, &gr, 13, 101, __LINE__);
    expect_refused(t, &general, &gr, 6, 101, CC_ERR_UNSUPPORTED, "W 6 is smaller than 2r+1 = 7",
                   NULL, __LINE__);
    expect_refused(t, &general, &gr, CC_GRID_SIDE_MAX + 1, 7, CC_ERR_UNSUPPORTED, "largest side",
                   NULL, __LINE__);
}

static void test_port_limits(checks *t) {
    cc_rule ok = ltl(CC_SHAPE_MOORE, 1, 0, 2, 3, 3, 3);
    expect_accepted(t, &port, &ok, 1024, 1024, __LINE__);
    expect_refused(t, &port, &ok, 64, 65, CC_ERR_UNSUPPORTED, "grid 64x65 is not square", "W = H",
                   __LINE__);
    expect_refused(t, &port, &ok, 1025, 1025, CC_ERR_UNSUPPORTED, "1050625 cells",
                   "limit of 1048576", __LINE__);
    cc_rule two_s = ok;
    cc_set_add(&two_s.survive, 5, 6, NULL);
    expect_refused(t, &port, &two_s, 64, 64, CC_ERR_UNSUPPORTED, "S has 2 intervals",
                   "more than the 1", __LINE__);
    cc_rule two_b = ok;
    cc_set_add(&two_b.birth, 6, 6, NULL);
    expect_refused(t, &port, &two_b, 64, 64, CC_ERR_UNSUPPORTED, "B has 2 intervals",
                   "more than the 1", __LINE__);
    cc_rule b0 = ltl(CC_SHAPE_MOORE, 1, 0, 2, 3, 0, 3);
    expect_refused(t, &port, &b0, 64, 64, CC_ERR_UNSUPPORTED, "B contains 0", NULL, __LINE__);
    char buf[256];
    cc_engine_describe_caps(&port, buf, sizeof buf);
    printf("%s: %s\n", port.name, buf);
    CHECK_STR(t, buf,
              "shapes NM; r 1..500; M0,M1; any W = H; at most 1048576 cells; S in "
              "at most 1 interval; B in at most 1 interval; no B0");
}

static void test_required(checks *t) {
    unsetenv("CELLCHECK_REQUIRE");
    CHECKF(t, !cc_hardware_required(CC_HW_GPU), "unset: gpu required");
    setenv("CELLCHECK_REQUIRE", "gpu", 1);
    CHECKF(t, cc_hardware_required(CC_HW_GPU), "gpu: gpu not required");
    CHECKF(t, !cc_hardware_required(CC_HW_AMX), "gpu: amx required");
    setenv("CELLCHECK_REQUIRE", "gpu,amx", 1);
    CHECKF(t, cc_hardware_required(CC_HW_GPU), "gpu,amx: gpu not required");
    CHECKF(t, cc_hardware_required(CC_HW_AMX), "gpu,amx: amx not required");
    CHECKF(t, !cc_hardware_required(CC_HW_AVX2), "gpu,amx: avx2 required");
    setenv("CELLCHECK_REQUIRE", "avx512", 1);
    CHECKF(t, cc_hardware_required(CC_HW_AVX512), "avx512 not required");
    CHECKF(t, !cc_hardware_required(CC_HW_AVX2), "avx512 must not match avx2");
    setenv("CELLCHECK_REQUIRE", "avx2", 1);
    CHECKF(t, !cc_hardware_required(CC_HW_AVX512), "avx2 must not match avx512");
    setenv("CELLCHECK_REQUIRE", "gpus,xamx", 1);
    CHECKF(t, !cc_hardware_required(CC_HW_GPU), "gpus must not match gpu");
    CHECKF(t, !cc_hardware_required(CC_HW_AMX), "xamx must not match amx");
    cc_error err = {0};
    CHECKF(t, cc_require_check(&err) == CC_ERR_ARG && strstr(err.msg, "unknown hardware 'gpus'"),
           "gpus,xamx: the typo is not refused by name: %s", err.msg);
    setenv("CELLCHECK_REQUIRE", "", 1);
    CHECKF(t, !cc_hardware_required(CC_HW_GPU), "empty: gpu required");
    CHECKF(t, cc_require_check(&err) == CC_OK, "empty refused: %s", err.msg);
    /* Case aside: GPU is gpu, and blanks and empty items around the names are allowed. */
    setenv("CELLCHECK_REQUIRE", " GPU ,, Amx", 1);
    CHECKF(t, cc_hardware_required(CC_HW_GPU), "' GPU ,, Amx': gpu not required");
    CHECKF(t, cc_hardware_required(CC_HW_AMX), "' GPU ,, Amx': amx not required");
    CHECKF(t, !cc_hardware_required(CC_HW_AVX2), "' GPU ,, Amx': avx2 required");
    CHECKF(t, cc_require_check(&err) == CC_OK, "' GPU ,, Amx' refused: %s", err.msg);
    setenv("CELLCHECK_REQUIRE", "gpu,cuda", 1);
    CHECKF(t, cc_require_check(&err) == CC_ERR_ARG && strstr(err.msg, "unknown hardware 'cuda'"),
           "gpu,cuda: cuda not refused by name: %s", err.msg);
    setenv("CELLCHECK_REQUIRE", "gpu;amx", 1);
    CHECKF(t, cc_require_check(&err) == CC_ERR_ARG && strstr(err.msg, "'gpu;amx'"),
           "gpu;amx: not refused: %s", err.msg);
    unsetenv("CELLCHECK_REQUIRE");

    CHECKF(t, strcmp(cc_hardware_name(CC_HW_GPU), "gpu") == 0, "gpu name");
    CHECKF(t, strcmp(cc_hardware_name(CC_HW_AMX), "amx") == 0, "amx name");
    CHECKF(t, strcmp(cc_hardware_name(CC_HW_CPU), "cpu") == 0, "cpu name");
    CHECKF(t, strcmp(cc_hardware_name(CC_HW_AVX2), "avx2") == 0, "avx2 name");
    CHECKF(t, strcmp(cc_hardware_name(CC_HW_AVX512), "avx512") == 0, "avx512 name");
}

static void test_describe(checks *t) {
    char buf[256];
    cc_engine_describe_caps(&general, buf, sizeof buf);
    printf("%s: %s\n", general.name, buf);
    CHECKF(t, strcmp(buf, "shapes NM,NN,N+,NC,NH; r 1..64; M0,M1; any W, H") == 0, "got '%s'", buf);
    cc_engine_describe_caps(&narrow, buf, sizeof buf);
    printf("%s: %s\n", narrow.name, buf);
    CHECKF(t,
           strcmp(buf,
                  "shapes NM,N+; r 2..16; M1; W multiple of 8 up to 256, H multiple of 4 up "
                  "to 128; counts up to 300; FP16 partial sums") == 0,
           "got '%s'", buf);
    char tiny[8];
    cc_engine_describe_caps(&narrow, tiny, sizeof tiny);
    CHECKF(t, strlen(tiny) == 7, "truncated description '%s'", tiny);
    /* No registry in this binary: nothing to find. */
    CHECKF(t, cc_engine_find("cpu.ref") == NULL, "found an engine without a registry");
}

/* The load and step checks: hand-written messages, the first bad cell named. */
static void test_cells_and_steps(checks *t) {
    cc_error err;
    const uint8_t good[4] = {0, 1, 1, 0};
    cc_error_clear(&err);
    CHECK_EQ(t, cc_engine_check_cells("test.general", good, 4, &err), CC_OK);
    CHECK_EQ(t, cc_engine_check_cells("test.general", good, 0, &err), CC_OK);

    const uint8_t bad[5] = {1, 0, 2, 1, 255};
    cc_error_clear(&err);
    CHECK_EQ(t, cc_engine_check_cells("test.general", bad, 5, &err), CC_ERR_ARG);
    CHECK_EQ(t, err.code, CC_ERR_ARG);
    CHECK_STR(t, err.msg, "test.general: cell 2 is 2, not 0 or 1");
    cc_error_clear(&err);
    CHECK_EQ(t, cc_engine_check_cells("test.general", bad, 2, &err), CC_OK);

    cc_error_clear(&err);
    CHECK_EQ(t, cc_engine_check_steps("test.general", 0, &err), CC_OK);
    CHECK_EQ(t, cc_engine_check_steps("test.general", INT64_MAX, &err), CC_OK);
    CHECK_EQ(t, cc_engine_check_steps("test.general", -3, &err), CC_ERR_ARG);
    CHECK_EQ(t, err.code, CC_ERR_ARG);
    CHECK_STR(t, err.msg, "test.general: negative step count -3");
}

/* A port whose von Neumann path is safe up to r = 4 on rows up to 65536 cells, whose circular
 * one starts at r = 2 and takes at most 2^20 cells, and whose Moore one takes the engine-wide
 * limits (r 1..16, any side). */
static const cc_engine per_shape = {
    .name = "test.per-shape",
    .summary = "caps only",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |
                       CC_SHAPE_BIT(CC_SHAPE_CIRCULAR),
             .radius_max = 16,
             .shape_limits = {[CC_SHAPE_VON_NEUMANN] = {.radius_max = 4, .w_max = 65536},
                              [CC_SHAPE_CIRCULAR] = {.radius_min = 2, .radius_max = 40,
                                                     .cells_max = 1 << 20}}},
};

static void test_shape_limits(checks *t) {
    /* Moore: the engine's limits alone. */
    cc_rule m16 = ltl(CC_SHAPE_MOORE, 16, 0, 100, 200, 100, 150);
    expect_accepted(t, &per_shape, &m16, 70000, 33, __LINE__);
    /* Von Neumann: up to r = 4, and W up to 65536, H any. */
    cc_rule vn4 = ltl(CC_SHAPE_VON_NEUMANN, 4, 0, 10, 20, 10, 15);
    expect_accepted(t, &per_shape, &vn4, 65536, 11, __LINE__);
    expect_accepted(t, &per_shape, &vn4, 11, 70000, __LINE__);
    cc_rule vn5 = ltl(CC_SHAPE_VON_NEUMANN, 5, 0, 10, 20, 10, 15);
    expect_refused(t, &per_shape, &vn5, 131072, 11, CC_ERR_UNSUPPORTED,
                   "radius 5 is outside 1..4, the radii of neighbourhood NN",
                   "caps.shape_limits[NN]", __LINE__);
    expect_refused(t, &per_shape, &vn4, 65537, 11, CC_ERR_UNSUPPORTED,
                   "W 65537 is above 65536, this engine's limit for neighbourhood NN",
                   "caps.shape_limits[NN]", __LINE__);
    /* Circular: r 2..16 (its 40 cannot widen the engine's 16), at most 2^20 cells. */
    cc_rule c1 = ltl(CC_SHAPE_CIRCULAR, 1, 0, 1, 3, 1, 2);
    expect_refused(t, &per_shape, &c1, 9, 9, CC_ERR_UNSUPPORTED, "radius 1 is outside 2..16",
                   "neighbourhood NC", __LINE__);
    cc_rule c17 = ltl(CC_SHAPE_CIRCULAR, 17, 0, 1, 3, 1, 2);
    expect_refused(t, &per_shape, &c17, 40, 40, CC_ERR_UNSUPPORTED, "radius 17 is outside 1..16",
                   NULL, __LINE__);
    cc_rule c2 = ltl(CC_SHAPE_CIRCULAR, 2, 0, 1, 3, 1, 2);
    expect_accepted(t, &per_shape, &c2, 1024, 1024, __LINE__);
    expect_refused(t, &per_shape, &c2, 1025, 1024, CC_ERR_UNSUPPORTED, "1049600 cells",
                   "above 1048576, this engine's limit for neighbourhood NC", __LINE__);

    /* Resolved: each shape's limits as they stand; for one shape, that shape's. */
    cc_engine_caps all = cc_engine_caps_resolved(&per_shape);
    CHECK_EQ(t, all.shape_limits[CC_SHAPE_MOORE].radius_max, 16);
    CHECK_EQ(t, all.shape_limits[CC_SHAPE_MOORE].w_max, 0);
    CHECK_EQ(t, all.shape_limits[CC_SHAPE_VON_NEUMANN].radius_max, 4);
    CHECK_EQ(t, all.shape_limits[CC_SHAPE_CIRCULAR].radius_min, 2);
    CHECK_EQ(t, all.shape_limits[CC_SHAPE_CIRCULAR].radius_max, 16);
    cc_engine_caps vn = cc_engine_caps_for_shape(&all, CC_SHAPE_VON_NEUMANN);
    CHECK(t, vn.radius_min == 1 && vn.radius_max == 4 && vn.w_max == 65536 && vn.h_max == 0);
    cc_engine_caps nc = cc_engine_caps_for_shape(&all, CC_SHAPE_CIRCULAR);
    CHECK(t, nc.radius_min == 2 && nc.radius_max == 16 && nc.cells_max == 1 << 20);
    CHECK(t, !cc_engine_caps_shape_narrowed(&all, CC_SHAPE_MOORE));
    CHECK(t, cc_engine_caps_shape_narrowed(&all, CC_SHAPE_VON_NEUMANN));
    CHECK(t, cc_engine_caps_shape_narrowed(&all, CC_SHAPE_CIRCULAR));

    char buf[256];
    cc_engine_describe_caps(&per_shape, buf, sizeof buf);
    printf("%s: %s\n", per_shape.name, buf);
    CHECK_STR(t, buf,
              "shapes NM,NN,NC; r 1..16; M0,M1; any W, H; NN r 1..4, W up to 65536; NC r 2..16, "
              "at most 1048576 cells");

    /* Caps that contradict themselves are refused by name. */
    cc_error err;
    CHECK_EQ(t, cc_engine_caps_check(&per_shape, &err), CC_OK);
    CHECK_EQ(t, cc_engine_caps_check(&narrow, &err), CC_OK);
    cc_engine bad = per_shape;
    bad.caps.shape_limits[CC_SHAPE_VON_NEUMANN].w_max = -1;
    CHECK_EQ(t, cc_engine_caps_check(&bad, &err), CC_ERR_ARG);
    CHECKF(t, strstr(err.msg, "negative cap shape_limits[NN].w_max = -1") != NULL, "%s", err.msg);
    bad = per_shape;
    bad.caps.shape_limits[CC_SHAPE_VON_NEUMANN].radius_min = 5;
    CHECK_EQ(t, cc_engine_caps_check(&bad, &err), CC_ERR_ARG);
    CHECKF(t, strstr(err.msg, "shape_limits[NN] leave NN no radius (r 5..4") != NULL, "%s",
           err.msg);
    bad = per_shape;
    bad.caps.shapes |= CC_SHAPE_BIT(CC_SHAPE_HEX);
    bad.caps.shape_limits[CC_SHAPE_HEX].radius_min = 2;
    CHECK_EQ(t, cc_engine_caps_check(&bad, &err), CC_ERR_ARG);
    CHECKF(t, strstr(err.msg, "hex is r = 1 only") != NULL, "%s", err.msg);
    /* A limit of a shape the engine lacks says nothing; its own check still holds. */
    bad = per_shape;
    bad.caps.shape_limits[CC_SHAPE_CROSS].radius_max = 3;
    CHECK_EQ(t, cc_engine_caps_check(&bad, &err), CC_OK);
    bad = per_shape;
    bad.caps.radius_max = -2;
    CHECK_EQ(t, cc_engine_caps_check(&bad, &err), CC_ERR_ARG);
    CHECKF(t, strstr(err.msg, "negative cap radius_max = -2") != NULL, "%s", err.msg);
}

int main(void) {
    checks t = {"engine_test", 0, 0};
    test_shape_limits(&t);
    test_check(&t);
    test_required(&t);
    test_describe(&t);
    test_port_limits(&t);
    test_cells_and_steps(&t);
    return check_summary(&t);
}
