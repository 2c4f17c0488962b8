/* The CAT engines' shared arithmetic against hand-counted values: the exactness bounds and the
 * radii they allow, the band fragments, the extended buffer's geometry, the rule over raw sums. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/cat/cat_common.h"
#include "testing/check.h"

static int band_ones(int32_t r, int32_t d, int32_t frag) {
    int n = 0;
    for (int32_t out = 0; out < frag; out++)
        for (int32_t in = 0; in < frag; in++) n += cat_band(d, out, in, r, frag);
    return n;
}

static void exactness(checks *t) {
    CHECK_EQ(t, cat_number_exact_max(CAT_NUM_F16), 2048);
    CHECK_EQ(t, cat_number_exact_max(CAT_NUM_F32), 16777216);
    CHECK_EQ(t, cat_number_exact_max(CAT_NUM_S8), 127);
    cat_bounds b;
    cat_mma_bounds(CC_SHAPE_MOORE, 16, &b);
    CHECK_EQ(t, b.accumulator_max, 1089); /* 33^2 */
    CHECK_EQ(t, b.operand_max, 33);
    cat_mma_bounds(CC_SHAPE_MOORE, 22, &b);
    CHECK_EQ(t, b.accumulator_max, 2025); /* 45^2 */
    cat_mma_bounds(CC_SHAPE_CROSS, 16, &b);
    CHECK_EQ(t, b.accumulator_max, 33);
    CHECK_EQ(t, b.raw_max, 66);
    CHECK_EQ(t, b.operand_max, 1);
    /* FP16 sums: 45^2 = 2025 <= 2048 < 47^2 = 2209. */
    CHECK_EQ(t, cat_radius_exact_max(CC_SHAPE_MOORE, CAT_NUM_F16, CAT_NUM_F16), 22);
    CHECK_EQ(t, CAT_RADIUS_MAX_F16, 22);
    /* FP32 sums hold (2r+1)^2 up to r = 2047 (4095^2 < 2^24), FP16 operands H = 2r+1 to
     * r = 1023: the caps' 32 is the halo's limit, not the arithmetic's. */
    CHECK_EQ(t, cat_radius_exact_max(CC_SHAPE_MOORE, CAT_NUM_F16, CAT_NUM_F32), 500);
    CHECK(t, CAT_RADIUS_MAX_F32 <= cat_radius_exact_max(CC_SHAPE_MOORE, CAT_NUM_F16, CAT_NUM_F32));
    /* INT8 operands hold H = 2r+1 <= 127: r <= 63. */
    CHECK_EQ(t, cat_radius_exact_max(CC_SHAPE_MOORE, CAT_NUM_S8, CAT_NUM_S32), 63);
    cc_error err;
    CHECK_EQ(t, cat_check_exact("t", CC_SHAPE_MOORE, 22, CAT_NUM_F16, CAT_NUM_F16, &err), CC_OK);
    int rc = cat_check_exact("t", CC_SHAPE_MOORE, 23, CAT_NUM_F16, CAT_NUM_F16, &err);
    CHECK_REFUSED(t, rc, &err, "2209", "FP16 sums at r = 23");
    CHECK(t, strstr(err.msg, "2048") && strstr(err.msg, "radius 22"));
    CHECK_EQ(t, cat_check_exact("t", CC_SHAPE_CROSS, 23, CAT_NUM_F16, CAT_NUM_F16, &err), CC_OK);
    CHECK_EQ(t, cat_check_exact("t", CC_SHAPE_MOORE, 32, CAT_NUM_F16, CAT_NUM_F32, &err), CC_OK);
    rc = cat_check_exact("t", CC_SHAPE_MOORE, 64, CAT_NUM_S8, CAT_NUM_S32, &err);
    CHECK_REFUSED(t, rc, &err, "129", "INT8 operands at r = 64");
}

