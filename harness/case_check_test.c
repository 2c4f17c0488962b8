/* The verdicts of cc_case_check for engines that misbehave in one way each (built on the control
 * loop), the one-line check and its report. The engines run in workers of this executable: the
 * harness is given their supervisor's descriptions. */
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

#define CAMPAIGN_TEST_NAME "case_check_test"
#include "harness/tests_shared.h"

/* The test's engines: tables made before the worker hook, as the worker needs them too. */
static cc_engine lax, mute_all, refuser, forgetful, failing, failing_io, blocked;

static int create_lax(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    /* Skips the caps check for radii up to 20: accepts what it must refuse. */
    cc_rule r = *rule;
    if (r.radius > 16 && r.radius <= 20) r.radius = 16;
    if (2 * r.radius + 1 > w || 2 * r.radius + 1 > h) r.radius = 1;
    return cc_mutant_control.create(&r, w, h, ctx, err);
}

static int create_mute(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h, (void)ctx;
    if (err) err->msg[0] = '\0';
    return CC_ERR_UNSUPPORTED;
}

static int create_none(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h, (void)ctx;
    return cc_fail(err, CC_ERR_UNSUPPORTED, "test.refuser: refuses everything");
}

static int store_nothing(void *ctx, uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells, (void)err;
    return CC_OK;
}

static int step_fails(void *ctx, int64_t k, cc_error *err) {
    (void)ctx;
    return k > 0 ? cc_fail(err, CC_ERR_DEVICE, "test.stepfail: step(%lld) failed", (long long)k)
                 : CC_OK;
}

static int step_fails_io(void *ctx, int64_t k, cc_error *err) {
    (void)ctx;
    return k > 0 ? cc_fail(err, CC_ERR_IO, "test.stepfail-io: step(%lld) failed", (long long)k)
                 : CC_OK;
}

/* Right for step(1), one step short for step(k) with k >= 2: only a one-call run shows it. */
static int step_blocked(void *ctx, int64_t k, cc_error *err) {
    return cc_mutant_control.step(ctx, k >= 2 ? k - 1 : k, err);
}

static const char *const valid_line =
    "rule=R2,C2,M1,S3..12,B4..9,NM size=13x11 steps=3 density=0.4000 "
    "seed=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

static const char *const invalid_line = /* radius 17: beyond the control's 1..16 */
    "rule=R17,C2,M1,S3..12,B4..9,NM size=35x36 steps=3 density=0.4000 "
    "seed=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

static void expect_kind(checks *t, const cc_engine *e, const char *line, cc_outcome outcome,
                        cc_failure_kind kind) {
    cc_case c;
    cc_error err;
    if (!CHECKF(t, case_parse(line, &c, &err) == CC_OK, "cannot parse %s: %s", line, err.msg))
        return;
    cc_check_result res;
    int rc = cc_case_check(e, &c, &res, &err);
    CHECKF(t, rc == CC_OK && res.outcome == outcome && res.kind == kind,
           "%s: outcome %d kind %s, want %d %s (%s)", e->name, res.outcome,
           cc_failure_kind_name(res.kind), outcome, cc_failure_kind_name(kind), res.detail);
    printf("%s: %s: %s\n", e->name,
           res.outcome == CC_OUTCOME_PASS ? "pass" : cc_failure_kind_name(res.kind), res.detail);
}

