/* cuda.pack: Cagigas' packet coding (eight 8-bit cells per 64-bit word), extended to radius 16,
 * behind the engine contract. The device code is in pack_kernels.cu. */
#include "engines/cuda/devgrid/devgrid_engine.h"
#include "engines/cuda/pack/pack_kernels.h"

extern const cc_engine cc_engine_cuda_pack;

static int cuda_pack_create_engine(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                   cc_error *err) {
    return cc_devgrid_create_engine(&cc_engine_cuda_pack, cuda_pack_create, rule, w, h, ctx, err);
}

const cc_engine cc_engine_cuda_pack =
    CC_DEVGRID_ENGINE("cuda.pack",
                      "packet coding: eight 8-bit cells per 64-bit word, a thread per word, global "
                      "memory only, two halo words per row side",
                      cuda_pack_create_engine);
