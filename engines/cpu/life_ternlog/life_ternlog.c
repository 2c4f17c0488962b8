/* cpu.life-ternlog: every Life-like rule (Moore r = 1, any B and S, M0 or M1) and every hexagonal
 * one (NH) as the gate network engines/lifenet builds at create, one AVX-512 vpternlog a gate, on
 * bit-per-cell rows (engines/cpu/bitrows: any W and H on the torus). The CPU counterpart of the GPU's LOP3
 * network, so the network's logic runs in CI on every rule the campaign draws. */
#include "engines/cpu/life_ternlog/life_ternlog_kernels.h"
#include "engines/cpu/sliding/sliding.h"
#include "engines/engine.h"

static int life_ternlog_available(cc_error *err) { return sliding_cpu_supports(CC_HW_AVX512, err); }

static int life_ternlog_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                               cc_error *err) {
    int rc = life_ternlog_available(err);
    if (rc) return rc;
    return bitrows_create("cpu.life-ternlog", rule, w, h, life_ternlog_step_rows_avx512,
                          (bitrows **)ctx, err);
}

const cc_engine cc_engine_cpu_life_ternlog = {
    .name = "cpu.life-ternlog",
    .summary = "CPU Life-like and hexagonal rules as a gate network built at create, one AVX-512 "
               "vpternlog a gate, bit-per-cell rows, OpenMP",
    .hardware = CC_HW_AVX512,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_HEX),
             .radius_max = 1,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
    .available = life_ternlog_available,
    .create = life_ternlog_create,
    .memory = bitrows_memory,
    BITROWS_FUNCTIONS,
};
