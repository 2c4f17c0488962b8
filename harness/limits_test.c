/* The memory limit before work, on a small machine acted out through CELLCHECK_MEMORY_AVAILABLE:
 * an engine whose own estimate (cc_engine.memory) is more than there is is refused before its
 * create, the refusal naming the size, the bytes needed and the bytes available; the same grid
 * passes for an engine that states a small estimate or none (the generic one); a GPU engine's
 * device bytes are not counted against the host. The harness is given the engines as a
 * supervisor's descriptions (their estimates come from the worker); the contract's own
 * cc_call_memory asks the workers. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/campaign.h"
#include "harness/harness.h"
#include "harness/limits.h"
#include "testing/check.h"

/* 100 bytes a cell on the host: far more than the generic estimate. */
static void hungry_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    need->host_bytes = 100.0 * (double)w * (double)h;
    need->device_bytes = 0.0;
}

/* One bit a cell, as a bit-per-cell engine. */
static void frugal_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    need->host_bytes = (double)w * (double)h / 8.0;
    need->device_bytes = 0.0;
}

/* A GPU engine's grids are on the device. */
static void device_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    need->host_bytes = 4096.0;
    need->device_bytes = 50.0 * (double)w * (double)h;
}

/* Reached only when the limit let the case through: the refusal must come before it. */
static int create_reached(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule;
    (void)ctx;
    return cc_fail(err, CC_ERR_IO, "create was reached for %dx%d", (int)w, (int)h);
}

#define LIMITS_ENGINE(NAME, HARDWARE, MEMORY)                                                      \
    {.name = NAME, .summary = "limits_test", .hardware = HARDWARE, .create = create_reached,       \
     .memory = MEMORY}

static const cc_engine hungry = LIMITS_ENGINE("test.hungry", CC_HW_CPU, hungry_memory);
static const cc_engine frugal = LIMITS_ENGINE("test.frugal", CC_HW_CPU, frugal_memory);
static const cc_engine generic = LIMITS_ENGINE("test.generic", CC_HW_CPU, NULL);
static const cc_engine on_device = LIMITS_ENGINE("test.device", CC_HW_GPU, device_memory);
static const cc_engine generic_gpu = LIMITS_ENGINE("test.generic-gpu", CC_HW_GPU, NULL);
/* hungry, with sides up to 2000 */
static const cc_engine capped = {.name = "test.capped", .summary = "limits_test",
                                 .caps = {.w_max = 2000, .h_max = 2000},
                                 .create = create_reached, .memory = hungry_memory};

