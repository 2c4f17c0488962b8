/* The bit-sliced building blocks: the adders against a plain population count on all 256 patterns
 * of 8 neighbours, the rule stage against the rule's sets for every count and state (on the
 * neighbours' count and on the 3x3 block's, bitrule.h), the wrap bits
 * of the row layout, and a blinker straddling the wrap of a partial last word. */
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/bitrows/bitrows.h"
#include "testing/check.h"

/* One step by SINGLE-WORD, row after row. */
static int single_word(const bitrows *b) {
    for (int32_t y = 0; y < b->h; y++) bitrows_single_row_at(b, y);
    return CC_OK;
}

static int popcount8(unsigned p) {
    int n = 0;
    for (int i = 0; i < 8; i++) n += (p >> i) & 1u;
    return n;
}

/* Lane i of the words is pattern 64 * round + i: bit k of the pattern goes to neighbour word k. */
static void check_adders(checks *t) {
    for (unsigned round = 0; round < 4; round++) {
        uint64_t w[8] = {0};
        for (unsigned lane = 0; lane < 64; lane++) {
            unsigned p = 64 * round + lane;
            for (int k = 0; k < 8; k++) w[k] |= (uint64_t)((p >> k) & 1u) << lane;
        }
        uint64_t s3, s2, s1, s0;
        bitrows_count8(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], &s3, &s2, &s1, &s0);
        for (unsigned lane = 0; lane < 64; lane++) {
            int got = (int)(((s3 >> lane) & 1) << 3 | ((s2 >> lane) & 1) << 2 |
                            ((s1 >> lane) & 1) << 1 | ((s0 >> lane) & 1));
            CHECK_EQ(t, got, popcount8(64 * round + lane));
        }
    }
}

static int set_from_mask(cc_set *set, unsigned mask, int32_t max) {
    cc_set_clear(set);
    for (int32_t c = 0; c <= max; c++)
        if ((mask >> c) & 1u && cc_set_add(set, c, c, NULL)) return 0;
    return 1;
}

/* The Moore radius-1 rule of B mask born (bit n: n in B) and S mask kept under M<centre>; 0 when a
 * set would need more ranges than it holds. */
static int rule_from_masks(int centre, unsigned born, unsigned kept, cc_rule *rule) {
    memset(rule, 0, sizeof *rule);
    rule->shape = CC_SHAPE_MOORE;
    rule->radius = 1;
    rule->centre = centre;
    return set_from_mask(&rule->birth, born, 8) && set_from_mask(&rule->survive, kept, 8 + centre);
}

/* Lanes 0..8: a dead cell with 0..8 neighbours; lanes 9..17: a live one. */
static void check_rule_stage(checks *t) {
    uint64_t s[4] = {0}, alive = 0;
    for (int lane = 0; lane < 18; lane++) {
        int n = lane % 9;
        for (int k = 0; k < 4; k++) s[k] |= (uint64_t)((n >> k) & 1) << lane;
        if (lane >= 9) alive |= UINT64_C(1) << lane;
    }
    for (int centre = 0; centre < 2; centre++) {
        for (unsigned born = 0; born < 512; born++) {
            /* Survive sets cycle through many patterns alongside the birth sets. */
            unsigned kept = (born * 181u + 77u) & (centre ? 1023u : 511u);
            cc_rule rule;
            if (!rule_from_masks(centre, born, kept, &rule)) continue;
            bitrows *b;
            if (!CHECK_EQ(t, bitrows_create("bitrows.test", &rule, 3, 3, NULL, &b, NULL), CC_OK))
                return;
            uint64_t next = bitrows_next(&b->rule, alive, s[3], s[2], s[1], s[0]);
            for (int lane = 0; lane < 18; lane++) {
                int n = lane % 9, live = lane >= 9;
                int want = live ? (int)((kept >> (n + centre)) & 1u) : (int)((born >> n) & 1u);
                if (!CHECK_EQ(t, (int)((next >> lane) & 1), want)) {
                    fprintf(stderr, "  M%d B mask %03x S mask %03x, %s cell, %d neighbours\n",
                            centre, born, kept, live ? "live" : "dead", n);
                }
            }
            bitrows_destroy(b);
        }
    }
}

/* Entry c of tree t of the block-count rule, from its base/flip form (one bit of each word). */
static int rule9_entry(const bitrows_rule9 *r, int t, int c) {
    uint64_t e = c < 8 ? r->base[t][c / 2] ^ (c % 2 ? r->flip[t][c / 2] : 0)
                       : r->eight[t] ^ (c == 9 ? r->nine[t] : 0);
    return (int)(e & 1u);
}

