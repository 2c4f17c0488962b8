/* cuda.cat1-nccl: cuda.cat1 over several GPUs of one host, in one process (the common slab
 * driver, gpu_slabs.h): each device runs cuda.cat1 on its row slab with halos of r * CAT1_NCCL_STEPS
 * rows above and below, exchanged through NCCL every CAT1_NCCL_STEPS steps. */
#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat1/cat1_kernels.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/cuda/common/buffer_torus.h"
#include "engines/cuda/common/devices.h"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/common/gpu_slabs.h"
#include "engines/engine.h"
#include "oracle/grid.h"

/* Steps between exchanges (the caps' steps_per_launch). More steps mean fewer exchanges but
 * halos of 4r rows each side that every device also computes: at r = 32 and t = 4, 256 rows a
 * slab. */
#define CAT1_NCCL_STEPS 4

/* The largest halo, at r = CAT1_RADIUS_MAX; a buffer torus of one device is H + 2 halo rows, and
 * cuda.cat1's geometry holds at most CC_GRID_SIDE_MAX rows. */
#define CAT1_NCCL_HALO_MAX (CAT1_RADIUS_MAX * CAT1_NCCL_STEPS)

static const char engine_name[] = "cuda.cat1-nccl";

/* What each device's instance is made from. */
typedef struct cat1_nccl_rule {
    cat_rule_params params;
    int32_t r;
    int cross;
} cat1_nccl_rule;

static int make(const void *arg, int device, int32_t w, int32_t h, cc_gpu **out, cc_error *err) {
    const cat1_nccl_rule *rule = arg;
    cat1_geometry geo;
    int rc = cat1_geometry_init(&geo, w, h, rule->r, err);
    if (rc) return cc_prefix(err, "%s: device %d's buffer torus", engine_name, device);
    return cuda_cat1_create(engine_name, device, &geo, rule->cross, &rule->params, out, err);
}

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    /* cuda.cat1's exactness argument (cat1_check), the same on every device. */
    int rc = cat1_check(engine_name, rule->shape, rule->radius, err);
    if (rc) return rc;
    cat1_nccl_rule own = {.r = rule->radius, .cross = rule->shape == CC_SHAPE_CROSS};
    if ((rc = cat_rule_params_build(engine_name, rule, &own.params, err))) return rc;
    const cc_gpu_slabs_spec spec = {.engine = engine_name,
                                    .w = w,
                                    .h = h,
                                    .radius = rule->radius,
                                    .interval = CAT1_NCCL_STEPS,
                                    .make = make,
                                    .arg = &own};
    return cc_gpu_slabs_create(&spec, ctx, err);
}

/* Per device (the tallest slab): cuda.cat1's two grids of the buffer torus's geometry and its
 * staging. On the host: one buffer torus of cells, and each device's CUDA and NCCL state. */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    const int devices = cc_devices_expected() < h ? cc_devices_expected() : h;
    const int32_t rows = cc_buffer_torus_rows_max(h, devices, rule->radius * CAT1_NCCL_STEPS);
    need->host_bytes = (double)w * (double)rows + CC_DEVICE_HOST_BYTES * devices;
    need->device_bytes = 0.0;
    cat1_geometry geo;
    if (cat1_geometry_init(&geo, w, rows, rule->radius, NULL)) return;
    need->device_bytes =
        2.0 * 4.0 * (double)cat1_geometry_words(&geo) + cc_gpu_staging_bytes_max(w, rows);
}

const cc_engine cc_engine_cuda_cat1_nccl = {
    .name = "cuda.cat1-nccl",
    .summary = "cuda.cat1 over several GPUs of the host: row slabs, one a device, halos of 4r "
               "rows exchanged every 4 steps by peer copies or by NCCL",
    .hardware = CC_HW_GPU,
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = CAT1_RADIUS_MAX,
             .h_max = CC_GRID_SIDE_MAX - 2 * CAT1_NCCL_HALO_MAX,
             .tile_w = CAT1_TILE_W,
             .tile_h = CAT1_TILE_H,
             .steps_per_launch = CAT1_NCCL_STEPS,
             .limits = "r <= 32, as cuda.cat1; rows cut into slabs over the first "
                       "CELLCHECK_DEVICES=N visible devices (CUDA_VISIBLE_DEVICES), else "
                       "all of them, never more than H; each device holds its slab with 4r halo "
                       "rows either side, twice, in its free memory; H at most 2^20 - 256 (a "
                       "slab and its halos fit cuda.cat1's rows); halos between devices by peer "
                       "copies, or by NCCL (libnccl.so.2) with CELLCHECK_HALOS=nccl"},
    .create = create,
    .memory = memory,
    CC_GPU_SLABS_ENGINE_FUNCTIONS,
};
