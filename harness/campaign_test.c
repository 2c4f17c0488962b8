/* The campaign's options: its draws are deterministic, its option ranges and its environment are
 * checked, and shards split its cases. The cases it draws: campaign_cases_test.c; the verdicts of
 * cc_case_check: case_check_test.c; shrinking: shrink_test.c. The engines run in workers of this
 * executable: the harness is given their supervisor's descriptions. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, access */

#include "harness/campaign.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/mutants/mutants.h"
#include "harness/harness.h"
#include "testing/check.h"

#define CAMPAIGN_TEST_NAME "campaign_test"
#include "harness/tests_shared.h"

/* The test's engines: tables made before the worker hook, as the worker needs them too. */
static cc_engine general;

static void test_determinism(checks *t) {
    const cc_engine *e = described(&general);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    char a[CC_CASE_TEXT_MAX], b[CC_CASE_TEXT_MAX], c[CC_CASE_TEXT_MAX];
    cc_drawn_case d1, d2, d3;
    cc_error err;
    for (uint64_t i = 0; i < 50; i++) {
        int rc = cc_campaign_case(e, &opt, i, &d1, &err) || cc_campaign_case(e, &opt, i, &d2, &err) ||
                 cc_campaign_case(e, &opt, i + 1, &d3, &err);
        CHECKF(t, rc == CC_OK, "%s", err.msg);
        if (rc) return;
        case_format(&d1.c, a, sizeof a, NULL);
        case_format(&d2.c, b, sizeof b, NULL);
        case_format(&d3.c, c, sizeof c, NULL);
        CHECKF(t, strcmp(a, b) == 0, "case %" PRIu64 " drawn twice differs:\n%s\n%s", i, a, b);
        CHECKF(t, strcmp(a, c) != 0, "cases %" PRIu64 " and the next are equal", i);
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(opt.master, i, seed);
        CHECKF(t, memcmp(seed, d1.c.seed, CC_SEED_BYTES) == 0, "case seed is not the derived seed");
    }
    /* A pinned draw: if the generator changes, recorded reproducers of old campaigns no longer
     * name the same cases, and this says so. */
    cc_campaign_case(e, &opt, 0, &d1, &err);
    case_format(&d1.c, a, sizeof a, NULL);
    printf("case 0 of the default campaign for %s: %s\n", e->name, a);
}

static void test_option_ranges(checks *t) {
    const cc_engine *e = described(&general);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.radius_lo = 3;
    opt.radius_hi = 5;
    opt.size_lo = 20;
    opt.size_hi = 30;
    opt.invalid_percent = 0;
    for (uint64_t i = 0; i < 300; i++) {
        cc_drawn_case d;
        cc_error err;
        int rc = cc_campaign_case(e, &opt, i, &d, &err);
        CHECKF(t, rc == CC_OK, "%s", err.msg);
        if (rc) return;
        CHECKF(t,
               !d.expect_refusal && !d.large && d.c.rule.radius >= 3 && d.c.rule.radius <= 5 &&
                   d.c.w >= 20 && d.c.w <= 30 && d.c.h >= 20 && d.c.h <= 30,
               "case %" PRIu64 ": r %d %dx%d", i, (int)d.c.rule.radius, (int)d.c.w, (int)d.c.h);
    }
    /* An explicit size range bounds large cases too; a smaller budget bounds their work; a
     * negative share turns them off. */
    opt.size_lo = 100;
    opt.size_hi = 600;
    opt.large_budget = 2e7;
    int large = 0;
    for (uint64_t i = 0; i < 300; i++) {
        cc_drawn_case d;
        cc_error err;
        if (!CHECKF(t, cc_campaign_case(e, &opt, i, &d, &err) == CC_OK, "%s", err.msg)) return;
        large += d.large;
        if (d.large)
            CHECKF(t, d.c.w >= 100 && d.c.w <= 600 && d.c.h >= 100 && d.c.h <= 600 &&
                          case_cost(&d.c) <= 2e7,
                   "large case %" PRIu64 " %dx%d r %d, %" PRId64 " steps, past the options", i,
                   (int)d.c.w, (int)d.c.h, (int)d.c.rule.radius, d.c.steps);
    }
    CHECKF(t, large >= 20, "sizes 100..600: %d large cases of 300", large);
    opt.large_percent = -1;
    for (uint64_t i = 0; i < 300; i++) {
        cc_drawn_case d;
        cc_error err;
        if (!CHECKF(t, cc_campaign_case(e, &opt, i, &d, &err) == CC_OK, "%s", err.msg)) return;
        if (!CHECKF(t, !d.large, "large case %" PRIu64 " with large_percent -1", i)) break;
    }
    opt.large_percent = 0;
    opt.large_budget = 0;

    cc_drawn_case d;
    cc_error err;
    cc_error_clear(&err);
    opt.radius_lo = 17;
    opt.radius_hi = 20;
    CHECKF(t, cc_campaign_case(e, &opt, 0, &d, &err) != CC_OK && strstr(err.msg, "1..16"),
           "radius range beyond caps: %s", err.msg);
    printf("refused as expected: %s\n", err.msg);
    opt.radius_lo = 10;
    opt.radius_hi = 12;
    opt.size_lo = 5;
    opt.size_hi = 15;
    CHECKF(t, cc_campaign_case(e, &opt, 0, &d, &err) != CC_OK && strstr(err.msg, "2r+1"),
           "sizes too small for radii: %s", err.msg);
    printf("refused as expected: %s\n", err.msg);

    int32_t lo = 0, hi = 0;
    CHECKF(t, cc_parse_int_range("3..7", &lo, &hi, &err) == CC_OK && lo == 3 && hi == 7, "3..7");
    CHECKF(t, cc_parse_int_range("16", &lo, &hi, &err) == CC_OK && lo == 16 && hi == 16, "16");
    static const char *const bad[] = {"", "7..3", "0..3", "a..b", "3..", "..3", "3...5", "-1..2",
                                      "3..5x", "99999999999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cc_error_clear(&err);
        CHECKF(t, cc_parse_int_range(bad[k], &lo, &hi, &err) != CC_OK && err.msg[0],
               "range '%s' accepted", bad[k]);
    }
}

