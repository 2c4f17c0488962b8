/* cuda.shared1: Millan's shared-memory version 1 (one thread per tile cell, halo threads only
 * load), extended to radius 16, behind the engine contract. The device code is in
 * shared1_kernels.cu. */
#include "engines/cuda/devgrid/devgrid_engine.h"
#include "engines/cuda/shared1/shared1_kernels.h"

extern const cc_engine cc_engine_cuda_shared1;

static int cuda_shared1_create_engine(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                      cc_error *err) {
    return cc_devgrid_create_engine(&cc_engine_cuda_shared1, cuda_shared1_create, rule, w, h, ctx,
                                    err);
}

const cc_engine cc_engine_cuda_shared1 = CC_DEVGRID_ENGINE(
    "cuda.shared1",
    "shared memory, in-halo blocks (Millan's Shared v1): a thread per tile cell, only "
    "the cells at least r inside the tile are computed",
    cuda_shared1_create_engine);
