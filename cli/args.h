/* Small, strict command-line parsing: every flag takes one value, unknown flags are errors. */
#ifndef CELLCHECK_CLI_ARGS_H
#define CELLCHECK_CLI_ARGS_H

#include <stdint.h>

#include "oracle/error.h"

typedef struct cli_flag {
    const char *name; /* "--engine" */
    const char *value; /* NULL when absent */
} cli_flag;

/* Fills flags[i].value from argv ("--name value" or "--name=value"). Unknown flags, missing
 * values, repeated flags and positional arguments are refused with a message. */
int cli_parse_flags(int argc, char **argv, cli_flag *flags, int nflags, cc_error *err);

int cli_parse_int64(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out,
                    cc_error *err);

/* "A..B" or "A" into [*lo, *hi], each within [min, max]. */
int cli_parse_range(const char *flag, const char *text, int64_t min, int64_t max, int64_t *lo,
                    int64_t *hi, cc_error *err);

#endif
