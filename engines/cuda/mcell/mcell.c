/* cuda.mcell: the multi-cell method (two adjacent cells per thread sharing their column sums,
 * out-halo shared tile) behind the engine contract. The device code is in mcell_kernels.cu. */
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/mcell/mcell_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_mcell = {
    .name = "cuda.mcell",
    .summary = "multi-cell: two adjacent cells per thread sharing their column sums, 16x16 threads "
               "on a (32+2r)x(16+2r) shared tile",
    .hardware = CC_HW_GPU,
    .caps = CC_DEVGRID_CAPS,
    .create = cuda_mcell_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
