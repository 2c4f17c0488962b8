/* The driver shared by the vector CPU engines (cpu.avx2, cpu.avx512): a padded copy of the torus,
 * OpenMP bands of rows, and neighbour counts that slide down each band at a constant cost per
 * cell whatever the radius. The per-row work is done by a table of vector kernels, one table per
 * instruction set, compiled with that instruction set's flags only.
 *
 * Every count is centre-inclusive, b = neighbours + the cell itself, so that the Moore box, the
 * diamond and the cross are plain sums of the grid. The rule is rewritten for b at create: a dead
 * cell is born iff b is in B; a live cell survives iff b is in S, shifted up by one under M0.
 *
 * Moore: sums[x] += box(row y+r) - box(row y-r-1), box the 2r+1 cells of a row centred on x.
 * Cross: cols[x] += cell(y+r) - cell(y-r-1); b = box(row y) + cols - cell(y).
 * Von Neumann: the diamond gains its lower boundary and loses the upper one of the row above, each
 * two diagonal segments, read off two diagonal prefix sums (along (1,1) and (-1,1)) as the
 * difference of two entries. All u16 sums may wrap: only differences of at most 2r+1 are used. */
#ifndef CELLCHECK_ENGINES_CPU_SLIDING_SLIDING_H
#define CELLCHECK_ENGINES_CPU_SLIDING_SLIDING_H

#include <stdint.h>

#include "engines/cpu/common/engine_functions.h"
#include "engines/cpu/common/rows.h"
#include "engines/engine.h"

/* Row widths are padded to this many cells, a multiple of every kernel's vector width. */
#define SLIDING_CHUNK 64

/* The largest radius: boxes of 2r+1 cells are summed in u8 lanes (2r+1 <= 255) and counts in u16
 * lanes ((2r+1)^2 <= 65535); 64 keeps the halo within one 64-cell pad. */
#define SLIDING_RADIUS_MAX 64

/* A count set as ranges, tested lane by lane as (b - lo) <= span, unsigned. */
typedef struct sliding_ranges {
    int n;
    uint16_t lo[CC_SET_MAX_RANGES], span[CC_SET_MAX_RANGES];
} sliding_ranges;

typedef struct sliding_rule {
    sliding_ranges birth;   /* on b of a dead cell */
    sliding_ranges survive; /* on b of a live cell */
} sliding_rule;

/* The diagonal prefix rows one diamond step reads (pointers at column 0; columns -r-1 .. width+r
 * are readable): q1 runs along (1,1), q2 along (-1,1). */
typedef struct sliding_diamond_rows {
    const uint16_t *q1_low; /* row y+r */
    const uint16_t *q1_mid; /* row y-1 */
    const uint16_t *q1_top; /* row y-r-1 */
    const uint16_t *q2_low; /* row y+r-1 */
    const uint16_t *q2_mid; /* row y-1 */
    const uint16_t *q2_top; /* row y-r-2 */
} sliding_diamond_rows;

/* The per-row kernels. width is a multiple of SLIDING_CHUNK; cell rows are 0/1 bytes readable from
 * column -r to width+r-1. When centre is not NULL the kernel also writes out[0 .. width-1]: the
 * next state of row centre, whose counts the kernel has just brought up to date. */
typedef struct sliding_kernels {
    /* sums += box(add) - box(sub); sub NULL: nothing leaves. */
    void (*moore_row)(uint16_t *sums, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width);
    /* cols += add - sub (u8 lanes); b = box(centre) + cols - centre. */
    void (*cross_row)(uint8_t *cols, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width);
    /* q1[x] = cells[x] + q1_above[x-1]; q2[x] = cells[x] + q2_above[x+1] (the halo columns are
     * the driver's). */
    void (*diagonal_row)(uint16_t *q1, const uint16_t *q1_above, uint16_t *q2,
                         const uint16_t *q2_above, const uint8_t *cells, int32_t width);
    /* diamond += q1_low[x] + q1_top[x] - q1_mid[x-r-1] - q1_mid[x+r]
     *           + q2_low[x+1] + q2_top[x+1] - q2_mid[x+r+1] - q2_mid[x-r] */
    void (*diamond_row)(uint16_t *diamond, const sliding_diamond_rows *rows, int32_t r,
                        const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                        int32_t width);
} sliding_kernels;

/* A context on this driver with kernels, which the caller knows this CPU can run; name: the
 * engine's, for messages. Shapes and radii beyond the driver's are refused, though an engine's caps
 * (and so the contract's create) refuse them first. Threads: omp_get_max_threads() at create. */
int sliding_create(const char *name, const sliding_kernels *kernels, const cc_rule *rule,
                   int32_t w, int32_t h, void **ctx, cc_error *err);
/* An engine's create: that the CPU has hw, the instruction set kernels are built for (errors
 * prefixed with name), then sliding_create. */
int sliding_engine_create(const char *name, cc_hardware hw, const sliding_kernels *kernels,
                          const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
/* The other functions of an engine on this driver, for its table: sliding_load, sliding_step,
 * sliding_destroy, and cpu_padded_grids_store, the context's first member being its grids. */
CPU_ENGINE_LOAD_STEP_DESTROY_DECLARE(sliding);
#define SLIDING_FUNCTIONS CPU_ENGINE_FUNCTIONS_STORING(sliding, cpu_padded_grids_store)

/* Defines an engine on this driver, the table symbol: its kernels are built for the instruction
 * set hw, which its available and its create check this CPU for; its caps are the driver's. */
#define SLIDING_ENGINE(symbol, engine_name, engine_summary, hw, kernels)                           \
    static int symbol##_available(cc_error *err) { return sliding_cpu_supports(hw, err); }         \
    static int symbol##_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,             \
                               cc_error *err) {                                                    \
        return sliding_engine_create(engine_name, hw, kernels, rule, w, h, ctx, err);              \
    }                                                                                              \
    const cc_engine symbol = {                                                                     \
        .name = engine_name,                                                                       \
        .summary = engine_summary,                                                                 \
        .hardware = hw,                                                                            \
        .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |     \
                           CC_SHAPE_BIT(CC_SHAPE_CROSS),                                           \
                 .radius_max = SLIDING_RADIUS_MAX,                                                 \
                 .centres = CC_CENTRE_M0 | CC_CENTRE_M1},                                          \
        .available = symbol##_available,                                                           \
        .create = symbol##_create,                                                                 \
        SLIDING_FUNCTIONS,                                                                         \
    }

/* The rule rewritten for centre-inclusive counts (see above). */
void sliding_rule_from(const cc_rule *rule, sliding_rule *out);

/* Does this CPU, and the OS's saved register state, support the instruction set? 0 if so, else
 * CC_ERR_UNAVAILABLE with what is missing. CC_HW_AVX2: AVX and AVX2 by CPUID, XMM and YMM state
 * by XGETBV. CC_HW_AVX512: AVX-512 F and BW, and the opmask and ZMM state as well. */
int sliding_cpu_supports(cc_hardware hw, cc_error *err);

#endif
