/* cuda.shared: Millan's shared-memory version 2 (Topa's halo pattern), extended to radius 16,
 * behind the engine contract. The device code is in shared_kernels.cu. */
#include "engines/cuda/devgrid/devgrid_engine.h"
#include "engines/cuda/shared/shared_kernels.h"

extern const cc_engine cc_engine_cuda_shared;

static int cuda_shared_create_engine(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                     cc_error *err) {
    return cc_devgrid_create_engine(&cc_engine_cuda_shared, cuda_shared_create, rule, w, h, ctx,
                                    err);
}

const cc_engine cc_engine_cuda_shared = CC_DEVGRID_ENGINE(
    "cuda.shared",
    "shared memory, Topa's halo pattern (Millan's Shared v2): 32x32 cells per block "
    "from a (32+2r)^2 tile, the first four thread rows load the halo",
    cuda_shared_create_engine);
