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
    PNG_DIFF_ORACLE_ONLY = 3, /* blue: alive in the oracle's grid only */
    PNG_DIFF_NEAR = 4         /* light yellow: dead in both, within PNG_DIFF_NEAR_CELLS of a
                               * difference, so one wrong cell shows at a glance */
};
#define PNG_DIFF_NEAR_CELLS 2

/* The most cells a difference picture shows a side: a larger grid is cropped to this window
 * around its first difference. */
#define PNG_DIFF_WINDOW 128

/* The part of a grid a picture shows: cells x0 .. x0+w-1, y0 .. y0+h-1, scale pixels a cell;
 * (first_x, first_y) the first differing cell in row order (-1 where none differs). */
typedef struct png_diff_window {
    int32_t x0, y0, w, h, scale;
    int32_t first_x, first_y;
} png_diff_window;

/* The scale (pixels per cell) for a w x h window: about 512 pixels a side, 1 to 32 a cell. */
int32_t png_diff_scale(int32_t w, int32_t h);

/* The window of the picture of two grids of one size: the whole grid up to PNG_DIFF_WINDOW a
 * side, else that many cells a side centred on the first difference, within the grid. */
png_diff_window png_diff_window_of(const cc_grid *engine, const cc_grid *oracle);

/* Writes the difference of two grids of the same size as a PNG of its window, and beside it
 * (path with .txt for .png) what the picture shows: the window, the scale and each colour's
 * meaning. Each file is written atomically (a temporary file beside it, then rename). Every
 * error message names the path. */
int png_write_diff(const char *path, const cc_grid *engine, const cc_grid *oracle, cc_error *err);

#endif
