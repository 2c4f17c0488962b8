/* The thin, tall and wide grids crossed with every shape at its smallest and largest radius are
 * what catches a bug of one shape at a large radius on wide grids: mutant.vn-wide (von Neumann
 * past r = 4 on grids past 65536 columns reads the wrong columns) passes every check certify runs
 * with those grids on one shape at its smallest radius, as they were, and fails in them once they
 * are crossed, on a von Neumann case past r = 4 and 65536 columns. Its loop with the limit stated
 * in its caps (control.vn-r4: von Neumann up to r = 4; control.vn-w65536: von Neumann on W up to
 * 65536) passes them all, and the refusals check the stated limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/captured.h"
#include "fuzz/mutants/engine_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

/* The checks certify runs (the case past 2^32 cells aside, as the conformance tests leave it to
 * GPU engines), 200 campaign cases; or (shapes_only) the thin, tall and wide grids and the
 * refusals alone. stdout captured into report. */
static int run(const cc_engine *e, int one_shape, int shapes_only, cc_conformance_summary *sum,
               char *report, size_t size, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 200;
    opt.shrink = 0; /* where it is caught is the point here */
    opt.one_shape = one_shape;
    if (shapes_only) {
        /* The refusals stay: they show the caps that keep a shape off the wide grids. */
        opt.sections_off = CC_SECTION_ALL & ~(CC_SECTION_SHAPES | CC_SECTION_REFUSALS);
        opt.cases = 0;
    }
    memset(sum, 0, sizeof *sum);
    char tag[16];
    snprintf(tag, sizeof tag, "%d", one_shape);
    int rc = cc_mutants_conformance_captured(e, &opt, tag, report, size, sum, err);
    /* The report's failure and notes, for the log. */
    for (char *line = report; line && *line;) {
        char *end = strchr(line, '\n');
        if (strncmp(line, "FAILED", 6) == 0 || strncmp(line, "note:", 5) == 0 ||
            strstr(line, "NN radius") || strstr(line, "NN with W"))
            printf("  %.*s\n", end ? (int)(end - line) : (int)strlen(line), line);
        line = end ? end + 1 : NULL;
    }
    return rc;
}

static int has_gap(const cc_conformance_summary *sum, cc_check_section section, cc_gap_kind kind) {
    for (int g = 0; g < sum->gaps.n; g++)
        if (sum->gaps.gaps[g].section == (int)section && sum->gaps.gaps[g].kind == (int)kind)
            return 1;
    return 0;
}

static char report[1 << 20];

/* The mutant: passing with the grids on one shape, caught once they cross every shape. */
static void mutant(checks *t, const cc_engine *bug) {
    cc_conformance_summary sum;
    cc_error err = {0};
    /* The thin, tall and wide grids on Moore at r = 1 alone: every check passes. */
    int rc = run(bug, 1, 0, &sum, report, sizeof report, &err);
    CHECKF(t, rc == CC_OK && sum.passed, "one shape: rc %d (%s), passed %d: %s", rc,
           rc ? err.msg : "", sum.passed, sum.first_failure);
    CHECKF(t, has_gap(&sum, CC_CHECK_SHAPES, CC_GAP_ASKED), "one shape: no gap says so");
    printf("mutant.vn-wide, the thin, tall and wide grids on one shape: %s (%d of them in %.1f s, "
           "%d edge cases, %llu campaign cases passed)\n",
           sum.passed ? "passed" : "FAILED", sum.shapes_passed,
           sum.sections[CC_CHECK_SHAPES].seconds, sum.edge_passed,
           (unsigned long long)sum.campaign.passed);

    /* Crossed with every shape at its smallest and largest radius: caught there, on von Neumann
     * past r = 4 and 65536 columns. Every other section ran as above. */
    rc = run(bug, 0, 1, &sum, report, sizeof report, &err);
    CHECKF(t, rc == CC_OK && !sum.passed && sum.first_kind == CC_FAILURE_MISMATCH,
           "every shape: rc %d (%s), passed %d, kind %d", rc, rc ? err.msg : "", sum.passed,
           (int)sum.first_kind);
    CHECKF(t, sum.first_section == CC_CHECK_SHAPES, "caught in %s, not in the shapes",
           cc_check_section_name(sum.first_section));
    cc_case c;
    cc_error perr;
    if (CHECKF(t, case_parse(sum.first_case, &c, &perr) == CC_OK, "the failing case '%s': %s",
               sum.first_case, perr.msg))
        CHECKF(t, c.rule.shape == CC_SHAPE_VON_NEUMANN && c.rule.radius > 4 && c.w > 65536,
               "the failing case is not von Neumann past r = 4 and 65536 columns: %s",
               sum.first_case);
    CHECKF(t, strstr(report, "FAILED in shapes (past 2^16 rows or columns)") != NULL,
           "the report does not say where:\n%.2000s", report);
    printf("mutant.vn-wide, every shape at its smallest and largest radius: %s in %s after %d of "
           "them passed (%.1f s): %s\n  case %s\n",
           sum.passed ? "passed" : "FAILED", cc_check_section_name(sum.first_section),
           sum.shapes_passed, sum.sections[CC_CHECK_SHAPES].seconds, sum.first_failure,
           sum.first_case);
}

