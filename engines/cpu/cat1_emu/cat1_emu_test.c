/* cpu.cat1-emu at every radius 1..32 on all-alive and near-all-alive grids, where the counts (and
 * the s8 operands H of the vertical pass) are largest, against the oracle. The engine runs in a
 * worker of this executable. */
#include <stdio.h>

#include "engines/cuda/cat/cat_extremes.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/engine.h"
#include "harness/harness.h"
#include "testing/check.h"

extern const cc_engine cc_engine_cpu_cat1_emu;

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {&cc_engine_cpu_cat1_emu, NULL};
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    checks t = {"cat1_emu_test", 0, 0};
    CHECK_EQ(&t, cc_engine_cpu_cat1_emu.caps.radius_max, CAT1_RADIUS_MAX);
    const cc_engine *engine = cc_supervised(sv, &cc_engine_cpu_cat1_emu);
    if (CHECKF(&t, engine != NULL, "the worker does not know %s", cc_engine_cpu_cat1_emu.name)) {
        cat_extremes_result res;
        cat_extremes_run(engine, 1, CAT1_RADIUS_MAX, 0, &res);
        printf("%s: r 1..%d: %d largest-count cases, %d passed\n", engine->name, CAT1_RADIUS_MAX,
               res.cases, res.passed);
        CHECKF(&t, res.cases > 0 && res.passed == res.cases, "%s: %d of %d failed", engine->name,
               res.cases - res.passed, res.cases);
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
