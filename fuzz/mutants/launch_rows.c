/* mutant.launch-rows's table: the device code is in launch_rows_kernels.cu. */
#include "fuzz/mutants/launch_rows.h"

#include "engines/cuda/common/gpu.h"
#include "engines/cuda/devgrid/devgrid.h"

const cc_engine cc_mutant_launch_rows = {
    .name = "mutant.launch-rows",
    .summary = "a thread per cell, 32x16 blocks, the launch grid clamped at 65535 block rows",
    .hardware = CC_HW_GPU,
    .caps = CC_DEVGRID_CAPS(32, 16),
    .create = mutant_launch_rows_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