static void bands(checks *t) {
    CHECK_EQ(t, cat_halo_fragments(1, 16), 1);
    CHECK_EQ(t, cat_halo_fragments(16, 16), 1);
    CHECK_EQ(t, cat_halo_fragments(17, 16), 2);
    CHECK_EQ(t, cat_halo_fragments(32, 16), 2);
    CHECK_EQ(t, cat_halo_fragments(32, 32), 1);
    /* r = 1: the centre fragment is tridiagonal, 16 + 2 * 15 ones; each neighbour holds the
     * single corner that links the fragments: in = 0 of the right one feeds out = 15. */
    CHECK_EQ(t, band_ones(1, 0, 16), 46);
    CHECK_EQ(t, band_ones(1, 1, 16), 1);
    CHECK_EQ(t, cat_band(1, 15, 0, 1, 16), 1);
    CHECK_EQ(t, cat_band(-1, 0, 15, 1, 16), 1);
    CHECK_EQ(t, cat_band(1, 14, 0, 1, 16), 0);
    /* r = 16 (Fig. 5): the centre is all ones, each neighbour a triangle with its diagonal,
     * 16 * 17 / 2 = 136. */
    CHECK_EQ(t, band_ones(16, 0, 16), 256);
    CHECK_EQ(t, band_ones(16, -1, 16), 136);
    CHECK_EQ(t, band_ones(16, 1, 16), 136);
    /* r = 8: |d| = 1 holds the triangle in - out <= -8 (right), 8 * 9 / 2 = 36. */
    CHECK_EQ(t, band_ones(8, 1, 16), 36);
    /* r = 17, the second fragment out: only out = 15, in = 0 of d = 2 (distance 17). */
    CHECK_EQ(t, band_ones(17, 2, 16), 1);
    CHECK_EQ(t, cat_band(2, 15, 0, 17, 16), 1);
    CHECK_EQ(t, band_ones(17, -2, 16), 1);
    CHECK_EQ(t, cat_band(-2, 0, 15, 17, 16), 1);
    /* Every row of the whole band, summed over the offsets, has 2r+1 ones. */
    for (int32_t r = 1; r <= 32; r++) {
        int32_t frag = 16, halo = cat_halo_fragments(r, frag);
        for (int32_t out = 0; out < frag; out++) {
            int n = 0;
            for (int32_t d = -halo; d <= halo; d++)
                for (int32_t in = 0; in < frag; in++) n += cat_band(d, out, in, r, frag);
            CHECKF(t, n == 2 * r + 1, "r %d out %d: %d ones", (int)r, (int)out, n);
        }
    }
}

static void geometry(checks *t) {
    cat_geometry g;
    cc_error err;
    CHECK_EQ(t, cat_geometry_init(&g, 33, 17, 16, 1, &err), CC_OK);
    CHECK_EQ(t, g.fw, 3);
    CHECK_EQ(t, g.fh, 2);
    CHECK_EQ(t, g.ew, 5);
    CHECK_EQ(t, g.eh, 4);
    CHECK_EQ(t, g.fwr, 2);
    CHECK_EQ(t, g.fhr, 1);
    CHECK_EQ(t, cat_geometry_positions(&g), 5 * 4 * 256);
    CHECK_EQ(t, cat_geometry_border_fragments(&g), 20 - 2);
    /* The border fragments are every fragment but the fully real ones, each once. */
    int seen[4][5];
    memset(seen, 0, sizeof seen);
    for (int64_t b = 0; b < cat_geometry_border_fragments(&g); b++) {
        int64_t ey = -1, ex = -1;
        cat_border_fragment(&g, b, &ey, &ex);
        if (ey >= 0 && ey < 4 && ex >= 0 && ex < 5) seen[ey][ex]++;
    }
    int wrong = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 5; x++) {
            int real = y >= 1 && y < 2 && x >= 1 && x < 3;
            if (seen[y][x] != (real ? 0 : 1)) wrong++;
        }
    CHECK_EQ(t, wrong, 0);
    /* Extended positions map one to one onto the buffer; (0, 0) starts fragment (1, 1). */
    CHECK_EQ(t, cat_ext_index(&g, 0, 0), (1 * 5 + 1) * 256);
    CHECK_EQ(t, cat_ext_index(&g, -16, -16), 0);
    CHECK_EQ(t, cat_ext_index(&g, 17, 2), (1 * 5 + 2) * 256 + 2 * 16 + 1);
    CHECK_EQ(t, cat_ext_index(&g, -1, 0), (1 * 5 + 0) * 256 + 15);
    size_t n = cat_geometry_positions(&g);
    unsigned char *hit = calloc(n, 1);
    long collisions = 0, outside = 0;
    for (int64_t y = -16; y < 3 * 16; y++)
        for (int64_t x = -16; x < 4 * 16; x++) {
            size_t i = cat_ext_index(&g, x, y);
            if (i >= n)
                outside++;
            else if (hit[i]++)
                collisions++;
        }
    free(hit);
    CHECK_EQ(t, collisions, 0);
    CHECK_EQ(t, outside, 0);
    CHECK_EQ(t, cat_mod(-1, 33), 32);
    CHECK_EQ(t, cat_mod(-34, 33), 32);
    CHECK_EQ(t, cat_mod(40, 33), 7);
    /* A 3-cell torus in a 16-cell fragment: position -16 mirrors cell 2 (-16 = -6 * 3 + 2). */
    CHECK_EQ(t, cat_mod(-16, 3), 2);
    CHECK_EQ(t, cat_geometry_init(&g, 0, 5, 16, 1, &err), CC_ERR_ARG);
}

