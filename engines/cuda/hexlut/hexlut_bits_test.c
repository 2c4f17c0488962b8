/* cuda.hexlut's word arithmetic on the CPU: the column constants and table entries counted by
 * hand, the tiles covering every word column and strip once, and hexlut_strip (the very function
 * each GPU thread runs) stepping bit grids that match the oracle, for widths around every word
 * boundary and heights around the strips, with junk in the bits past the row's last cell. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/hexlut/hexlut_bits.h"
#include "oracle/grid.h"
#include "oracle/oracle.h"
#include "oracle/rule.h"
#include "testing/check.h"

static uint64_t next_random(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void check_columns(checks *t) {
    /* W = 3: one word of 3 cells; cell -1 is cell 2, cell 3 is cell 0, put at bit 3. */
    hexlut_column c = hexlut_column_of(3, 0);
    CHECK_EQ(t, c.left_word, 0);
    CHECK_EQ(t, c.left_bit, 2);
    CHECK_EQ(t, c.right_word, 0);
    CHECK_EQ(t, c.wrap0, 1u << 3);
    CHECK_EQ(t, c.wrap1, 0);
    CHECK_EQ(t, c.wrap_out, 0);
    CHECK_EQ(t, c.keep0, 7);
    CHECK_EQ(t, c.keep1, 0);
    /* W = 64: one full word; cell 0 goes past it, bit 64. */
    c = hexlut_column_of(64, 0);
    CHECK_EQ(t, c.left_bit, 63);
    CHECK_EQ(t, c.wrap0 | c.wrap1, 0);
    CHECK_EQ(t, c.wrap_out, 1);
    CHECK_EQ(t, c.keep0 & c.keep1, 0xffffffffu);
    /* W = 100, word 1 holds cells 64..99 (36): cell 63 is word 0 bit 63; cell 0 at bit 36. */
    c = hexlut_column_of(100, 1);
    CHECK_EQ(t, c.left_word, 0);
    CHECK_EQ(t, c.left_bit, 63);
    CHECK_EQ(t, c.right_word, 0);
    CHECK_EQ(t, c.wrap0, 0);
    CHECK_EQ(t, c.wrap1, 1u << 4);
    CHECK_EQ(t, c.keep0, 0xffffffffu);
    CHECK_EQ(t, c.keep1, 15);
    /* W = 130, word 0: cell -1 is cell 129, word 2 bit 1; cell 64 is word 1's first. */
    c = hexlut_column_of(130, 0);
    CHECK_EQ(t, c.left_word, 2);
    CHECK_EQ(t, c.left_bit, 1);
    CHECK_EQ(t, c.right_word, 1);
    CHECK_EQ(t, c.wrap_out, 1);
    /* Rows padded to 16 words. */
    CHECK_EQ(t, hexlut_pitch(3), 16);
    CHECK_EQ(t, hexlut_pitch(1024), 16);
    CHECK_EQ(t, hexlut_pitch(1025), 32);
}

static int parse(checks *t, const char *text, cc_rule *rule) {
    cc_error err;
    int rc = cc_rule_parse(text, rule, &err);
    CHECKF(t, rc == CC_OK, "%s: %s", text, err.msg);
    return rc == CC_OK;
}

