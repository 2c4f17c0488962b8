/* cuda.cat8 at every radius 1..32 on all-alive and near-all-alive grids, where the counts are
 * largest, against the oracle. Skips without a GPU (fails instead when CELLCHECK_REQUIRE names
 * gpu). */
#include "engines/cuda/cat/cat_extremes.h"

extern const cc_engine cc_engine_cuda_cat8;

int main(int argc, char **argv) {
    return cat_extremes_test_main(&cc_engine_cuda_cat8, "cat8_precision_test", argc, argv);
}
