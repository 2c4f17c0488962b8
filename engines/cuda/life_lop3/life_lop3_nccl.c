/* cuda.life-lop3-nccl's table. The engine is described in life_lop3_nccl.h; its host side is in
 * life_lop3_nccl.cu, its kernels are cuda.life-lop3's. */
#include "engines/cuda/common/devices.h"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life_lop3/life_lop3.h"
#include "engines/cuda/life_lop3/life_lop3_nccl.h"
#include "engines/engine.h"

static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    const int devices = cc_devices_expected();
    const double words = (double)(w / 32), slab_rows = (double)(h / devices + 1);
    need->host_bytes = 4.0 * words * (double)h + CC_DEVICE_HOST_BYTES * devices;
    need->device_bytes = 2.0 * 4.0 * words * (slab_rows + 2.0 * LIFE_LOP3_NCCL_EXCHANGE_STEPS);
}

const cc_engine cc_engine_cuda_life_lop3_nccl = {
    .name = "cuda.life-lop3-nccl",
    .summary = "cuda.life-lop3 over every visible GPU of the host: row slabs, one a device, "
               "48-row halos exchanged every 4 launches (48 steps) by peer copies or by NCCL",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_HEX),
             .radius_max = 1,
             .w_multiple = 32,
             .tile_w = LIFE_LOP3_WARP_CELLS,
             /* The steps between exchanges: where its device seams are drawn. */
             .steps_per_launch = LIFE_LOP3_NCCL_EXCHANGE_STEPS,
             .limits = "W a multiple of 32; rows cut into slabs over the visible devices "
                       "(CUDA_VISIBLE_DEVICES; CELLCHECK_DEVICES=N takes the first N), each "
                       "slab's two copies and halos in its device's free memory; halos between "
                       "devices by peer copies, or by NCCL (libnccl.so.2) with "
                       "CELLCHECK_HALOS=nccl"},
    .available = life_lop3_nccl_available,
    .create = life_lop3_nccl_create,
    .load = life_lop3_nccl_load,
    .step = life_lop3_nccl_step,
    .store = life_lop3_nccl_store,
    .destroy = life_lop3_nccl_destroy,
    .timed_step = life_lop3_nccl_timed_step,
    .device_name = life_lop3_nccl_device_name,
    .memory = memory,
    .devices = cc_gpu_devices,
};
