/* The portable cells of a slab's buffer torus (gpu_slabs.h): the slab's own rows of a W x H torus
 * with `halo` rows above and below, as W x (rows + 2 halo) cells whose first and last rows meet
 * in a torus of their own. Buffer row i is global row y0 - halo + i, modulo H, so a halo longer
 * than the torus repeats its rows. Plain C, to fill a buffer torus from the caller's grid and to
 * take its own rows back. */
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_BUFFER_TORUS_H
#define CELLCHECK_ENGINES_CUDA_COMMON_BUFFER_TORUS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The global row that buffer row i holds (0 <= y0 < h, halo >= 0, i >= 0). */
int32_t cc_buffer_torus_row(int32_t h, int32_t y0, int32_t halo, int32_t i);

/* The rows of the tallest buffer torus when h rows are cut over min(devices, h) slabs as
 * engines/slabs does (heights differ by at most one): for estimates and the host's scratch. */
int32_t cc_buffer_torus_rows_max(int32_t h, int32_t devices, int32_t halo);

/* buffer (w x (rows + 2 halo) cells) from grid (w x h). */
void cc_buffer_torus_gather(const uint8_t *grid, int32_t w, int32_t h, int32_t y0, int32_t rows,
                            int32_t halo, uint8_t *buffer);

/* The own rows of buffer, buffer rows halo .. halo + rows - 1, into grid rows y0 .. y0 + rows - 1
 * (y0 + rows <= h). */
void cc_buffer_torus_scatter(const uint8_t *buffer, int32_t w, int32_t y0, int32_t rows,
                             int32_t halo, uint8_t *grid);

#ifdef __cplusplus
}
#endif

#endif
