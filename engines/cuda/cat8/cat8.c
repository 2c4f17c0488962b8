/* cuda.cat8: the CAT band-matrix method on INT8 tensor cores (cat8_kernels.cu): one byte per cell,
 * s8 operands and s32 sums, fragments of 32 x 32 cells, radius up to 32. */
#include <stdlib.h>

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat8/cat8_kernels.h"
#include "engines/engine.h"

extern const cc_engine cc_engine_cuda_cat8;

typedef struct cuda_cat8_engine {
    int32_t w, h;
    cuda_cat8_device *device;
} cuda_cat8_engine;

static int available(cc_error *err) { return cuda_cat8_probe(err); }

static int create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    *out = NULL;
    const char *name = cc_engine_cuda_cat8.name;
    int rc = cc_engine_check(&cc_engine_cuda_cat8, rule, w, h, err);
    if (rc) return rc;
    /* The precision argument (cat_common.h) for INT8 operands, INT32 sums: H <= 2r+1 <= 65 fits
     * an s8 operand and every sum an s32. */
    if ((rc = cat_check_exact(name, rule->shape, rule->radius, CAT_NUM_S8, CAT_NUM_S32, err)))
        return rc;
    cat_rule_params params;
    if ((rc = cat_rule_params_build(name, rule, &params, err))) return rc;
    cat_geometry geo;
    if ((rc = cat_geometry_init(&geo, w, h, CUDA_CAT8_FRAG, 1, err))) return rc;
    cuda_cat8_engine *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", name);
    e->w = w;
    e->h = h;
    rc = cuda_cat8_create(&geo, rule->radius, rule->shape == CC_SHAPE_CROSS, &params,
                          CUDA_CAT8_TILE_W, CUDA_CAT8_TILE_H, CUDA_CAT8_STAGED, &e->device, err);
    if (rc) {
        free(e);
        return rc;
    }
    *out = e;
    return CC_OK;
}

static int load(void *ctx, const uint8_t *cells, cc_error *err) {
    cuda_cat8_engine *e = ctx;
    size_t n = (size_t)e->w * (size_t)e->h;
    int rc = cc_engine_check_cells("cuda.cat8", cells, n, err);
    if (rc) return rc;
    return cuda_cat8_load(e->device, cells, err);
}

static int step(void *ctx, int64_t k, cc_error *err) {
    int rc = cc_engine_check_steps("cuda.cat8", k, err);
    if (rc) return rc;
    return cuda_cat8_step(((cuda_cat8_engine *)ctx)->device, k, err);
}

static int timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    int rc = cc_engine_check_steps("cuda.cat8", k, err);
    if (rc) return rc;
    return cuda_cat8_timed_step(((cuda_cat8_engine *)ctx)->device, k, ms, err);
}

static int store(void *ctx, uint8_t *cells, cc_error *err) {
    return cuda_cat8_store(((cuda_cat8_engine *)ctx)->device, cells, err);
}

static void destroy(void *ctx) {
    cuda_cat8_engine *e = ctx;
    if (!e) return;
    cuda_cat8_destroy(e->device);
    free(e);
}

static const char *device_name(void *ctx) {
    return cuda_cat8_device_name(((cuda_cat8_engine *)ctx)->device);
}

const cc_engine cc_engine_cuda_cat8 = {
    .name = "cuda.cat8",
    .summary = "CAT on INT8 tensor cores: band-matrix mma.sync m16n8k32 (s8 operands, s32 sums), "
               "one byte per cell, 32x32 fragments",
    .hardware = CC_HW_GPU,
    .caps =
        {
            .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
            .radius_min = 1,
            .radius_max = CUDA_CAT8_RADIUS_MAX,
            .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
            .w_multiple = 1,
            .h_multiple = 1,
            .w_max = 0,
            .h_max = 0,
            .count_max = 0,
            .limits = "r <= 32: one 32-cell fragment of halo; INT8 operands hold H <= 2r+1 = 65; "
                      "the two byte buffers must fit in the device's free memory",
        },
    .available = available,
    .create = create,
    .load = load,
    .step = step,
    .store = store,
    .destroy = destroy,
    .timed_step = timed_step,
    .device_name = device_name,
};
