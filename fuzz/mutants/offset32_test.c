/* mutant.offset32 (32-bit cell offsets) through the checks certify runs, with certify's defaults:
 * every check below 2^32 cells passes, and the case past 2^32 cells, verified by light cones,
 * fails; being the last section before the round trips, it stops the run there. Without a GPU it
 * is reported skipped by name (failed where the GPU is required). */
#include <inttypes.h>
#include <stdio.h>

#include "fuzz/mutants/offset32.h"
#include "harness/harness.h"
#include "testing/check.h"

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {&cc_mutant_offset32, NULL};
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    const cc_engine *e = cc_supervised(sv, &cc_mutant_offset32);
    if (cc_harness_skip(e, &status)) {
        cc_supervisor_close(sv);
        return status;
    }
    checks t = {"offset32_test", 0, 0};
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 2000; /* certify's; the failure comes before the campaign */
    opt.shrink = 0;   /* every smaller grid passes: shrinking finds nothing to keep */
    cc_conformance_summary sum;
    cc_error err;
    int rc = cc_conformance_run(e, &opt, &sum, &err);
    if (!CHECKF(&t, rc == CC_OK, "the checks could not run: %s", err.msg)) return check_summary(&t);
    CHECK(&t, !sum.passed);
    CHECKF(&t, sum.infra_errors == 0, "%d checks could not run", sum.infra_errors);
    CHECKF(&t, sum.failed == 1, "%d failures, expected the one past 2^32 cells", sum.failed);
    /* Exact below 2^32 cells: the edge cases and the cases past the tiles and past 2^24 passed. */
    CHECKF(&t, sum.edge_passed > 0 && sum.scale_passed >= 8,
           "%d edge cases and %d cases past the tiles passed", sum.edge_passed, sum.scale_passed);
    CHECK(&t, sum.huge_passed == 0 && sum.huge_note[0] == '\0');
    CHECKF(&t, sum.round_trips == 0 && sum.campaign.run == 0,
           "the run went on after the case past 2^32 cells (%d round trips, %" PRIu64 " cases)",
           sum.round_trips, sum.campaign.run);
    printf("mutant.offset32: caught by the case past 2^32 cells after %d edge cases and %d cases "
           "past the tiles passed\n",
           sum.edge_passed, sum.scale_passed);

    /* With certify's shrinking: the analysis after the failing call (the verdict is printed
     * before it) ends within a minute, shrinking through cases far cheaper than the failure. */
    opt.shrink = 1;
    opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_PAST_TILES | CC_SECTION_PAST_2_32);
    rc = cc_conformance_run(e, &opt, &sum, &err);
    /* The case past 2^32 cells runs within the section past the tiles: their tallies together. */
    const cc_section_tally *tiles = &sum.sections[CC_CHECK_PAST_TILES],
                           *huge = &sum.sections[CC_CHECK_PAST_2_32];
    const double analysis = tiles->shrink_seconds + huge->shrink_seconds;
    CHECKF(&t, rc == CC_OK && !sum.passed && sum.failed == 1 && huge->run,
           "with shrinking: rc %d (%s), %d failures, the case past 2^32 cells %s", rc,
           rc ? err.msg : "", sum.failed, huge->run ? "ran" : "did not run");
    CHECKF(&t, analysis > 0.0 && analysis < 60.0, "the analysis took %.1f s after the failure",
           analysis);
    printf("mutant.offset32 with shrinking: the sections took %.1f s, %.1f s of them the analysis "
           "after the failing call\n",
           tiles->seconds + huge->seconds, analysis);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
