/* cuda.cat-f32: cuda.cat with FP32 accumulators, exact to the halo's limit, r = 32. */
#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat/cat_kernels.h"
#include "engines/cuda/cat/cat_cuda.h"
#include "engines/cuda/cat/cat_engine.h"
#include "engines/engine.h"

/* FP16 buffers as cuda.cat's (the accumulators live in registers). */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    cat_cuda_memory(w, h, CUDA_CAT_FRAG, cat_halo_fragments(rule->radius, CUDA_CAT_FRAG), 2.0,
                    need);
}

const cc_engine cc_engine_cuda_cat_f32 = {
    .name = "cuda.cat-f32",
    .summary = "CAT with FP32 accumulators: band-matrix MMAs on 16x16 FP16 WMMA fragments, "
               "radius up to 32 with a halo of two fragments",
    /* the same tiles as cuda.cat (cat_engine.c) */
    CAT_CUDA_ENGINE(CAT_RADIUS_MAX_F32, 16 * CUDA_CAT_TILE_W, 16 * CUDA_CAT_TILE_H,
                    "r <= 32: a halo of two 16-cell fragments (r 17..32); FP32 sums and FP16 "
                    "operands (H <= 2r+1) are exact there; the two FP16 buffers must fit in the "
                    "device's free memory",
                    cuda_cat_create_f32),
    .memory = memory,
};
