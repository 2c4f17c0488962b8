/* The band-matrix program's layouts by hand-counted values and by their invariants: the column,
 * slot and lane orders are each a permutation of 0 .. 31; the bands of a known radius hold the
 * bits and bytes counted here by hand; the rule's multiply-add tests, and the tables built from
 * them, agree with cat_rule_next at every count of several rules; the bytes of a lane's cells land
 * in the words at the bits counted by hand. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/runsum/runsum_mma_program.h"
#include "oracle/rule.h"
#include "testing/check.h"

/* Whether f maps 0 .. 31 onto 0 .. 31. */
static int permutation(int32_t (*f)(int), const char *what) {
    uint32_t seen = 0;
    for (int i = 0; i < 32; i++) {
        const int32_t v = f(i);
        if (v < 0 || v > 31 || ((seen >> v) & 1u)) {
            fprintf(stderr, "%s: %d -> %d is out of range or taken twice\n", what, i, (int)v);
            return 0;
        }
        seen |= 1u << v;
    }
    return seen == 0xffffffffu;
}

static int32_t column_of_index(int i) { return runsum_mma_column_of(i / 16, i % 16); }
static int32_t slot_row(int k) { return runsum_mma_slot_row(k); }
static int32_t row_of_lane(int lane) { return runsum_mma_row_of_lane(lane); }

