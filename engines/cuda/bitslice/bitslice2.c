/* cuda.bitslice2: seed 001's Algorithm DOUBLE-WORD on the GPU (Section V-A): a thread per two
 * vertically adjacent 64-bit words of a column, the four shifted words both counts need summed
 * once; column-major words in global memory, one step per launch. Any Moore radius-1 rule, M0 or
 * M1, any W and H (an odd H's last row pairs with row 0, read but not written). The device code is
 * in bitslice_kernels.cu. */
#include "engines/cuda/bitslice/bitslice_kernels.h"
#include "engines/cuda/common/gpu.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_bitslice2 = {
    .name = "cuda.bitslice2",
    .summary = "bit-per-cell 64-bit words, column-major, a thread per two words of a column, "
               "bitwise adders sharing four words (DOUBLE-WORD), global memory",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = 1,
             .tile_w = 64, /* a word; a block is 512 rows of one word column */
             .tile_h = 2 * CUDA_BITSLICE_THREADS,
             .limits = "the grid's two copies (a bit a cell) must fit in the device's free "
                       "memory"},
    .create = cuda_bitslice2_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
