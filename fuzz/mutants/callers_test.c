/* Engines wrong only under what callers do (callers.h), each caught in its own section and
 * passing every other: mutant.reload-rows by the call sequences (the transition tour makes
 * step -> load=rows and step -> load=same), mutant.prefix-cache by the state across contexts
 * (a near-duplicate grid, past 4096 cells, in one worker). The control, through the same wrapper, passes both. */
#include <stdio.h>
#include <string.h>

#include "fuzz/mutants/callers.h"
#include "harness/harness.h"
#include "harness/run_sections.h"
#include "testing/check.h"

/* The sections these engines are checked by here besides the one that catches them: every one but
 * the case past 2^32 cells and the thin grids, which take minutes for a plain loop. */
#define SLOW (CC_SECTION_PAST_2_32 | CC_SECTION_SHAPES)

static void caught_only_by(checks *t, const cc_engine *e, cc_check_section by) {
    const uint32_t bit = 1u << by;
    cc_conformance_summary sum;
    cc_error err = {0};
    int rc = run_sections(e, 100, SLOW | bit, &sum, &err);
    CHECKF(t, rc == CC_OK && sum.passed,
           "%s without %s: rc %d (%s), first failure in %s: %s", e->name,
           cc_check_section_name(by), rc, rc ? err.msg : "", cc_check_section_name(sum.first_section),
           sum.first_failure);
    printf("%s, every section but %s: %s\n", e->name, cc_check_section_name(by),
           sum.passed ? "passed" : "FAILED");
    rc = run_sections(e, 100, CC_SECTION_ALL & ~(bit | CC_SECTION_REFUSALS | CC_SECTION_CAMPAIGN),
                      &sum, &err);
    CHECKF(t, rc == CC_OK && !sum.passed && sum.first_section == by,
           "%s with %s: rc %d (%s), passed %d, first failure in %s: %s", e->name,
           cc_check_section_name(by), rc, rc ? err.msg : "", sum.passed,
           cc_check_section_name(sum.first_section), sum.first_failure);
    CHECKF(t, sum.first_calls[0] && sum.first_reproducer[0], "%s: no sequence or reproducer",
           e->name);
    printf("%s with %s: %s: %s\n  calls: %s\n  %s\n", e->name, cc_check_section_name(by),
           sum.passed ? "passed" : "FAILED", sum.first_failure, sum.first_calls,
           sum.first_reproducer);
}

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_callers(), &sv, &status)) return status;
    checks t = {"callers_test", 0, 0};
    const cc_engine *reload = cc_supervisor_find(sv, "mutant.reload-rows");
    const cc_engine *prefix = cc_supervisor_find(sv, "mutant.prefix-cache");
    const cc_engine *control = cc_supervisor_find(sv, "control.callers");
    if (!CHECK(&t, reload && prefix && control)) return check_summary(&t);
    caught_only_by(&t, reload, CC_CHECK_SEQUENCES);
    caught_only_by(&t, prefix, CC_CHECK_CONTEXTS);

    cc_conformance_summary sum;
    cc_error err = {0};
    int rc = run_sections(control, 100, SLOW, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed, "control.callers: rc %d (%s): %s", rc,
           rc ? err.msg : "", sum.first_failure);
    CHECKF(&t, cc_transitions_count(&sum.transitions) == cc_transitions_reachable_count(),
           "control.callers covered %d of %d transitions", cc_transitions_count(&sum.transitions),
           cc_transitions_reachable_count());
    CHECK(&t, sum.sections[CC_CHECK_CONTEXTS].passed == 24);
    printf("control.callers: %s, %d of %d transitions, %d sequences across contexts\n",
           sum.passed ? "passed" : "FAILED", cc_transitions_count(&sum.transitions),
           cc_transitions_reachable_count(), sum.sections[CC_CHECK_CONTEXTS].passed);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
