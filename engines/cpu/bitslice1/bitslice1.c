/* cpu.bitslice1: seed 001's Algorithm SINGLE-WORD on the CPU. One bit per cell in 64-bit words;
 * each word's 8 neighbour words (its row above, its own row and the row below, each shifted west
 * and east) are summed by bitwise half and full adders into a 4-bit count, and the rule's
 * multiplexer tree turns count and cell into the next word (engines/cpu/bitrows). Any Moore
 * radius-1 rule, M0 or M1, any W and H. OpenMP over rows. */
#include "engines/cpu/bitrows/bitrows.h"
#include "engines/engine.h"

static int step_rows(const bitrows *b) {
    const int32_t h = b->h;
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < h; y++) bitrows_single_row_at(b, y);
    return CC_OK;
}

BITROWS_ENGINE(cc_engine_cpu_bitslice1, "cpu.bitslice1",
               "CPU bit-per-cell words, bitwise adders one word at a time (SINGLE-WORD), OpenMP",
               step_rows);
