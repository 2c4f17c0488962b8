/* cpu.cat-emu: cuda.cat's fragment-level algorithm emulated in portable C with IEEE FP16 rounding
 * (cat_emu_core.h): FP16 operands and accumulators, tiles of 1 x 14 fragments, certified where
 * there is no GPU. */
#include "engines/cpu/cat_emu/cat_emu_core.h"
#include "engines/engine.h"

/* As cuda.cat: the exactness argument is checked for FP16 accumulators at create. */
static const cat_emu_config config = {CAT_NUM_F16, 1, 14, 1, 0};

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return cat_emu_create("cpu.cat-emu", rule, w, h, &config, (cat_emu **)ctx, err);
}

static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    cat_emu_memory(rule, w, h, &config, need);
}

const cc_engine cc_engine_cpu_cat_emu = {
    .name = "cpu.cat-emu",
    .summary = "CAT emulated: cuda.cat's band-matrix MMAs on 16x16 FP16 fragments, IEEE FP16 "
               "rounding, tiles of 1x14 fragments",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = CAT_RADIUS_MAX_F16,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
             .limits = "FP16 accumulators hold the largest sum (2r+1)^2 exactly only while it is "
                       "at most 2048, so r <= 22; two FP16 buffers of the padded grid in memory"},
    .create = create,
    .memory = memory,
    CAT_EMU_FUNCTIONS,
};
