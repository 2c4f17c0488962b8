/* cuda.runsum: Larger than Life, one bit per cell, with the faster of two counts for the shape and
 * radius (runsum_kernels.h): running sums on bit-sliced counters (runsum_program.h: a box sum by
 * doubling a word's planes, a vertical running sum carried down a band of rows, the rule as
 * comparisons on the planes, 32 cells a lane), or, Moore and the cross from r = 3, band
 * matrices on the tensor cores (runsum_mma_program.h: binary MMAs for the row sums, s8 MMAs for the
 * counts, the rule by lookup in tables in shared memory). */
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/runsum/runsum_kernels.h"
#include "engines/cuda/runsum/runsum_program.h"
#include "engines/engine.h"

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    const char *engine = "cuda.runsum";
    /* The exactness argument and the window's reach (runsum_check) come first, in the geometry. */
    runsum_geometry geo;
    int rc = runsum_geometry_init(&geo, engine, rule->shape, w, h, rule->radius, err);
    if (rc) return rc;
    runsum_rule params;
    if ((rc = runsum_rule_build(engine, rule, &geo, &params, err))) return rc;
    cc_gpu *gpu = NULL;
    if ((rc = cuda_runsum_create(engine, 0, &geo, &params, &runsum_default, &gpu, err))) return rc;
    *ctx = gpu;
    return CC_OK;
}

/* Two grids of 32-bit words with their halo words (in rows, or in columns for the band matrices),
 * and the driver's staging buffer of whole rows (at most 64 MiB), on the device. */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    runsum_geometry geo;
    need->host_bytes = 4096.0;
    need->device_bytes = 0.0;
    if (runsum_geometry_init(&geo, "cuda.runsum", rule->shape, w, h, rule->radius, NULL)) return;
    need->device_bytes =
        2.0 * 4.0 * (double)runsum_geometry_words(&geo) + cc_gpu_staging_bytes_max(w, h);
}

const cc_engine cc_engine_cuda_runsum = {
    .name = "cuda.runsum",
    .summary = "one bit per cell; running sums on bit-sliced counters (box sums by doubling a "
               "word's planes, a vertical running sum down a band, the rule on the planes), or, "
               "Moore and the cross from r = 3, band matrices on the tensor cores "
               "(binary MMAs for row sums, s8 MMAs for counts)",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = RUNSUM_RADIUS_MAX,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
             .tile_w = RUNSUM_STRIP_W,
             .limits = "r <= 32: a word's window reaches one 32-bit word either side; the two "
                       "grids of 32-bit words must fit in the device's free memory"},
    .create = create,
    .memory = memory,
    CC_GPU_ENGINE_FUNCTIONS,
};
