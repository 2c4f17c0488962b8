/* The CAT method's fragment-level algorithm in portable C, as cuda.cat runs it: 16 x 16 FP16
 * fragments in the fragment-contiguous extended buffer with its out-halo, the band fragments for
 * the radius, tiles of w x h fragments, the horizontal pass into a tile of H fragments (2*halo+1
 * MMAs each, the halo rows above and below included), the vertical pass out of it (2*halo+1 more),
 * then the rule per cell, then the refresh of the positions outside the W x H cells.
 *
 * An emulated MMA computes D = A x B + C per element as the exact sum of the products added to C
 * and rounded once to the accumulator's format (IEEE binary16 or binary32, nearest-even), and H is
 * rounded to binary16 before the vertical pass reads it. With exact sums (cat_common.h) every
 * rounding is the identity; where sums pass 2048 in FP16, the roundings show.
 *
 * By default a pass's MMAs are summed at once in integers over the bands' non-zero diagonals and
 * a fragment falls back to the MMAs one by one only where a sum passes the accumulator's exact
 * limit (cat_emu_core.c says why the result is the same); tiles run on every core, each thread
 * with its own H tile. */
#ifndef CELLCHECK_ENGINES_CPU_CAT_EMU_CAT_EMU_CORE_H
#define CELLCHECK_ENGINES_CPU_CAT_EMU_CAT_EMU_CORE_H

#include <stdint.h>

#include "engines/cpu/common/engine_functions.h"
#include "engines/cuda/cat/cat_common.h"
#include "engines/engine.h"
#include "oracle/error.h"
#include "oracle/rule.h"

#define CAT_EMU_FRAG 16
#define CAT_EMU_HALO_MAX 2 /* radius up to 32 */

typedef struct cat_emu_config {
    cat_number accumulator; /* CAT_NUM_F16 (as cuda.cat) or CAT_NUM_F32 (as cuda.cat-f32) */
    int32_t tile_w, tile_h; /* fragments per tile; cuda.cat's 1 x 14 */
    int check_exactness;    /* 1: refuse a radius whose sums are not exact (cat_check_exact);
                             * 0: run it anyway, for the test that shows the harness catches
                             * the rounding */
    int direct;             /* 1: every MMA one by one on the FP16 fragments, rounded as it goes,
                             * never the integer sums: what the tests hold the default to */
} cat_emu_config;

typedef struct cat_emu cat_emu;

/* name: the engine name for messages. Refuses shapes other than Moore and cross, radii above 32,
 * tiles below 1x1, and (with check_exactness) radii whose sums the formats do not hold exactly.
 * The contract has checked the rule and size against the engine's caps first. */
int cat_emu_create(const char *name, const cc_rule *rule, int32_t w, int32_t h,
                   const cat_emu_config *cfg, cat_emu **out, cc_error *err);

/* The other functions of an engine on the emulation (ctx: a cat_emu), for its table: cat_emu_load,
 * cat_emu_step, cat_emu_store (a position holding anything but FP16 0 or 1 comes out as 2) and
 * cat_emu_destroy. */
CPU_ENGINE_FUNCTIONS_DECLARE(cat_emu);
#define CAT_EMU_FUNCTIONS CPU_ENGINE_FUNCTIONS(cat_emu)

/* What a context of cfg holds for rule on W x H (cc_engine.memory): the two FP16 buffers and an H
 * tile for each thread of the team (omp_get_max_threads) that create sizes them for. */
void cat_emu_memory(const cc_rule *rule, int32_t w, int32_t h, const cat_emu_config *cfg,
                    cc_memory *need);

/* The band fragment of neighbour offset d (-halo..halo) as the emulation builds it: for the
 * horizontal pass (vertical 0) element [in][out], for the vertical pass [out][in], FP16 bits. */
void cat_emu_band(int32_t r, int32_t d, int vertical, uint16_t out[CAT_EMU_FRAG * CAT_EMU_FRAG]);

#endif
