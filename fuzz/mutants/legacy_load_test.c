/* The GPU timing section against a race between streams: mutant.legacy-load (legacy_load.h)
 * copies load's grid on the legacy default stream and steps on a non-blocking stream without
 * waiting. Certified with the section alone, it FAILS there, with a case line that names its
 * timing= setting; cuda.base, which waits for what it queues, passes every check of the section
 * with no gap. The section's own checks run again with the rest of the conformance checks off and
 * a short campaign, so the verdicts are the section's. Without a GPU both are reported skipped by
 * name (failed where CELLCHECK_REQUIRE names the GPU). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fuzz/mutants/legacy_load.h"
#include "harness/harness.h"
#include "testing/check.h"

static int run(const cc_engine *e, cc_conformance_summary *sum, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 20;
    opt.shrink = 0; /* a race shrinks by luck: the verdict and its case line are the point */
    opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_TIMING | CC_SECTION_REFUSALS |
                                          CC_SECTION_CAMPAIGN);
    memset(sum, 0, sizeof *sum);
    return cc_conformance_run(e, &opt, sum, err);
}

static int timing_gaps(const cc_conformance_summary *sum) {
    int n = 0;
    for (int g = 0; g < sum->gaps.n; g++) n += sum->gaps.gaps[g].section == CC_CHECK_TIMING;
    return n;
}

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {&cc_mutant_legacy_load, NULL};
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    const cc_engine *mutant = cc_supervised(sv, &cc_mutant_legacy_load);
    const cc_engine *base = cc_supervisor_find(sv, "cuda.base");
    checks t = {"legacy_load_test", 0, 0};
    /* On any machine: the disturbance is linked into this program, which has CUDA engines, so
     * all a worker can lack is the device. */
    cc_error why = {0};
    int rc = cc_call_timing_available(mutant, &why);
    CHECKF(&t, rc == CC_OK || (rc == CC_ERR_UNAVAILABLE && !strstr(why.msg, "built without")),
           "the timing disturbance: rc %d: %s", rc, why.msg);
    if (t.failed) return check_summary(&t);
    if (cc_harness_skip(mutant, &status)) {
        cc_supervisor_close(sv);
        return status;
    }
    if (!CHECKF(&t, mutant && base, "the worker knows no %s", mutant ? "cuda.base" : "mutant"))
        return check_summary(&t);
    cc_conformance_summary sum;
    cc_error err = {0};

    rc = run(mutant, &sum, &err);
    CHECKF(&t, rc == CC_OK, "the checks could not run: %s", err.msg);
    CHECKF(&t, !sum.passed && sum.failed >= 1 && sum.first_section == CC_CHECK_TIMING,
           "mutant.legacy-load under the GPU timing section: passed %d, %d failed, first in %s: %s",
           sum.passed, sum.failed, cc_check_section_name(sum.first_section), sum.first_failure);
    CHECKF(&t, strstr(sum.first_case, " timing="), "the failing case names no timing: '%s'",
           sum.first_case);
    CHECKF(&t, timing_gaps(&sum) == 0, "the section was left out");
    printf("mutant.legacy-load with the GPU timing section: %s after %d checks passed: %s\n"
           "  case %s%s%s\n",
           sum.passed ? "passed" : "FAILED", sum.timing_passed, sum.first_failure, sum.first_case,
           sum.first_calls[0] ? "\n  calls " : "", sum.first_calls);

    rc = run(base, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed,
           "cuda.base under the GPU timing section: rc %d (%s), passed %d: %s", rc,
           rc ? err.msg : "", sum.passed, sum.first_failure);
    CHECKF(&t, sum.timing_passed == CC_TIMING_CASES + CC_TIMING_SEQUENCES && timing_gaps(&sum) == 0,
           "cuda.base: %d checks of the GPU timing section passed, %d expected; %d gaps",
           sum.timing_passed, CC_TIMING_CASES + CC_TIMING_SEQUENCES, timing_gaps(&sum));
    printf("cuda.base with the GPU timing section: %s, %d checks passed in %.1f s\n",
           sum.passed ? "passed" : "FAILED", sum.timing_passed,
           sum.sections[CC_CHECK_TIMING].seconds);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