/* The same loop with the limit stated: right within its caps, and held to the limit by the
 * refusals. */
static void controls(checks *t, const cc_engine *r4, const cc_engine *w65536) {
    cc_conformance_summary sum;
    cc_error err = {0};
    int rc = run(r4, 0, 0, &sum, report, sizeof report, &err);
    CHECKF(t, rc == CC_OK && sum.passed, "control.vn-r4: rc %d (%s), passed %d: %s", rc,
           rc ? err.msg : "", sum.passed, sum.first_failure);
    CHECKF(t, strstr(report, "refused NN radius 5 (above 4, NN's own limit)") != NULL,
           "control.vn-r4: no refusal of NN at r = 5:\n%.2000s", report);
    CHECKF(t, !has_gap(&sum, CC_CHECK_SHAPES, CC_GAP_BUDGET), "control.vn-r4: a shapes gap");
    printf("control.vn-r4: %s (%d thin, tall and wide grids in %.1f s, %d refusals, %llu campaign "
           "cases)\n",
           sum.passed ? "passed" : "FAILED", sum.shapes_passed,
           sum.sections[CC_CHECK_SHAPES].seconds, sum.refusals,
           (unsigned long long)sum.campaign.passed);

    /* The width stated instead: the wide grids leave von Neumann out, as its caps say. */
    rc = run(w65536, 0, 1, &sum, report, sizeof report, &err);
    CHECKF(t, rc == CC_OK && sum.passed, "control.vn-w65536: rc %d (%s), passed %d: %s", rc,
           rc ? err.msg : "", sum.passed, sum.first_failure);
    CHECKF(t, strstr(report, "NN with W 65537 (above 65536, NN's own limit)") != NULL,
           "control.vn-w65536: no refusal of NN on 65537 columns:\n%.2000s", report);
    CHECKF(t, strstr(report, "no grid past 2^16 columns fits NN's own side limits at r = 16"),
           "control.vn-w65536: no note of the wide grid left to its caps:\n%.2000s", report);
    CHECKF(t, !has_gap(&sum, CC_CHECK_SHAPES, CC_GAP_BUDGET), "control.vn-w65536: a shapes gap");
    printf("control.vn-w65536: %s (%d thin, tall and wide grids, %d refusals)\n",
           sum.passed ? "passed" : "FAILED", sum.shapes_passed, sum.refusals);
}

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_engine_bugs(), &sv, &status)) return status;
    checks t = {"shapes_test", 0, 0};
    const cc_engine *bug = cc_supervisor_find(sv, "mutant.vn-wide");
    const cc_engine *r4 = cc_supervisor_find(sv, "control.vn-r4");
    const cc_engine *w65536 = cc_supervisor_find(sv, "control.vn-w65536");
    if (!CHECK(&t, bug && r4 && w65536)) return check_summary(&t);
    /* Bazel's shards: the mutant in the first, the controls in the second (both in one run). */
    size_t shard, shards;
    check_shard(&shard, &shards);
    if (shard == 0) mutant(&t, bug);
    if (shard == 1 % shards) controls(&t, r4, w65536);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
