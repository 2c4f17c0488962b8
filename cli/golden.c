/* cellcheck golden verify | update: the catalogue's own command line. */
#include <stdio.h>

#include "cli/commands.h"
#include "golden/golden.h"

int cli_cmd_golden(int argc, char **argv) { return golden_command(argc, argv, stdout, stderr); }
