/* cpu.avx512: the CAT paper's OMP+AVX512 engine. OpenMP bands of rows; in each band the counts
 * slide down one row at a time (engines/cpu/sliding), so a step costs about the same per cell at
 * every radius; the vector work is 64 cells at a time in AVX-512 (avx512_kernels.c, the only code
 * built for AVX-512, called only once CPUID and XGETBV have said it is there). */
#include "engines/cpu/avx512/avx512_kernels.h"
#include "engines/cpu/sliding/sliding.h"
#include "engines/engine.h"

static int available(cc_error *err) { return sliding_cpu_supports(CC_HW_AVX512, err); }

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return sliding_engine_create("cpu.avx512", CC_HW_AVX512, &cpu_avx512_kernels, rule, w, h, ctx,
                                 err);
}

const cc_engine cc_engine_cpu_avx512 = {
    .name = "cpu.avx512",
    .summary = "CPU OpenMP + AVX-512: counts sliding down bands of rows, 64 cells a vector",
    .hardware = CC_HW_AVX512,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |
                       CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = SLIDING_RADIUS_MAX,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
    .available = available,
    .create = create,
    SLIDING_FUNCTIONS,
};
