/* The portable grid (W x H bytes, row-major, no halo) to and from an engine's padded rows of bytes,
 * row y of which starts at base + y * pitch; what lies around the W cells of each row (halo,
 * padding) is the engine's to fill. And the two grids of such rows an engine steps between. */
#ifndef CELLCHECK_ENGINES_CPU_COMMON_ROWS_H
#define CELLCHECK_ENGINES_CPU_COMMON_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "oracle/error.h"

void cpu_rows_load(uint8_t *base, size_t pitch, const uint8_t *cells, int32_t w, int32_t h);
void cpu_rows_store(uint8_t *cells, const uint8_t *base, size_t pitch, int32_t w, int32_t h);

/* Two grids of padded byte rows, the current one and the next, swapped after each step: cell
 * (x, y) of a grid lies at grid + origin + y * pitch + x, for 0 <= x < w and 0 <= y < h. An
 * engine whose context begins with a cpu_padded_grids can use cpu_padded_grids_store as its
 * table's .store. */
typedef struct cpu_padded_grids {
    int32_t w, h;
    size_t pitch;  /* bytes from a row to the next */
    size_t origin; /* bytes from the start of a grid to its cell (0, 0) */
    uint8_t *cur, *next; /* the engine's allocations, freed by cpu_padded_grids_free */
} cpu_padded_grids;

void cpu_padded_grids_free(cpu_padded_grids *g);

static inline void cpu_padded_grids_swap(cpu_padded_grids *g) {
    uint8_t *t = g->cur;
    g->cur = g->next;
    g->next = t;
}

/* ctx begins with a cpu_padded_grids: copies the W x H cells of its current grid out. */
int cpu_padded_grids_store(void *ctx, uint8_t *cells, cc_error *err);

#endif
