/* Grid files: Golly RLE with the torus size in the header, and plain text rows of 0 and 1. */
#ifndef CELLCHECK_ORACLE_GRIDIO_H
#define CELLCHECK_ORACLE_GRIDIO_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/grid.h"
#include "oracle/rule.h"

/* RLE: "x = X, y = Y, rule = RULE:TW,H". The torus is W x H (X x Y when there is no :T suffix);
 * the pattern sits at the torus's top-left corner. Anything inconsistent (a row longer than X,
 * more rows than Y, a pattern larger than the torus, a bad token, a missing '!') is refused.
 * rule and has_rule may be NULL; *has_rule says whether the header named a rule. */
int cc_rle_parse(const char *text, size_t len, cc_grid *out, cc_rule *rule, int *has_rule,
                 cc_error *err);
/* The most bytes an RLE file whose text starts with text (len bytes, the header at least) can
 * justify: its comments and header, four bytes for each cell and row end of the pattern its
 * header names, and CC_RLE_SLACK_BYTES for trailing comments. Fails as cc_rle_parse would when
 * there is no valid header. */
#define CC_RLE_SLACK_BYTES (INT64_C(1) << 16)
int cc_rle_bytes_max(const char *text, size_t len, int64_t *max, cc_error *err);
/* Writes the whole torus as the pattern: "x = W, y = H, rule = RULE:TW,H". rule may be NULL. */
int cc_rle_format(const cc_grid *g, const cc_rule *rule, char **text, size_t *len, cc_error *err);

/* Text: one row per line of '0' and '1'; W is the row length (all equal), H the number of rows. */
int cc_text_parse(const char *text, size_t len, cc_grid *out, cc_error *err);
int cc_text_format(const cc_grid *g, char **text, size_t *len, cc_error *err);

/* By extension: ".rle" or ".txt"; anything else is refused. Regular files only, read no further
 * than their header justifies (cc_rle_bytes_max; a text grid: two bytes a cell of
 * CC_GRID_FILE_CELLS_MAX); a larger file is refused by its size before it is read. */
int cc_grid_read_file(const char *path, cc_grid *out, cc_rule *rule, int *has_rule, cc_error *err);
/* Written whole or not at all: a temporary file beside path, then rename. */
/* The most cells a grid file may describe (1 GiB of cells): a header that claims more is refused
 * before anything is allocated. Larger grids are drawn from case seeds, not read. */
#define CC_GRID_FILE_CELLS_MAX (INT64_C(1) << 30)

/* Whether path names a grid file (.rle or .txt), before it is opened. */
int cc_grid_check_name(const char *path, cc_error *err);

/* Whether path can take a grid, before any work is done: a .rle or .txt name in a directory that
 * exists and is writable. */
int cc_grid_check_output(const char *path, cc_error *err);

int cc_grid_write_file(const char *path, const cc_grid *g, const cc_rule *rule, cc_error *err);

/* Whole-file helpers shared by the tools. Only regular files are read (a FIFO, a device, a
 * directory is refused at once, without waiting for a writer), and never past the size they had
 * when opened. */
int cc_read_file(const char *path, char **text, size_t *len, cc_error *err);
/* The first max bytes at most of the regular file path; *size (may be NULL) its whole size. */
int cc_read_file_head(const char *path, size_t max, char **text, size_t *len, int64_t *size,
                      cc_error *err);
int cc_write_file_atomic(const char *path, const char *data, size_t len, cc_error *err);
/* The n files dir/names[i] written as one set named set: after a crash at any moment they are
 * all the old ones or all the new ones (dir/NAME are links through dir/.SET to a generation
 * directory, switched by one rename). At most 8 files. */
int cc_write_files_atomic(const char *dir, const char *set, int n, const char *const *names,
                          const char *const *data, const size_t *lens, cc_error *err);
/* Whether cc_write_files_atomic(dir, set, n, names) could write, checked before the work whose
 * results it will write: dir a writable directory, no directory or special file in the way of a
 * name or of .SET. CC_ERR_ARG naming the path. */
int cc_write_files_check(const char *dir, const char *set, int n, const char *const *names,
                         cc_error *err);

#endif
