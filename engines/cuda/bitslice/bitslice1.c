/* cuda.bitslice1: seed 001's Algorithm SINGLE-WORD on the GPU (Section IV): one bit per cell, a
 * thread per 64-bit word, column-major words in global memory, one step per launch. Any Moore
 * radius-1 rule (the rule's multiplexer tree over the bit-sliced count), M0 or M1, any W and H.
 * The device code is in bitslice_kernels.cu. */
#include "engines/cuda/bitslice/bitslice_kernels.h"
#include "engines/cuda/common/gpu.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_bitslice1 = {
    .name = "cuda.bitslice1",
    .summary = "bit-per-cell 64-bit words, column-major, a thread per word, bitwise adders one "
               "word at a time (SINGLE-WORD), global memory",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = 1,
             .tile_w = 64, /* a word; a block is 256 rows of one word column */
             .tile_h = CUDA_BITSLICE_THREADS,
             .limits = "the grid's two copies (a bit a cell) must fit in the device's free "
                       "memory"},
    .create = cuda_bitslice1_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
