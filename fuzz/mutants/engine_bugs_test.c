/* Every engine bug of engine_bugs.c is caught by the checks certify runs (the edge, past-the-tiles
 * and refusal sections, then a 2000-case campaign) and by an engine's conformance test (the same
 * sections, then 200 cases), with the failure named for what it is; the history mutant is
 * reported as depending on process history (it passes replayed alone in a fresh worker). The
 * output says where each was caught. */
#define _POSIX_C_SOURCE 200809L /* dup, fileno */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/mutants/engine_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

/* What each must be caught as: the failure kind, or for the history mutant the replay verdict. */
static const struct {
    const char *name;
    const char *report_says;
} expected[] = {
    {"mutant.past-tile", "mismatch with the oracle"},
    {"mutant.split-calls", "differs under a call pattern"},
    {"mutant.static-rule", "differs under a call pattern"},
    {"mutant.large-r-steps", "mismatch with the oracle"},
    {"mutant.word-skip", "mismatch with the oracle"},
    {"mutant.index-wrap", "verified by light cones"},
    {"mutant.history", "depends on process history"},
};

/* cc_conformance_run with stdout captured into report. */
static int run(const cc_engine *e, uint64_t cases, char *report, size_t size,
               cc_conformance_summary *sum, cc_error *err) {
    char path[512];
    const char *tmp = getenv("TEST_TMPDIR");
    snprintf(path, sizeof path, "%s/%s.txt", tmp ? tmp : "/tmp", e->name);
    FILE *f = fopen(path, "w+");
    fflush(stdout);
    int saved = dup(1);
    if (!f || saved < 0) return cc_fail(err, CC_ERR_IO, "cannot capture the output in %s", path);
    dup2(fileno(f), 1);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = cases;
    opt.replay_alone = 1;
    opt.shrink = 0; /* where it is caught is the point here; shrinking is tested elsewhere */
    int rc = cc_conformance_run(e, &opt, sum, err);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(f);
    size_t n = fread(report, 1, size - 1, f);
    report[n] = '\0';
    fclose(f);
    return rc;
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
        int rc = run(e, 2000, report, sizeof report, &sum, &err);
        CHECKF(&t, rc == CC_OK && !sum.passed, "%s: rc %d (%s), passed %d", e->name, rc,
               rc ? err.msg : "", sum.passed);
        CHECKF(&t, strstr(report, expected[i].report_says) != NULL,
               "%s: the report does not say '%s':\n%.3000s", e->name, expected[i].report_says,
               report);
        const char *where = strstr(report, "FAILED in ");
        char section[96] = "";
        if (where && sscanf(where, "FAILED in %95[^:]", section) != 1) section[0] = '\0';
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
    cc_supervisor_close(sv);
    return check_summary(&t);
}
