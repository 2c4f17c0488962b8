/* mutant.launch-rows (a launch grid clamped at 65535 block rows) through the checks certify runs:
 * caught by the shapes past 65535 tiles of its stated 32x16, and with that section left out, it
 * passes a conformance test's checks and 200 cases. Without a GPU it is reported skipped by name
 * (failed where the GPU is required). */
#include <stdio.h>
#include <string.h>

#include "fuzz/mutants/launch_rows.h"
#include "harness/harness.h"
#include "testing/check.h"

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {&cc_mutant_launch_rows, NULL};
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    const cc_engine *e = cc_supervised(sv, &cc_mutant_launch_rows);
    if (cc_harness_skip(e, &status)) {
        cc_supervisor_close(sv);
        return status;
    }
    checks t = {"launch_rows_test", 0, 0};
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 2000; /* certify's */
    opt.shrink = 0;   /* every grid shorter than 1,048,561 rows passes: nothing to keep */
    cc_conformance_summary sum;
    cc_error err;
    int rc = cc_conformance_run(e, &opt, &sum, &err);
    if (!CHECKF(&t, rc == CC_OK, "the checks could not run: %s", err.msg)) return check_summary(&t);
    CHECK(&t, !sum.passed);
    CHECKF(&t, sum.infra_errors == 0, "%d checks could not run", sum.infra_errors);
    CHECKF(&t, strncmp(sum.first_failure, "shapes (past 65535 tiles)", 25) == 0,
           "caught in '%s', not in the shapes past 65535 tiles", sum.first_failure);
    printf("mutant.launch-rows: caught: %s\n", sum.first_failure);

    /* Without the shapes, everything else passes: no other check reaches 65536 block rows. */
    cc_campaign_options_init(&opt);
    opt.cases = 200;
    opt.sections_off = CC_SECTION_SHAPES;
    rc = cc_conformance_run(e, &opt, &sum, &err);
    CHECKF(&t, rc == CC_OK && sum.passed, "without the shapes: rc %d (%s), passed %d: %s", rc,
           rc ? err.msg : "", sum.passed, sum.first_failure);
    printf("mutant.launch-rows: passes a conformance test without the shapes (%d edge cases, %d "
           "past the tiles, %llu campaign cases)\n",
           sum.edge_passed, sum.scale_passed, (unsigned long long)sum.campaign.passed);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
