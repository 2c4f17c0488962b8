/* The rank engines of rank_bugs.h over the rank count given (--devices N, as CELLCHECK_DEVICES=N),
 * each rank a worker process of its own: the right one passes a conformance run, each rank's
 * worker counted (over one rank, it alone: handed no id, as one rank joins no one); the stale
 * halos are caught as a wrong result whose reproducer names the count; a rank that crashes,
 * exits or never joins ends the case with that verdict, the rank named. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/captured.h"
#include "fuzz/mutants/rank_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

/* cc_conformance_run's cases (a conformance test's) with stdout captured into report. */
static int run(const cc_engine *e, int cases, char *report, size_t size,
               cc_conformance_summary *sum, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = cases;
    opt.shrink = 0;
    return cc_mutants_conformance_captured(e, &opt, "", report, size, sum, err);
}

typedef struct expected {
    const char *name;
    const char *verdict; /* what the first failure says; NULL: passes */
    int last_rank;       /* 1: the failure names the last rank */
} expected;

int main(int argc, char **argv) {
    /* The count goes to the environment before any worker starts: the workers inherit it. */
    if (argc == 3 && !strcmp(argv[1], "--devices")) {
        setenv("CELLCHECK_DEVICES", argv[2], 1);
        argc = 1;
    }
    const char *devices = getenv("CELLCHECK_DEVICES");
    const int d = devices ? atoi(devices) : 3;
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, cc_mutants_rank_bugs(), &sv, &status)) return status;
    checks t = {"rank_bugs_test", 0, 0};
    static char report[1 << 20];
    char want_count[64], last[64];
    snprintf(want_count, sizeof want_count, "CELLCHECK_DEVICES=%d ", d);
    snprintf(last, sizeof last, "rank %d of %d", d - 1, d);
    static const expected cases[] = {
        {"control.ranks", NULL, 0},
        {"mutant.rank-stale", "differ", 0},
        {"mutant.rank-crash", "crashed (SEGV", 1},
        {"mutant.rank-exit", "exited with status 3 in store", 1},
        {"mutant.rank-absent", "timed out", 0},
    };
    /* One rank has no peer to go stale, crash on or wait for: the right engine alone, which fails
     * where the one rank is handed an id (it joins no one). */
    const size_t n = d == 1 ? 1 : sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n; i++) {
        const expected *x = &cases[i];
        const cc_engine *e = cc_supervisor_find(sv, x->name);
        if (!CHECKF(&t, e != NULL, "no engine %s", x->name)) continue;
        if (!CHECKF(&t, cc_call_ranked(e), "%s does not run as ranks", x->name)) continue;
        /* A rank that never joins is waited for as long as a create may take: a short one. */
        cc_supervisor_options opt = cc_supervisor_get_options(sv), quick = opt;
        quick.time_floor_s = 3.0;
        if (!strcmp(x->name, "mutant.rank-absent")) cc_supervisor_set_options(sv, &quick);
        cc_supervisor_stats before, after;
        cc_supervisor_stats_get(sv, &before);
        cc_conformance_summary sum;
        cc_error err = {0};
        int rc = run(e, x->verdict ? 200 : 60, report, sizeof report, &sum, &err);
        cc_supervisor_set_options(sv, &opt);
        cc_supervisor_stats_get(sv, &after);
        CHECKF(&t, rc == CC_OK, "%s over %d ranks: %s", x->name, d, err.msg);
        CHECKF(&t, sum.devices == d, "%s: ran over %d ranks, not %d", x->name, (int)sum.devices,
               d);
        if (!x->verdict) {
            CHECKF(&t, sum.passed, "%s over %d ranks fails:\n%.3000s", x->name, d, report);
            /* Each rank in a worker of its own, beside the one that describes the engines. */
            CHECKF(&t, after.workers_started >= before.workers_started + (uint64_t)d,
                   "%s: %llu workers started for %d ranks", x->name,
                   (unsigned long long)(after.workers_started - before.workers_started), d);
            char why[512];
            const uint32_t parts = cc_supervisor_sandbox(sv, why, sizeof why);
            printf("%s: %s over %d ranks (%llu workers started; sandbox parts 0x%x%s%s)\n",
                   x->name, sum.passed ? "passes" : "FAILS", d,
                   (unsigned long long)(after.workers_started - before.workers_started),
                   (unsigned)parts, why[0] ? ": " : "", why);
            continue;
        }
        CHECKF(&t, !sum.passed, "%s over %d ranks passes", x->name, d);
        CHECKF(&t, strstr(sum.first_failure, x->verdict) != NULL,
               "%s: the failure does not say \"%s\": %s", x->name, x->verdict, sum.first_failure);
        if (x->last_rank)
            CHECKF(&t, strstr(sum.first_failure, last) != NULL,
                   "%s: the failure does not name %s: %s", x->name, last, sum.first_failure);
        else if (strcmp(x->verdict, "differ") != 0)
            CHECKF(&t, strstr(sum.first_failure, "rank ") != NULL,
                   "%s: the failure names no rank: %s", x->name, sum.first_failure);
        CHECKF(&t, strncmp(sum.first_reproducer, want_count, strlen(want_count)) == 0,
               "%s: the reproducer does not start with %s: %s", x->name, want_count,
               sum.first_reproducer);
        printf("%s: caught over %d ranks: %s\n  reproduce: %s\n", x->name, d, sum.first_failure,
               sum.first_reproducer);
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
