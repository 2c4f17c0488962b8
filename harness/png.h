/* The PNG writer of difference pictures: 8-bit palette images, compressed by libpng and zlib
 * (both linked statically, so test binaries need neither on the machine they run on). */
#ifndef CELLCHECK_HARNESS_PNG_H
#define CELLCHECK_HARNESS_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"
#include "oracle/grid.h"

/* zlib's CRC-32 (of PNG chunks) and Adler-32 (of zlib streams), for tests and tools. */
uint32_t png_crc32(const uint8_t *data, size_t len);
uint32_t png_adler32(const uint8_t *data, size_t len);

/* Encodes a w x h image of palette indices (row-major, one byte per pixel, each < colours) with
 * the palette rgb[3 * colours]. *out is malloc'd; the caller frees it. */
int png_encode_indexed(const uint8_t *pixels, int32_t w, int32_t h, const uint8_t *rgb,
                       int colours, uint8_t **out, size_t *out_len, cc_error *err);

/* The palette of difference pictures, by index. */
enum {
    PNG_DIFF_BOTH_DEAD = 0,   /* white */
    PNG_DIFF_BOTH_ALIVE = 1,  /* dark grey */
    PNG_DIFF_ENGINE_ONLY = 2, /* red: alive in the engine's grid only */
    PNG_DIFF_ORACLE_ONLY = 3  /* blue: alive in the oracle's grid only */
};

/* The scale (pixels per cell) for a w x h grid: small grids are drawn larger. */
int32_t png_diff_scale(int32_t w, int32_t h);

/* Writes the difference of two grids of the same size as a PNG, atomically (a temporary file
 * beside path, then rename). Every error message names path. */
int png_write_diff(const char *path, const cc_grid *engine, const cc_grid *oracle, cc_error *err);

#endif
