/* cuda.base: the GPU baseline (the CAT paper's BASE) behind the engine contract. The device code
 * is in cuda_base_kernels.cu; here are the checks at create and the rule's tables. */
#include <stdlib.h>

#include "engines/engine.h"
#include "reference/cuda_base/cuda_base_kernels.h"

#define CUDA_BASE_RADIUS_MAX 16

typedef struct cuda_base {
    int32_t w, h;
    cuda_base_device *device;
} cuda_base;

extern const cc_engine cc_engine_cuda_base;

static int cuda_base_available(cc_error *err) { return cuda_base_probe(err); }

/* Every supported shape has, in each row dy, a contiguous run of dx once the centre is counted
 * in; the kernel loops over that run. A shape without one is refused rather than mis-counted. */
static int row_intervals(const cc_rule *rule, int32_t *lo, int32_t *hi, cc_error *err) {
    int32_t r = rule->radius;
    for (int32_t dy = -r; dy <= r; dy++) {
        int32_t first = 1, last = 0, members = 0;
        for (int32_t dx = -r; dx <= r; dx++) {
            int in = (dx == 0 && dy == 0) || cc_shape_contains(rule->shape, r, dx, dy);
            if (!in) continue;
            if (members == 0) first = dx;
            last = dx;
            members++;
        }
        if (members > 0 && members != last - first + 1)
            return cc_fail(err, CC_ERR_UNSUPPORTED,
                           "cuda.base: shape %s at radius %d is not one run of cells in row %d",
                           cc_shape_code(rule->shape), (int)r, (int)dy);
        lo[dy + r] = first;
        hi[dy + r] = last;
    }
    return CC_OK;
}

static int cuda_base_create_engine(const cc_rule *rule, int32_t w, int32_t h, void **out,
                                   cc_error *err) {
    *out = NULL;
    int rc = cc_engine_check(&cc_engine_cuda_base, rule, w, h, err);
    if (rc) return rc;
    int32_t r = rule->radius, max_count = cc_rule_max_count(rule);
    int32_t row_lo[2 * CUDA_BASE_RADIUS_MAX + 1], row_hi[2 * CUDA_BASE_RADIUS_MAX + 1];
    if ((rc = row_intervals(rule, row_lo, row_hi, err))) return rc;
    uint8_t *next_state = calloc(2 * ((size_t)max_count + 1), 1);
    cuda_base *e = calloc(1, sizeof *e);
    if (!next_state || !e) {
        free(next_state);
        free(e);
        return cc_fail(err, CC_ERR_NOMEM, "cuda.base: cannot allocate its context");
    }
    for (int32_t c = 0; c <= max_count; c++) {
        next_state[c] = (uint8_t)cc_set_has(&rule->birth, c);
        next_state[(size_t)max_count + 1 + (size_t)c] = (uint8_t)cc_set_has(&rule->survive, c);
    }
    e->w = w;
    e->h = h;
    rc = cuda_base_create(w, h, r, rule->centre, row_lo, row_hi, next_state, max_count, &e->device,
                          err);
    free(next_state);
    if (rc) {
        free(e);
        return rc;
    }
    *out = e;
    return CC_OK;
}

static int cuda_base_load_engine(void *ctx, const uint8_t *cells, cc_error *err) {
    cuda_base *e = ctx;
    size_t n = (size_t)e->w * (size_t)e->h;
    int rc = cc_engine_check_cells("cuda.base", cells, n, err);
    if (rc) return rc;
    return cuda_base_load(e->device, cells, err);
}

static int cuda_base_step_engine(void *ctx, int64_t k, cc_error *err) {
    int rc = cc_engine_check_steps("cuda.base", k, err);
    if (rc) return rc;
    return cuda_base_step(((cuda_base *)ctx)->device, k, err);
}

static int cuda_base_timed_step_engine(void *ctx, int64_t k, double *ms, cc_error *err) {
    int rc = cc_engine_check_steps("cuda.base", k, err);
    if (rc) return rc;
    return cuda_base_timed_step(((cuda_base *)ctx)->device, k, ms, err);
}

static int cuda_base_store_engine(void *ctx, uint8_t *cells, cc_error *err) {
    return cuda_base_store(((cuda_base *)ctx)->device, cells, err);
}

static void cuda_base_destroy_engine(void *ctx) {
    cuda_base *e = ctx;
    if (!e) return;
    cuda_base_destroy(e->device);
    free(e);
}

static const char *cuda_base_device_name_engine(void *ctx) {
    return cuda_base_device_name(((cuda_base *)ctx)->device);
}

const cc_engine cc_engine_cuda_base = {
    .name = "cuda.base",
    .summary = "GPU baseline (BASE): one thread per cell, 32x32 blocks, global memory only",
    .hardware = CC_HW_GPU,
    .caps =
        {
            .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |
                      CC_SHAPE_BIT(CC_SHAPE_CROSS) | CC_SHAPE_BIT(CC_SHAPE_CIRCULAR) |
                      CC_SHAPE_BIT(CC_SHAPE_HEX),
            .radius_min = 1,
            .radius_max = CUDA_BASE_RADIUS_MAX,
            .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
            .w_multiple = 1,
            .h_multiple = 1,
            .w_max = 0,
            .h_max = 0,
            .count_max = 0,
            .limits = "the grid's two copies must fit in the device's free memory",
        },
    .available = cuda_base_available,
    .create = cuda_base_create_engine,
    .load = cuda_base_load_engine,
    .step = cuda_base_step_engine,
    .store = cuda_base_store_engine,
    .destroy = cuda_base_destroy_engine,
    .timed_step = cuda_base_timed_step_engine,
    .device_name = cuda_base_device_name_engine,
};
