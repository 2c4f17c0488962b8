/* Every engine bug of engine_bugs.c is caught by the checks certify runs (the edge, past-the-tiles
 * and refusal sections, then a 2000-case campaign) and by an engine's conformance test (the same
 * sections, then 200 cases), with the failure named for what it is; the history mutant is
 * reported as depending on process history (it passes replayed alone in a fresh worker). The
 * output says where each was caught. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/captured.h"
#include "fuzz/mutants/engine_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

/* What each must be caught as: the failure kind, or for the history mutant the replay verdict;
 * for the mutants a section exists to catch, that section, and with it left out the mutant
 * passes a conformance test. */
static const struct {
    const char *name;
    const char *report_says;
    uint32_t section;      /* CC_SECTION_* that catches it (0: the older checks) */
    const char *caught_in; /* the section's name in "FAILED in ..." */
} expected[] = {
    {"mutant.past-tile", "mismatch with the oracle", 0, NULL},
    {"mutant.split-calls", "differs under a call pattern", 0, NULL},
    {"mutant.static-rule", "differs under a call pattern", 0, NULL},
    {"mutant.large-r-steps", "mismatch with the oracle", 0, NULL},
    {"mutant.word-skip", "mismatch with the oracle", 0, NULL},
    {"mutant.index-wrap", "verified by light cones", 0, NULL},
    {"mutant.history", "depends on process history", 0, NULL},
    {"mutant.store-scratch", "differs along a call sequence", CC_SECTION_SEQUENCES,
     "call sequences"},
    {"mutant.load-skip", "differs along a call sequence", CC_SECTION_SEQUENCES, "call sequences"},
    {"mutant.block-remainder", "mismatch with the oracle", CC_SECTION_STEP_COUNTS, "step counts"},
    {"mutant.steps16", "mismatch with the oracle", CC_SECTION_STEP_COUNTS, "step counts"},
    {"mutant.steps32", "mismatch with the oracle", CC_SECTION_STEP_COUNTS, "step counts"},
    {"mutant.row16", "mismatch with the oracle", CC_SECTION_SHAPES, "shapes"},
    {"mutant.torus-corner", "mismatch with the oracle", CC_SECTION_SEAMS, "seams"},
    {"mutant.plane-wrap", "mismatch with the oracle", 0, NULL},
    /* Reads memory it never wrote: caught because workers poison the heap (fresh_heap_test
     * shows it passing without). */
    {"mutant.fresh-heap", "mismatch with the oracle", 0, NULL},
    /* The seams between emulated devices (slab_bugs.h). */
    {"mutant.slab-late", "mismatch with the oracle", 0, NULL},
    {"mutant.slab-neighbour", "mismatch with the oracle", 0, NULL},
    {"mutant.slab-round", "mismatch with the oracle", 0, NULL},
    {"mutant.slab-shallow", "mismatch with the oracle", 0, NULL},
};

/* cc_conformance_run with stdout captured into report. */
static int run(const cc_engine *e, uint64_t cases, uint32_t sections_off, char *report,
               size_t size, cc_conformance_summary *sum, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = cases;
    opt.replay_alone = 1;
    opt.shrink = 0; /* where it is caught is the point here; shrinking is tested elsewhere */
    opt.sections_off = sections_off;
    return cc_mutants_conformance_captured(e, &opt, "", report, size, sum, err);
}

int main(int argc, char **argv) {
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_engine_bugs(), &sv, &status)) return status;
    checks t = {"engine_bugs_test", 0, 0};
    static char report[1 << 20];
    /* Bazel's sharding spreads the mutants over its shards. */
    size_t shard, shards;
    check_shard(&shard, &shards);
    for (size_t i = shard; i < sizeof expected / sizeof expected[0]; i += shards) {
        const cc_engine *e = cc_supervisor_find(sv, expected[i].name);
        if (!CHECKF(&t, e != NULL, "no mutant %s", expected[i].name)) continue;
        /* certify's 2000 cases; a conformance test runs the same sections and the first 200. */
        cc_conformance_summary sum;
        cc_error err = {0};
        int rc = run(e, 2000, 0, report, sizeof report, &sum, &err);
        CHECKF(&t, rc == CC_OK && !sum.passed, "%s: rc %d (%s), passed %d", e->name, rc,
               rc ? err.msg : "", sum.passed);
        CHECKF(&t, strstr(report, expected[i].report_says) != NULL,
               "%s: the report does not say '%s':\n%.3000s", e->name, expected[i].report_says,
               report);
        const char *where = strstr(report, "FAILED in ");
        char section[96] = "";
        if (where && sscanf(where, "FAILED in %95[^:]", section) != 1) section[0] = '\0';
        if (expected[i].section) {
            CHECKF(&t, strncmp(section, expected[i].caught_in, strlen(expected[i].caught_in)) == 0,
                   "%s: caught in '%s', not in %s", e->name, section, expected[i].caught_in);
            /* Without its section, a conformance test's 200 cases pass it. */
            cc_conformance_summary without;
            rc = run(e, 200, expected[i].section, report, sizeof report, &without, &err);
            CHECKF(&t, rc == CC_OK && without.passed,
                   "%s: passed %d without %s (rc %d): %.2000s", e->name, without.passed,
                   expected[i].caught_in, rc, report);
            printf("%s: passes a conformance test without %s\n", e->name, expected[i].caught_in);
        }
        if (section[0]) {
            printf("%s: caught in %s, before the campaign\n", e->name, section);
        } else if (sum.campaign.has_failure) {
            printf("%s: caught by the campaign after %" PRIu64 " cases\n", e->name,
                   sum.campaign.first_failure + 1);
            CHECKF(&t, sum.campaign.first_failure < 200,
                   "%s: a 200-case conformance test would miss it (case %" PRIu64 ")", e->name,
                   sum.campaign.first_failure);
        }
    }
    /* The slab engines' right twin passes: what catches the mutants is their bug. */
    if (shard == 0) {
        const cc_engine *e = cc_supervisor_find(sv, "control.slabs");
        cc_conformance_summary sum;
        cc_error err = {0};
        if (CHECKF(&t, e != NULL, "no control.slabs")) {
            int rc = run(e, 200, 0, report, sizeof report, &sum, &err);
            CHECKF(&t, rc == CC_OK && sum.passed, "control.slabs: rc %d (%s), passed %d:\n%.3000s",
                   rc, rc ? err.msg : "", sum.passed, report);
            printf("control.slabs: passes a conformance test\n");
        }
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
