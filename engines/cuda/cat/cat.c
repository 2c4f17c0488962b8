/* cuda.cat: the CAT paper's method, FP16 operands and FP16 accumulators (cat_kernels.cu). */
#include "engines/cuda/cat/cat_engine.h"

extern const cc_engine cc_engine_cuda_cat;

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return cuda_cat_engine_create(&cc_engine_cuda_cat, CAT_NUM_F16, rule, w, h, ctx, err);
}

const cc_engine cc_engine_cuda_cat = CUDA_CAT_ENGINE(
    "cuda.cat",
    "CAT: band-matrix MMAs on 16x16 FP16 WMMA fragments, FP16 accumulators, tiles of "
    "1x14 fragments",
    CAT_RADIUS_MAX_F16,
    "FP16 accumulators hold the largest sum (2r+1)^2 exactly only while it is "
    "at most 2048, so r <= 22; r 17..22 takes a halo of two fragments; the two "
    "FP16 buffers must fit in the device's free memory",
    create);
