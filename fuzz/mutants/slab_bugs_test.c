/* The seam mutants of slab_bugs.h over the device count given (--devices N, as
 * CELLCHECK_DEVICES=N): each is caught, its report names the count it ran with, and its
 * reproducer runs it with that count again; the right twin passes with the count in its summary.
 * Over one device there is no seam between devices and no remainder: mutant.slab-neighbour and
 * mutant.slab-round are then right (late and shallow halos are not). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/captured.h"
#include "fuzz/mutants/engine_bugs.h"
#include "harness/harness.h"
#include "testing/check.h"

/* cc_conformance_run's 200 cases (a conformance test's) with stdout captured into report. */
static int run(const cc_engine *e, char *report, size_t size, cc_conformance_summary *sum,
               cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 200;
    opt.shrink = 0;
    return cc_mutants_conformance_captured(e, &opt, "", report, size, sum, err);
}

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
    if (cc_harness_supervise(argc, argv, cc_mutants_engine_bugs(), &sv, &status)) return status;
    checks t = {"slab_bugs_test", 0, 0};
    static char report[1 << 20];
    char want_count[64];
    snprintf(want_count, sizeof want_count, "CELLCHECK_DEVICES=%d ", d);
    static const char *const names[] = {"control.slabs", "mutant.slab-late",
                                        "mutant.slab-neighbour", "mutant.slab-round",
                                        "mutant.slab-shallow"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const cc_engine *e = cc_supervisor_find(sv, names[i]);
        if (!CHECKF(&t, e != NULL, "no engine %s", names[i])) continue;
        cc_conformance_summary sum;
        cc_error err = {0};
        int rc = run(e, report, sizeof report, &sum, &err);
        CHECKF(&t, rc == CC_OK, "%s over %d devices: %s", names[i], d, err.msg);
        CHECKF(&t, sum.devices == d, "%s: ran over %d devices, not %d", names[i],
               (int)sum.devices, d);
        /* Late and shallow halos are wrong over one device too: its halos are its own rows. */
        const int right = i == 0 || (d == 1 && strcmp(names[i], "mutant.slab-late") != 0 &&
                                     strcmp(names[i], "mutant.slab-shallow") != 0);
        if (right) {
            CHECKF(&t, sum.passed, "%s over %d devices fails:\n%.3000s", names[i], d, report);
            printf("%s: passes over %d devices\n", names[i], d);
            continue;
        }
        CHECKF(&t, !sum.passed, "%s over %d devices passes", names[i], d);
        CHECKF(&t, strncmp(sum.first_reproducer, want_count, strlen(want_count)) == 0,
               "%s: the reproducer does not start with %s: %s", names[i], want_count,
               sum.first_reproducer);
        const char *where = strstr(report, "FAILED in ");
        char section[96] = "";
        if (where && sscanf(where, "FAILED in %95[^:]", section) != 1) section[0] = '\0';
        printf("%s: caught over %d devices in %s: %s\n  reproduce: %s\n", names[i], d,
               section[0] ? section : "the campaign", sum.first_failure, sum.first_reproducer);
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
