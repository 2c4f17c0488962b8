/* cuda.cat and cuda.cat-f32: the checks of their own at create, then the device. */
#include "engines/cuda/cat/cat_engine.h"

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat/cat_kernels.h"

static int create(const char *engine, cat_number accumulator, const cc_rule *rule, int32_t w,
                  int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    /* The precision argument (cat_common.h): every value the MMAs form, FP16 operands and these
     * accumulators, must be an exactly represented integer at this radius. */
    int rc = cat_check_exact(engine, rule->shape, rule->radius, CAT_NUM_F16, accumulator, err);
    if (rc) return rc;
    cat_rule_params params;
    if ((rc = cat_rule_params_build(engine, rule, &params, err))) return rc;
    cat_geometry geo;
    int32_t halo = cat_halo_fragments(rule->radius, CUDA_CAT_FRAG);
    if ((rc = cat_geometry_init(&geo, w, h, CUDA_CAT_FRAG, halo, err))) return rc;
    cuda_cat_config cfg = {accumulator, CUDA_CAT_TILE_W, CUDA_CAT_TILE_H, CUDA_CAT_STAGED};
    cc_gpu *gpu = NULL;
    rc = cuda_cat_create(&geo, rule->radius, rule->shape == CC_SHAPE_CROSS, &params, &cfg, &gpu,
                         err);
    if (rc) return cc_prefix(err, "%s", engine);
    *ctx = gpu;
    return CC_OK;
}

int cuda_cat_create_f16(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return create("cuda.cat", CAT_NUM_F16, rule, w, h, ctx, err);
}

int cuda_cat_create_f32(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return create("cuda.cat-f32", CAT_NUM_F32, rule, w, h, ctx, err);
}
