/* What the CAT CUDA engines' tables share (cuda.cat, cuda.cat-f32, cuda.cat8): Moore and the cross
 * on the common GPU driver. The table's file includes engines/engine.h. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT_CAT_CUDA_H
#define CELLCHECK_ENGINES_CUDA_CAT_CAT_CUDA_H

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/common/gpu.h"
#include "engines/engine.h"
#include "oracle/rule.h"

/* cc_engine.memory of a CAT engine: two buffers of element_bytes per position of the extended
 * fragments (the halo of halo fragments included), and the driver's staging buffer of whole rows
 * (cc_gpu_staging_bytes_max), all on the device; the host holds only the driver's bookkeeping. */
static inline void cat_cuda_memory(int32_t w, int32_t h, int32_t frag, int32_t halo,
                                   double element_bytes, cc_memory *need) {
    cat_geometry geo;
    cat_geometry_init(&geo, w, h, frag, halo, NULL);
    need->host_bytes = 4096.0;
    need->device_bytes = 2.0 * element_bytes * (double)cat_geometry_positions(&geo) +
                         cc_gpu_staging_bytes_max(w, h);
}

/* The fields after .name and .summary: radius 1..radius_max_, a block's tile of tile_w_ x tile_h_
 * cells (0: none stated), limits_ (a string), create_ as cc_engine.create.
 *   const cc_engine cc_engine_cuda_x = {.name = ..., .summary = ...,
 *                                       CAT_CUDA_ENGINE(32, 32, 192, "...", create)};
 */
#define CAT_CUDA_ENGINE(radius_max_, tile_w_, tile_h_, limits_, create_)                         \
    .hardware = CC_HW_GPU,                                                                       \
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),              \
             .radius_max = (radius_max_),                                                        \
             .tile_w = (tile_w_),                                                                \
             .tile_h = (tile_h_),                                                                \
             .limits = limits_},                                                                 \
    .create = (create_), CC_GPU_ENGINE_FUNCTIONS

#endif
