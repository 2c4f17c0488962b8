/* The limits of ports, through the checks certify runs: each engine whose caps are silent about
 * its limit is caught, and the same engine with the limit stated passes (the campaign and the
 * edge cases stay within it) and has the limit refused by the contract with the limit named. The
 * engines run in workers of this executable: the harness is given their descriptions. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/port_limits.h"
#include "harness/harness.h"
#include "supervise/supervisor.h"
#include "testing/check.h"

/* What the contract's refusal says, for each declared engine (its description, so the caps the
 * worker described are the ones checked): a rule or size past its limit. */
static void check_refusal_named(checks *t, const cc_engine *e) {
    cc_rule rule;
    cc_error err;
    if (cc_rule_parse("R1,C0,M0,S2..3,B3..3,NM", &rule, &err) != CC_OK) {
        CHECKF(t, 0, "rule: %s", err.msg);
        return;
    }
    int32_t w = 40, h = 40;
    const char *names = NULL;
    if (e->caps.s_ranges_max) {
        cc_set_clear(&rule.survive);
        cc_set_add(&rule.survive, 1, 1, NULL);
        cc_set_add(&rule.survive, 3, 3, NULL);
        names = "S has 2 intervals, more than the 1";
    } else if (e->caps.square_only) {
        h = 41;
        names = "not square";
    } else if (e->caps.no_b0) {
        cc_set_add(&rule.birth, 0, 0, NULL);
        names = "B contains 0";
    } else if (e->caps.cells_max) {
        w = h = 1025;
        names = "above this engine's limit of 1048576";
    }
    cc_context *ctx = NULL;
    cc_error_clear(&err);
    int rc = cc_call_create(e, &rule, w, h, &ctx, &err);
    cc_call_destroy(ctx, NULL);
    CHECKF(t, rc == CC_ERR_UNSUPPORTED && names && strstr(err.msg, names),
           "%s: refusal %d '%s' does not say '%s'", e->name, rc, err.msg, names ? names : "?");
}

int main(int argc, char **argv) {
    const cc_engine *const *all = cc_mutants_port_limits();
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, all, &sv, &status)) return status;
    checks t = {"port_limits_test", 0, 0};
    size_t shard, shards;
    check_shard(&shard, &shards);
    size_t count = 0;
    while (all[count]) count++;
    for (size_t i = shard; i < count; i += shards) {
        const cc_engine *e = cc_supervised(sv, all[i]);
        if (!CHECKF(&t, e != NULL, "the worker does not know %s", all[i]->name)) continue;
        int declared = strstr(e->name, "-declared") != NULL;
        cc_campaign_options opt;
        cc_campaign_options_init(&opt);
        opt.cases = 120; /* the limits show in the edge cases and the first cases */
        opt.shrink = 0;
        cc_conformance_summary sum;
        cc_error err;
        int rc = cc_conformance_run(e, &opt, &sum, &err);
        if (!CHECKF(&t, rc == CC_OK, "%s: the checks could not run: %s", e->name, err.msg))
            continue;
        CHECKF(&t, sum.infra_errors == 0, "%s: %d checks could not run", e->name, sum.infra_errors);
        if (declared) {
            CHECKF(&t, sum.passed, "%s: failed with its limit stated", e->name);
            CHECKF(&t, sum.campaign.passed >= 100, "%s: only %" PRIu64 " campaign cases passed",
                   e->name, sum.campaign.passed);
            check_refusal_named(&t, e);
        } else {
            CHECKF(&t, !sum.passed && sum.failed + sum.campaign.failed > 0,
                   "%s: not caught with its limit unstated", e->name);
        }
        printf("%s: %s (edge %d, past the tiles %d, refusals %d, campaign %" PRIu64
               " passed, %" PRIu64 " failed)\n",
               e->name, sum.passed ? "passed" : "caught", sum.edge_passed, sum.scale_passed,
               sum.refusals, sum.campaign.passed, sum.campaign.failed);
        fflush(stdout);
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
