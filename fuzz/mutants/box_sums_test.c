/* The thin, tall and wide grids at a shape's largest radius run by the engine's measured time,
 * not left out for their work: control.box-sums (Moore up to r = 64, the same cost at every
 * radius) passes them at r = 64 with no gap, and mutant.box-wide (wrong only past r = 48 on grids
 * past 65536 columns) fails there. With the grids past the work bound left out, as they were, the
 * mutant passed every check run (r = 20 ran in place of r = 64) and was only INCOMPLETE. */
#include <stdio.h>
#include <string.h>

#include "fuzz/mutants/box_sums.h"
#include "harness/harness.h"
#include "testing/check.h"

static int run(const cc_engine *e, cc_conformance_summary *sum, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 0;
    opt.shrink = 0;
    opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_SHAPES | CC_SECTION_REFUSALS |
                                          CC_SECTION_CAMPAIGN);
    opt.huge_grid = CC_HUGE_GRID_AUTO; /* as certify runs it: checks judged by their time here */
    memset(sum, 0, sizeof *sum);
    return cc_conformance_run(e, &opt, sum, err);
}

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_box_sums(), &sv, &status)) return status;
    checks t = {"box_sums_test", 0, 0};
    const cc_engine *right = cc_supervisor_find(sv, "control.box-sums");
    const cc_engine *wrong = cc_supervisor_find(sv, "mutant.box-wide");
    if (!CHECK(&t, right && wrong)) return check_summary(&t);

    cc_conformance_summary sum;
    cc_error err = {0};
    int rc = run(right, &sum, &err);
    const cc_section_tally *shapes = &sum.sections[CC_CHECK_SHAPES];
    CHECKF(&t, rc == CC_OK && sum.passed, "control.box-sums: rc %d (%s): %s", rc,
           rc ? err.msg : "", sum.first_failure);
    CHECKF(&t, shapes->cov.radius_max == 64, "control.box-sums: shapes up to r = %d, not 64",
           (int)shapes->cov.radius_max);
    int gaps = 0;
    for (int g = 0; g < sum.gaps.n; g++)
        if (sum.gaps.gaps[g].section == CC_CHECK_SHAPES) {
            printf("  gap: %s\n", sum.gaps.gaps[g].reason);
            gaps++;
        }
    CHECKF(&t, gaps == 0, "control.box-sums: %d gaps in the shapes section", gaps);
    char covered[512];
    cc_coverage_describe(&shapes->cov, covered, sizeof covered);
    printf("control.box-sums: %d thin, tall and wide grids passed: %s\n", sum.shapes_passed,
           covered);

    rc = run(wrong, &sum, &err);
    CHECKF(&t, rc == CC_OK && !sum.passed && strstr(sum.first_failure, "shapes"),
           "mutant.box-wide: rc %d, passed %d: %s", rc, sum.passed, sum.first_failure);
    printf("mutant.box-wide: %s\n", sum.first_failure);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