static void test_verdicts(checks *t, const char *report_dir) {
    const cc_engine *control = described(&cc_mutant_control), *blocked_d = described(&blocked);
    expect_kind(t, control, valid_line, CC_OUTCOME_PASS, CC_FAILURE_NONE);
    expect_kind(t, control, invalid_line, CC_OUTCOME_REFUSED, CC_FAILURE_NONE);
    /* An engine that forgets a limit of its caps never sees such a case: the contract refuses it. */
    expect_kind(t, described(&lax), invalid_line, CC_OUTCOME_REFUSED, CC_FAILURE_NONE);
    /* An engine that refuses a case within its caps without a message gets one named for it. */
    expect_kind(t, described(&mute_all), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_REFUSED_VALID);
    expect_kind(t, described(&refuser), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_REFUSED_VALID);
    /* The supervisor sees store's cells left unwritten before any comparison. */
    expect_kind(t, described(&forgetful), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_CONTRACT);
    /* CC_ERR_DEVICE is a device fault whatever the hardware; any other code, an engine error. */
    expect_kind(t, described(&failing), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_DEVICE_ERROR);
    expect_kind(t, described(&failing_io), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_ENGINE_ERROR);
    expect_kind(t, blocked_d, valid_line, CC_OUTCOME_FAIL, CC_FAILURE_MISMATCH);

    /* The blocked engine agrees step by step; the report must say so and find j = 2. */
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.report_dir = report_dir;
    char path[1024];
    snprintf(path, sizeof path, "%s/check_line.txt", report_dir);
    FILE *out = fopen(path, "w+");
    if (!CHECKF(t, out != NULL, "cannot open %s", path)) return;
    opt.out = out;
    cc_failure_report rep;
    cc_error err;
    int rc = cc_campaign_check_line(blocked_d, valid_line, &opt, &rep, &err);
    CHECKF(t, rc == CC_ERR_MISMATCH, "blocked: rc %d", rc);
    CHECKF(t,
           rep.divergence.known && rep.divergence.single_steps_agree &&
               rep.divergence.first_step == 2,
           "blocked: first step %" PRId64 ", single steps agree %d", rep.divergence.first_step,
           rep.divergence.single_steps_agree);
    CHECKF(t, rep.divergence.png[0] && access(rep.divergence.png, R_OK) == 0,
           "blocked: no picture at '%s'", rep.divergence.png);
    /* Shrinking keeps the failure: at least 2 steps, as step(1) is right. */
    CHECKF(t,
           rep.shrunk && rep.smallest.steps == 2 && rep.smallest_result.kind == CC_FAILURE_MISMATCH,
           "blocked: shrunk to %s", rep.smallest_line);

    /* The swap mutant by one line: the printed report ends with the reproducers. */
    rc = cc_campaign_check_line(described(cc_mutants_all()[4]), valid_line, &opt, &rep, &err);
    CHECKF(t, rc == CC_ERR_MISMATCH && strcmp(cc_mutants_all()[4]->name, "mutant.swap") == 0,
           "swap: rc %d", rc);
    CHECKF(t,
           rep.shrunk && rep.smallest_result.outcome == CC_OUTCOME_FAIL &&
               (int64_t)rep.smallest.w * rep.smallest.h < 13 * 11 && rep.smallest.steps <= 3,
           "swap shrunk to %s", rep.smallest_line);
    rc = cc_campaign_check_line(control, valid_line, &opt, NULL, &err);
    CHECKF(t, rc == CC_OK, "control line: %s", err.msg);
    rc = cc_campaign_check_line(control, invalid_line, &opt, NULL, &err);
    CHECKF(t, rc == CC_OK, "control refusing: %s", err.msg);
    cc_error_clear(&err);
    rc = cc_campaign_check_line(control, "rule=B3/S23 size=9x9", &opt, NULL, &err);
    CHECKF(t, rc == CC_ERR_ARG && err.msg[0], "malformed line: rc %d", rc);

    fflush(out);
    rewind(out);
    char text[32768];
    size_t len = fread(text, 1, sizeof text - 1, out);
    text[len] = '\0';
    fclose(out);
    char want[512];
    snprintf(want, sizeof want, "reproduce: cellcheck check --engine mutant.swap --case '%s'\n",
             valid_line);
    CHECKF(t, strstr(text, want) != NULL, "report lacks '%s'", want);
    CHECKF(t, strstr(text, "first diverging step: 2 of 3 (step(1) repeated agrees") != NULL,
           "report lacks the blocked engine's diverging step");
    CHECKF(t, strstr(text, "PASSED: mutant.control: ") && strstr(text, "REFUSED as required"),
           "verdict lines missing");
    CHECKF(t, strstr(text, "difference picture: /") != NULL, "the picture's path is missing");
    /* Under bazel test the picture lands in the test's outputs directory, gone after the test:
     * the report names the archive Bazel keeps instead of the sandbox path. */
    const char *keep[] = {"TEST_UNDECLARED_OUTPUTS_DIR", "TEST_TARGET", "TEST_SHARD_INDEX",
                          "TEST_TOTAL_SHARDS"};
    char *kept[4];
    for (int i = 0; i < 4; i++) kept[i] = getenv(keep[i]) ? strdup(getenv(keep[i])) : NULL;
    setenv("TEST_UNDECLARED_OUTPUTS_DIR", report_dir, 1);
    setenv("TEST_TARGET", "//harness:campaign_test", 1);
    unsetenv("TEST_SHARD_INDEX");
    unsetenv("TEST_TOTAL_SHARDS");
    FILE *bazel_out = tmpfile();
    if (CHECK(t, bazel_out != NULL)) {
        opt.out = bazel_out;
        cc_campaign_check_line(blocked_d, valid_line, &opt, &rep, &err);
        rewind(bazel_out);
        char bazel_text[8192];
        size_t got = fread(bazel_text, 1, sizeof bazel_text - 1, bazel_out);
        bazel_text[got] = '\0';
        fclose(bazel_out);
        CHECKF(t,
               strstr(bazel_text, "in bazel-testlogs/harness/campaign_test/test.outputs/"
                                  "outputs.zip") != NULL &&
                   strstr(bazel_text, "difference picture: /") == NULL,
               "under bazel test the picture is named by its sandbox path:\n%s", bazel_text);
    }
    /* As Bazel set them (or not), for the checks after this one. */
    for (int i = 0; i < 4; i++) {
        if (kept[i]) setenv(keep[i], kept[i], 1);
        else unsetenv(keep[i]);
        free(kept[i]);
    }
    printf("---- report of the one-line checks ----\n%s---- end ----\n", text);
}

