/* mutant.legacy-load's table: the device code is in legacy_load_kernels.cu. */
#include "fuzz/mutants/legacy_load.h"

#include "engines/cuda/common/gpu.h"

const cc_engine cc_mutant_legacy_load = {
    .name = "mutant.legacy-load",
    .summary = "load's copy on the legacy default stream, unwaited; steps on a non-blocking "
               "stream: a race",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = 16,
             .tile_w = 32,
             .tile_h = 8,
             .limits = "the grid's two copies must fit in the device's free memory"},
    .available = cc_gpu_available,
    .create = mutant_legacy_load_create,
    .load = mutant_legacy_load_load,
    .step = mutant_legacy_load_step,
    .store = mutant_legacy_load_store,
    .destroy = mutant_legacy_load_destroy,
    .device_name = mutant_legacy_load_device_name,
};
