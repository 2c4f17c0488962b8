/* cat1's fragment program, by hand-counted values: the bit order of a word, the band registers at
 * r = 1, every band's row and column sums (2r+1: the window covers the neighbourhood once), the
 * packing of the ballots into rows, the geometry and its border words, the exactness check. */
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/cat1/cat1_program.h"
#include "testing/check.h"

static int popcount32(uint32_t v) {
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
}

int main(void) {
    checks t = {"cat1_program_test", 0, 0};

    /* Bit b holds column 8 (b % 4) + b / 4, a bijection. */
    CHECK_EQ(&t, cat1_column_of_bit(1), 8);
    CHECK_EQ(&t, cat1_column_of_bit(4), 1);
    CHECK_EQ(&t, cat1_bit_of_column(31), 31);
    int bijective = 1;
    for (int b = 0; b < 32; b++) bijective &= cat1_bit_of_column(cat1_column_of_bit(b)) == b;
    CHECK(&t, bijective);

    /* r = 1, m-group 0, row 0 (column 0): lane 0 holds window word 0 (strip word -1), whose column
     * 31 (bit 31) is column -1; lane 1 holds strip word 0, columns 0 and 1 (bits 0 and 4). */
    CHECK_EQ(&t, cat1_band_h(1, 0, 0, 0), 0x80000000u);
    CHECK_EQ(&t, cat1_band_h(1, 0, 1, 0), 0x11u);
    CHECK_EQ(&t, cat1_band_h(1, 0, 2, 0), 0u);
    CHECK_EQ(&t, cat1_band_h(1, 0, 1, 2), 0u); /* window words 4..7 */
    /* The centre band (r = 0): row 0 of m-group 1 is column 16: strip word 0, bit 2. */
    CHECK_EQ(&t, cat1_band_h(0, 1, 1, 0), 1u << 2);
    /* r = 1, chunk 0, lane 0 (output row 0), register 0: slots 0..3 are rows 0, 1 of window group
     * 0 (group -1: rows -8, -7) and rows 0, 1 of window group 1 (the output group). */
    CHECK_EQ(&t, cat1_band_v(1, 0, 0, 0, 0), 0x01010000u);
    /* Moore's alive slot: r = 1 (kv 1), window group 3 is slot bytes e = 2, 3 of register 1; lane
     * (g 5, t 2) holds its rows 4 and 5 there, and row 5 is output row 5: byte 3. */
    CHECK_EQ(&t, cat1_band_v(1, 0, 4 * 5 + 2, 1, 7), 7u << 24);
    CHECK_EQ(&t, cat1_band_v(1, 0, 4 * 5 + 2, 1, 0), 0u);

    /* Every output column (row) meets 2r+1 band ones across the lanes of its row (column). */
    int band_sums = 1;
    for (int32_t r = 0; r <= CAT1_RADIUS_MAX; r++)
        for (int mg = 0; mg < CAT1_MGROUPS; mg++)
            for (int m = 0; m < 16; m++) {
                int ones = 0;
                for (int tt = 0; tt < 4; tt++)
                    for (int half = 0; half < 2; half++)
                        ones += popcount32(
                            cat1_band_h(r, mg, 4 * (m & 7) + tt, (m >> 3) + 2 * half));
                band_sums &= ones == 2 * r + 1;
            }
    for (int32_t r = 1; r <= CAT1_RADIUS_MAX; r++)
        for (int n = 0; n < 8; n++) {
            int ones = 0;
            for (int kappa = 0; kappa < cat1_kv(r); kappa++)
                for (int tt = 0; tt < 4; tt++)
                    for (int q = 0; q < 2; q++) {
                        uint32_t v = cat1_band_v(r, kappa, 4 * n + tt, q, 0);
                        for (int e = 0; e < 4; e++) ones += (int)((v >> (8 * e)) & 0xffu);
                    }
            band_sums &= ones == 2 * r + 1;
        }
    CHECK(&t, band_sums);
    /* The alive slot: each output row meets alive_b exactly once, in the last window group, and
     * the weight is above every Moore sum while its B byte fits s8. */
    int alive_slot = 1;
    for (int32_t r = 1; r <= CAT1_RADIUS_MAX; r++) {
        alive_slot &= cat1_alive_weight(r) > (2 * r + 1) * (2 * r + 1) && cat1_alive_b(r) <= 127;
        for (int n = 0; n < 8; n++) {
            int with = 0, without = 0;
            for (int kappa = 0; kappa < cat1_kv(r); kappa++)
                for (int tt = 0; tt < 4; tt++)
                    for (int q = 0; q < 2; q++)
                        for (int e = 0; e < 4; e++) {
                            with += (int)((cat1_band_v(r, kappa, 4 * n + tt, q, 100) >> (8 * e)) &
                                          0xffu);
                            without += (int)((cat1_band_v(r, kappa, 4 * n + tt, q, 0) >>
                                              (8 * e)) & 0xffu);
                        }
            alive_slot &= with - without == 100;
        }
    }
    CHECK(&t, alive_slot);
    CHECK_EQ(&t, cat1_alive_weight(1), 64);
    CHECK_EQ(&t, cat1_alive_weight(32), 64 * 67);
    CHECK_EQ(&t, cat1_gh(8), 1);
    CHECK_EQ(&t, cat1_kv(8), 1);
    CHECK_EQ(&t, cat1_kv(9), 2);
    CHECK_EQ(&t, cat1_kv(24), 2);
    CHECK_EQ(&t, cat1_kv(25), 3);

    /* The vertical A registers: halves of G words, x = g in the low halves, g+8 in the high. */
    uint32_t a[4];
    const cat1_mults mults = cat1_mults_of();
    cat1_vertical_a(cat1_pack_h(1, 2, 3, 4, &mults), cat1_pack_h(5, 6, 7, 8, &mults), 0x0c0b0a09u,
                    0x100f0e0du, a);
    CHECK_EQ(&t, a[0], 0x06050201u);
    CHECK_EQ(&t, a[1], 0x08070403u);
    CHECK_EQ(&t, a[2], 0x0e0d0a09u);
    CHECK_EQ(&t, a[3], 0x100f0c0bu);

    /* Lane (g 3, t 2), m-group 0, c0: column 3, row 4 of the group; as a row word bit 12. */
    uint32_t ballot[2][4];
    memset(ballot, 0, sizeof ballot);
    ballot[0][0] = 1u << (4 * 3 + 2);
    CHECK_EQ(&t, cat1_out_row(4 * 3 + 2, 0), 4);
    CHECK_EQ(&t, cat1_centre_bit(4 * 3 + 2, 0, 0), 12);
    CHECK_EQ(&t, cat1_row_word((const uint32_t(*)[4])ballot, 4, &mults), 1u << 12);
    CHECK_EQ(&t, cat1_row_word((const uint32_t(*)[4])ballot, 5, &mults), 0u);
    /* m-group 1, c3 of lane (g 0, t 1): column 16 + 8 = 24, row 3: bit 3. */
    memset(ballot, 0, sizeof ballot);
    ballot[1][3] = 1u << 1;
    CHECK_EQ(&t, cat1_centre_bit(1, 1, 3), 3);
    CHECK_EQ(&t, cat1_row_word((const uint32_t(*)[4])ballot, 3, &mults), 1u << 3);
    /* m-group 1, c3 of lane (g 7, t 3): column 16 + 8 + 7 = 31, row 7: bit 31, which part 3 moves
     * past bit 31 on its way (bit 34 before the shift right). */
    memset(ballot, 0, sizeof ballot);
    ballot[1][3] = 1u << 31;
    CHECK_EQ(&t, cat1_row_word((const uint32_t(*)[4])ballot, 7, &mults), 1u << 31);
    CHECK_EQ(&t, cat1_row_word((const uint32_t(*)[4])ballot, 6, &mults), 0u);

    /* Geometry of a 100 x 20 torus at r = 5 (gh 1, kv 1): two strips, four words and a halo word
     * each side, three groups, 8 rows above and 16 below. */
    cat1_geometry g;
    cc_error err;
    CHECK_EQ(&t, cat1_geometry_init(&g, 100, 20, 5, &err), CC_OK);
    CHECK_EQ(&t, g.fww, 4);
    CHECK_EQ(&t, g.eww, 6);
    CHECK_EQ(&t, g.fg, 3);
    CHECK_EQ(&t, g.top, 8);
    CHECK_EQ(&t, g.bottom, 16);
    CHECK_EQ(&t, g.eh, 48);
    CHECK_EQ(&t, cat1_border_words(&g), 28 * 6 + 20 * 3);
    /* The border words are exactly those holding a position outside the real cells, each once. */
    unsigned char *seen = calloc((size_t)(g.eww * g.eh), 1);
    int border_ok = seen != NULL;
    for (int64_t b = 0; border_ok && b < cat1_border_words(&g); b++) {
        int64_t row, word;
        cat1_border_word(&g, b, &row, &word);
        if (row < 0 || row >= g.eh || word < 0 || word >= g.eww || seen[row * g.eww + word]++)
            border_ok = 0;
    }
    for (int64_t row = 0; border_ok && row < g.eh; row++)
        for (int64_t word = 0; word < g.eww; word++) {
            int outside = 0;
            for (int c = 0; c < 32; c++) {
                int64_t x = (word - 1) * 32 + c, y = row - g.top;
                outside |= x < 0 || x >= g.w || y < 0 || y >= g.h;
            }
            if (outside != seen[row * g.eww + word]) border_ok = 0;
        }
    CHECK(&t, border_ok);
    free(seen);

    /* The exactness check: r 1..32 for Moore and the cross; past the window, and other shapes,
     * refused. */
    CHECK_EQ(&t, cat1_check("test", CC_SHAPE_MOORE, 32, &err), CC_OK);
    CHECK_EQ(&t, cat1_check("test", CC_SHAPE_CROSS, 1, &err), CC_OK);
    CHECK_EQ(&t, cat1_check("test", CC_SHAPE_MOORE, 33, &err), CC_ERR_UNSUPPORTED);
    CHECK_EQ(&t, cat1_check("test", CC_SHAPE_VON_NEUMANN, 4, &err), CC_ERR_UNSUPPORTED);
    return check_summary(&t);
}
