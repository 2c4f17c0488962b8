/* The C interface of cuda.cat8's device code: the CAT band-matrix method (cat_common.h) on INT8
 * tensor-core MMAs (mma.sync m16n8k32, s8 operands, s32 sums), one byte per cell, fragments of
 * 32 x 32 cells so that one fragment of halo on each side reaches radius 32; on the common GPU
 * driver. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT8_CAT8_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_CAT8_CAT8_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/common/gpu.h"
#include "oracle/error.h"

#define CUDA_CAT8_FRAG 32
#define CUDA_CAT8_RADIUS_MAX 32 /* one fragment of halo */

/* Tiles (w x h fragments of 32 x 32) a block computes, with h + 2 warps. The engine uses
 * CUDA_CAT8_TILE_W x CUDA_CAT8_TILE_H, 1 x 6, unless the build defines them (2 x 6 measured 10%
 * faster on the H100 but has not been through the campaign), e.g.
 *   bazel build --per_file_copt='engines/cuda/cat8/cat8\.c@-DCUDA_CAT8_TILE_H=14' ... */
#define CUDA_CAT8_TILES "1x6, 1x4, 1x8, 1x14, 2x6, 2x14"
#ifndef CUDA_CAT8_TILE_W
#define CUDA_CAT8_TILE_W 1
#endif
#ifndef CUDA_CAT8_TILE_H
#define CUDA_CAT8_TILE_H 6
#endif

/* Whether each tile's Lambda fragments are first copied into shared memory, asynchronously and a
 * tile ahead, instead of being read by the warps from global memory. Off: on the H100 it measured
 * slower (0.95 against 0.75 ms a step at 16384^2, 1x6 tiles). */
#ifndef CUDA_CAT8_STAGED
#define CUDA_CAT8_STAGED 0
#endif

int cuda_cat8_tile_compiled(int32_t tile_w, int32_t tile_h);

/* The device's two extended buffers (geo: fragments of 32, halo 1) on the common GPU driver,
 * whose functions then load, step, time and store them; store writes 2 for a position holding
 * anything but 0 or 1. staged: see CUDA_CAT8_STAGED. Refuses buffers that do not fit in the
 * device's free memory and tiles that are not compiled. A rule whose B and S are at most one range
 * each (cat_rule_is_single) gets the kernels that test it with one comparison. */
int cuda_cat8_create(const cat_geometry *geo, int32_t r, int cross, const cat_rule_params *rule,
                     int32_t tile_w, int32_t tile_h, int staged, cc_gpu **out, cc_error *err);

/* The byte offset of cell (x, y), 0 <= x, y < 32, inside a fragment: the order in which lane
 * 4 * (y % 8) + (x / 4) % 4 of a warp holds it as the B operand of m16n8k32 (rows y as the
 * n index, columns x as k), so that each lane loads its operands with two 16-byte loads. */
static inline CAT_HD int32_t cuda_cat8_offset(int32_t x, int32_t y) {
    int32_t lane = 4 * (y & 7) + ((x >> 2) & 3);
    int32_t reg = 2 * (y >> 3) + (x >> 4); /* 0..7: (n block, k half) */
    return (reg >> 2) * 512 + lane * 16 + (reg & 3) * 4 + (x & 3);
}

#ifdef __cplusplus
}
#endif

#endif