/* The rule on the 3x3 block's count: a dead cell with n neighbours reads entry n, a live one entry
 * n + 1, and both must give what the rule's sets say, under M0 and M1. */
static void check_rule9(checks *t) {
    for (int centre = 0; centre < 2; centre++) {
        for (unsigned born = 0; born < 512; born += 7) {
            unsigned kept = (born * 181u + 77u) & (centre ? 1023u : 511u);
            cc_rule rule;
            if (!rule_from_masks(centre, born, kept, &rule)) continue;
            bitrows_rule9 r;
            bitrows_build_rule9(&rule, &r);
            for (int n = 0; n <= 8; n++) {
                int dead = rule9_entry(&r, 0, n);
                int live = rule9_entry(&r, 0, n + 1) ^ rule9_entry(&r, 1, n + 1);
                if (!CHECK_EQ(t, dead, (int)((born >> n) & 1u)) ||
                    !CHECK_EQ(t, live, (int)((kept >> (n + centre)) & 1u)))
                    fprintf(stderr, "  M%d B mask %03x S mask %03x, %d neighbours\n", centre,
                            born, kept, n);
            }
        }
    }
}

static cc_rule life(void) {
    cc_rule rule;
    cc_error err;
    cc_rule_parse("B3/S23", &rule, &err);
    return rule;
}

/* The wrap bits: cell W-1 in bit 63 of word 0, cell 0 at position W + 64, nothing past it. */
static void check_layout(checks *t) {
    static const int32_t widths[] = {3, 5, 63, 64, 65, 127, 128, 129};
    cc_rule rule = life();
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        int32_t w = widths[i], h = 3;
        uint8_t *cells = calloc((size_t)w * h, 1), *back = calloc((size_t)w * h, 1);
        bitrows *b;
        if (!cells || !back ||
            !CHECK_EQ(t, bitrows_create("bitrows.test", &rule, w, h, NULL, &b, NULL), CC_OK)) {
            free(cells);
            free(back);
            return;
        }
        /* Row 0: only cell 0; row 1: only cell W-1; row 2: both. */
        cells[0] = 1;
        cells[(size_t)w + (size_t)w - 1] = 1;
        cells[2 * (size_t)w] = cells[2 * (size_t)w + (size_t)w - 1] = 1;
        CHECK_EQ(t, bitrows_load(b, cells, NULL), CC_OK);
        for (int32_t y = 0; y < h; y++) {
            const uint64_t *row = bitrows_row(b, b->cur, y);
            const uint8_t *src = cells + (size_t)y * (size_t)w;
            int first = src[0], last = src[w - 1];
            CHECK_EQ(t, row[0], (uint64_t)last << 63);
            int32_t p = w + 64;
            CHECK_EQ(t, (row[p / 64] >> (p % 64)) & 1, first);
            for (int32_t q = p + 1; q < 64 * (int32_t)b->stride; q++)
                if (!CHECK_EQ(t, (row[q / 64] >> (q % 64)) & 1, 0)) break;
        }
        CHECK_EQ(t, bitrows_store(b, back, NULL), CC_OK);
        CHECK(t, memcmp(cells, back, (size_t)w * h) == 0);
        bitrows_destroy(b);
        free(cells);
        free(back);
    }
}

/* A blinker across the wrap of a 65-wide torus turns vertical on column 0. */
static void check_blinker(checks *t) {
    const int32_t w = 65, h = 5;
    cc_rule rule = life();
    uint8_t cells[65 * 5] = {0}, want[65 * 5] = {0}, got[65 * 5];
    cells[2 * w + 64] = cells[2 * w + 0] = cells[2 * w + 1] = 1;
    want[1 * w] = want[2 * w] = want[3 * w] = 1;
    bitrows *b;
    if (!CHECK_EQ(t, bitrows_create("bitrows.test", &rule, w, h, single_word, &b, NULL), CC_OK))
        return;
    CHECK_EQ(t, bitrows_load(b, cells, NULL), CC_OK);
    CHECK_EQ(t, bitrows_step(b, 1, NULL), CC_OK);
    CHECK_EQ(t, bitrows_store(b, got, NULL), CC_OK);
    CHECK(t, memcmp(got, want, sizeof want) == 0);
    bitrows_destroy(b);
}

int main(void) {
    checks t = {"bitrows_test", 0, 0};
    check_adders(&t);
    check_rule_stage(&t);
    check_rule9(&t);
    check_layout(&t);
    check_blinker(&t);
    return check_summary(&t);
}
