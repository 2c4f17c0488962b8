/* cuda.coarse: the CAT authors' COARSE (an 80x80 tile per block, thread coarsening) behind the
 * engine contract. The device code is in coarse_kernels.cu. */
#include "engines/cuda/coarse/coarse_kernels.h"
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_coarse = {
    .name = "cuda.coarse",
    .summary = "shared memory with thread coarsening: 80x80 cells per block from an (80+2r)^2 "
               "tile, 16x16 threads of 5x5 cells each",
    CC_DEVGRID_ENGINE(cuda_coarse_create, CUDA_COARSE_TILE, CUDA_COARSE_TILE),
};
