/* cuda.cat1 at every radius 1..32 on all-alive and near-all-alive grids, where the counts and the
 * s8 operands are largest, against the oracle. Skips without a GPU (fails instead when
 * CELLCHECK_REQUIRE names gpu). */
#include <stdio.h>

#include "engines/cuda/cat/cat_extremes.h"
#include "harness/harness.h"

extern const cc_engine cc_engine_cuda_cat1;

int main(void) {
    int status = 0;
    if (cc_harness_skip(&cc_engine_cuda_cat1, &status)) return status;
    const cc_engine *engine = &cc_engine_cuda_cat1;
    const cc_engine_caps caps = cc_engine_caps_resolved(engine);
    cat_extremes_result res;
    cat_extremes_run(engine, caps.radius_min, caps.radius_max, 0, &res);
    int ok = res.cases > 0 && res.passed == res.cases;
    printf("%s: r %d..%d: %d largest-count cases, %d passed, %d mismatched, %d other failures, "
           "%d not run\ncat1_precision_test: %s\n",
           engine->name, (int)caps.radius_min, (int)caps.radius_max, res.cases, res.passed,
           res.mismatched, res.other_failures, res.infra_errors, ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
