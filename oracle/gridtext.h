/* Plain text grids: one row per line of '0' and '1'. */
#ifndef CELLCHECK_ORACLE_GRIDTEXT_H
#define CELLCHECK_ORACLE_GRIDTEXT_H

#include <stddef.h>

#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/gridformat.h"

/* W is the row length (all equal), H the number of rows. */
int cc_text_parse(const char *text, size_t len, cc_grid *out, cc_error *err);
int cc_text_format(const cc_grid *g, char **text, size_t *len, cc_error *err);

#endif
