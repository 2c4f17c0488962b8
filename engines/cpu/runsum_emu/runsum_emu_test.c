/* cpu.runsum-emu at every radius 1..32 at the largest counts (all alive and near all alive, where
 * the top plane of every counter is used) and on soups across its strips and bands, against the
 * oracle. The engine runs in a worker of this executable. */
#include "engines/cuda/runsum/runsum_cases.h"

extern const cc_engine cc_engine_cpu_runsum_emu;

int main(int argc, char **argv) {
    return runsum_cases_test_main(&cc_engine_cpu_runsum_emu, "runsum_emu_test", argc, argv);
}
