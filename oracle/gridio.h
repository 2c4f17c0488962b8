/* Grid files by extension: Golly RLE with the torus size in the header (oracle/rle.h), and plain
 * text rows of 0 and 1 (oracle/gridtext.h), read and written whole through oracle/files.h. The
 * formats' and the whole-file helpers' headers come with this one. */
#ifndef CELLCHECK_ORACLE_GRIDIO_H
#define CELLCHECK_ORACLE_GRIDIO_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/files.h"
#include "oracle/grid.h"
#include "oracle/gridformat.h"
#include "oracle/gridtext.h"
#include "oracle/rle.h"
#include "oracle/rule.h"

/* By extension: ".rle" or ".txt"; anything else is refused. Regular files only, read no further
 * than their header justifies (cc_rle_bytes_max; a text grid: two bytes a cell of
 * CC_GRID_FILE_CELLS_MAX); a larger file is refused by its size before it is read. */
int cc_grid_read_file(const char *path, cc_grid *out, cc_rule *rule, int *has_rule, cc_error *err);

/* Whether path names a grid file (.rle or .txt), before it is opened. */
int cc_grid_check_name(const char *path, cc_error *err);

/* Whether path can take a grid, before any work is done: a .rle or .txt name in a directory that
 * exists and is writable. */
int cc_grid_check_output(const char *path, cc_error *err);

/* Written whole or not at all: a temporary file beside path, then rename. */
int cc_grid_write_file(const char *path, const cc_grid *g, const cc_rule *rule, cc_error *err);

#endif
