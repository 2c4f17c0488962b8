/* cuda.life-lop3's table. The engine is described in life_lop3.h; its device code is in
 * life_lop3_kernels.cu and its host side in life_lop3_device.cu. */
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life_lop3/life_lop3.h"
#include "engines/engine.h"

const cc_engine cc_engine_cuda_life_lop3 = {
    .name = "cuda.life-lop3",
    .summary = "the rule's gate network compiled into the kernels at create (LOP3), a bit a cell "
               "in 32-bit words, 12 steps a launch streamed through registers",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_HEX),
             .radius_max = 1,
             .tile_w = LIFE_LOP3_WARP_CELLS,
             .steps_per_launch = LIFE_LOP3_STEPS,
             .limits = "the grid's two copies (a bit a cell) must fit in the device's free "
                       "memory; W not a multiple of 32 runs one step a launch"},
    .create = cuda_life_lop3_create,
    CC_GPU_ENGINE_FUNCTIONS,
};
