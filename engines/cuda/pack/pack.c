/* cuda.pack: Cagigas' packet coding (eight 8-bit cells per 64-bit word), extended to radius 16,
 * behind the engine contract. The device code is in pack_kernels.cu. */
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/pack/pack_kernels.h"
#include "engines/engine.h"

/* Two byte grids of rows padded to whole words plus two halo words a side, and the next-state
 * table, on the device; loaded straight from the caller's cells. */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    need->host_bytes = 4096.0;
    need->device_bytes = 2.0 * (double)cuda_pack_pitch(w) * (double)h +
                         2.0 * (cc_rule_max_count(rule) + 1);
}

const cc_engine cc_engine_cuda_pack = {
    .name = "cuda.pack",
    .summary = "packet coding: eight 8-bit cells per 64-bit word, a thread per word, global memory "
               "only, two halo words per row side",
    /* a block: 32 x 8 threads of one 8-cell word each */
    CC_DEVGRID_ENGINE(cuda_pack_create, CUDA_PACK_CELLS_PER_WORD * CUDA_PACK_THREADS_X,
                      CUDA_PACK_THREADS_Y),
    .memory = memory,
};
