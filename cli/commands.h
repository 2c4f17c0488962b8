/* The commands of cellcheck, each in its own file over cli/common.h. engines holds the built-in
 * engines and those of the plugins loaded (--plugin, CELLCHECK_PLUGINS); argv[0] is the command's
 * name, the flags follow; each returns the process exit status (see common.h). */
#ifndef CELLCHECK_CLI_COMMANDS_H
#define CELLCHECK_CLI_COMMANDS_H

#include "engines/engine_set.h"

int cli_cmd_list(const cc_engine_set *engines, int argc, char **argv);
int cli_cmd_run(const cc_engine_set *engines, int argc, char **argv);
int cli_cmd_check(const cc_engine_set *engines, int argc, char **argv);
int cli_cmd_certify(const cc_engine_set *engines, int argc, char **argv);
int cli_cmd_golden(const cc_engine_set *engines, int argc, char **argv);
int cli_cmd_bench(const cc_engine_set *engines, int argc, char **argv);
int cli_cmd_gate(const cc_engine_set *engines, int argc, char **argv);
int cli_cmd_ranks(const cc_engine_set *engines, int argc, char **argv);

#endif
