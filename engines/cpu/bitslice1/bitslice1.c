/* cpu.bitslice1: seed 001's Algorithm SINGLE-WORD on the CPU. One bit per cell in 64-bit words;
 * each word's 8 neighbour words (its row above, its own row and the row below, each shifted west
 * and east) are summed by bitwise half and full adders into a 4-bit count, and the rule's
 * multiplexer tree turns count and cell into the next word (engines/cpu/bitrows). Any Moore
 * radius-1 rule, M0 or M1, any W and H. OpenMP over rows. */
#include "engines/cpu/bitrows/bitrows.h"
#include "engines/engine.h"

static void step_rows(const bitrows *b) {
    const int32_t h = b->h, nw = b->nw;
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < h; y++) {
        const uint64_t *up = bitrows_row(b, b->cur, y - 1);
        const uint64_t *mid = bitrows_row(b, b->cur, y);
        const uint64_t *down = bitrows_row(b, b->cur, y + 1);
        uint64_t *out = bitrows_row(b, b->next, y);
        bitrows_single_row(&b->rule, nw, up, mid, down, out);
        bitrows_fix_row(b, out);
    }
}

BITROWS_ENGINE(cc_engine_cpu_bitslice1, "cpu.bitslice1",
               "CPU bit-per-cell words, bitwise adders one word at a time (SINGLE-WORD), OpenMP",
               step_rows);
