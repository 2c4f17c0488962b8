/* The commands of cellcheck, each in its own file over cli/common.h. argv[0] is the command's
 * name, the flags follow; each returns the process exit status (see common.h). */
#ifndef CELLCHECK_CLI_COMMANDS_H
#define CELLCHECK_CLI_COMMANDS_H

int cli_cmd_list(int argc, char **argv);
int cli_cmd_run(int argc, char **argv);
int cli_cmd_check(int argc, char **argv);
int cli_cmd_certify(int argc, char **argv);
int cli_cmd_golden(int argc, char **argv);
int cli_cmd_bench(int argc, char **argv);
int cli_cmd_gate(int argc, char **argv);

#endif
