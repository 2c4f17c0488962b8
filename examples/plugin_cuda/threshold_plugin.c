/* example.cuda-threshold: a CUDA engine from elsewhere as a cellcheck plugin built without Bazel
 * (nvcc for the kernels, the C compiler for this table). Its caps: square grids, Moore r 1..8,
 * one interval each for S and B. */
#include "engines/engine.h"
#include "engines/plugin.h"
#include "threshold_gpu.h"

static const cc_engine example_cuda_threshold = {
    .name = "example.cuda-threshold",
    .summary = "a threshold kernel from elsewhere on the GPU: one thread per cell, square grids",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = 8,
             .square_only = 1,
             .s_ranges_max = 1,
             .b_ranges_max = 1,
             .tile_w = 32,
             .tile_h = 8,
             .limits = "the grid's two copies must fit in the device's free memory"},
    .available = gpu_threshold_available,
    .create = gpu_threshold_create,
    .load = gpu_threshold_load,
    .step = gpu_threshold_step,
    .store = gpu_threshold_store,
    .destroy = gpu_threshold_destroy,
};

static const cc_engine *const engines[] = {&example_cuda_threshold, NULL};
CC_PLUGIN(engines)