static void check_table(checks *t, uint8_t *table) {
    cc_rule rule;
    /* B1/S: a cell is born next to exactly one live cell. */
    if (parse(t, "B1/SH", &rule)) {
        hexlut_build_table(&rule, table);
        CHECK_EQ(t, table[0], 0);
        /* Above, cell x0+1 alone: for cell 0 it is the NE diagonal, not a neighbour; for cell 1
         * it is dx 0, for cell 2 dx -1. Cells 1 and 2 are born. */
        CHECK_EQ(t, table[1u << 2], 0x6);
        /* Below, cell x0 alone: below of cell 0 (dx 0), the SW diagonal of cell 1 (not a
         * neighbour): cell 0 alone is born. */
        CHECK_EQ(t, table[1u << 11], 0x1);
        /* Own row, cell x0+4 (bit 10): the right neighbour of cell 3 only. */
        CHECK_EQ(t, table[1u << 10], 0x8);
        /* Own row, cell x0-1 (bit 5): the left neighbour of cell 0 only. */
        CHECK_EQ(t, table[1u << 5], 0x1);
    }
    /* B2/S34 (seed 002's rule) on above cells x0, x0+1 and own cells x0+1, x0+2 alive: */
    if (parse(t, "B2/S34H", &rule)) {
        hexlut_build_table(&rule, table);
        const unsigned index = 1u << 1 | 1u << 2 | 1u << (5 + 2) | 1u << (5 + 3);
        /* cell 0: above bits 0,1 (1), own bits 0,2 (1): 2, born. cell 1 (alive): above 1,2 (2),
         * own 1,3 (1): 3, survives. cell 2 (alive): above 2,3 (1), own 2,4 (1): 2, dies. cell 3:
         * above 3,4 (0), own 3,5 (1): 1, stays dead. */
        CHECK_EQ(t, table[index], 0x3);
    }
    /* M1: the centre counts. Alone, a live cell's count is 1 and it survives S1; under M0 its
     * count is 0 and it dies. */
    if (parse(t, "R1,C2,M1,S1..1,B7..7,NH", &rule)) {
        hexlut_build_table(&rule, table);
        CHECK_EQ(t, table[1u << 6], 0x1);
        CHECK_EQ(t, table[0], 0);
    }
    if (parse(t, "B6/S1H", &rule)) {
        hexlut_build_table(&rule, table);
        CHECK_EQ(t, table[1u << 6], 0);
    }
    /* All 16 cells alive: each of the four counts six neighbours and itself, 7, in S. */
    if (parse(t, "R1,C2,M1,S7..7,B6..6,NH", &rule)) {
        hexlut_build_table(&rule, table);
        CHECK_EQ(t, table[0xffff], 0xf);
    }
}

static void check_tiles(checks *t) {
    const int32_t sides[][2] = {{3, 3}, {64, 16}, {65, 17}, {2049, 129}, {4096, 300}};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        const int32_t w = sides[i][0], h = sides[i][1];
        const int32_t nw = hexlut_words(w);
        const int32_t strips = (h + HEXLUT_STRIP_ROWS - 1) / HEXLUT_STRIP_ROWS;
        int *seen = calloc((size_t)nw * (size_t)strips, sizeof *seen);
        const int32_t tiles_x = hexlut_tiles_x(w);
        for (int64_t tile = 0; tile < hexlut_tiles(w, h); tile++)
            for (int32_t ty = 0; ty < HEXLUT_THREADS_Y; ty++)
                for (int32_t tx = 0; tx < HEXLUT_THREADS_X; tx++) {
                    int32_t k;
                    int64_t y0;
                    hexlut_tile_thread(tiles_x, tile, tx, ty, &k, &y0);
                    if (k < nw && y0 < h) seen[(y0 / HEXLUT_STRIP_ROWS) * nw + k]++;
                }
        int once = 0;
        for (int64_t j = 0; j < (int64_t)nw * strips; j++) once += seen[j] == 1;
        CHECKF(t, once == nw * strips, "%dx%d: %d of %d strips computed once", (int)w, (int)h,
               once, (int)(nw * strips));
        free(seen);
    }
}

/* A random hexagonal rule: each count of B and S in with probability 1/2, M0 or M1. */
static void random_rule(uint64_t *s, cc_rule *rule) {
    memset(rule, 0, sizeof *rule);
    rule->shape = CC_SHAPE_HEX;
    rule->radius = 1;
    rule->centre = (int)(next_random(s) & 1);
    const int32_t max = rule->centre ? 7 : 6;
    cc_error err;
    for (int32_t c = 0; c <= max; c++) {
        if (next_random(s) & 1) (void)cc_set_add(&rule->birth, c, c, &err);
        if (next_random(s) & 1) (void)cc_set_add(&rule->survive, c, c, &err);
    }
}

