/* cpu.amx-emu: the CAT-CPU tile program of amx_program.h on the portable tile emulation, so that
 * CI, which has no AMX, certifies the algorithm the hardware engine runs. */
#include "engines/cpu/amx/amx_tiles_emu.h"

#define AMX_TILE_CONFIG(tiles, cfg) amx_emu_loadconfig((amx_emu_tiles *)(tiles), (cfg))
#define AMX_TILE_RELEASE(tiles) amx_emu_release((amx_emu_tiles *)(tiles))
#define AMX_TILE_ZERO(tiles, t) amx_emu_zero((amx_emu_tiles *)(tiles), (t))
#define AMX_TILE_LOAD(tiles, t, base, stride) \
    amx_emu_load((amx_emu_tiles *)(tiles), (t), (base), (long)(stride))
#define AMX_TILE_STORE(tiles, t, base, stride) \
    amx_emu_store((amx_emu_tiles *)(tiles), (t), (base), (long)(stride))
#define AMX_TILE_DPBSSD(tiles, c, a, b) amx_emu_dpbssd((amx_emu_tiles *)(tiles), (c), (a), (b))
#define AMX_TILE_FAULT(tiles) \
    (((const amx_emu_tiles *)(tiles))->fault ? ((const amx_emu_tiles *)(tiles))->fault_msg : NULL)

#include "engines/cpu/amx/amx_program.h"

static int amx_emu_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    amx_engine *e;
    int rc = amx_engine_create("cpu.amx-emu", rule, w, h, sizeof(amx_emu_tiles), amx_program_step,
                               &e, err);
    if (rc) return rc;
    for (int i = 0; i < e->threads; i++) amx_emu_init(e->scratch[i].tiles);
    *ctx = e;
    return CC_OK;
}

const cc_engine cc_engine_cpu_amx_emu = {
    .name = "cpu.amx-emu",
    .summary = "CAT-CPU tile program (INT8 band tiles, INT32 sums) on emulated AMX tiles",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = AMX_RADIUS_MAX,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
    .create = amx_emu_create,
    .memory = amx_engine_memory,
    AMX_FUNCTIONS,
};
