/* cuda.runsum at every radius 1..32 at the largest counts and on soups across its strips and bands,
 * against the oracle. Skips without a GPU (fails instead when CELLCHECK_REQUIRE names gpu). */
#include "engines/cuda/runsum/runsum_cases.h"

extern const cc_engine cc_engine_cuda_runsum;

int main(int argc, char **argv) {
    return runsum_cases_test_main(&cc_engine_cuda_runsum, "runsum_precision_test", argc, argv);
}
