/* A slab's buffer torus from the caller's grid and back (buffer_torus.h). */
#include "engines/cuda/common/buffer_torus.h"

#include <string.h>

int32_t cc_buffer_torus_row(int32_t h, int32_t y0, int32_t halo, int32_t i) {
    const int64_t y = ((int64_t)y0 - halo + i) % h;
    return (int32_t)(y < 0 ? y + h : y);
}

int32_t cc_buffer_torus_rows_max(int32_t h, int32_t devices, int32_t halo) {
    const int32_t d = devices < h ? devices : h;
    return (h + d - 1) / d + 2 * halo;
}

void cc_buffer_torus_gather(const uint8_t *grid, int32_t w, int32_t h, int32_t y0, int32_t rows,
                            int32_t halo, uint8_t *buffer) {
    const size_t row_bytes = (size_t)w;
    for (int32_t i = 0; i < rows + 2 * halo; i++)
        memcpy(buffer + (size_t)i * row_bytes,
               grid + (size_t)cc_buffer_torus_row(h, y0, halo, i) * row_bytes, row_bytes);
}

void cc_buffer_torus_scatter(const uint8_t *buffer, int32_t w, int32_t y0, int32_t rows,
                             int32_t halo, uint8_t *grid) {
    memcpy(grid + (size_t)y0 * (size_t)w, buffer + (size_t)halo * (size_t)w,
           (size_t)rows * (size_t)w);
}
