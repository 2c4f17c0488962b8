/* Light cones against the whole-grid oracle: on the oracle's own final grid they find nothing
 * (so the windows, their wrapping and their margins are right, for windows narrower than the
 * grid and for windows that take a whole side); on a grid with one wrong cell in a block they
 * find exactly that cell; and the seam classes are the ones the geometry has. */
#include <stdio.h>
#include <string.h>

#include "harness/lightcone.h"
#include "oracle/oracle.h"
#include "testing/check.h"

static int make_case(const char *rule, int32_t w, int32_t h, int64_t steps, uint8_t seed_byte,
                     cc_case *c, cc_grid *initial, cc_grid *final, cc_error *err) {
    memset(c, 0, sizeof *c);
    int rc = cc_rule_parse(rule, &c->rule, err);
    if (rc) return rc;
    c->w = w;
    c->h = h;
    c->steps = steps;
    c->density = 0.35;
    memset(c->seed, seed_byte, sizeof c->seed);
    if ((rc = case_grid(c, initial, err))) return rc;
    if ((rc = cc_grid_copy(final, initial, err))) return rc;
    return oracle_run(&c->rule, final, steps, err);
}

static void test_agrees_with_oracle(checks *t) {
    static const struct {
        const char *rule;
        int32_t w, h;
        int64_t steps;
        int32_t tile;
    } cases[] = {
        {"B3/S23", 300, 211, 4, 64},                    /* windows narrower than both sides */
        {"R2,C2,M1,S3..12,B4..9,NM", 97, 45, 3, 16},    /* window takes the whole height */
        {"R5,C2,M0,S34..58,B34..45,NM", 23, 400, 2, 0}, /* the whole width, no tiles */
        {"R3,C2,M0,S5..9,B4..6,NN", 130, 130, 0, 32},   /* zero steps: the block itself */
        {"B2/S34H", 77, 66, 7, 8},
        {"R4,C2,M1,S8..20,B6..11,NC", 150, 61, 5, 0},
        {"R1,C2,M0,S2..3,B3..3,N+", 1025, 3, 6, 224},
        /* The bounded plane: windows that reach an edge stop there, and what lies past it stays
         * dead; a window that wrapped would read live cells from the far side. */
        {"B3/S23:P", 300, 211, 4, 64},
        {"R2,C2,M1,S3..12,B4..9,NM:P", 97, 45, 3, 16},
        {"R3,C2,M0,S5..9,B4..6,NN:P", 200, 150, 6, 32},
        {"R1,C2,M0,S2..3,B3..3,N+:P", 1025, 3, 6, 224},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cc_case c;
        cc_grid initial = {0}, final = {0};
        cc_error err;
        if (!CHECKF(t, make_case(cases[i].rule, cases[i].w, cases[i].h, cases[i].steps,
                                 (uint8_t)(17 * i + 3), &c, &initial, &final, &err) == CC_OK,
                    "case %zu: %s", i, err.msg))
            continue;
        cc_lightcone_options opt = {.tile_w = cases[i].tile, .tile_h = cases[i].tile,
                                    .cells_target = 20000};
        cc_lightcone_result res;
        CHECKF(t, cc_lightcone_verify(&c, &initial, &final, &opt, &res, &err) == CC_OK,
               "case %zu: %s", i, err.msg);
        CHECKF(t, res.differing == 0,
               "case %zu (%s %dx%d, %lld steps): %llu false mismatches, first (%d,%d)", i,
               cases[i].rule, (int)c.w, (int)c.h, (long long)c.steps,
               (unsigned long long)res.differing, (int)res.x, (int)res.y);
        CHECKF(t, res.cells >= 20000 || res.cells >= (uint64_t)c.w * (uint64_t)c.h,
               "case %zu: only %llu cells verified", i, (unsigned long long)res.cells);
        uint32_t want = CC_SEAM_TORUS_CORNER | CC_SEAM_TORUS_X | CC_SEAM_TORUS_Y |
                        CC_SEAM_FAR_END | CC_SEAM_RANDOM;
        if (cases[i].tile && cases[i].tile < c.w) want |= CC_SEAM_TILE_X;
        if (cases[i].tile && cases[i].tile < c.h) want |= CC_SEAM_TILE_Y;
        if (cases[i].tile && cases[i].tile < c.w && cases[i].tile < c.h)
            want |= CC_SEAM_TILE_CORNER;
        CHECKF(t, res.classes == want, "case %zu: classes %#x, want %#x", i,
               (unsigned)res.classes, (unsigned)want);
        cc_grid_free(&initial);
        cc_grid_free(&final);
    }
}

