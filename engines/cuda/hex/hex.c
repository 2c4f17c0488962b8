/* cuda.hex: hexagonal rules on the GPU, one cell per thread (seed 002's plain kernel, with
 * DESIGN.md's diagonals), behind the engine contract. The device code is in hex_kernels.cu. */
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/hex/hex_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_hex = {
    .name = "cuda.hex",
    .summary = "hexagonal rules: one thread per cell, 32x8 blocks, global memory only",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_HEX),
             .radius_max = 1,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
             .tile_w = CUDA_HEX_THREADS_X, /* the cells of one thread block */
             .tile_h = CUDA_HEX_THREADS_Y,
             .limits = "the grid's two copies must fit in the device's free memory"},
    .create = cuda_hex_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