#define LINE                                                                                       \
    "rule=B3/S23 size=1000x1000 steps=1 density=0.5 "                                             \
    "seed=0000000000000000000000000000000000000000000000000000000000000001"

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {&hungry,      &frugal, &generic, &on_device,
                                       &generic_gpu, &capped, NULL};
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    checks t = {"limits_test", 0, 0};
    const cc_engine *hungry_d = cc_supervised(sv, &hungry), *frugal_d = cc_supervised(sv, &frugal),
                    *generic_d = cc_supervised(sv, &generic),
                    *on_device_d = cc_supervised(sv, &on_device),
                    *generic_gpu_d = cc_supervised(sv, &generic_gpu);
    if (!CHECK(&t, hungry_d && frugal_d && generic_d && on_device_d && generic_gpu_d)) {
        cc_supervisor_close(sv);
        return check_summary(&t);
    }
    /* 10 MB here: 1000 x 1000 needs 3 MB of the harness's grids plus the engine's context. */
    if (!CHECK(&t, setenv("CELLCHECK_MEMORY_AVAILABLE", "10000000", 1) == 0)) {
        cc_supervisor_close(sv);
        return check_summary(&t);
    }
    CHECKF(&t, cc_memory_available() == 1e7, "the stand-in figure is not read: %.0f",
           cc_memory_available());
    cc_rule life;
    cc_error err = {0};
    if (!CHECKF(&t, cc_rule_parse("B3/S23", &life, &err) == CC_OK, "%s", err.msg)) {
        cc_supervisor_close(sv);
        return check_summary(&t);
    }

    /* 3e6 + 1e8 bytes: refused, with the size, the total, the parts and what there is. */
    int rc = cc_limit_engine_memory("check --case", hungry_d, &life, 1000, 1000, 3.0, &err);
    printf("hungry: %s\n", err.msg);
    CHECKF(&t,
           rc == CC_ERR_NOMEM && strstr(err.msg, "test.hungry on a 1000x1000 grid") &&
               strstr(err.msg, "needs 103000000 bytes") && strstr(err.msg, "3000000 for the 3 grids") &&
               strstr(err.msg, "100000000 for test.hungry's context (its own estimate") &&
               strstr(err.msg, "10000000 bytes (0.01 GiB) are available"),
           "rc %d: %s", rc, err.msg);
    /* Through check --case: refused before create, never classed as a failing case. */
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.out = stdout;
    memset(&err, 0, sizeof err);
    rc = cc_campaign_check_line(hungry_d, LINE, &opt, NULL, &err);
    CHECKF(&t, rc == CC_ERR_NOMEM && !strstr(err.msg, "create was reached"),
           "check --case on the hungry engine: rc %d: %s", rc, err.msg);

    /* 3e6 + 1.25e5 and 3e6 + 2e6 (generic) fit in 1e7. */
    CHECKF(&t, cc_limit_engine_memory("check --case", frugal_d, &life, 1000, 1000, 3.0, &err) == 0,
           "frugal refused: %s", err.msg);
    CHECKF(&t, cc_limit_engine_memory("check --case", generic_d, &life, 1000, 1000, 3.0, &err) == 0,
           "generic refused: %s", err.msg);
    /* The frugal engine passes the limit and reaches its create, so the limit let it through
     * (its report, of a create that fails on purpose, is not shown). */
    memset(&err, 0, sizeof err);
    opt.out = tmpfile();
    rc = opt.out ? cc_campaign_check_line(frugal_d, LINE, &opt, NULL, &err) : CC_ERR_IO;
    if (opt.out) fclose(opt.out);
    opt.out = stdout;
    CHECKF(&t, rc != CC_ERR_NOMEM, "check --case on the frugal engine was refused for memory: %s",
           err.msg);
    /* Where the generic estimate is too much (2000 x 2000: 12e6 + 8e6), a frugal estimate is not
     * (12e6 + 5e5 against 1.9e7): the engine's own layout decides. */
    setenv("CELLCHECK_MEMORY_AVAILABLE", "19000000", 1);
    rc = cc_limit_engine_memory("run", generic_d, &life, 2000, 2000, 3.0, &err);
    CHECKF(&t, rc == CC_ERR_NOMEM && strstr(err.msg, "a generic estimate"), "generic: %d %s", rc,
           err.msg);
    CHECKF(&t, cc_limit_engine_memory("run", frugal_d, &life, 2000, 2000, 3.0, &err) == 0,
           "frugal at 2000x2000 refused: %s", err.msg);

    /* A GPU engine: its device bytes are named, not counted against the host. */
    setenv("CELLCHECK_MEMORY_AVAILABLE", "4000000", 1);
    CHECKF(&t, cc_limit_engine_memory("check --case", on_device_d, &life, 1000, 1000, 3.0, &err) == 0,
           "device bytes were counted against the host: %s", err.msg);
    CHECKF(&t,
           cc_limit_engine_memory("check --case", generic_gpu_d, &life, 1000, 1000, 3.0, &err) == 0,
           "a GPU engine without an estimate was charged host memory: %s", err.msg);
    setenv("CELLCHECK_MEMORY_AVAILABLE", "1000000", 1);
    rc = cc_limit_engine_memory("check --case", on_device_d, &life, 1000, 1000, 3.0, &err);
    CHECKF(&t, rc == CC_ERR_NOMEM && strstr(err.msg, "50000000 bytes on the device"),
           "device: %d %s", rc, err.msg);
    /* An engine's estimate is asked only within its caps (here: sides up to 2000). */
    cc_memory need;
    const cc_engine *capped_d = cc_supervised(sv, &capped);
    CHECKF(&t, cc_call_memory(capped_d, &life, 1000, 1000, &need, &err) == 1 &&
                   need.host_bytes == 1e8,
           "within the caps: %.0f", need.host_bytes);
    CHECKF(&t, cc_call_memory(capped_d, &life, 4000, 1000, &need, &err) == 0 &&
                   need.host_bytes == 0.0,
           "outside the caps the engine's estimate was asked");
    CHECKF(&t, cc_call_memory(generic_d, &life, 1000, 1000, &need, &err) == 0,
           "no estimate, yet one");

    /* A malformed stand-in is refused by the settings check (commands stop there); if it is read
     * regardless, it is not taken as a figure. */
    const char *malformed[] = {"lots", "8G", "-1", "0", "nan", "inf", "1e30", "12 "};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        setenv("CELLCHECK_MEMORY_AVAILABLE", malformed[i], 1);
        CHECKF(&t, cc_memory_setting_check(&err) == CC_ERR_ARG && strstr(err.msg, malformed[i]),
               "CELLCHECK_MEMORY_AVAILABLE='%s' was not refused by its value: %s", malformed[i],
               err.msg);
        CHECKF(&t, cc_settings_check(NULL, 0, &err) == CC_ERR_ARG, "'%s' passed the settings check",
               malformed[i]);
        CHECKF(&t, cc_memory_available() != 0.0 && cc_memory_available() != 1e6,
               "a malformed stand-in was read as %.0f", cc_memory_available());
    }
    const char *fine[] = {"", "1000000", "1e9"};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        setenv("CELLCHECK_MEMORY_AVAILABLE", fine[i], 1);
        CHECKF(&t, cc_memory_setting_check(&err) == CC_OK, "'%s' was refused: %s", fine[i],
               err.msg);
    }
    CHECKF(&t, cc_memory_available() == 1e9, "1e9 read as %.0f", cc_memory_available());
    CHECKF(&t, cc_settings_check(NULL, 0, &err) == CC_OK, "the known settings refused: %s", err.msg);
    /* A misspelt setting is refused by its name, not ignored. */
    setenv("CELLCHECK_REQUIERE", "gpu", 1);
    CHECKF(&t, cc_settings_check(NULL, 0, &err) == CC_ERR_ARG &&
                   strstr(err.msg, "unknown setting CELLCHECK_REQUIERE in the environment"),
           "CELLCHECK_REQUIERE: %s", err.msg);
    unsetenv("CELLCHECK_REQUIERE");
    CHECKF(&t, cc_settings_check(NULL, 0, &err) == CC_OK, "refused once unset: %s", err.msg);
    /* A wrapper's own name, far from every setting, is named and let through. */
    setenv("CELLCHECK_PREFIX", "/opt/x", 1);
    char ignored[128];
    CHECKF(&t, cc_settings_check(ignored, sizeof ignored, &err) == CC_OK &&
                   strcmp(ignored, "CELLCHECK_PREFIX") == 0,
           "CELLCHECK_PREFIX: '%s' (%s)", ignored, err.msg);
    unsetenv("CELLCHECK_PREFIX");
    setenv("CELLCHECK_DEVICE", "2", 1); /* one edit from CELLCHECK_DEVICES */
    CHECKF(&t, cc_settings_check(ignored, sizeof ignored, &err) == CC_ERR_ARG &&
                   strstr(err.msg, "CELLCHECK_DEVICE in the environment, close to one"),
           "CELLCHECK_DEVICE: %s", err.msg);
    unsetenv("CELLCHECK_DEVICE");
    unsetenv("CELLCHECK_MEMORY_AVAILABLE");

    /* The time budget: 999999999999 steps of Life on 4x4 are 1.44e14 visits, 144 s at a CPU
     * engine's 1e12 a second, plus 1e5 s of steps at 1e-7 s each: 100144 s, 27.8 hours. */
    double lower = cc_time_lower_bound(capped_d, &life, 4, 4, 999999999999LL);
    CHECKF(&t, lower > 100143.9 && lower < 100144.1, "4x4 for 999999999999 steps: %.3f s", lower);
    CHECKF(&t, cc_limit_time("4x4", lower, 0.0, "why", &err) == CC_ERR_ARG &&
                   strstr(err.msg, "at least 27.8 hours, past the time budget of 60 minutes") &&
                   strstr(err.msg, "--budget"),
           "27.8 hours within the default budget: %s", err.msg);
    CHECKF(&t, cc_limit_time("4x4", lower, 200000.0, "why", &err) == CC_OK,
           "refused within a raised budget");
    /* The oracle at 1e10 a second: 1000 steps of 100x100 are 9e7 visits, 9 ms plus 0.1 ms. */
    lower = cc_time_lower_bound(NULL, &life, 100, 100, 1000);
    CHECKF(&t, lower > 0.00909 && lower < 0.00911, "the oracle's 100x100: %.6f s", lower);
    char d[32];
    cc_format_duration(40.0, d, sizeof d);
    CHECK_STR(&t, d, "40 s");
    cc_format_duration(720.0, d, sizeof d);
    CHECK_STR(&t, d, "12 minutes");
    cc_format_duration(3.1 * 86400.0, d, sizeof d);
    CHECK_STR(&t, d, "3.1 days");
    double budget = 0.0;
    CHECK_EQ(&t, cc_budget_parse("--budget", "7200", &budget, &err), CC_OK);
    CHECK(&t, budget == 7200.0);
    CHECK_EQ(&t, cc_budget_parse("--budget", "0", &budget, &err), CC_ERR_ARG);
    CHECK_EQ(&t, cc_budget_parse("--budget", "1h", &budget, &err), CC_ERR_ARG);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