static void rule_params(checks *t) {
    cc_rule rule;
    cc_error err;
    cat_rule_params p;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &rule, &err), CC_OK);
    CHECK_EQ(t, cat_rule_params_build("t", &rule, &p, &err), CC_OK);
    CHECK_EQ(t, p.self_weight, 1);           /* Moore, M0: the square counted the centre once */
    CHECK_EQ(t, cat_rule_next(&p, 1, 3), 1); /* alive, 2 neighbours */
    CHECK_EQ(t, cat_rule_next(&p, 1, 4), 1); /* alive, 3 */
    CHECK_EQ(t, cat_rule_next(&p, 1, 5), 0); /* alive, 4 */
    CHECK_EQ(t, cat_rule_next(&p, 1, 2), 0); /* alive, 1 */
    CHECK_EQ(t, cat_rule_next(&p, 0, 3), 1);
    CHECK_EQ(t, cat_rule_next(&p, 0, 2), 0);
    CHECK_EQ(t, cc_rule_parse("R2,C2,M1,S3..5,B4..4,N+", &rule, &err), CC_OK);
    CHECK_EQ(t, cat_rule_params_build("t", &rule, &p, &err), CC_OK);
    CHECK_EQ(t, p.self_weight, 1); /* cross, M1: row + column counted it twice, keep once */
    CHECK_EQ(t, cat_rule_next(&p, 1, 4), 1); /* count 3 */
    CHECK_EQ(t, cat_rule_next(&p, 1, 7), 0); /* count 6 */
    CHECK_EQ(t, cat_rule_next(&p, 0, 4), 1);
    CHECK_EQ(t, cc_rule_parse("R2,C2,M0,S3..5,B4..4,N+", &rule, &err), CC_OK);
    CHECK_EQ(t, cat_rule_params_build("t", &rule, &p, &err), CC_OK);
    CHECK_EQ(t, p.self_weight, 2);
    CHECK_EQ(t, cc_rule_parse("B246/S135", &rule, &err), CC_OK);
    CHECK_EQ(t, cat_rule_params_build("t", &rule, &p, &err), CC_OK);
    CHECK_EQ(t, p.ranges[0], 3);
    CHECK_EQ(t, p.ranges_max, 3);
    CHECK_EQ(t, cat_rule_next(&p, 0, 6), 1);
    CHECK_EQ(t, cat_rule_next(&p, 0, 5), 0);
    CHECK_EQ(t, cat_rule_next(&p, 1, 6), 1); /* count 5 */
    CHECK_EQ(t, cc_rule_parse("R3,C2,M0,S3..5,B4..4,NN", &rule, &err), CC_OK);
    int rc = cat_rule_params_build("t", &rule, &p, &err);
    CHECK_REFUSED(t, rc, &err, "NN", "von Neumann");
}

/* The single-range form against the set itself (cc_set_has, the oracle's membership test) at
 * every raw sum a cell can have, so a wrong base, span or wrap shows as a differing count. */
