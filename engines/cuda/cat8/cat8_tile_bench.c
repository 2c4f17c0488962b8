/* Times cuda.cat8's compiled tile shapes against each other on the Table VI rules, and checks that
 * every tile ends on the same grid. For choosing CUDA_CAT8_TILE_W x CUDA_CAT8_TILE_H on a device.
 *   cat8_tile_bench [--size N] [--radius 1,4,16] [--steps K] [--staged] [--tiles 1x6,2x6]
 * --staged: Lambda is staged in shared memory (CUDA_CAT8_STAGED) instead of read from global.
 */
#include <stddef.h>

#include "engines/cuda/cat/tile_bench.h"
#include "engines/cuda/cat8/cat8_kernels.h"

static int create(const void *user, const cat_tile_run *job, cc_gpu **out, cc_error *err) {
    (void)user;
    return cuda_cat8_create(job->geo, job->radius, 0, job->params, job->tile_w, job->tile_h,
                            job->staged, out, err);
}

int main(int argc, char **argv) {
    /* The halo is always one fragment: a 32-cell fragment covers r <= 32. */
    static const cat_tile_bench bench = {
        .program = "cat8_tile_bench",
        .engine = "cuda.cat8",
        .fragment = CUDA_CAT8_FRAG,
        .tiles = CUDA_CAT8_TILES,
        .create = create,
    };
    return cat_tile_bench_main(&bench, NULL, argc, argv);
}
