#define _POSIX_C_SOURCE 200809L
/* What the commands of cellcheck share (see common.h). */
#include "cli/common.h"
#include "supervise/supervisor.h"

#include "harness/harness.h"
#include "harness/limits.h"
#include "harness/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/oracle.h"

int cli_parse(cc_command *cmd, int argc, char **argv, int *status) {
    return cc_options_parse_or_usage(cmd, argc, argv, stdout, stderr, status);
}

int cli_bad_usage(const cc_command *cmd, const cc_error *err) {
    return cc_options_usage_error(cmd, err, stderr);
}

int cli_failed(const cc_error *err) {
    fprintf(stderr, "cellcheck: %s\n", err->msg);
    return 1;
}

cc_option cli_engine_option(const char **name, int required, const char *help) {
    cc_option row = CC_OPTION_STRING("engine", "NAME", name, help);
    row.required = required;
    return row;
}

void cli_campaign_options_init(cc_campaign_options *opt) {
    cc_campaign_options_init(opt);
    opt->replay_alone = 1;
}

int cli_parse_campaign(cc_command *cmd, cc_campaign_options *opt, cc_option *campaign,
                       cc_option *progress, int argc, char **argv, int *status) {
    cc_campaign_option_rows(opt, campaign);
    *progress = cc_progress_option(opt);
    cc_supervision_option_rows(opt, progress + 1);
    return cli_parse(cmd, argc, argv, status);
}

const cc_engine *cli_find_engine(const cc_engine_set *engines, const char *name, cc_error *err) {
    const cc_engine *e = cc_engine_set_find(engines, name);
    if (!e) {
        char names[512] = "";
        for (const cc_engine *const *p = engines->engines; *p; p++) {
            if (names[0]) strncat(names, ", ", sizeof names - strlen(names) - 1);
            strncat(names, (*p)->name, sizeof names - strlen(names) - 1);
        }
        /* A port's engine lives in its plugin: the usual slip is a missing --plugin. */
        cc_fail(err, CC_ERR_ARG,
                "no engine named '%s' (engines: %s); an engine of a plugin needs --plugin PATH "
                "before the command, or CELLCHECK_PLUGINS",
                name, names);
    }
    return e;
}

int cli_unavailable(const cc_engine *engine, const char *role, cc_error *err) {
    int rc = cc_call_available(engine, err);
    if (rc) cc_prefix(err, "%s%s cannot run here", role, engine->name);
    return rc;
}

/* A run's steps, timed: the first ones in calls that double until RUN_PROBE_SECONDS pass, then,
 * unless the rate they show puts the rest past the budget, the rest in one call. */
#define RUN_PROBE_SECONDS 0.05

typedef int (*step_fn)(void *state, int64_t k, cc_error *err);

static int run_timed(step_fn step, void *state, int64_t steps, double budget, const char *what,
                     int *over_budget, cc_error *err) {
    *over_budget = 0;
    int64_t done = 0, chunk = 1;
    double start = cc_now_seconds(), elapsed = 0.0;
    while (done < steps && elapsed < RUN_PROBE_SECONDS) {
        int64_t n = chunk < steps - done ? chunk : steps - done;
        int rc = step(state, n, err);
        if (rc) return rc;
        done += n;
        elapsed = cc_now_seconds() - start;
        if (chunk < INT64_MAX / 2) chunk *= 2;
    }
    if (done == steps) return CC_OK;
    double rest = elapsed / (double)done * (double)(steps - done);
    char basis[160];
    snprintf(basis, sizeof basis, "measured: its first %lld steps took %.3f s", (long long)done,
             elapsed);
    if (cc_limit_time(what, elapsed + rest, budget, basis, err)) {
        *over_budget = 1;
        return CC_ERR_ARG;
    }
    return step(state, steps - done, err);
}

static int engine_step(void *ctx, int64_t k, cc_error *err) { return cc_call_step(ctx, k, err); }

static int oracle_steps(void *state, int64_t k, cc_error *err) {
    const void *const *p = state;
    return oracle_run(p[0], (cc_grid *)p[1], k, err);
}

int cli_run_engine(const cc_engine *engine, const cc_rule *rule, cc_grid *g, int64_t steps,
                   double budget, const char *what, int *over_budget, cc_error *err) {
    *over_budget = 0;
    int rc = cc_call_available(engine, err);
    if (rc) return cc_prefix(err, "%s", engine->name);
    cc_context *ctx = NULL;
    if ((rc = cc_call_create(engine, rule, g->w, g->h, &ctx, err))) return rc;
    if (!(rc = cc_call_load(ctx, g->cells, err)) &&
        !(rc = run_timed(engine_step, ctx, steps, budget, what, over_budget, err)))
        rc = cc_call_store(ctx, g->cells, err);
    cc_call_destroy(ctx, NULL);
    return rc;
}

int cli_probe_engine(const cc_engine *engine, const cc_rule *rule, const cc_grid *g,
                     int64_t steps, int64_t *done, double *seconds, cc_error *err) {
    *done = 0;
    *seconds = 0.0;
    cc_context *ctx = NULL;
    int rc = cc_call_create(engine, rule, g->w, g->h, &ctx, err);
    if (rc) return rc;
    rc = cc_call_load(ctx, g->cells, err);
    int64_t chunk = 1;
    double start = cc_now_seconds();
    while (!rc && *done < steps && *seconds < RUN_PROBE_SECONDS) {
        int64_t n = chunk < steps - *done ? chunk : steps - *done;
        if (!(rc = cc_call_step(ctx, n, err))) *done += n;
        *seconds = cc_now_seconds() - start;
        if (chunk < INT64_MAX / 2) chunk *= 2;
    }
    cc_call_destroy(ctx, NULL);
    return rc;
}

int cli_run_oracle(const cc_rule *rule, cc_grid *g, int64_t steps, double budget,
                   const char *what, int *over_budget, cc_error *err) {
    const void *state[2] = {rule, g};
    return run_timed(oracle_steps, (void *)state, steps, budget, what, over_budget, err);
}

cc_option cli_budget_option(double *budget) {
    return (cc_option)CC_OPTION_CUSTOM("budget", "SECONDS", budget, cc_budget_parse,
                                       "refuse work estimated to take longer (default 3600)");
}
