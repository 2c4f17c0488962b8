/* mutant.offset32's table: the device code is in offset32_kernels.cu. */
#include "fuzz/mutants/offset32.h"

#include "engines/cuda/common/gpu.h"
#include "engines/cuda/devgrid/devgrid.h"

const cc_engine cc_mutant_offset32 = {
    .name = "mutant.offset32",
    .summary = "one thread per cell with 32-bit cell offsets: wrong past 2^32 cells",
    .hardware = CC_HW_GPU,
    .caps = CC_DEVGRID_CAPS(32, 32),
    .create = mutant_offset32_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
