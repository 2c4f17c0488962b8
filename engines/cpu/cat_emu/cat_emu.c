/* cpu.cat-emu: cuda.cat's fragment-level algorithm emulated in portable C with IEEE FP16 rounding
 * (cat_emu_core.h): FP16 operands and accumulators, tiles of 1 x 14 fragments, certified where
 * there is no GPU. */
#include <stdlib.h>

#include "engines/cpu/cat_emu/cat_emu_core.h"
#include "engines/engine.h"

extern const cc_engine cc_engine_cpu_cat_emu;

static int available(cc_error *err) {
    (void)err;
    return CC_OK;
}

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    int rc = cc_engine_check(&cc_engine_cpu_cat_emu, rule, w, h, err);
    if (rc) return rc;
    /* As cuda.cat: the exactness argument is checked for FP16 accumulators at create. */
    cat_emu_config cfg = {CAT_NUM_F16, 1, 14, 1};
    cat_emu *e = NULL;
    rc = cat_emu_create(cc_engine_cpu_cat_emu.name, rule, w, h, &cfg, &e, err);
    *ctx = e;
    return rc;
}

static int load(void *ctx, const uint8_t *cells, cc_error *err) {
    return cat_emu_load(ctx, cells, err);
}
static int step(void *ctx, int64_t k, cc_error *err) { return cat_emu_step(ctx, k, err); }
static int store(void *ctx, uint8_t *cells, cc_error *err) {
    return cat_emu_store(ctx, cells, err);
}
static void destroy(void *ctx) { cat_emu_destroy(ctx); }

const cc_engine cc_engine_cpu_cat_emu = {
    .name = "cpu.cat-emu",
    .summary = "CAT emulated: cuda.cat's band-matrix MMAs on 16x16 FP16 fragments, IEEE FP16 "
               "rounding, tiles of 1x14 fragments",
    .hardware = CC_HW_CPU,
    .caps =
        {
            .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
            .radius_min = 1,
            .radius_max = CAT_RADIUS_MAX_F16,
            .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
            .w_multiple = 1,
            .h_multiple = 1,
            .w_max = 0,
            .h_max = 0,
            .count_max = 0,
            .limits = "FP16 accumulators hold the largest sum (2r+1)^2 exactly only while it is "
                      "at most 2048, so r <= 22; two FP16 buffers of the padded grid in memory",
        },
    .available = available,
    .create = create,
    .load = load,
    .step = step,
    .store = store,
    .destroy = destroy,
    .timed_step = NULL,
    .device_name = NULL,
};
