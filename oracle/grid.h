/* The grid type: W columns by H rows, row-major uint8_t cells that are 0 or 1, no halo, a torus. */
#ifndef CELLCHECK_ORACLE_GRID_H
#define CELLCHECK_ORACLE_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* Largest side accepted anywhere; a grid must also fit in memory, which cc_grid_alloc checks. */
#define CC_GRID_SIDE_MAX (1 << 20)

typedef struct cc_grid {
    int32_t w, h;
    uint8_t *cells; /* cells[y * w + x] */
} cc_grid;

/* Allocates a zeroed w x h grid; refuses sides outside 1..CC_GRID_SIDE_MAX and failed allocations. */
int cc_grid_alloc(cc_grid *g, int32_t w, int32_t h, cc_error *err);
void cc_grid_free(cc_grid *g);
int cc_grid_copy(cc_grid *dst, const cc_grid *src, cc_error *err);
size_t cc_grid_cells(const cc_grid *g);
int cc_grid_equal(const cc_grid *a, const cc_grid *b);
size_t cc_grid_population(const cc_grid *g);
/* A w x h grid with pattern at its top-left corner; a pattern larger than w x h is refused,
 * naming both sizes. */
int cc_grid_place(const cc_grid *pattern, int32_t w, int32_t h, cc_grid *out, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
