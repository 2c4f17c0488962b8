/* The OpenMP team is a dimension of the checks, not the machine's luck: a mutant wrong only where
 * a thread's band has one row passes every check at one thread (what a one-core machine, or
 * OMP_NUM_THREADS=1, gives it) and is caught once the cases turn through teams of 1, 2, 3 and
 * every core; its failing case line names its team (threads=N), and that line fails again in a
 * fresh worker whatever OMP_NUM_THREADS says. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/engine_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

static int run(const cc_engine *e, int same_team, cc_conformance_summary *sum, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 200;
    opt.shrink = 0;
    opt.same_team = same_team;
    /* The campaign and the call sequences are where the teams turn. */
    opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_SEQUENCES | CC_SECTION_REFUSALS |
                                          CC_SECTION_CAMPAIGN);
    memset(sum, 0, sizeof *sum);
    return cc_conformance_run(e, &opt, sum, err);
}

int main(int argc, char **argv) {
    setenv("OMP_NUM_THREADS", "1", 1);
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_engine_bugs(), &sv, &status)) return status;
    checks t = {"team_test", 0, 0};
    const cc_engine *band = cc_supervisor_find(sv, "mutant.thread-band");
    const cc_engine *right = cc_supervisor_find(sv, "control.loop");
    if (!CHECK(&t, band && right)) return check_summary(&t);
    cc_conformance_summary sum;
    cc_error err = {0};

    int rc = run(band, 1, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed, "one team of 1: rc %d (%s), passed %d: %s", rc,
           rc ? err.msg : "", sum.passed, sum.first_failure);
    int gap = 0;
    for (int g = 0; g < sum.gaps.n; g++)
        gap |= sum.gaps.gaps[g].section == CC_CHECK_CAMPAIGN && sum.gaps.gaps[g].kind == CC_GAP_ASKED;
    CHECKF(&t, gap, "one team: no gap says the teams did not turn");
    printf("mutant.thread-band at OMP_NUM_THREADS=1 alone: %s\n", sum.passed ? "passed" : "FAILED");

    rc = run(band, 0, &sum, &err);
    CHECKF(&t, rc == CC_OK && !sum.passed && sum.first_kind != CC_FAILURE_NONE,
           "teams turning: rc %d (%s), passed %d, first failure '%s'", rc, rc ? err.msg : "",
           sum.passed, sum.first_failure);
    char *threads = strstr(sum.first_case, " threads=");
    CHECKF(&t, threads && atoi(threads + 9) >= 2, "the failing case names no team of 2 or more: '%s'",
           sum.first_case);
    printf("mutant.thread-band with the teams turning: %s in %s, case %s\n",
           sum.passed ? "passed" : "FAILED", cc_check_section_name(sum.first_section),
           sum.first_case);

    /* The line alone, in a fresh worker under OMP_NUM_THREADS=1: its team is the line's. */
    if (sum.first_case[0]) {
        cc_supervisor_restart(sv);
        cc_campaign_options opt;
        cc_campaign_options_init(&opt);
        opt.shrink = 0;
        opt.out = fopen("/dev/null", "w");
        cc_failure_report rep;
        rc = cc_campaign_check_line(band, sum.first_case, &opt, &rep, &err);
        CHECKF(&t, rc == CC_ERR_MISMATCH, "the line alone: rc %d, not a mismatch", rc);
        if (opt.out) fclose(opt.out);
    }

    rc = run(right, 0, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed, "control.loop with the teams turning: rc %d, passed %d: %s",
           rc, sum.passed, sum.first_failure);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
