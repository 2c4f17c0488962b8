/* cuda.cat-f32: cuda.cat with FP32 accumulators, exact to the halo's limit, r = 32. */
#include "engines/cuda/cat/cat_engine.h"

extern const cc_engine cc_engine_cuda_cat_f32;

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return cuda_cat_engine_create(&cc_engine_cuda_cat_f32, CAT_NUM_F32, rule, w, h, ctx, err);
}

const cc_engine cc_engine_cuda_cat_f32 = CUDA_CAT_ENGINE(
    "cuda.cat-f32",
    "CAT with FP32 accumulators: band-matrix MMAs on 16x16 FP16 WMMA fragments, "
    "radius up to 32 with a halo of two fragments",
    CAT_RADIUS_MAX_F32,
    "r <= 32: a halo of two 16-cell fragments (r 17..32); FP32 sums and FP16 "
    "operands (H <= 2r+1) are exact there; the two FP16 buffers must fit in "
    "the device's free memory",
    create);
