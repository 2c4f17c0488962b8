/* cpu.runsum-mma-emu at every radius 1..32 at the largest counts (cat_extremes.h) and on soups
 * across its words and bands, against the oracle. The engine runs in a worker of this
 * executable. */
#include "engines/cuda/runsum/runsum_cases.h"

extern const cc_engine cc_engine_cpu_runsum_mma_emu;

int main(int argc, char **argv) {
    return runsum_cases_test_main(&cc_engine_cpu_runsum_mma_emu, "runsum_mma_emu_test", argc, argv);
}
