/* The commands of cellcheck and what they share. Each returns the process exit status:
 * 0 success, 1 failure (a mismatch, a refused input, a device error), 2 wrong arguments,
 * 3 (gate only) no baseline line applies to this machine, so nothing was gated. */
#ifndef CELLCHECK_CLI_COMMANDS_H
#define CELLCHECK_CLI_COMMANDS_H

#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "harness/campaign.h"
#include "oracle/grid.h"
#include "oracle/rule.h"

#define CLI_EXIT_NOTHING_GATED 3

int cli_cmd_check(int argc, char **argv);
int cli_cmd_certify(int argc, char **argv);
int cli_cmd_golden(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);
int cli_cmd_gate(int argc, char **argv);

void cli_usage(FILE *out);
int cli_bad_usage(const cc_error *err);
int cli_failed(const cc_error *err);
const cc_engine *cli_find_engine(const char *name, cc_error *err);
/* --cases and --seed (either may be NULL) into a campaign's options. */
int cli_campaign_flags(const char *cases, const char *seed, cc_campaign_options *opt,
                       cc_error *err);
int cli_run_engine(const cc_engine *engine, const cc_rule *rule, cc_grid *g, int64_t steps,
                   cc_error *err);

#endif
