/* golden verify | golden update: see golden_command in golden.h. */
#include <stdio.h>

#include "golden/golden.h"

int main(int argc, char **argv) { return golden_command(argc - 1, argv + 1, stdout, stderr); }
