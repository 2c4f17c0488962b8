/* The caller-buffers section catches the two engines of buffer_bugs.h that are wrong only for a
 * caller's buffer other than a page-aligned one with readable bytes past it: with the buffers
 * dimension left out, every other section and the campaign pass them; with it, each crashes in
 * that section, the verdict naming the placement, and its case line fails alike when checked
 * again in a fresh worker (and passes without its buffers=). The call sequences, which draw a
 * placement each, catch them too. The control, which copies the same way but within the buffer,
 * passes every section. */
#include <stdio.h>
#include <string.h>

#include "fuzz/mutants/buffer_bugs.h"
#include "harness/harness.h"
#include "harness/run_sections.h"
#include "supervise/supervisor.h"
#include "testing/check.h"

/* The first failure's case line checked again, in a fresh worker: it fails the same way; without
 * its buffers= it passes. */
static void reproduce(checks *t, const cc_engine *e, const cc_conformance_summary *sum) {
    cc_case c;
    cc_error err;
    if (!CHECKF(t, case_parse(sum->first_case, &c, &err) == CC_OK, "%s: '%s': %s", e->name,
                sum->first_case, err.msg))
        return;
    cc_supervisor_restart(cc_supervisor_of(e));
    cc_check_result res;
    int rc = cc_case_check(e, &c, &res, &err);
    CHECKF(t, rc == CC_OK && res.outcome == CC_OUTCOME_FAIL && res.kind == sum->first_kind &&
                  strstr(res.detail, "buffers="),
           "%s: the reproducer did not fail alike: rc %d, outcome %d, %s: %s", e->name, rc,
           (int)res.outcome, cc_failure_kind_name(res.kind), res.detail);
    printf("%s: reproducer in a fresh worker: %s: %s\n", e->name, cc_failure_kind_name(res.kind),
           res.detail);
    c.buffers = 0;
    rc = cc_case_check(e, &c, &res, &err);
    CHECKF(t, rc == CC_OK && res.outcome == CC_OUTCOME_PASS,
           "%s: the same case without buffers= did not pass: rc %d, %s", e->name, rc, res.detail);
}

static void caught(checks *t, const cc_engine *e, const char *placement_word) {
    cc_conformance_summary sum;
    cc_error err = {0};
    int rc = run_sections(e, 100, CC_SECTION_BUFFERS, &sum, &err);
    CHECKF(t, rc == CC_OK && sum.passed,
           "%s, every section but caller buffers: rc %d (%s), passed %d, first failure in %s: %s",
           e->name, rc, rc ? err.msg : "", sum.passed, cc_check_section_name(sum.first_section),
           sum.first_failure);
    CHECKF(t, !sum.sections[CC_CHECK_BUFFERS].run, "%s: caller buffers ran though left out",
           e->name);
    printf("%s, every section but caller buffers: %s\n", e->name, sum.passed ? "passed" : "FAILED");

    rc = run_sections(e, 100,
                      CC_SECTION_ALL & ~(CC_SECTION_BUFFERS | CC_SECTION_REFUSALS |
                                         CC_SECTION_CAMPAIGN),
                      &sum, &err);
    CHECKF(t, rc == CC_OK && !sum.passed && sum.first_section == CC_CHECK_BUFFERS &&
                  sum.first_kind == CC_FAILURE_CRASHED,
           "%s: caller buffers: rc %d (%s), passed %d, first failure in %s (%s): %s", e->name, rc,
           rc ? err.msg : "", sum.passed, cc_check_section_name(sum.first_section),
           cc_failure_kind_name(sum.first_kind), sum.first_failure);
    CHECKF(t, strstr(sum.first_failure, placement_word) && strstr(sum.first_failure, "SEGV") &&
                  strstr(sum.first_case, " buffers="),
           "%s: the verdict names no placement: '%s', case '%s'", e->name, sum.first_failure,
           sum.first_case);
    CHECKF(t, strstr(sum.first_reproducer, " buffers="), "%s: reproducer without buffers=: '%s'",
           e->name, sum.first_reproducer);
    printf("%s with caller buffers: %s in %s: %s\n  %s\n", e->name,
           sum.passed ? "passed" : "FAILED", cc_check_section_name(sum.first_section),
           sum.first_failure, sum.first_reproducer);
    reproduce(t, e, &sum);

    /* The call sequences draw a placement each: they catch it too, where the dimension is on. */
    rc = run_sections(e, 100, CC_SECTION_ALL & ~(CC_SECTION_SEQUENCES | CC_SECTION_BUFFERS), &sum,
                      &err);
    CHECKF(t, rc == CC_OK && !sum.passed && sum.first_section == CC_CHECK_SEQUENCES &&
                  strstr(sum.first_case, " buffers="),
           "%s: call sequences: rc %d, passed %d, first failure in %s: %s (case '%s')", e->name,
           rc, sum.passed, cc_check_section_name(sum.first_section), sum.first_failure,
           sum.first_case);
    printf("%s in call sequences: %s: %s\n  %s\n", e->name, sum.passed ? "passed" : "FAILED",
           sum.first_failure, sum.first_reproducer);
}

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_buffer_bugs(), &sv, &status)) return status;
    checks t = {"buffers_test", 0, 0};
    const cc_engine *aligned = cc_supervisor_find(sv, "mutant.aligned-store");
    const cc_engine *overread = cc_supervisor_find(sv, "mutant.tail-overread");
    const cc_engine *control = cc_supervisor_find(sv, "control.simd-copy");
    if (!CHECK(&t, aligned && overread && control)) return check_summary(&t);

    /* Aligned stores fault at the first placement not a multiple of 16 bytes. */
    caught(&t, aligned, "buffers=1: 1 byte past a 64-byte boundary");
    /* The over-read faults only where the input ends at an unmapped page. */
    caught(&t, overread, "buffers=guard");

    cc_conformance_summary sum;
    cc_error err = {0};
    int rc = run_sections(control, 100, 0, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed && sum.sections[CC_CHECK_BUFFERS].passed == 64 + 4,
           "control.simd-copy, every section: rc %d (%s), passed %d, caller buffers %d passed: %s",
           rc, rc ? err.msg : "", sum.passed, sum.sections[CC_CHECK_BUFFERS].passed,
           sum.first_failure);
    printf("control.simd-copy, every section: %s, caller buffers %d passed in %.1f s\n",
           sum.passed ? "passed" : "FAILED", sum.sections[CC_CHECK_BUFFERS].passed,
           sum.sections[CC_CHECK_BUFFERS].seconds);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
