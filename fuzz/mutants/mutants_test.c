/* Every mutant is caught by the campaign within 2000 cases, with a report that locates the
 * difference; the correct control loop passes 300 cases, so the campaign is not failing
 * everything. Same generator, fixed seed. The engines run in workers of this executable. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/campaign.h"
#include "harness/harness.h"
#include "fuzz/mutants/mutants.h"
#include "testing/check.h"

#define MUTANT_CASES 2000
#define CONTROL_CASES 300

static const char *const other_seeds[] = {
    "0000000000000000000000000000000000000000000000000000000000000001",
    "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed",
    "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100",
    "243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c89",
};

/* Writes to a stream that discards, so only the summary lines reach the log. */
static FILE *quiet(void) { return fopen("/dev/null", "w"); }

int main(int argc, char **argv) {
    const cc_engine *tables[32] = {&cc_mutant_control};
    size_t n = 1;
    for (const cc_engine *const *m = cc_mutants_all(); *m && n + 1 < 32; m++) tables[n++] = *m;
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    checks t = {"mutants_test", 0, 0};
    FILE *sink = quiet();
    if (!sink) {
        fprintf(stderr, "cannot open /dev/null\n");
        return 1;
    }

    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    cc_error err;
    if (cc_campaign_options_from_env(&opt, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* Every mutant sees the whole campaign, whatever the sharding. */
    opt.shard_index = 0;
    opt.shard_count = 1;
    char master[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(opt.master, master);
    printf("master seed %s\n", master);

    opt.cases = CONTROL_CASES;
    opt.out = stdout;
    cc_campaign_result res;
    const cc_engine *control = cc_supervised(sv, &cc_mutant_control);
    if (!control) {
        fprintf(stderr, "the worker does not know %s\n", cc_mutant_control.name);
        return 1;
    }
    int rc = cc_campaign_run(control, &opt, &res, &err);
    printf("control %s: %" PRIu64 " cases: %" PRIu64 " passed, %" PRIu64 " refused as required, %" PRIu64
           " failed\n",
           cc_mutant_control.name, res.run, res.passed, res.refused, res.failed);
    CHECKF(&t,
           rc == CC_OK && res.failed == 0 && res.run == CONTROL_CASES && res.passed != 0 &&
               res.refused != 0,
           "the control engine must pass every case (%s)", err.msg);

    opt.cases = MUTANT_CASES;
    const cc_engine *const *all = cc_mutants_all();
    for (size_t m = 0; all[m]; m++) {
        const cc_engine *mutant = cc_supervised(sv, all[m]);
        if (!CHECKF(&t, mutant != NULL, "the worker does not know %s", all[m]->name)) continue;
        opt.out = sink; /* the full report of each is in the test's outputs, not the log */
        rc = cc_campaign_run(mutant, &opt, &res, &err);
        if (!CHECKF(&t, rc == CC_ERR_MISMATCH && res.has_failure,
                    "mutant %s not caught in %d cases (rc %d: %s)", mutant->name, MUTANT_CASES, rc,
                    err.msg))
            continue;
        const cc_failure_report *rep = &res.failure;
        printf("mutant %s: caught after %" PRIu64 " cases (case line %s)\n", mutant->name,
               res.first_failure + 1, rep->line);
        /* The report has to say where: a mismatch with a located first step and cell, and a
         * shrunk case that is no larger and still fails. */
        CHECKF(&t,
               rep->result.kind == CC_FAILURE_MISMATCH && rep->divergence.known &&
                   rep->divergence.first_step >= 1 && rep->divergence.differing_first != 0 &&
                   rep->divergence.differing_end == rep->result.differing,
               "mutant %s: incomplete report (kind %s, step %" PRId64 ")", mutant->name,
               cc_failure_kind_name(rep->result.kind), rep->divergence.first_step);
        CHECKF(&t,
               rep->smallest_result.outcome == CC_OUTCOME_FAIL &&
                   rep->smallest.w <= rep->failing.w && rep->smallest.h <= rep->failing.h &&
                   rep->smallest.steps <= rep->failing.steps &&
                   rep->smallest.rule.radius <= rep->failing.rule.radius,
               "mutant %s: the shrunk case %s is not smaller or passes", mutant->name,
               rep->smallest_line);
        printf("  shrunk to %s\n", rep->smallest_line);
        cc_failure_report_print(rep, stdout);

        /* Not one lucky case: other master seeds catch it within the same bound. */
        cc_campaign_options other = opt;
        other.shrink = 0;
        printf("  other master seeds:");
        for (size_t k = 0; k < sizeof other_seeds / sizeof other_seeds[0]; k++) {
            case_seed_parse_hex(other_seeds[k], other.master, NULL);
            cc_campaign_result r2;
            rc = cc_campaign_run(mutant, &other, &r2, &err);
            if (!CHECKF(&t, rc == CC_ERR_MISMATCH && r2.has_failure,
                        "mutant %s not caught in %d cases with seed %s", mutant->name, MUTANT_CASES,
                        other_seeds[k]))
                continue;
            printf(" %.8s..: %" PRIu64, other_seeds[k], r2.first_failure + 1);
        }
        printf(" cases\n");
    }
    fclose(sink);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
