/* cuda.hexlut: seed 002's lookup-table method for hexagonal rules on the GPU, behind the engine
 * contract: one bit per cell, a 2^16-entry table of the next states of 4 cells built at create,
 * kept in shared memory. The layout and word arithmetic are in hexlut_bits.h, the device code in
 * hexlut_kernels.cu; load and store convert the portable form through the driver's staging. */
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/hexlut/hexlut_bits.h"
#include "engines/cuda/hexlut/hexlut_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_hexlut = {
    .name = "cuda.hexlut",
    .summary = "hexagonal rules: one bit per cell, a 2^16-entry table in shared memory gives 4 "
               "cells a lookup, a thread per 64-cell word down a strip of rows",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_HEX),
             .radius_max = 1,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
             /* What one thread computes, a word by a strip of rows: the seams where the torus
              * wrap and the strips' borrowed rows meet. Threads share nothing but the table, so
              * a block's edges (32 words by 8 strips) are no seams of their own. */
             .tile_w = HEXLUT_WORD_CELLS,
             .tile_h = HEXLUT_STRIP_ROWS,
             .limits = "the grid's two bit copies and the 64 KiB table must fit in the device's "
                       "free memory; a block needs 64 KiB of shared memory"},
    .create = cuda_hexlut_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
