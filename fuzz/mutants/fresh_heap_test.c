/* Workers poison the heap: an engine that reads memory it malloc'd and never wrote fails in a
 * fresh worker, where the same memory would otherwise be a fresh mapping of zeros. With the
 * poisoning off (MALLOC_PERTURB_=0 in the environment, which workers then keep), the same
 * mutant passes the same checks: the poisoning is what catches it. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/engine_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

static int run(const cc_engine *e, cc_conformance_summary *sum, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 20;
    opt.shrink = 0;
    opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_EDGE_CASES | CC_SECTION_ROUND_TRIPS |
                                          CC_SECTION_REFUSALS |
                                          CC_SECTION_CAMPAIGN);
    memset(sum, 0, sizeof *sum);
    return cc_conformance_run(e, &opt, sum, err);
}

int main(int argc, char **argv) {
    unsetenv("MALLOC_PERTURB_");
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_engine_bugs(), &sv, &status)) return status;
    checks t = {"fresh_heap_test", 0, 0};
    const cc_engine *fresh = cc_supervisor_find(sv, "mutant.fresh-heap");
    const cc_engine *right = cc_supervisor_find(sv, "control.loop");
    if (!CHECK(&t, fresh && right)) return check_summary(&t);
    cc_conformance_summary sum;
    cc_error err = {0};
    int rc = run(fresh, &sum, &err);
    CHECKF(&t, rc == CC_OK && !sum.passed && sum.first_kind == CC_FAILURE_MISMATCH,
           "poisoned: rc %d (%s), passed %d, first failure '%s'", rc, rc ? err.msg : "",
           sum.passed, sum.first_failure);
    printf("mutant.fresh-heap, heap poisoned: %s\n", sum.passed ? "passed" : "FAILED");
    rc = run(right, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed, "control.loop, poisoned: rc %d, passed %d: %s", rc,
           sum.passed, sum.first_failure);

    /* Without the poisoning the mutant's mask is a fresh mapping of zeros. */
    setenv("MALLOC_PERTURB_", "0", 1);
    cc_supervisor_restart(sv);
    rc = run(fresh, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed, "unpoisoned: rc %d (%s), passed %d: %s", rc,
           rc ? err.msg : "", sum.passed, sum.first_failure);
    printf("mutant.fresh-heap, heap not poisoned: %s\n", sum.passed ? "passed" : "FAILED");
    cc_supervisor_close(sv);
    return check_summary(&t);
}
