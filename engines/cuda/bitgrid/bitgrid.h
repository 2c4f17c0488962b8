/* Bit-per-cell grids on the common GPU driver, for the bit-sliced CUDA engines of seed 001
 * (cuda.bitslice1, cuda.bitslice2, cuda.life-shared, cuda.life-shuffle): Moore radius-1 rules only.
 *
 * Layout (seed 001 IV-A's column-major bit-per-cell arrangement): words of `bits` bits (32 or 64);
 * word column j holds cells j*cells .. j*cells + cells - 1 of a row, cells = bits - 2 * halo, cell
 * j*cells + i at bit halo + i; the word of column j and row y sits at j * H + y, so the threads of
 * a warp that take consecutive rows of one column read consecutive words. The last column holds
 * the remaining `last` cells (1 .. cells); every bit that holds no cell is zero.
 *
 * The halo bits are room, not copies: a multi-step engine whose tiles reach `halo` cells past a
 * column's own fills them from the neighbouring columns when it reads the column into a tile, so
 * that the tile's clean centre is exactly one column's word and no two blocks write one word. The
 * single-step engines use halo 0 (64 cells a word). */
#ifndef CELLCHECK_ENGINES_CUDA_BITGRID_BITGRID_H
#define CELLCHECK_ENGINES_CUDA_BITGRID_BITGRID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cpu/bitrows/bitrule.h"
#include "engines/cuda/common/gpu.h"
#include "oracle/error.h"
#include "oracle/rule.h"

typedef struct cc_bitgrid_geometry {
    int32_t w, h;
    int32_t bits;    /* 32 or 64 */
    int32_t halo;    /* bits of room on either side of a word's cells */
    int32_t cells;   /* cells a word: bits - 2 * halo */
    int32_t columns; /* word columns: ceil(w / cells) */
    int32_t last;    /* cells of the last column */
} cc_bitgrid_geometry;

/* The geometry of a w x h grid in words of `bits` with `halo` bits of room; refuses a halo that
 * leaves a word fewer cells than the halo itself (a column's neighbour must hold its halo). */
int cc_bitgrid_geometry_init(const char *engine, int32_t w, int32_t h, int32_t bits, int32_t halo,
                             cc_bitgrid_geometry *geo, cc_error *err);

typedef struct cc_bitgrid cc_bitgrid;

/* Launches `steps` steps (1 .. the engine's steps_max) of an engine from grid in into grid out
 * without waiting; checks the launch. */
typedef int (*cc_bitgrid_launch)(const cc_bitgrid *grid, const void *in, void *out,
                                 int32_t steps, cc_error *err);

/* A bit-grid engine's state on the driver. */
struct cc_bitgrid {
    const char *engine;
    cc_bitgrid_geometry geo;
    bitrows_rule rule;   /* on the neighbours' count */
    bitrows_rule9 rule9; /* on the 3x3 block's count */
    int32_t steps_max; /* steps one launch may do: 1, or the halo of a multi-step engine */
    int32_t kind;      /* the engine's own choice of kernel; 0: its only one */
    int32_t tile_rows; /* rows of a multi-step engine's tile; 0: no tiles */
    cc_bitgrid_launch launch;
};

/* cc_engine.create of a bit-grid engine (a cc_gpu in *ctx) for a Moore radius-1 rule: geometry
 * geo, `steps_max` steps a launch, stepped by launch (kind and tile_rows are the launch's). engine
 * is a static string. Refuses a grid whose two copies do not fit in the device's free memory. */
int cc_bitgrid_create(const char *engine, const cc_rule *rule, const cc_bitgrid_geometry *geo,
                      int32_t steps_max, int32_t kind, int32_t tile_rows, cc_bitgrid_launch launch,
                      void **ctx, cc_error *err);

/* Bytes of one grid: columns * h words. */
size_t cc_bitgrid_bytes(const cc_bitgrid_geometry *geo);

#ifdef __cplusplus
}
#endif

#endif
