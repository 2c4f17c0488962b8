/* cuda.life-shuffle: seed 001's multi-step simulation in registers (Section V-C): bit-per-cell
 * words, a warp per tile of one word column, each lane holding consecutive rows of the tile in
 * registers and trading its first and last with its neighbours by warp shuffles, several steps per
 * launch, the clean centre written back. Any Moore radius-1 rule, M0 or M1, any W and H, any step
 * count. The device code is in life_kernels.cu. */
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life/life_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_life_shuffle = {
    .name = "cuda.life-shuffle",
    .summary = "bit-per-cell words, a warp per tile in registers, rows traded by warp shuffles, "
               "several steps a launch, the clean centre written back",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = 1,
             .tile_w = CUDA_LIFE_TILE_W(CUDA_LIFE_SHUFFLE_BITS, CUDA_LIFE_SHUFFLE_STEPS),
             .tile_h = CUDA_LIFE_TILE_H(CUDA_LIFE_SHUFFLE_ROWS, CUDA_LIFE_SHUFFLE_STEPS),
             .limits = "the grid's two copies (a bit a cell) must fit in the device's free "
                       "memory"},
    .create = cuda_life_shuffle_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
