/* cuda.shared1: Millan's shared-memory version 1 (one thread per tile cell, halo threads only
 * load), extended to radius 16, behind the engine contract. The device code is in
 * shared1_kernels.cu. */
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/shared1/shared1_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_shared1 = {
    .name = "cuda.shared1",
    .summary = "shared memory, in-halo blocks (Millan's Shared v1): a thread per tile cell, only "
               "the cells at least r inside the tile are computed",
    /* a block of 32 x 32 threads computes the (32 - 2r)^2 cells inside its tile */
    CC_DEVGRID_ENGINE(cuda_shared1_create, CUDA_SHARED1_BLOCK, CUDA_SHARED1_BLOCK),
};
