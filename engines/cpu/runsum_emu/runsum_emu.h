/* What the two engines of engines/cpu/runsum_emu share: cuda.runsum's grids and driver in portable
 * C, with either of its counts (running sums, runsum_program.h; band matrices,
 * runsum_mma_program.h), lane by lane. */
#ifndef CELLCHECK_ENGINES_CPU_RUNSUM_EMU_RUNSUM_EMU_H
#define CELLCHECK_ENGINES_CPU_RUNSUM_EMU_RUNSUM_EMU_H

#include "engines/cpu/common/engine_functions.h"
#include "engines/engine.h"

/* The context of engine `name` (a static string); band_mma 1: the band-matrix count. */
int runsum_emu_create(const char *name, int band_mma, const cc_rule *rule, int32_t w, int32_t h,
                      void **ctx, cc_error *err);

/* Two grids of 32-bit words with their halo words, on the host. */
void runsum_emu_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need);

CPU_ENGINE_FUNCTIONS_DECLARE(runsum_emu);

#endif