static void test_env(checks *t) {
    const char *tmp = getenv("TEST_TMPDIR");
    char status[512];
    snprintf(status, sizeof status, "%s/shard_status", tmp ? tmp : "/tmp");
    unlink(status);
    setenv("TEST_TOTAL_SHARDS", "3", 1);
    setenv("TEST_SHARD_INDEX", "1", 1);
    setenv("TEST_SHARD_STATUS_FILE", status, 1);
    setenv("TEST_UNDECLARED_OUTPUTS_DIR", "/some/outputs", 1);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    cc_error err;
    int rc = cc_campaign_options_from_env(&opt, &err);
    CHECKF(t, rc == CC_OK && opt.shard_count == 3 && opt.shard_index == 1, "shards %u/%u (%s)",
           opt.shard_index, opt.shard_count, err.msg);
    CHECKF(t, access(status, F_OK) == 0, "shard status file %s not touched", status);
    CHECKF(t, opt.report_dir && strcmp(opt.report_dir, "/some/outputs") == 0, "report dir");
    setenv("TEST_SHARD_INDEX", "3", 1);
    cc_campaign_options_init(&opt);
    CHECKF(t, cc_campaign_options_from_env(&opt, &err) != CC_OK && err.msg[0], "index 3 of 3");
    printf("refused as expected: %s\n", err.msg);
    setenv("TEST_TOTAL_SHARDS", "x", 1);
    CHECKF(t, cc_campaign_options_from_env(&opt, &err) != CC_OK && err.msg[0], "shards x");
    printf("refused as expected: %s\n", err.msg);
    unsetenv("TEST_TOTAL_SHARDS");
    unsetenv("TEST_SHARD_INDEX");
    unsetenv("TEST_SHARD_STATUS_FILE");
    unsetenv("TEST_UNDECLARED_OUTPUTS_DIR");
}

static void test_sharding(checks *t, FILE *sink) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 60;
    opt.out = sink;
    opt.large_percent = -1; /* sharding, not the draw: keep the cases quick */
    cc_campaign_result whole, part;
    cc_error err;
    const cc_engine *control = described(&cc_mutant_control);
    int rc = cc_campaign_run(control, &opt, &whole, &err);
    CHECKF(t, rc == CC_OK && whole.run == 60, "unsharded: %s", err.msg);
    uint64_t run = 0, passed = 0, refused = 0;
    opt.shard_count = 3;
    for (uint32_t s = 0; s < 3; s++) {
        opt.shard_index = s;
        rc = cc_campaign_run(control, &opt, &part, &err);
        CHECKF(t, rc == CC_OK && part.run == 20, "shard %u ran %" PRIu64 " (%s)", s, part.run,
               err.msg);
        run += part.run;
        passed += part.passed;
        refused += part.refused;
    }
    CHECKF(t, run == whole.run && passed == whole.passed && refused == whole.refused,
           "shards sum to %" PRIu64 "/%" PRIu64 "/%" PRIu64 ", whole %" PRIu64 "/%" PRIu64
           "/%" PRIu64,
           run, passed, refused, whole.run, whole.passed, whole.refused);
    opt.shard_index = 3;
    CHECKF(t, cc_campaign_run(control, &opt, &part, &err) != CC_OK, "shard 3 of 3 ran");
    /* A mutant sharded: each shard reports the first failure among its own cases. */
    opt.cases = 200;
    for (uint32_t s = 0; s < 3; s++) {
        opt.shard_index = s;
        rc = cc_campaign_run(described(cc_mutants_all()[0]), &opt, &part, &err);
        CHECKF(t, rc == CC_ERR_MISMATCH && part.has_failure && part.first_failure % 3 == s,
               "mutant in shard %u: rc %d, first failure %" PRIu64, s, rc, part.first_failure);
    }
}

/* Only fills tables: it runs before the worker hook, in the worker too. */
static void make_engines(void) {
    general = general_caps();
}

int main(int argc, char **argv) {
    make_engines();
    const cc_engine *tables[32] = {&cc_mutant_control, &general};
    size_t n = 2;
    for (const cc_engine *const *m = cc_mutants_all(); *m && n + 1 < 32; m++) tables[n++] = *m;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &supervisor, &status)) return status;
    checks t = {"campaign_test", 0, 0};
    FILE *sink = fopen("/dev/null", "w");
    if (!sink) return 1;
    test_determinism(&t);
    test_option_ranges(&t);
    test_env(&t);
    test_sharding(&t, sink);
    fclose(sink);
    cc_supervisor_close(supervisor);
    return check_summary(&t);
}
