/* cpu.bitslice2: seed 001's Algorithm DOUBLE-WORD on the CPU. One bit per cell in 64-bit words;
 * the words K (row y) and L (row y+1) of one column are updated together: the four neighbour
 * words they share (rows y and y+1 shifted west and east) are summed once, then each adds its own
 * three words above or below and the other centre word. The counts are full 4-bit sums, and the
 * rule's multiplexer tree turns count and cell into the next word (engines/cpu/bitrows), so any
 * Moore radius-1 rule, M0 or M1, runs; any W and H (an odd last row takes SINGLE-WORD). OpenMP
 * over row pairs. */
#include "engines/cpu/bitrows/bitrows.h"
#include "engines/engine.h"

/* Rows y (K) and y+1 (L) from rows r0 = y-1 (A B C), r1 = y (D K E), r2 = y+1 (I L J) and
 * r3 = y+2 (F G H), named as in the paper's Figure 5. */
static void double_row(const bitrows_rule *rule, int32_t nw, const uint64_t *r0,
                       const uint64_t *r1, const uint64_t *r2, const uint64_t *r3, uint64_t *out_k,
                       uint64_t *out_l) {
    for (int32_t j = 1; j <= nw; j++) {
        uint64_t a = bitrows_west(r0, j), b = r0[j], c = bitrows_east(r0, j);
        uint64_t d = bitrows_west(r1, j), k = r1[j], e = bitrows_east(r1, j);
        uint64_t i = bitrows_west(r2, j), l = r2[j], jw = bitrows_east(r2, j);
        uint64_t f = bitrows_west(r3, j), g = r3[j], hw = bitrows_east(r3, j);
        uint64_t shared2, shared1, shared0, above2, above1, above0, below2, below1, below0;
        bitrows_add22(d & e, d ^ e, i & jw, i ^ jw, &shared2, &shared1, &shared0);
        bitrows_add22(a & b, a ^ b, c & l, c ^ l, &above2, &above1, &above0);
        bitrows_add22(f & g, f ^ g, hw & k, hw ^ k, &below2, &below1, &below0);
        uint64_t s3, s2, s1, s0;
        bitrows_add33(above2, above1, above0, shared2, shared1, shared0, &s3, &s2, &s1, &s0);
        out_k[j] = bitrows_next(rule, k, s3, s2, s1, s0);
        bitrows_add33(below2, below1, below0, shared2, shared1, shared0, &s3, &s2, &s1, &s0);
        out_l[j] = bitrows_next(rule, l, s3, s2, s1, s0);
    }
}

static int step_rows(const bitrows *b) {
    const int32_t h = b->h, nw = b->nw, pairs = (b->h + 1) / 2;
#pragma omp parallel for schedule(static)
    for (int32_t p = 0; p < pairs; p++) {
        int32_t y = 2 * p;
        if (y + 1 == h) {
            bitrows_single_row_at(b, y);
            continue;
        }
        uint64_t *out_k = bitrows_row(b, b->next, y), *out_l = bitrows_row(b, b->next, y + 1);
        double_row(&b->rule, nw, bitrows_row(b, b->cur, y - 1), bitrows_row(b, b->cur, y),
                   bitrows_row(b, b->cur, y + 1), bitrows_row(b, b->cur, y + 2), out_k, out_l);
        bitrows_fix_row(b, out_l);
        bitrows_fix_row(b, out_k);
    }
    return CC_OK;
}

BITROWS_ENGINE(cc_engine_cpu_bitslice2, "cpu.bitslice2",
               "CPU bit-per-cell words, bitwise adders two rows at a time (DOUBLE-WORD), OpenMP",
               step_rows);