static void single_matches_sets(checks *t, const char *text) {
    cc_rule rule;
    cc_error err;
    cat_rule_params p;
    cat_rule_single s;
    if (!CHECK_EQ(t, cc_rule_parse(text, &rule, &err), CC_OK)) return;
    CHECK_EQ(t, cat_rule_params_build("t", &rule, &p, &err), CC_OK);
    CHECK_EQ(t, cat_rule_is_single(&p), 1);
    if (!CHECK_EQ(t, cat_rule_single_build("t", &p, &s, &err), CC_OK)) return;
    cat_bounds b;
    cat_mma_bounds(rule.shape, rule.radius, &b);
    int differing = 0;
    for (int alive = 0; alive <= 1; alive++)
        for (int32_t raw = alive * p.self_weight; raw <= b.raw_max; raw++) {
            int32_t count = raw - p.self_weight * alive;
            int want = cc_set_has(alive ? &rule.survive : &rule.birth, count);
            if (cat_rule_single_next(&s, alive, raw) != want) {
                if (differing++ == 0)
                    printf("  %s: alive %d, raw %d: single-range form gives %d, the set %d\n",
                           text, alive, (int)raw, !want, want);
            }
        }
    CHECK_EQ(t, differing, 0);
}

static void single_ranges(checks *t) {
    cc_rule rule;
    cc_error err;
    cat_rule_params p;
    cat_rule_single s;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &rule, &err), CC_OK);
    CHECK_EQ(t, cat_rule_params_build("t", &rule, &p, &err), CC_OK);
    CHECK_EQ(t, cat_rule_is_single(&p), 1);
    CHECK_EQ(t, cat_rule_single_build("t", &p, &s, &err), CC_OK);
    CHECK_EQ(t, s.base[0], 3); /* B3: raw 3 exactly */
    CHECK_EQ(t, s.span[0], 1);
    CHECK_EQ(t, s.base[1], 3); /* S23: raw 3..4 (the square counted the live centre) */
    CHECK_EQ(t, s.span[1], 2);
    CHECK_EQ(t, cat_rule_single_next(&s, 1, 2), 0);
    CHECK_EQ(t, cat_rule_single_next(&s, 1, 3), 1);
    CHECK_EQ(t, cat_rule_single_next(&s, 1, 4), 1);
    CHECK_EQ(t, cat_rule_single_next(&s, 1, 5), 0);
    CHECK_EQ(t, cat_rule_single_next(&s, 0, 2), 0);
    CHECK_EQ(t, cat_rule_single_next(&s, 0, 3), 1);
    CHECK_EQ(t, cat_rule_single_next(&s, 0, 4), 0);
    CHECK_EQ(t, cat_rule_single_next(&s, 0, 0), 0); /* below lo: wraps, not in the span */

    CHECK_EQ(t, cc_rule_parse("B36/S23", &rule, &err), CC_OK); /* HighLife: B is two ranges */
    CHECK_EQ(t, cat_rule_params_build("t", &rule, &p, &err), CC_OK);
    CHECK_EQ(t, cat_rule_is_single(&p), 0);
    int rc = cat_rule_single_build("t", &p, &s, &err);
    CHECK_REFUSED(t, rc, &err, "single-range", "a B of two ranges");

    CHECK_EQ(t, cc_rule_parse("B/S", &rule, &err), CC_OK); /* both sets empty */
    CHECK_EQ(t, cat_rule_params_build("t", &rule, &p, &err), CC_OK);
    CHECK_EQ(t, cat_rule_is_single(&p), 1);
    CHECK_EQ(t, cat_rule_single_build("t", &p, &s, &err), CC_OK);
    CHECK_EQ(t, s.span[0], 0);
    CHECK_EQ(t, s.span[1], 0);

    single_matches_sets(t, "B3/S23");
    single_matches_sets(t, "B/S");
    single_matches_sets(t, "B0/S012345678");
    single_matches_sets(t, "B5678/S");
    single_matches_sets(t, "R5,C2,M1,S34..58,B34..45,NM"); /* Bosco's rule */
    single_matches_sets(t, "R5,C2,M0,S34..58,B34..45,NM");
    single_matches_sets(t, "R32,C2,M1,S0..4225,B0..0,NM");     /* the largest counts */
    single_matches_sets(t, "R32,C2,M0,S4224..4224,B1..4224,NM");
    single_matches_sets(t, "R2,C2,M1,S3..5,B4..4,N+");
    single_matches_sets(t, "R16,C2,M0,S0..0,B64..64,N+");
    single_matches_sets(t, "R16,C2,M1,S65..65,B0..65,N+");
}

int main(void) {
    checks t = {"cat_common_test", 0, 0};
    exactness(&t);
    bands(&t);
    geometry(&t);
    rule_params(&t);
    single_ranges(&t);
    return check_summary(&t);
}
