/* The portable grid (W x H bytes, row-major, no halo) to and from an engine's padded rows of bytes,
 * row y of which starts at base + y * pitch; what lies around the W cells of each row (halo,
 * padding) is the engine's to fill. */
#ifndef CELLCHECK_ENGINES_CPU_COMMON_ROWS_H
#define CELLCHECK_ENGINES_CPU_COMMON_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void cpu_rows_load(uint8_t *base, size_t pitch, const uint8_t *cells, int32_t w,
                                 int32_t h) {
    for (int32_t y = 0; y < h; y++)
        memcpy(base + (size_t)y * pitch, cells + (size_t)y * (size_t)w, (size_t)w);
}

static inline void cpu_rows_store(uint8_t *cells, const uint8_t *base, size_t pitch, int32_t w,
                                  int32_t h) {
    for (int32_t y = 0; y < h; y++)
        memcpy(cells + (size_t)y * (size_t)w, base + (size_t)y * pitch, (size_t)w);
}

#endif
