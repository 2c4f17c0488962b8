/* cuda.cat and cuda.cat-f32 behind the engine contract: the checks at create and the context. */
#include "engines/cuda/cat/cat_engine.h"

#include <stdlib.h>

#include "engines/cuda/cat/cat_kernels.h"

typedef struct cuda_cat_engine {
    const cc_engine *engine;
    int32_t w, h;
    cuda_cat_device *device;
} cuda_cat_engine;

int cuda_cat_engine_available(cc_error *err) { return cuda_cat_probe(err); }

int cuda_cat_engine_create(const cc_engine *engine, cat_number accumulator, const cc_rule *rule,
                           int32_t w, int32_t h, void **out, cc_error *err) {
    *out = NULL;
    int rc = cc_engine_check(engine, rule, w, h, err);
    if (rc) return rc;
    /* The precision argument (cat_common.h): every value the MMAs form, FP16 operands and these
     * accumulators, must be an exactly represented integer at this radius. */
    if ((rc = cat_check_exact(engine->name, rule->shape, rule->radius, CAT_NUM_F16, accumulator,
                              err)))
        return rc;
    cat_rule_params params;
    if ((rc = cat_rule_params_build(engine->name, rule, &params, err))) return rc;
    cat_geometry geo;
    int32_t halo = cat_halo_fragments(rule->radius, CUDA_CAT_FRAG);
    if ((rc = cat_geometry_init(&geo, w, h, CUDA_CAT_FRAG, halo, err))) return rc;
    cuda_cat_engine *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine->name);
    e->engine = engine;
    e->w = w;
    e->h = h;
    cuda_cat_config cfg = {accumulator, CUDA_CAT_TILE_W, CUDA_CAT_TILE_H, CUDA_CAT_STAGED};
    rc = cuda_cat_create(&geo, rule->radius, rule->shape == CC_SHAPE_CROSS, &params, &cfg,
                         &e->device, err);
    if (rc) {
        free(e);
        return cc_prefix(err, "%s", engine->name);
    }
    *out = e;
    return CC_OK;
}

int cuda_cat_engine_load(void *ctx, const uint8_t *cells, cc_error *err) {
    cuda_cat_engine *e = ctx;
    size_t n = (size_t)e->w * (size_t)e->h;
    int rc = cc_engine_check_cells(e->engine->name, cells, n, err);
    if (rc) return rc;
    return cuda_cat_load(e->device, cells, err);
}

int cuda_cat_engine_step(void *ctx, int64_t k, cc_error *err) {
    cuda_cat_engine *e = ctx;
    int rc = cc_engine_check_steps(e->engine->name, k, err);
    if (rc) return rc;
    return cuda_cat_step(e->device, k, err);
}

int cuda_cat_engine_timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    cuda_cat_engine *e = ctx;
    int rc = cc_engine_check_steps(e->engine->name, k, err);
    if (rc) return rc;
    return cuda_cat_timed_step(e->device, k, ms, err);
}

int cuda_cat_engine_store(void *ctx, uint8_t *cells, cc_error *err) {
    return cuda_cat_store(((cuda_cat_engine *)ctx)->device, cells, err);
}

void cuda_cat_engine_destroy(void *ctx) {
    cuda_cat_engine *e = ctx;
    if (!e) return;
    cuda_cat_destroy(e->device);
    free(e);
}

const char *cuda_cat_engine_device_name(void *ctx) {
    return cuda_cat_device_name(((cuda_cat_engine *)ctx)->device);
}
