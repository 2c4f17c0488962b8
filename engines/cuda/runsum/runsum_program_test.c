/* runsum's program by hand-counted values and against plain integers: the doubling levels and
 * where the pieces of a window go, the bit-sliced add and comparison on every lane, the rule's
 * thresholds, the refreshed halo words, the geometry and its bands, the exactness check. */
#include <stdint.h>
#include <string.h>

#include "engines/cuda/runsum/runsum_program.h"
#include "testing/check.h"

/* A small generator of test values (xorshift64). */
static uint64_t next_random(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The planes of 32 numbers (two's complement, n planes). */
static void slice(const int64_t v[32], int n, uint32_t *planes) {
    for (int q = 0; q < n; q++) {
        planes[q] = 0;
        for (int i = 0; i < 32; i++) planes[q] |= (uint32_t)((v[i] >> q) & 1) << i;
    }
}

/* The planes of the counters of 32 raw counts: raw - bias mod 2^n. */
static void slice_counters(const int64_t raw[32], int32_t bias, int n, uint32_t *planes) {
    int64_t counter[32];
    for (int i = 0; i < 32; i++) counter[i] = (raw[i] - bias) & ((1ll << n) - 1);
    slice(counter, n, planes);
}

/* Lane i's number of n planes, unsigned. */
static int64_t unslice(const uint32_t *planes, int n, int i) {
    int64_t v = 0;
    for (int q = 0; q < n; q++) v |= (int64_t)((planes[q] >> i) & 1u) << q;
    return v;
}

int main(void) {
    checks t = {"runsum_program_test", 0, 0};
    uint64_t seed = 0x9e3779b97f4a7c15ull;

    /* L = floor(log2(2r+1)): 3 -> 1, 5 and 7 -> 2, 9 -> 3, 33 -> 5, 63 -> 5, 65 -> 6. */
    CHECK_EQ(&t, runsum_levels(1), 1);
    CHECK_EQ(&t, runsum_levels(2), 2);
    CHECK_EQ(&t, runsum_levels(3), 2);
    CHECK_EQ(&t, runsum_levels(4), 3);
    CHECK_EQ(&t, runsum_levels(16), 5);
    CHECK_EQ(&t, runsum_levels(31), 5);
    CHECK_EQ(&t, runsum_levels(32), 6);
    /* Counter planes, Moore: 9 + 2 = 11 in 4; 25 + 2 in 5; 1089 + 2 in 11; 3969 + 2 in 12; 4225 +
     * 2 in 13. The cross: L + 2 (r = 16: 7, holding 66 + 1). */
    CHECK_EQ(&t, runsum_state_planes(1, 0), 4);
    CHECK_EQ(&t, runsum_state_planes(2, 0), 5);
    CHECK_EQ(&t, runsum_state_planes(16, 0), 11);
    CHECK_EQ(&t, runsum_state_planes(31, 0), 12);
    CHECK_EQ(&t, runsum_state_planes(32, 0), 13);
    CHECK_EQ(&t, runsum_state_planes(16, 1), 7);

    /* 33 = 32 + 1: S_32 from x - 16, then S_1 at x + 16; 65 = 64 + 1: S_64 from x - 32, S_1 at
     * x + 32; 3 = 2 + 1: S_2 from x - 1, S_1 at x + 1. */
    CHECK_EQ(&t, runsum_piece_offset(16, 5), -16);
    CHECK_EQ(&t, runsum_piece_offset(16, 0), 16);
    CHECK_EQ(&t, runsum_piece_offset(32, 6), -32);
    CHECK_EQ(&t, runsum_piece_offset(32, 0), 32);
    CHECK_EQ(&t, runsum_piece_offset(1, 1), -1);
    CHECK_EQ(&t, runsum_piece_offset(1, 0), 1);
    /* For every radius the pieces tile x - r .. x + r, highest first, each within one word. */
    int tiled = 1;
    for (int32_t r = 1; r <= RUNSUM_RADIUS_MAX; r++) {
        int32_t next = -r;
        for (int32_t k = runsum_levels(r); k >= 0; k--) {
            if (!(((2 * r + 1) >> k) & 1)) continue;
            const int32_t off = runsum_piece_offset(r, k);
            tiled &= off == next && off >= -RUNSUM_WORD && off <= RUNSUM_WORD;
            next = off + (1 << k);
        }
        tiled &= next == r + 1;
    }
    CHECK(&t, tiled);

    /* The funnel: bits s .. s + 31 of hi:lo. */
    CHECK_EQ(&t, runsum_funnel(0x80000001u, 0x3u, 0), 0x80000001u);
    CHECK_EQ(&t, runsum_funnel(0x80000001u, 0x3u, 1), 0xc0000000u);
    CHECK_EQ(&t, runsum_funnel(0x80000001u, 0x3u, 31), 0x7u);
    CHECK_EQ(&t, runsum_funnel(0x80000001u, 0x3u, 32), 0x3u);
    /* By multiplies: the same 32 bits for every shift 1..31. */
    int multiplied = 1;
    for (int rounds = 0; rounds < 200; rounds++) {
        const uint32_t lo = (uint32_t)next_random(&seed), hi = (uint32_t)next_random(&seed);
        for (int32_t s = 1; s < 32; s++)
            multiplied &= runsum_funnel_by_multiply(lo, hi, s) == runsum_funnel(lo, hi, s);
    }
    CHECK(&t, multiplied);
    CHECK_EQ(&t, runsum_funnel_by_multiply(0x80000001u, 0x3u, 1), 0xc0000000u);
    /* Add: 32 lanes of signed numbers, every plane count up to the largest, against integers. */
    int adds = 1;
    for (int rounds = 0; rounds < 2000; rounds++) {
        const int na = 1 + (int)(next_random(&seed) % 8), nb = 1 + (int)(next_random(&seed) % 8);
        const int n = (na > nb ? na : nb) + (int)(next_random(&seed) % 7);
        int64_t a[32], b[32];
        for (int i = 0; i < 32; i++) {
            a[i] = (int64_t)(next_random(&seed) % (1ull << na)) - (1ll << (na - 1));
            b[i] = (int64_t)(next_random(&seed) % (1ull << nb)) - (1ll << (nb - 1));
        }
        uint32_t pa[16], pb[16], sum[16];
        slice(a, na, pa);
        slice(b, nb, pb);
        runsum_add(sum, n, pa, na, pb, nb);
        for (int i = 0; i < 32; i++) {
            const int64_t want = (a[i] + b[i]) & ((1ll << n) - 1);
            adds &= unslice(sum, n, i) == want;
        }
        /* in place, as the counters are updated */
        runsum_add(pa, na, pa, na, pa, na);
        for (int i = 0; i < 32; i++) adds &= unslice(pa, na, i) == ((2 * a[i]) & ((1ll << na) - 1));
    }
    CHECK(&t, adds);

    /* ge: every threshold below 2^n for n up to 9, random ones to 14 planes. */
    int compares = 1;
    for (int n = 1; n <= RUNSUM_PLANES_MAX; n++) {
        int64_t c[32];
        for (int i = 0; i < 32; i++) c[i] = (int64_t)(next_random(&seed) % (1ull << n));
        c[0] = 0;
        c[1] = (1ll << n) - 1;
        uint32_t pc[RUNSUM_PLANES_MAX];
        slice(c, n, pc);
        for (int32_t k = 0; k < (1 << n); k += n <= 9 ? 1 : 1 + (int32_t)(next_random(&seed) % 97)) {
            uint32_t masks[RUNSUM_PLANES_MAX];
            runsum_threshold_masks(k, masks);
            const uint32_t got = runsum_ge(pc, n, masks);
            for (int i = 0; i < 32; i++) compares &= (int)((got >> i) & 1u) == (c[i] >= k);
        }
    }
    CHECK(&t, compares);

    /* The rule. B3/S23 (Moore r = 1, M0), raw = the 3x3 box, centre included: a dead cell is born
     * at raw 3, a live one stays at raw 3 and 4. */
    runsum_geometry g;
    cc_error err;
    CHECK_EQ(&t, runsum_geometry_init(&g, "test", CC_SHAPE_MOORE, 100, 1000, 1, &err), CC_OK);
    CHECK_EQ(&t, g.raw_max, 9);
    cc_rule life;
    CHECK_EQ(&t, cc_rule_parse("B3/S23", &life, &err), CC_OK);
    runsum_rule rule;
    CHECK_EQ(&t, runsum_rule_build("test", &life, &g, &rule, &err), CC_OK);
    /* Both ranges start at raw 3: the bias, below which every count wraps past the ranges. */
    CHECK_EQ(&t, rule.bias, 3);
    CHECK_EQ(&t, rule.ranges[0], 1);
    CHECK_EQ(&t, rule.lo[0][0], 0);
    CHECK_EQ(&t, rule.hi1[0][0], 1);
    CHECK_EQ(&t, rule.ranges[1], 1);
    CHECK_EQ(&t, rule.lo[1][0], 0);
    CHECK_EQ(&t, rule.hi1[1][0], 2);
    /* The counters start at -3 mod 16 = 13 (4 planes: 1101). */
    uint32_t start[RUNSUM_PLANES_MAX];
    runsum_counter_start(&rule, start, g.state_planes);
    CHECK_EQ(&t, g.state_planes, 4);
    CHECK_EQ(&t, start[0] & 1u, 1u);
    CHECK_EQ(&t, start[1] & 1u, 0u);
    CHECK_EQ(&t, start[2] & 1u, 1u);
    CHECK_EQ(&t, start[3] & 1u, 1u);
    /* lanes 0..9 dead with raw 0..9, lanes 10..19 alive with raw 0..9; the counters hold
     * raw - bias mod 2^planes */
    int64_t raw[32];
    for (int i = 0; i < 32; i++) raw[i] = i < 20 ? i % 10 : 0;
    uint32_t planes[RUNSUM_PLANES_MAX];
    slice_counters(raw, rule.bias, g.state_planes, planes);
    const uint32_t alive = 0x3ffu << 10;
    const uint32_t life_next = (1u << 3) | (1u << 13) | (1u << 14);
    CHECK_EQ(&t, runsum_next(&rule, planes, g.state_planes, alive), life_next);
    CHECK(&t, runsum_rule_single(&rule));
    CHECK_EQ(&t, runsum_next_single(&rule, planes, g.state_planes, alive), life_next);
    /* An empty B is one empty range: nothing is born. Two ranges in S: not single. */
    cc_rule two;
    CHECK_EQ(&t, cc_rule_parse("B/S1357", &two, &err), CC_OK);
    CHECK_EQ(&t, runsum_rule_build("test", &two, &g, &rule, &err), CC_OK);
    /* S {1, 3, 5, 7} at raw 2, 4, 6, 8 (M0): the bias 2; B empty: one range at 10 - 2. */
    CHECK_EQ(&t, rule.bias, 2);
    CHECK_EQ(&t, rule.ranges[0], 1);
    CHECK_EQ(&t, rule.lo[0][0], 8);
    CHECK_EQ(&t, rule.hi1[0][0], 8);
    CHECK_EQ(&t, rule.ranges[1], 4);
    CHECK_EQ(&t, rule.lo[1][3], 6);
    CHECK_EQ(&t, rule.hi1[1][3], 7);
    CHECK(&t, !runsum_rule_single(&rule));
    slice_counters(raw, rule.bias, g.state_planes, planes);
    CHECK_EQ(&t, runsum_next(&rule, planes, g.state_planes, alive),
             (1u << 12) | (1u << 14) | (1u << 16) | (1u << 18));
    /* Thresholds past the largest count are clamped to it + 1 (S 0..100 on a count of at most 9:
     * every live cell survives). */
    cc_rule wide;
    CHECK_EQ(&t, cc_rule_parse("R1,C2,M1,S0..9,B9..9,NM", &wide, &err), CC_OK);
    CHECK_EQ(&t, runsum_rule_build("test", &wide, &g, &rule, &err), CC_OK);
    CHECK_EQ(&t, rule.bias, 0);
    CHECK_EQ(&t, rule.lo[1][0], 0);
    CHECK_EQ(&t, rule.hi1[1][0], 10);
    slice_counters(raw, rule.bias, g.state_planes, planes);
    CHECK_EQ(&t, runsum_next(&rule, planes, g.state_planes, alive), alive | (1u << 9));

    /* The halo: W = 5 with cells 1, 2, 4 alive. The left halo's bit 31 is column -1 (cell 4),
     * bit 30 column -2 (cell 3), bit 29 column -3 (cell 2); the padding of word 1 from bit 5 on
     * repeats the row; the right halo starts at column 32, cell 2. */
    CHECK_EQ(&t, runsum_geometry_init(&g, "test", CC_SHAPE_MOORE, 5, 5, 2, &err), CC_OK);
    CHECK_EQ(&t, g.nw, 1);
    CHECK_EQ(&t, g.eww, 3);
    uint32_t row[3] = {0, 0x16u, 0};
    const uint32_t left = runsum_refreshed_word(&g, row, 0);
    CHECK_EQ(&t, (left >> 29) & 7u, 5u);
    CHECK_EQ(&t, runsum_refreshed_word(&g, row, 1) & 0x3ffu, 0x2d6u);
    CHECK_EQ(&t, runsum_refreshed_word(&g, row, 2) & 1u, 1u);
    /* Every halo bit of several widths against column mod W. */
    int halos = 1;
    const int32_t widths[] = {3, 31, 32, 33, 65, 100, 961};
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        CHECK_EQ(&t, runsum_geometry_init(&g, "test", CC_SHAPE_MOORE, widths[wi], 3, 1, &err), CC_OK);
        uint32_t cells[40];
        memset(cells, 0, sizeof cells);
        for (int64_t x = 0; x < g.w; x++)
            if (next_random(&seed) & 1) cells[1 + x / 32] |= 1u << (x % 32);
        for (int which = 0; which < 3; which++) {
            const int64_t e = runsum_refresh_column(&g, which);
            const uint32_t v = runsum_refreshed_word(&g, cells, e);
            for (int i = 0; i < 32; i++) {
                int64_t x = (32 * (e - 1) + i) % g.w;
                if (x < 0) x += g.w;
                halos &= ((v >> i) & 1u) == ((cells[1 + x / 32] >> (x % 32)) & 1u);
            }
        }
    }
    CHECK(&t, halos);

    /* Geometry: 961 columns are 31 words, two strips of 30; 1000 rows at r = 1 for a device of 4
     * multiprocessors (64 warps): bands of max(4 * 3, ceil(1000 * 2 / 64)) = 32 rows, 32 of them
     * (the last 8 rows). */
    CHECK_EQ(&t, runsum_geometry_init(&g, "test", CC_SHAPE_CROSS, 961, 1000, 1, &err), CC_OK);
    CHECK_EQ(&t, g.nw, 31);
    CHECK_EQ(&t, g.strips, 2);
    CHECK_EQ(&t, g.raw_max, 6);
    CHECK_EQ(&t, g.state_planes, 3);
    runsum_geometry_bands(&g, 4, RUNSUM_WARPS_PER_SM, RUNSUM_BAND_WINDOWS);
    CHECK_EQ(&t, g.band_h, 32);
    CHECK_EQ(&t, g.bands, 32);
    /* Other banding: 32 warps a multiprocessor (128 warps) and windows of 4 give bands of
     * max(4 * 3, ceil(1000 * 2 / 128)) = 16 rows, 63 of them; windows of 40, 120 rows. */
    runsum_geometry_bands(&g, 4, 32, 4);
    CHECK_EQ(&t, g.band_h, 16);
    CHECK_EQ(&t, g.bands, 63);
    runsum_geometry_bands(&g, 4, 32, 40);
    CHECK_EQ(&t, g.band_h, 120);
    /* 32768 columns (1024 words, 35 strips) at r = 16 on 132 multiprocessors (2112 warps): bands
     * of ceil(32768 * 35 / 2112) = 544 rows (at least 4 * 33 = 132), 61 of them; at 16384^2 (18
     * strips), max(4 * 33, ceil(16384 * 18 / 2112) = 140) = 140 rows, 118 of them. */
    CHECK_EQ(&t, runsum_geometry_init(&g, "test", CC_SHAPE_MOORE, 32768, 32768, 16, &err), CC_OK);
    runsum_geometry_bands(&g, 132, RUNSUM_WARPS_PER_SM, RUNSUM_BAND_WINDOWS);
    CHECK_EQ(&t, g.strips, 35);
    CHECK_EQ(&t, g.band_h, 544);
    CHECK_EQ(&t, g.bands, 61);
    CHECK_EQ(&t, runsum_geometry_init(&g, "test", CC_SHAPE_MOORE, 16384, 16384, 16, &err), CC_OK);
    runsum_geometry_bands(&g, 132, RUNSUM_WARPS_PER_SM, RUNSUM_BAND_WINDOWS);
    CHECK_EQ(&t, g.strips, 18);
    CHECK_EQ(&t, g.band_h, 140);
    CHECK_EQ(&t, g.bands, 118);

    /* Exactness and reach: r = 32 holds (65^2 = 4225 in 13 planes), r = 33 is refused. */
    CHECK_EQ(&t, runsum_check("test", CC_SHAPE_MOORE, 32, &err), CC_OK);
    CHECK_EQ(&t, runsum_check("test", CC_SHAPE_CROSS, 32, &err), CC_OK);
    CHECK_REFUSED(&t, runsum_check("test", CC_SHAPE_MOORE, 33, &err), &err, "radius 33",
                  "r = 33");
    CHECK_REFUSED(&t, runsum_check("test", CC_SHAPE_VON_NEUMANN, 2, &err), &err, "NN", "von Neumann");
    CHECK_REFUSED(&t, runsum_geometry_init(&g, "test", CC_SHAPE_MOORE, 4, 40, 2, &err), &err,
                  "narrower", "W < 2r+1");

    return check_summary(&t);
}
