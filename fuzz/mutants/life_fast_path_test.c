/* The named-rules section catches a Life-like engine whose own HighLife path lacks the birth at 6
 * (life_fast_path.h): with that section left out, every other section and the campaign pass the
 * mutant; with it, HighLife fails by name. The control, whose HighLife path is right, passes
 * every section. */
#include <stdio.h>
#include <string.h>

#include "fuzz/mutants/life_fast_path.h"
#include "harness/run_sections.h"
#include "harness/harness.h"
#include "testing/check.h"

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_life_fast_path(), &sv, &status)) return status;
    checks t = {"life_fast_path_test", 0, 0};
    const cc_engine *mutant = cc_supervisor_find(sv, "mutant.life-fast-path");
    const cc_engine *control = cc_supervisor_find(sv, "control.life-fast-path");
    if (!CHECK(&t, mutant && control)) return check_summary(&t);
    cc_conformance_summary sum;
    cc_error err = {0};

    int rc = run_sections(mutant, 100, CC_SECTION_NAMED_RULES, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed,
           "every section but named rules: rc %d (%s), passed %d, first failure in %s: %s", rc,
           rc ? err.msg : "", sum.passed, cc_check_section_name(sum.first_section),
           sum.first_failure);
    CHECKF(&t, !sum.sections[CC_CHECK_NAMED_RULES].run, "named rules ran though left out");
    printf("mutant.life-fast-path, every section but named rules: %s\n",
           sum.passed ? "passed" : "FAILED");

    rc = run_sections(mutant, 100,
                      CC_SECTION_ALL &
                          ~(CC_SECTION_NAMED_RULES | CC_SECTION_REFUSALS | CC_SECTION_CAMPAIGN),
                      &sum, &err);
    CHECKF(&t, rc == CC_OK && !sum.passed && sum.first_section == CC_CHECK_NAMED_RULES &&
                   sum.first_kind == CC_FAILURE_MISMATCH,
           "named rules: rc %d (%s), passed %d, first failure in %s (%s): %s", rc,
           rc ? err.msg : "", sum.passed, cc_check_section_name(sum.first_section),
           cc_failure_kind_name(sum.first_kind), sum.first_failure);
    CHECKF(&t, strstr(sum.first_failure, "HighLife") && strstr(sum.first_case, "B36/S23"),
           "the failure names no HighLife: '%s', case '%s'", sum.first_failure, sum.first_case);
    CHECKF(&t, sum.first_reproducer[0], "the failure has no reproducer");
    printf("mutant.life-fast-path with named rules: %s in %s: %s\n  %s\n",
           sum.passed ? "passed" : "FAILED", cc_check_section_name(sum.first_section),
           sum.first_failure, sum.first_reproducer);

    rc = run_sections(control, 100, 0, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed && sum.sections[CC_CHECK_NAMED_RULES].run &&
                   sum.sections[CC_CHECK_NAMED_RULES].passed >= 18,
           "control.life-fast-path, every section: rc %d (%s), passed %d, named rules %d passed: "
           "%s",
           rc, rc ? err.msg : "", sum.passed, sum.sections[CC_CHECK_NAMED_RULES].passed,
           sum.first_failure);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
