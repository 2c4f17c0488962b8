/* cuda.cat8: the CAT band-matrix method on INT8 tensor cores (cat8_kernels.cu): one byte per cell,
 * s8 operands and s32 sums, fragments of 32 x 32 cells, radius up to 32. */
#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat/cat_cuda.h"
#include "engines/cuda/cat8/cat8_kernels.h"
#include "engines/cuda/common/gpu.h"
#include "engines/engine.h"

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    const char *engine = "cuda.cat8";
    /* The precision argument (cat_common.h) for INT8 operands, INT32 sums: H <= 2r+1 <= 65 fits
     * an s8 operand and every sum an s32. */
    int rc = cat_check_exact(engine, rule->shape, rule->radius, CAT_NUM_S8, CAT_NUM_S32, err);
    if (rc) return rc;
    cat_rule_params params;
    if ((rc = cat_rule_params_build(engine, rule, &params, err))) return rc;
    cat_geometry geo;
    if ((rc = cat_geometry_init(&geo, w, h, CUDA_CAT8_FRAG, 1, err))) return rc;
    cc_gpu *gpu = NULL;
    rc = cuda_cat8_create(&geo, rule->radius, rule->shape == CC_SHAPE_CROSS, &params,
                          CUDA_CAT8_TILE_W, CUDA_CAT8_TILE_H, CUDA_CAT8_STAGED, &gpu, err);
    if (rc) return rc;
    *ctx = gpu;
    return CC_OK;
}

/* Byte buffers of 32-cell fragments with a halo of one. */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    cat_cuda_memory(w, h, CUDA_CAT8_FRAG, 1, 1.0, need);
}

const cc_engine cc_engine_cuda_cat8 = {
    .name = "cuda.cat8",
    .summary = "CAT on INT8 tensor cores: band-matrix mma.sync m16n8k32 (s8 operands, s32 sums), "
               "one byte per cell, 32x32 fragments",
    /* a block's tile of 32x32 fragments (cat8_kernels.h) */
    CAT_CUDA_ENGINE(CUDA_CAT8_RADIUS_MAX, CUDA_CAT8_FRAG * CUDA_CAT8_TILE_W,
                    CUDA_CAT8_FRAG * CUDA_CAT8_TILE_H,
                    "r <= 32: one 32-cell fragment of halo; INT8 operands hold H <= 2r+1 = 65; the "
                    "two byte buffers must fit in the device's free memory",
                    create),
    .memory = memory,
};
