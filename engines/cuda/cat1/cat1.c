/* cuda.cat1: the band-matrix method on cells of one bit each (cat1_program.h): the horizontal pass
 * on binary MMAs (m16n8k256 .b1, AND then POPC), the vertical pass on INT8 MMAs (m16n8k32, s8
 * operands, s32 sums), the rule per cell and the result packed back to bits in the same kernel. */
#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat/cat_cuda.h"
#include "engines/cuda/cat1/cat1_kernels.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/cuda/common/gpu.h"
#include "engines/engine.h"

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    const char *engine = "cuda.cat1";
    /* The exactness argument (cat1_check): popcounts up to 2r+1 in s32, H <= 2r+1 as an s8
     * operand, vertical sums up to (2r+1)^2 in s32; and the window's r <= 32. */
    int rc = cat1_check(engine, rule->shape, rule->radius, err);
    if (rc) return rc;
    cat_rule_params params;
    if ((rc = cat_rule_params_build(engine, rule, &params, err))) return rc;
    cat1_geometry geo;
    if ((rc = cat1_geometry_init(&geo, w, h, rule->radius, err))) return rc;
    cc_gpu *gpu = NULL;
    if ((rc = cuda_cat1_create(engine, 0, &geo, rule->shape == CC_SHAPE_CROSS, &params, &gpu,
                               err)))
        return rc;
    *ctx = gpu;
    return CC_OK;
}

/* Two grids of 32-bit words with their halo and padding, and the driver's staging buffer of whole
 * rows (at most 64 MiB), on the device. */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    cat1_geometry geo;
    need->host_bytes = 4096.0;
    need->device_bytes = 0.0;
    if (cat1_geometry_init(&geo, w, h, rule->radius, NULL)) return;
    need->device_bytes =
        2.0 * 4.0 * (double)cat1_geometry_words(&geo) + cc_gpu_staging_bytes_max(w, h);
}

const cc_engine cc_engine_cuda_cat1 = {
    .name = "cuda.cat1",
    .summary = "the band-matrix method on bit-packed cells: mma.sync m16n8k256 .b1 AND/POPC "
               "horizontal pass, m16n8k32 s8 vertical pass, rule and packing in one kernel",
    /* a block: 4 warps, each a strip of 64 columns, over 16 groups of 8 rows */
    CAT_CUDA_ENGINE(CAT1_RADIUS_MAX, CAT1_TILE_W, CAT1_TILE_H,
                    "r <= 32: the horizontal window reaches one 32-bit word past a strip; H <= "
                    "2r+1 fits the s8 operand; the two grids of 32-bit words must fit in the "
                    "device's free memory",
                    create),
    .memory = memory,
};