/* Packs cells into rows of pitch words, with junk past the last cell and in the padding. */
static void pack(const cc_grid *g, hexlut_word *words, size_t pitch, uint64_t *s) {
    for (int32_t y = 0; y < g->h; y++) {
        hexlut_word *row = words + (size_t)y * pitch;
        for (size_t k = 0; k < pitch; k++) row[k] = next_random(s);
        for (int32_t x = 0; x < g->w; x++) {
            const hexlut_word bit = (hexlut_word)1 << (x % 64);
            row[x / 64] = (row[x / 64] & ~bit) | (g->cells[(size_t)y * g->w + x] ? bit : 0);
        }
    }
}

/* 1 if the words hold g's cells and nothing past each row's last cell. */
static int same_cells(const cc_grid *g, const hexlut_word *words, size_t pitch) {
    const int32_t nw = hexlut_words(g->w);
    for (int32_t y = 0; y < g->h; y++) {
        const hexlut_word *row = words + (size_t)y * pitch;
        for (int32_t x = 0; x < nw * 64; x++) {
            const int bit = (int)((row[x / 64] >> (x % 64)) & 1u);
            const int want = x < g->w ? g->cells[(size_t)y * g->w + x] : 0;
            if (bit != want) return 0;
        }
    }
    return 1;
}

static void check_steps(checks *t, uint8_t *table) {
    const int32_t widths[] = {3,  4,  5,  7,   31,  32,  33,  63,  64,  65, 66,
                              95, 96, 97, 127, 128, 129, 130, 191, 193, 257};
    const int32_t heights[] = {3, 4, 5, 15, 16, 17, 18, 19, 33, 47};
    uint64_t s = 0x9e3779b97f4a7c15ull;
    long cases = 0, matched = 0;
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
        for (size_t hi = 0; hi < sizeof heights / sizeof heights[0]; hi++) {
            const int32_t w = widths[wi], h = heights[hi];
            const size_t pitch = hexlut_pitch(w);
            cc_rule rule;
            random_rule(&s, &rule);
            hexlut_build_table(&rule, table);
            cc_error err;
            cc_grid g, next;
            if (cc_grid_alloc(&g, w, h, &err) || cc_grid_alloc(&next, w, h, &err)) {
                CHECKF(t, 0, "%s", err.msg);
                return;
            }
            const uint64_t density = next_random(&s) % 100;
            for (size_t i = 0; i < cc_grid_cells(&g); i++)
                g.cells[i] = next_random(&s) % 100 < density;
            hexlut_word *in = malloc(pitch * (size_t)h * sizeof *in);
            hexlut_word *out = malloc(pitch * (size_t)h * sizeof *out);
            pack(&g, in, pitch, &s);
            for (size_t i = 0; i < pitch * (size_t)h; i++) out[i] = next_random(&s);
            int ok = 1;
            for (int step = 0; step < 3 && ok; step++) {
                for (int32_t k = 0; k < hexlut_words(w); k++)
                    for (int32_t y0 = 0; y0 < h; y0 += HEXLUT_STRIP_ROWS)
                        hexlut_strip(in, out, table, w, h, pitch, k, y0, HEXLUT_STRIP_ROWS);
                if (oracle_step(&rule, &g, &next, &err)) {
                    CHECKF(t, 0, "oracle: %s", err.msg);
                    ok = 0;
                    break;
                }
                cc_grid tmp = g;
                g = next;
                next = tmp;
                hexlut_word *swap = in;
                in = out;
                out = swap;
                char text[CC_RULE_TEXT_MAX] = "?";
                (void)cc_rule_print(&rule, text, sizeof text, &err);
                ok = CHECKF(t, same_cells(&g, in, pitch), "%s on %dx%d, step %d differs", text,
                            (int)w, (int)h, step + 1);
            }
            cases++;
            matched += ok;
            free(in);
            free(out);
            cc_grid_free(&g);
            cc_grid_free(&next);
        }
    printf("hexlut_bits_test: %ld of %ld grids match the oracle over 3 steps\n", matched, cases);
}

int main(void) {
    checks t = {"hexlut_bits_test", 0, 0};
    uint8_t *table = malloc(HEXLUT_TABLE_ENTRIES);
    if (!table) {
        fprintf(stderr, "hexlut_bits_test: cannot allocate the table\n");
        return 1;
    }
    check_columns(&t);
    check_table(&t, table);
    check_tiles(&t);
    check_steps(&t, table);
    free(table);
    return check_summary(&t);
}
