/* What the commands of cellcheck share: the answers to a wrong argument and to a failure, and
 * finding and running an engine. Exit statuses: 0 success, 1 failure (a mismatch, a refused
 * input, a device error), 2 wrong arguments (with the command's usage line), 3 (gate only) no
 * baseline line applies to this machine, so nothing was gated. */
#ifndef CELLCHECK_CLI_COMMON_H
#define CELLCHECK_CLI_COMMON_H

#include <stdint.h>

#include "engines/engine.h"
#include "engines/engine_set.h"
#include "harness/campaign.h"
#include "harness/options.h"
#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/rule.h"

#define CLI_EXIT_NOTHING_GATED 3
/* certify: every check that ran passed, and some were left out (INCOMPLETE). */
#define CLI_EXIT_INCOMPLETE 4

/* Parses the command's flags (argv[0] is the command's name). Returns 0 when the command should
 * go on; else 1 with *status set: 0 after printing --help to stdout, 2 after a usage error. */
int cli_parse(cc_command *cmd, int argc, char **argv, int *status);

/* "cellcheck COMMAND: message" and the command's usage line on stderr; returns 2. */
int cli_bad_usage(const cc_command *cmd, const cc_error *err);

/* "cellcheck: message" on stderr; returns 1. */
int cli_failed(const cc_error *err);

/* The --engine NAME row of a command's table; required: refused when absent. */
cc_option cli_engine_option(const char **name, int required, const char *help);

/* --budget SECONDS into *budget (0 until given: CC_TIME_BUDGET_DEFAULT, harness/limits.h). */
cc_option cli_budget_option(double *budget);

/* The campaign defaults, with each failing case replayed alone in a new process: cellcheck's main
 * calls cc_replay_hook. */
void cli_campaign_options_init(cc_campaign_options *opt);

/* cli_parse for a command that runs campaigns: first fills its rows for --cases and --seed (two,
 * from campaign on), --progress, then --time-limit and --memory-margin (the two rows after
 * progress), all writing into opt. */
int cli_parse_campaign(cc_command *cmd, cc_campaign_options *opt, cc_option *campaign,
                       cc_option *progress, int argc, char **argv, int *status);

/* The engine by name, or NULL and a CC_ERR_ARG error naming the engines there are. */
const cc_engine *cli_find_engine(const cc_engine_set *engines, const char *name, cc_error *err);

/* CC_OK when the engine can run here; else its reason, prefixed "<role><name> cannot run here"
 * (role: "" or a word and a space, "reference "). */
int cli_unavailable(const cc_engine *engine, const char *role, cc_error *err);

/* create, load, step, store, destroy: one engine on one grid, in place. The steps are timed as
 * they go (the first in calls that double, then the rest in one): when the rate they show puts
 * the rest past budget (0: the default), nothing more is run, *over_budget is set and CC_ERR_ARG
 * says so, what first. */
int cli_run_engine(const cc_engine *engine, const cc_rule *rule, cc_grid *g, int64_t steps,
                   double budget, const char *what, int *over_budget, cc_error *err);
/* The engine's first steps of g (not changed), timed in calls that double until about 50 ms
 * pass or steps are done: *done steps took *seconds. Errors are the engine's. */
int cli_probe_engine(const cc_engine *engine, const cc_rule *rule, const cc_grid *g,
                     int64_t steps, int64_t *done, double *seconds, cc_error *err);
/* The same for the oracle. */
int cli_run_oracle(const cc_rule *rule, cc_grid *g, int64_t steps, double budget,
                   const char *what, int *over_budget, cc_error *err);

#endif
