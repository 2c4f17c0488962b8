/* cuda.base: the GPU baseline (the CAT paper's BASE) behind the engine contract. The device code
 * is in cuda_base_kernels.cu; here are the neighbourhood's rows the kernels walk. */
#include "engines/cuda/common/gpu.h"
#include "engines/engine.h"
#include "reference/cuda_base/cuda_base_kernels.h"

#define CUDA_BASE_RADIUS_MAX 16

/* Every supported shape has, in each row dy, a contiguous run of dx once the centre is counted
 * in; the kernel loops over that run. A shape without one is refused rather than mis-counted. */
static int row_intervals(const cc_rule *rule, int32_t *lo, int32_t *hi, cc_error *err) {
    int32_t r = rule->radius;
    for (int32_t dy = -r; dy <= r; dy++) {
        int32_t first = 1, last = 0, members = 0;
        for (int32_t dx = -r; dx <= r; dx++) {
            int in = (dx == 0 && dy == 0) || cc_shape_contains(rule->shape, r, dx, dy);
            if (!in) continue;
            if (members == 0) first = dx;
            last = dx;
            members++;
        }
        if (members > 0 && members != last - first + 1)
            return cc_fail(err, CC_ERR_UNSUPPORTED,
                           "cuda.base: shape %s at radius %d is not one run of cells in row %d",
                           cc_shape_code(rule->shape), (int)r, (int)dy);
        lo[dy + r] = first;
        hi[dy + r] = last;
    }
    return CC_OK;
}

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    int32_t row_lo[2 * CUDA_BASE_RADIUS_MAX + 1], row_hi[2 * CUDA_BASE_RADIUS_MAX + 1];
    int rc = row_intervals(rule, row_lo, row_hi, err);
    if (rc) return rc;
    return cuda_base_create(rule, w, h, row_lo, row_hi, ctx, err);
}

/* Two byte grids of W-byte rows on the device (loaded straight from the caller's cells, so no
 * staging) and the row intervals and next-state table; on the host, the driver's bookkeeping. */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    need->host_bytes = 4096.0;
    need->device_bytes = 2.0 * (double)w * (double)h +
                         2.0 * sizeof(int32_t) * (2.0 * rule->radius + 1.0) +
                         2.0 * (cc_rule_max_count(rule) + 1);
}

const cc_engine cc_engine_cuda_base = {
    .name = "cuda.base",
    .summary = "GPU baseline (BASE): one thread per cell, 32x32 blocks, global memory only",
    .hardware = CC_HW_GPU,
    .caps = {.radius_max = CUDA_BASE_RADIUS_MAX,
             .topologies = CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) | CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE),
             .tile_w = CUDA_BASE_BLOCK, /* the thread blocks' cells */
             .tile_h = CUDA_BASE_BLOCK,
             .limits = "the grid's two copies must fit in the device's free memory"},
    .create = create,
    .memory = memory,
    CC_GPU_ENGINE_FUNCTIONS,
};
