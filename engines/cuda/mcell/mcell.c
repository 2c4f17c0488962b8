/* cuda.mcell: the multi-cell method (two adjacent cells per thread sharing their column sums,
 * out-halo shared tile) behind the engine contract. The device code is in mcell_kernels.cu. */
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/mcell/mcell_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_mcell = {
    .name = "cuda.mcell",
    .summary = "multi-cell: two adjacent cells per thread sharing their column sums, 16x16 threads "
               "on a (32+2r)x(16+2r) shared tile",
    CC_DEVGRID_ENGINE(cuda_mcell_create, CUDA_MCELL_THREADS * CUDA_MCELL_CELLS, CUDA_MCELL_THREADS),
};
