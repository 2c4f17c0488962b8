/* The step counts are the same whatever the engine's speed: an engine whose create is slow (one
 * that compiles its rule there) and one slow a step (200 us) have every count checked that a fast
 * engine has, none left out for time, so the verdict does not depend on the host. */
#include <stdio.h>
#include <string.h>

#include "fuzz/draw.h"
#include "fuzz/mutants/engine_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

static int step_counts(const cc_engine *e, cc_conformance_summary *sum, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 1;
    opt.shrink = 0;
    /* The step counts alone: a slow create would make every other section slow, not this one. */
    opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_STEP_COUNTS | CC_SECTION_REFUSALS |
                                          CC_SECTION_CAMPAIGN);
    return cc_conformance_run(e, &opt, sum, err);
}

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_engine_bugs(), &sv, &status)) return status;
    checks t = {"step_rate_test", 0, 0};
    const char *names[] = {"control.loop", "control.slow-create", "control.slow-steps"};
    cc_conformance_summary sum[3];
    for (int i = 0; i < 3; i++) {
        const cc_engine *e = cc_supervisor_find(sv, names[i]);
        cc_error err = {0};
        memset(&sum[i], 0, sizeof sum[i]);
        if (!CHECKF(&t, e != NULL, "no engine %s", names[i])) return check_summary(&t);
        int rc = step_counts(e, &sum[i], &err);
        CHECKF(&t, rc == CC_OK && sum[i].passed, "%s: rc %d (%s), passed %d", names[i], rc,
               rc ? err.msg : "", sum[i].passed);
        printf("%s: step counts %d passed, largest %lld, %d left out\n", names[i],
               sum[i].step_counts, (long long)sum[i].step_counts_max, sum[i].step_counts_blind);
    }
    /* The right engine reaches the counts where 16-bit step counters wrap. */
    CHECKF(&t, sum[0].step_counts_max >= 65535, "control.loop: largest count %lld",
           (long long)sum[0].step_counts_max);
    for (int i = 0; i < 3; i++) {
        CHECKF(&t,
               sum[i].step_counts == sum[0].step_counts &&
                   sum[i].step_counts_max == sum[0].step_counts_max &&
                   sum[i].step_counts_blind == 0,
               "%s: %d passed (largest %lld, %d left out), against %d (%lld) of control.loop",
               names[i], sum[i].step_counts, (long long)sum[i].step_counts_max,
               sum[i].step_counts_blind, sum[0].step_counts, (long long)sum[0].step_counts_max);
        for (int g = 0; g < sum[i].gaps.n; g++)
            CHECKF(&t, sum[i].gaps.gaps[g].section != CC_CHECK_STEP_COUNTS,
                   "%s: a step-count gap: %s", names[i], sum[i].gaps.gaps[g].reason);
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
