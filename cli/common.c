/* What the commands of cellcheck share (see common.h). */
#include "cli/common.h"
#include "supervise/supervisor.h"

#include "harness/harness.h"

#include <stdio.h>
#include <string.h>

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
        cc_fail(err, CC_ERR_ARG, "no engine named '%s' (engines: %s)", name, names);
    }
    return e;
}

int cli_unavailable(const cc_engine *engine, const char *role, cc_error *err) {
    int rc = cc_call_available(engine, err);
    if (rc) cc_prefix(err, "%s%s cannot run here", role, engine->name);
    return rc;
}

int cli_run_engine(const cc_engine *engine, const cc_rule *rule, cc_grid *g, int64_t steps,
                   cc_error *err) {
    int rc = cc_call_available(engine, err);
    if (rc) return cc_prefix(err, "%s", engine->name);
    cc_context *ctx = NULL;
    if ((rc = cc_call_create(engine, rule, g->w, g->h, &ctx, err))) return rc;
    if (!(rc = cc_call_load(ctx, g->cells, err)) && !(rc = cc_call_step(ctx, steps, err)))
        rc = cc_call_store(ctx, g->cells, err);
    cc_call_destroy(ctx, NULL);
    return rc;
}
