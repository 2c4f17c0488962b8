/* cuda.mcell: the multi-cell method (two adjacent cells per thread sharing their column sums,
 * out-halo shared tile) behind the engine contract. The device code is in mcell_kernels.cu. */
#include "engines/cuda/devgrid/devgrid_engine.h"
#include "engines/cuda/mcell/mcell_kernels.h"

extern const cc_engine cc_engine_cuda_mcell;

static int cuda_mcell_create_engine(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                    cc_error *err) {
    return cc_devgrid_create_engine(&cc_engine_cuda_mcell, cuda_mcell_create, rule, w, h, ctx, err);
}

const cc_engine cc_engine_cuda_mcell =
    CC_DEVGRID_ENGINE("cuda.mcell",
                      "multi-cell: two adjacent cells per thread sharing their column sums, 16x16 "
                      "threads on a (32+2r)x(16+2r) shared tile",
                      cuda_mcell_create_engine);
