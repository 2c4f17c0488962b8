/* The precision argument on the device: cuda.cat (FP16 sums) at every radius 1..22 and
 * cuda.cat-f32 (FP32 sums) at every radius 1..32, on all-alive and near-all-alive grids where the
 * counts are largest, against the oracle; and r = 23 refused by cuda.cat. Skips without a GPU
 * (fails instead when CELLCHECK_REQUIRE names gpu). */
#include <stdio.h>

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat/cat_extremes.h"
#include "harness/harness.h"

extern const cc_engine cc_engine_cuda_cat, cc_engine_cuda_cat_f32;

static int run(const cc_engine *engine) {
    const cc_engine_caps caps = cc_engine_caps_resolved(engine);
    cat_extremes_result res;
    cat_extremes_run(engine, caps.radius_min, caps.radius_max, 0, &res);
    printf("%s: r %d..%d: %d largest-count cases, %d passed, %d mismatched, %d other failures, "
           "%d not run\n",
           engine->name, (int)caps.radius_min, (int)caps.radius_max, res.cases,
           res.passed, res.mismatched, res.other_failures, res.infra_errors);
    return res.cases > 0 && res.passed == res.cases;
}

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {&cc_engine_cuda_cat, &cc_engine_cuda_cat_f32, NULL};
    cc_supervisor *sv;
    int status = 0;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    const cc_engine *cat = cc_supervised(sv, &cc_engine_cuda_cat);
    if (cc_harness_skip(cat, &status)) {
        cc_supervisor_close(sv);
        return status;
    }
    int ok = 1;
    ok &= run(cat);
    ok &= run(cc_supervised(sv, &cc_engine_cuda_cat_f32));
    cc_supervisor_close(sv);

    /* Past the FP16 bound: refused by the engine's own create (the caps would refuse it before
     * a worker does), naming the limit. */
    cc_rule rule;
    cc_error err;
    if (cc_rule_parse("R23,C2,M1,S2000..2209,B2000..2208,NM", &rule, &err)) {
        printf("ERROR: %s\n", err.msg);
        return 1;
    }
    void *ctx = NULL;
    int rc = cc_engine_cuda_cat.create(&rule, 47, 47, &ctx, &err);
    if (rc == CC_OK) {
        cc_engine_cuda_cat.destroy(ctx);
        printf("FAILED: cuda.cat accepted r = 23 with FP16 sums\n");
        ok = 0;
    } else {
        printf("cuda.cat refuses r = 23: %s\n", err.msg);
    }
    printf("cat_precision_test: %s\n", ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