int main(void) {
    checks t = {"runsum_mma_program_test", 0, 0};
    cc_error err;

    CHECK(&t, permutation(column_of_index, "column of (h, m)"));
    CHECK(&t, permutation(slot_row, "row of slot k"));
    CHECK(&t, permutation(row_of_lane, "row of lane"));
    /* Hand-counted: row 9 of m-tile 1 is column 16 + 9 = 25; column 3 = 2 * 1 + 1 of a B operand
     * holds row 1 + 4 = 5 of its 8, and row 6 is column 2 * 2 + 1 = 5; slot 22 = 16 + 4 * 1 + 2
     * holds row 16 + 8 + (row of column 2 = 1) = 25; lane 13 = 4 (2 * 1 + 1) + 1 holds row 8 +
     * (row of column 2 * 1 + 1 = 5) = 13. */
    CHECK_EQ(&t, runsum_mma_column_of(1, 9), 25);
    CHECK_EQ(&t, runsum_mma_row_of_column(3), 5);
    CHECK_EQ(&t, runsum_mma_column_of_row(6), 5);
    for (int n = 0; n < 8; n++)
        CHECKF(&t, runsum_mma_column_of_row(runsum_mma_row_of_column(n)) == n,
               "column %d: row %d maps back to column %d", n, runsum_mma_row_of_column(n),
               runsum_mma_column_of_row(runsum_mma_row_of_column(n)));
    CHECK_EQ(&t, runsum_mma_slot_row(22), 25);
    CHECK_EQ(&t, runsum_mma_row_of_lane(13), 13);

    /* Horizontal bands, r = 1. Column 0 (m-tile 0, row 0): window word 0 (lane t = 0) holds
     * column -1 at bit 31, word 1 columns 0 and 1 at bits 0 and 1. Column 31 (m-tile 1, row 15):
     * bits 30, 31 of word 1 and column 32 at bit 0 of word 2; word 3 is never in a window. */
    CHECK_EQ(&t, runsum_mma_row_band(1, 0, 0, 0), 0x80000000u);
    CHECK_EQ(&t, runsum_mma_row_band(1, 0, 0, 1), 0x00000003u);
    CHECK_EQ(&t, runsum_mma_row_band(1, 1, 15, 1), 0xc0000000u);
    CHECK_EQ(&t, runsum_mma_row_band(1, 1, 15, 2), 0x00000001u);
    CHECK_EQ(&t, runsum_mma_row_band(32, 1, 15, 3), 0u);
    /* r = 32 from column 31 reaches column 63: the whole of word 2. */
    CHECK_EQ(&t, runsum_mma_row_band(32, 1, 15, 2), 0xffffffffu);

    /* Vertical bands, r = 1: output row 0 (group 0, n = g = 0) from the chunk of its own rows
     * (ch 1): slots 0 .. 3 of lane t = 0 hold rows 0, 4, 8, 12, of which 0 is within 1; output
     * row 1 (n = g = 2) from lane t = 1's slots 4 .. 7, rows 1, 5, 9, 13: row 1 only. From the
     * chunk above (ch 0), row 31 of it (row -1) is slot 31: byte 3 of register 1 of lane t = 3. */
    CHECK_EQ(&t, runsum_mma_column_band(1, 0, 1, 0, 0, 0), 0x00000001u);
    CHECK_EQ(&t, runsum_mma_column_band(1, 0, 1, 1, 2, 1), 0u);
    CHECK_EQ(&t, runsum_mma_column_band(1, 0, 1, 0, 2, 1), 0x00000001u);
    CHECK_EQ(&t, runsum_mma_column_band(1, 0, 0, 1, 0, 3), 0x01000000u);
    CHECK_EQ(&t, runsum_mma_column_band(1, 0, 0, 0, 0, 0), 0u);
    CHECK(&t, runsum_mma_chunk_used(1, 0, 0));
    CHECK(&t, !runsum_mma_chunk_used(1, 1, 0));
    CHECK(&t, !runsum_mma_chunk_used(8, 1, 0));
    CHECK(&t, runsum_mma_chunk_used(9, 1, 0));
    CHECK(&t, runsum_mma_chunk_used(1, 3, 2));
    CHECK(&t, !runsum_mma_chunk_used(24, 0, 2));
    CHECK(&t, runsum_mma_chunk_used(25, 0, 2));

    CHECK_EQ(&t, runsum_mma_pack(1, 2, 3, 65), 0x41030201u);
    /* A chunk's registers from d[q][i] = 10 q + i: a0 = (0, 1, 10, 11), a1 = (2, 3, 12, 13),
     * a2 = (20, 21, 30, 31), a3 = (22, 23, 32, 33). */
    int32_t sums[4][4];
    uint32_t packed[4];
    for (int q = 0; q < 4; q++)
        for (int i = 0; i < 4; i++) sums[q][i] = 10 * q + i;
    runsum_mma_pack_chunk(sums, packed);
    CHECK_EQ(&t, packed[0], 0x0b0a0100u);
    CHECK_EQ(&t, packed[1], 0x0d0c0302u);
    CHECK_EQ(&t, packed[2], 0x1f1e1514u);
    CHECK_EQ(&t, packed[3], 0x21201716u);
    /* Exchange 2: lane 4 (bit 2 set) keeps the bits whose bit 0 is set; exchange 4, lane 0, those
     * whose bit 2 is clear. */
    CHECK_EQ(&t, runsum_mma_exchange_keep(4, 2), 0xaaaaaaaau);
    CHECK_EQ(&t, runsum_mma_exchange_keep(0, 4), 0x0f0f0f0fu);
    /* The cells' bits before the exchanges: (gp 3, b 1, m 1, hh 1) at 16 + 8 + 6 + 1 = 31, and
     * every cell at its own bit. */
    CHECK_EQ(&t, runsum_mma_bit_of_cell(3, 1, 1, 1), 31);
    CHECK_EQ(&t, runsum_mma_bit_of_cell(1, 0, 0, 1), 10);
    uint32_t bits_seen = 0;
    for (int cell = 0; cell < 32; cell++) {
        const int gp = cell >> 3, b = cell & 1, m = (cell >> 1) & 1, hh = (cell >> 2) & 1;
        bits_seen |= 1u << runsum_mma_bit_of_cell(gp, b, m, hh);
    }
    CHECK_EQ(&t, bits_seen, 0xffffffffu);

    /* The rule: bit 31 is S (alive) and bit 15 B (dead) of cat_rule_next, at every raw count. */
    /* Life; two ranges of B (HighLife) and of S (B3678/S34678, Day & Night); an empty S; the
     * largest counts at r = 32 (M0: 4224) and r = 16 (M1: 1089). */
    static const char *const rules[] = {"B3/S23",
                                        "B36/S23",
                                        "B3678/S34678",
                                        "B3/S",
                                        "R5,C2,M1,S34..58,B34..45,NM",
                                        "R32,C2,M0,S0..4224,B4224..4224,NM",
                                        "R16,C2,M1,S1089..1089,B1..1,NM"};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        cc_rule rule;
        runsum_geometry g;
        runsum_rule params;
        runsum_mma_rule mma;
        cat_rule_params reference;
        if (!CHECK_EQ(&t, cc_rule_parse(rules[i], &rule, &err), CC_OK) ||
            !CHECK_EQ(&t, runsum_geometry_init(&g, "test", rule.shape, 100, 100, rule.radius, &err), CC_OK) ||
            !CHECK_EQ(&t, runsum_rule_build("test", &rule, &g, &params, &err), CC_OK) ||
            !CHECK_EQ(&t, cat_rule_params_build("test", &rule, &reference, &err), CC_OK))
            continue;
        runsum_mma_rule_build(&params, &g, &mma);
        int wrong = 0;
        for (int32_t raw = 0; raw <= g.raw_max; raw++) {
            const uint32_t got = runsum_mma_sets(&mma, raw);
            const int stays = (int)(got >> 31), born = (int)((got >> 15) & 1u);
            if (stays != cat_rule_next(&reference, 1, raw) || born != cat_rule_next(&reference, 0, raw)) {
                if (!wrong++)
                    fprintf(stderr, "%s: raw %d: S %d B %d, cat_rule_next says %d and %d\n", rules[i],
                            (int)raw, stays, born, cat_rule_next(&reference, 1, raw),
                            cat_rule_next(&reference, 0, raw));
            }
        }
        CHECKF(&t, wrong == 0, "%s: %d counts wrong", rules[i], wrong);
        /* The tables of the kernel of that reach: table j's byte raw is S at bit 7 - j and B at
         * 3 - j, by cat_rule_next; 0 past the largest count, up to the stride. */
        const int32_t stride = runsum_mma_table_stride(runsum_mma_reach(rule.radius));
        uint8_t *tables = malloc((size_t)RUNSUM_MMA_TABLES * (size_t)stride);
        if (!CHECK(&t, tables != NULL) || !CHECK(&t, stride > g.raw_max)) {
            free(tables);
            continue;
        }
        runsum_mma_table_build(&mma, g.raw_max, stride, tables);
        int wrong_entries = 0;
        for (int j = 0; j < RUNSUM_MMA_TABLES; j++)
            for (int32_t raw = 0; raw < stride; raw++) {
                const int in = raw <= g.raw_max;
                const int want = in ? cat_rule_next(&reference, 1, raw) << (7 - j) |
                                          cat_rule_next(&reference, 0, raw) << (3 - j)
                                    : 0;
                if (tables[j * stride + raw] != want && !wrong_entries++)
                    fprintf(stderr, "%s: table %d, raw %d: %#x, want %#x\n", rules[i], j,
                            (int)raw, tables[j * stride + raw], (unsigned)want);
            }
        CHECKF(&t, wrong_entries == 0, "%s: %d table entries wrong", rules[i], wrong_entries);
        free(tables);
    }
    /* The strides: (2 reach + 1)^2 + 1 counts rounded up to 16 bytes. */
    CHECK_EQ(&t, runsum_mma_table_stride(8), 304);
    CHECK_EQ(&t, runsum_mma_table_stride(32), 4240);
    CHECK_EQ(&t, runsum_mma_reach(9), 16);
    /* Bytes to words: byte k holds S of cells 4k .. 4k + 3 at bits 7 .. 4 and B at 3 .. 0; cell
     * i lands at bit 31 - i. Cell 0 (S only), cell 5 (B only), cell 31 (both), cell 18 (S). */
    const uint32_t bytes[8] = {0x80, 0x04, 0, 0, 0x20, 0, 0, 0x11};
    uint32_t stays = 0, born = 0;
    runsum_mma_words_of_bytes(bytes, &stays, &born);
    CHECK_EQ(&t, stays, 0x80002001u);
    CHECK_EQ(&t, born, 0x04000001u);
    return check_summary(&t);
}
