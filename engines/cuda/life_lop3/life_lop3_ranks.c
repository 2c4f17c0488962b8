/* cuda.life-lop3-ranks's table. The engine is described in life_lop3_ranks.h; its host side is in
 * life_lop3_ranks.cu, its kernels are cuda.life-lop3's. */
#include "engines/cuda/common/devices.h"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life_lop3/life_lop3.h"
#include "engines/cuda/life_lop3/life_lop3_nccl.h"
#include "engines/cuda/life_lop3/life_lop3_ranks.h"
#include "engines/engine.h"

/* One rank's slab of W x h rows (a rank is asked for its own rows; create for the whole grid). */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    const double words = (double)(w / 32);
    need->host_bytes = 4.0 * words * (double)h + CC_DEVICE_HOST_BYTES;
    need->device_bytes = 2.0 * 4.0 * words * ((double)h + 2.0 * LIFE_LOP3_NCCL_EXCHANGE_STEPS);
}

const cc_engine cc_engine_cuda_life_lop3_ranks = {
    .name = "cuda.life-lop3-ranks",
    .summary = "cuda.life-lop3 as one process per GPU (ranks): row slabs, 48-row halos "
               "exchanged every 4 launches (48 steps) by NCCL between the processes",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_HEX),
             .radius_max = 1,
             .w_multiple = 32,
             .tile_w = LIFE_LOP3_WARP_CELLS,
             .steps_per_launch = LIFE_LOP3_NCCL_EXCHANGE_STEPS,
             .limits = "W a multiple of 32; one process (rank) per visible device "
                       "(CUDA_VISIBLE_DEVICES; CELLCHECK_DEVICES=N takes the first N), each "
                       "holding its row slab's two copies and halos in its device's free memory; "
                       "halos between the ranks by NCCL (libnccl.so.2), its communicator from "
                       "rank 0's unique id"},
    .available = life_lop3_nccl_available,
    .create = life_lop3_ranks_create,
    .load = life_lop3_ranks_load,
    .step = life_lop3_ranks_step,
    .store = life_lop3_ranks_store,
    .destroy = life_lop3_ranks_destroy,
    .timed_step = life_lop3_ranks_timed_step,
    .device_name = life_lop3_ranks_device_name,
    .memory = memory,
    .devices = cc_gpu_devices,
    .rank_id = life_lop3_ranks_id,
    .rank_create = life_lop3_ranks_rank_create,
};
