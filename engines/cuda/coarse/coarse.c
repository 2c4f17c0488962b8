/* cuda.coarse: the CAT authors' COARSE (an 80x80 tile per block, thread coarsening) behind the
 * engine contract. The device code is in coarse_kernels.cu. */
#include "engines/cuda/coarse/coarse_kernels.h"
#include "engines/cuda/devgrid/devgrid_engine.h"

extern const cc_engine cc_engine_cuda_coarse;

static int cuda_coarse_create_engine(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                     cc_error *err) {
    return cc_devgrid_create_engine(&cc_engine_cuda_coarse, cuda_coarse_create, rule, w, h, ctx,
                                    err);
}

const cc_engine cc_engine_cuda_coarse = CC_DEVGRID_ENGINE(
    "cuda.coarse",
    "shared memory with thread coarsening: 80x80 cells per block from an (80+2r)^2 "
    "tile, 16x16 threads of 5x5 cells each",
    cuda_coarse_create_engine);
