/* Grid files by extension: Golly RLE with the grid in the header (oracle/rle.h), Golly's
 * macrocell (oracle/macrocell.h, read only), and plain text rows of 0 and 1 (oracle/gridtext.h),
 * read and written whole through oracle/files.h. The formats' and the whole-file helpers'
 * headers come with this one. */
#ifndef CELLCHECK_ORACLE_GRIDIO_H
#define CELLCHECK_ORACLE_GRIDIO_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/files.h"
#include "oracle/grid.h"
#include "oracle/gridformat.h"
#include "oracle/gridtext.h"
#include "oracle/macrocell.h"
#include "oracle/rle.h"
#include "oracle/rule.h"

/* The most bytes of a macrocell file read (its nodes cost more memory than its text). */
#define CC_MC_BYTES_MAX (INT64_C(1) << 26)

/* By extension: ".rle", ".mc" or ".txt"; anything else is refused. Regular files only, read no
 * further than their header justifies (cc_rle_bytes_max; a text grid: two bytes a cell of
 * CC_GRID_FILE_CELLS_MAX; a macrocell file CC_MC_BYTES_MAX); a larger file is refused by its
 * size before it is read. An unbounded pattern (an .rle or .mc whose rule has no :T or :P) is
 * refused: it has no grid of its own. */
int cc_grid_read_file(const char *path, cc_grid *out, cc_rule *rule, int *has_rule, cc_error *err);

/* cc_grid_read_file, and what the file says of its grid in *meta; an unbounded pattern comes back
 * as its bounding box with meta->unbounded set, for the caller to place on a grid it states
 * (cc_grid_place). A text grid is its own grid and names no topology. */
int cc_grid_read_file_meta(const char *path, cc_grid *out, cc_rule *rule, cc_grid_meta *meta,
                           cc_error *err);

/* Whether path names a grid file (.rle, .mc or .txt), before it is opened. */
int cc_grid_check_name(const char *path, cc_error *err);

/* Whether path can take a grid, before any work is done: a .rle or .txt name (.mc is read only)
 * in a directory that exists and is writable. */
int cc_grid_check_output(const char *path, cc_error *err);

/* Written whole or not at all: a temporary file beside path, then rename. */
int cc_grid_write_file(const char *path, const cc_grid *g, const cc_rule *rule, cc_error *err);

#endif
