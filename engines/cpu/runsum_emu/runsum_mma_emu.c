/* cpu.runsum-mma-emu: cuda.runsum's band-matrix count (engines/cuda/runsum/band_mma.cuh,
 * runsum_mma_program.h) in portable C: each lane's registers in arrays, the MMAs by
 * cpu.cat1-emu's emulations of the PTX fragment layouts, a shuffle a read of the partner lane's
 * entry. Bands of 64 rows, so that small grids too have several. */
#include "engines/cpu/runsum_emu/runsum_emu.h"
#include "engines/cuda/runsum/runsum_mma_program.h"

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return runsum_emu_create("cpu.runsum-mma-emu", 1, rule, w, h, ctx, err);
}

const cc_engine cc_engine_cpu_runsum_mma_emu = {
    .name = "cpu.runsum-mma-emu",
    .summary = "cuda.runsum's band-matrix count emulated: row sums (the cross: each cell's bit) "
               "by binary MMAs of a band, counts by s8 MMAs of a vertical band (the cross: from "
               "its horizontal arms), the rule by lookup in four tables of a byte a count, lane "
               "by lane",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = RUNSUM_MMA_RADIUS_MAX,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
             .tile_w = RUNSUM_WORD,
             .limits = "r <= 32: a word's window reaches one 32-bit word either side and a row "
                       "sum fits an s8; two grids of 32-bit words in memory"},
    .create = create,
    .memory = runsum_emu_memory,
    CPU_ENGINE_FUNCTIONS(runsum_emu),
};
