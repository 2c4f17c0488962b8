/* cuda.life-shared: seed 001's multi-step simulation in shared memory (Section V-B): bit-per-cell
 * words, a warp per tile of one word column, several steps on the tile in shared memory per
 * launch, the clean centre written back. Any Moore radius-1 rule, M0 or M1, any W and H, any step
 * count. The device code is in life_kernels.cu. */
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life/life_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_life_shared = {
    .name = "cuda.life-shared",
    .summary = "bit-per-cell words, a warp per tile in shared memory, several steps a launch on "
               "the tile, its clean centre written back",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = 1,
             /* the clean centre a tile writes */
             .tile_w = CUDA_LIFE_TILE_W(CUDA_LIFE_SHARED_BITS, CUDA_LIFE_SHARED_STEPS),
             .tile_h = CUDA_LIFE_TILE_H(CUDA_LIFE_SHARED_ROWS, CUDA_LIFE_SHARED_STEPS),
             .limits = "the grid's two copies (a bit a cell) must fit in the device's free "
                       "memory"},
    .create = cuda_life_shared_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
