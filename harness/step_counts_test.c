/* The grid the step-count search hands the check is the oracle's after c->steps: on a trajectory
 * that never repeats within the count, and on one whose count lies past a cycle's first turn
 * (where the grid comes from the cycle's earlier state). Both kinds must occur among the seeds. */
#include "harness/step_counts.h"

#include <stdio.h>
#include <string.h>

#include "oracle/oracle.h"
#include "testing/check.h"

static int expected_matches(checks *t, const cc_case *c, const cc_grid *got) {
    cc_grid want = {0};
    cc_error err;
    int ok = CHECK_EQ(t, case_grid(c, &want, &err), CC_OK) &&
             CHECK_EQ(t, oracle_run(&c->rule, &want, c->steps, &err), CC_OK) &&
             CHECK(t, got->w == c->w && got->h == c->h &&
                          memcmp(got->cells, want.cells, (size_t)c->w * (size_t)c->h) == 0);
    cc_grid_free(&want);
    return ok;
}

int main(void) {
    checks t = {"step_counts_test", 0, 0};
    cc_error err;
    int straight = 0, past_cycle = 0;
    for (int seed = 1; seed <= 200 && !(straight >= 3 && past_cycle >= 3); seed++) {
        char line[256];
        /* 6x6 tori cycle within a few dozen steps; 17x19 ones rarely repeat within 9. */
        int small = seed % 2;
        snprintf(line, sizeof line,
                 "rule=B3/S23 size=%s steps=%d density=0.4000 seed=%064x", small ? "6x6" : "17x19",
                 small ? 1001 : 9, seed);
        cc_case c;
        if (!CHECKF(&t, case_parse(line, &c, &err) == CC_OK, "%s: %s", line, err.msg)) break;
        int64_t wrong[] = {c.steps - 1};
        int verdict = -1;
        int64_t alias = -1;
        cc_grid got = {0};
        if (!CHECK_EQ(&t, cc_step_counts_distinct(&c, wrong, 1, 1e9, &verdict, &alias, &got, &err),
                      CC_OK))
            break;
        if (verdict == 1) {
            CHECK(&t, got.cells != NULL);
            if (got.cells && expected_matches(&t, &c, &got)) small ? past_cycle++ : straight++;
        } else {
            CHECK(&t, got.cells == NULL); /* nothing handed over without a verdict of 1 */
        }
        cc_grid_free(&got);
    }
    CHECKF(&t, straight >= 3, "only %d straight trajectories", straight);
    CHECKF(&t, past_cycle >= 3, "only %d counts past a cycle's first turn", past_cycle);
    return check_summary(&t);
}
