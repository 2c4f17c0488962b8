/* A correct engine too slow for the case past 2^32 cells is INCOMPLETE, never CERTIFIED with the
 * case left out: its every check passes, and the gap names the case and the time it would take. */
#include <stdio.h>
#include <string.h>

#include "fuzz/draw.h"
#include "fuzz/mutants/engine_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_engine_bugs(), &sv, &status)) return status;
    checks t = {"huge_time_test", 0, 0};
    const cc_engine *slow = cc_supervisor_find(sv, "control.slow-cells");
    if (!CHECK(&t, slow != NULL)) return check_summary(&t);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 1;
    opt.shrink = 0;
    opt.huge_grid = CC_HUGE_GRID_AUTO; /* as certify runs it */
    opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_PAST_TILES | CC_SECTION_PAST_2_32);
    cc_conformance_summary sum;
    memset(&sum, 0, sizeof sum);
    cc_error err = {0};
    int rc = cc_conformance_run(slow, &opt, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed, "rc %d (%s), passed %d: %s", rc, rc ? err.msg : "",
           sum.passed, sum.first_failure);
    const cc_gap *huge = NULL;
    for (int g = 0; g < sum.gaps.n; g++)
        if (sum.gaps.gaps[g].section == CC_CHECK_PAST_2_32) huge = &sum.gaps.gaps[g];
    /* Time where its estimate fits this machine's memory; memory where it does not. */
    CHECKF(&t, huge && !huge->accepted &&
                   ((huge->kind == CC_GAP_TIME && strstr(huge->reason, "too slow here")) ||
                    huge->kind == CC_GAP_MEMORY),
           "no open huge-grid gap of time or memory: %s", huge ? huge->reason : "none");
    CHECKF(&t, cc_gap_list_open(&sum.gaps) >= 1, "%d open gaps: it would be CERTIFIED",
           cc_gap_list_open(&sum.gaps));
    CHECKF(&t, !sum.huge_passed, "the huge case ran");
    if (huge) {
        char id[64];
        cc_gap_id(huge, id, sizeof id);
        printf("control.slow-cells: INCOMPLETE, %s: %s\n", id, huge->reason);
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
