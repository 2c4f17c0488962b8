/* cuda.cat: the CAT paper's method, FP16 operands and FP16 accumulators (cat_kernels.cu). */
#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat/cat_cuda.h"
#include "engines/cuda/cat/cat_engine.h"
#include "engines/cuda/cat/cat_kernels.h"
#include "engines/engine.h"

/* FP16 buffers, the halo as the radius needs it. */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    cat_cuda_memory(w, h, CUDA_CAT_FRAG, cat_halo_fragments(rule->radius, CUDA_CAT_FRAG), 2.0,
                    need);
}

const cc_engine cc_engine_cuda_cat = {
    .name = "cuda.cat",
    .summary = "CAT: band-matrix MMAs on 16x16 FP16 WMMA fragments, FP16 accumulators, tiles of "
               "1x14 fragments",
    /* a block's tile of 16x16 fragments (cat_kernels.h) */
    CAT_CUDA_ENGINE(CAT_RADIUS_MAX_F16, 16 * CUDA_CAT_TILE_W, 16 * CUDA_CAT_TILE_H,
                    "FP16 accumulators hold the largest sum (2r+1)^2 exactly only while it is "
                    "at most 2048, so r <= 22; r 17..22 takes a halo of two fragments; the two "
                    "FP16 buffers must fit in the device's free memory",
                    cuda_cat_create_f16),
    .memory = memory,
};
