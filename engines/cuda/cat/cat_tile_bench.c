/* Times cuda.cat's compiled tile shapes against each other on the Table VI rules, and checks that
 * every tile ends on the same grid. For choosing CUDA_CAT_TILE_W x CUDA_CAT_TILE_H on a device.
 *   cat_tile_bench [--size N] [--radius 1,4,16] [--steps K] [--f32] [--staged] [--tiles 1x14,2x8]
 * --staged: Lambda is staged in shared memory (CUDA_CAT_STAGED) instead of read from global.
 */
#include <string.h>

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat/cat_kernels.h"
#include "engines/cuda/cat/tile_bench.h"

typedef struct cat_bench_options {
    int f32; /* FP32 accumulators */
} cat_bench_options;

static int flag(void *user, const char *arg) {
    if (strcmp(arg, "--f32")) return 0;
    ((cat_bench_options *)user)->f32 = 1;
    return 1;
}

static const char *describe(const void *user) {
    return ((const cat_bench_options *)user)->f32 ? "FP32 sums, " : "FP16 sums, ";
}

static int create(const void *user, const cat_tile_run *job, cc_gpu **out, cc_error *err) {
    const cat_bench_options *opt = user;
    cuda_cat_config cfg = {opt->f32 ? CAT_NUM_F32 : CAT_NUM_F16, job->tile_w, job->tile_h,
                           job->staged};
    return cuda_cat_create(job->geo, job->radius, 0, job->params, &cfg, out, err);
}

int main(int argc, char **argv) {
    static const cat_tile_bench bench = {
        .program = "cat_tile_bench",
        .engine = "cuda.cat",
        .usage_flags = " [--f32]",
        .fragment = CUDA_CAT_FRAG,
        .tiles = CUDA_CAT_TILES,
        .halo_fragments = cat_halo_fragments,
        .flag = flag,
        .describe = describe,
        .create = create,
    };
    cat_bench_options opt = {0};
    return cat_tile_bench_main(&bench, &opt, argc, argv);
}