/* Only fills tables: it runs before the worker hook, in the worker too. */
static void make_engines(void) {
    lax = refuser = mute_all = forgetful = failing = failing_io = blocked = cc_mutant_control;
    lax.name = "test.lax";
    lax.create = create_lax;
    mute_all.name = "test.mute";
    mute_all.create = create_mute;
    refuser.name = "test.refuser";
    refuser.create = create_none;
    forgetful.name = "test.forgetful";
    forgetful.store = store_nothing;
    failing.name = "test.stepfail";
    failing.step = step_fails;
    failing_io.name = "test.stepfail-io";
    failing_io.step = step_fails_io;
    blocked.name = "test.blocked";
    blocked.step = step_blocked;
}

int main(int argc, char **argv) {
    make_engines();
    const cc_engine *tables[32] = {&cc_mutant_control, &lax, &mute_all, &refuser, &forgetful,
                                   &failing, &failing_io, &blocked};
    size_t n = 8;
    for (const cc_engine *const *m = cc_mutants_all(); *m && n + 1 < 32; m++) tables[n++] = *m;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &supervisor, &status)) return status;
    checks t = {"case_check_test", 0, 0};
    char dir[512];
    const char *outputs = getenv("TEST_UNDECLARED_OUTPUTS_DIR");
    if (!outputs) outputs = getenv("TEST_TMPDIR");
    snprintf(dir, sizeof dir, "%s", outputs ? outputs : "/tmp");
    /* The report first names its pictures by their path, as outside Bazel; test_verdicts sets
     * the outputs directory again where it checks the archive Bazel keeps. */
    unsetenv("TEST_UNDECLARED_OUTPUTS_DIR");
    test_verdicts(&t, dir);
    cc_supervisor_close(supervisor);
    return check_summary(&t);
}