/* One wrong cell at the far end (the largest offset, where 32-bit index arithmetic breaks) and
 * one on a tile seam: both are in blocks every plan checks. */
static void test_finds_wrong_cells(checks *t) {
    cc_case c;
    cc_grid initial = {0}, final = {0};
    cc_error err;
    if (!CHECKF(t, make_case("B3/S23", 640, 480, 3, 9, &c, &initial, &final, &err) == CC_OK,
                "%s", err.msg))
        return;
    cc_lightcone_options opt = {.tile_w = 128, .tile_h = 96, .cells_target = 4096};
    cc_lightcone_result res;
    size_t last = (size_t)640 * 480 - 1;
    final.cells[last] ^= 1;
    CHECK(t, cc_lightcone_verify(&c, &initial, &final, &opt, &res, &err) == CC_OK);
    /* The torus-corner block holds it too, so it may be counted twice. */
    CHECKF(t, res.differing >= 1 && res.x == 639 && res.y == 479,
           "far end: %llu differing, first (%d,%d)", (unsigned long long)res.differing,
           (int)res.x, (int)res.y);
    CHECK_EQ(t, res.oracle_value, final.cells[last] ^ 1);
    final.cells[last] ^= 1;
    /* Column 384 is the third seam between 128-wide tiles; its block is 16 wide, centred on it,
     * at a row drawn from the seed: flip the whole column so the row does not matter. */
    for (int32_t y = 0; y < 480; y++) final.cells[(size_t)y * 640 + 384] ^= 1;
    CHECK(t, cc_lightcone_verify(&c, &initial, &final, &opt, &res, &err) == CC_OK);
    CHECKF(t, res.differing >= 16, "tile seam column: %llu differing",
           (unsigned long long)res.differing);
    cc_grid_free(&initial);
    cc_grid_free(&final);
}

/* A wrong cell where the second of three devices' slabs meets the third, at the torus's column
 * seam (what a halo copied one row off does at the edge of a row): the plan for three devices
 * checks it; the same plan for one device does not look there. 481 rows over 3 devices: slabs
 * start at rows 0, 160 and 320. */
static void test_device_seams(checks *t) {
    cc_case c;
    cc_grid initial = {0}, final = {0};
    cc_error err;
    if (!CHECKF(t, make_case("B3/S23", 640, 481, 3, 5, &c, &initial, &final, &err) == CC_OK,
                "%s", err.msg))
        return;
    const size_t wrong = (size_t)320 * 640 + 639;
    final.cells[wrong] ^= 1;
    cc_lightcone_options opt = {.cells_target = 4096, .devices = 3};
    cc_lightcone_result res;
    CHECK(t, cc_lightcone_verify(&c, &initial, &final, &opt, &res, &err) == CC_OK);
    CHECKF(t, res.differing >= 1 && res.x == 639 && res.y == 320,
           "3 devices: %llu differing, first (%d,%d)", (unsigned long long)res.differing,
           (int)res.x, (int)res.y);
    CHECKF(t, (res.classes & (CC_SEAM_DEVICE_Y | CC_SEAM_DEVICE_CORNER)) ==
                  (CC_SEAM_DEVICE_Y | CC_SEAM_DEVICE_CORNER),
           "3 devices: classes %#x", (unsigned)res.classes);
    opt.devices = 1;
    CHECK(t, cc_lightcone_verify(&c, &initial, &final, &opt, &res, &err) == CC_OK);
    CHECKF(t, res.differing == 0 && !(res.classes & (CC_SEAM_DEVICE_Y | CC_SEAM_DEVICE_CORNER)),
           "1 device: %llu differing, classes %#x", (unsigned long long)res.differing,
           (unsigned)res.classes);
    /* More devices than rows: a device a row, every row seam checked. */
    cc_grid_free(&initial);
    cc_grid_free(&final);
    if (!CHECKF(t, make_case("B3/S23", 64, 5, 1, 7, &c, &initial, &final, &err) == CC_OK, "%s",
                err.msg))
        return;
    opt.devices = 8;
    CHECK(t, cc_lightcone_verify(&c, &initial, &final, &opt, &res, &err) == CC_OK);
    CHECKF(t, res.differing == 0 && (res.classes & CC_SEAM_DEVICE_Y),
           "8 devices on 5 rows: %llu differing, classes %#x", (unsigned long long)res.differing,
           (unsigned)res.classes);
    cc_grid_free(&initial);
    cc_grid_free(&final);
}

int main(void) {
    checks t = {"lightcone_test", 0, 0};
    test_agrees_with_oracle(&t);
    test_finds_wrong_cells(&t);
    test_device_seams(&t);
    return check_summary(&t);
}
