/* cuda.pack: Cagigas' packet coding (eight 8-bit cells per 64-bit word), extended to radius 16,
 * behind the engine contract. The device code is in pack_kernels.cu. */
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/pack/pack_kernels.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_pack = {
    .name = "cuda.pack",
    .summary = "packet coding: eight 8-bit cells per 64-bit word, a thread per word, global memory "
               "only, two halo words per row side",
    /* a block: 32 x 8 threads of one 8-cell word each */
    CC_DEVGRID_ENGINE(cuda_pack_create, CUDA_PACK_CELLS_PER_WORD * CUDA_PACK_THREADS_X,
                      CUDA_PACK_THREADS_Y),
};
