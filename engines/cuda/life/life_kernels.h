/* The C interface of cuda.life-shared and cuda.life-shuffle's device code: seed 001's multi-step
 * simulation (Sections V-B and V-C) on bit grids (engines/cuda/bitgrid/bitgrid.h).
 *
 * A warp takes a tile: one word column (a word of `bits` cells: its own cells and `steps` cells of
 * halo on either side, filled from the neighbouring columns) by 32 * rows_per_lane rows, the
 * column's own rows plus `steps` rows above and below. It runs up to `steps` steps on the tile, the
 * spoiled border growing by one cell a step on every side, and writes the clean centre: the
 * column's own cells of 32 * rows_per_lane - 2 * steps rows. One launch does up to `steps` steps;
 * step(k) for any k launches as many as it needs, the last with fewer steps. */
#ifndef CELLCHECK_ENGINES_CUDA_LIFE_LIFE_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_LIFE_LIFE_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

typedef enum cuda_life_memory {
    CUDA_LIFE_SHARED = 0,  /* the tile's rows in shared memory, a warp per tile */
    CUDA_LIFE_SHUFFLE = 1  /* the tile's rows in registers, neighbours by warp shuffles */
} cuda_life_memory;

typedef struct cuda_life_config {
    cuda_life_memory memory;
    int32_t bits;          /* 32 or 64: the tile's width, d */
    int32_t rows_per_lane; /* 1, 2, 4 or 8: the tile is 32 x this many rows */
    int32_t steps;         /* steps a launch, t: the halo on every side */
    int32_t row_sums;      /* 1: each row's horizontal sums formed once and shared by the three rows
                            * that add them, the rule on the 3x3 block's count; 0: SINGLE-WORD,
                            * the eight shifted neighbour words of every row */
} cuda_life_config;

/* The compiled tiles, as bits x rows_per_lane. */
#define CUDA_LIFE_TILES "32x1,64x1,64x2,64x4,64x8"

/* The engines' defaults (chosen on the H100 by life_tile_bench). */
#define CUDA_LIFE_SHARED_BITS 64
#define CUDA_LIFE_SHARED_ROWS 4
#define CUDA_LIFE_SHARED_STEPS 4
#define CUDA_LIFE_SHARED_ROW_SUMS 1
#define CUDA_LIFE_SHUFFLE_BITS 64
#define CUDA_LIFE_SHUFFLE_ROWS 4
#define CUDA_LIFE_SHUFFLE_STEPS 4
#define CUDA_LIFE_SHUFFLE_ROW_SUMS 1

/* The cells a tile writes: cells_w = bits - 2 steps, rows_h = 32 rows_per_lane - 2 steps. */
#define CUDA_LIFE_TILE_W(bits, steps) ((bits) - 2 * (steps))
#define CUDA_LIFE_TILE_H(rows, steps) (32 * (rows) - 2 * (steps))

/* A context (a cc_gpu in *ctx) for a Moore radius-1 rule on a w x h torus with cfg's tile;
 * engine names it in messages. Refuses a tile that is not compiled or whose steps leave it no
 * clean centre, with the limit named. */
int cuda_life_create(const char *engine, const cuda_life_config *cfg, const cc_rule *rule,
                     int32_t w, int32_t h, void **ctx, cc_error *err);

/* cc_engine.create of each engine, with its default tile. */
int cuda_life_shared_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
int cuda_life_shuffle_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
