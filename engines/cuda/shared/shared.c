/* cuda.shared: Millan's shared-memory version 2 (Topa's halo pattern), extended to radius 16,
 * behind the engine contract. The device code is in shared_kernels.cu. */
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/shared/shared_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_shared = {
    .name = "cuda.shared",
    .summary = "shared memory, Topa's halo pattern (Millan's Shared v2): 32x32 cells per block "
               "from a (32+2r)^2 tile, the first four thread rows load the halo",
    CC_DEVGRID_ENGINE(cuda_shared_create, CUDA_SHARED_BLOCK, CUDA_SHARED_BLOCK),
};
