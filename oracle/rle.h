/* Golly RLE with the grid in the header: "x = X, y = Y, rule = RULE:TW,H" (or :PW,H). */
#ifndef CELLCHECK_ORACLE_RLE_H
#define CELLCHECK_ORACLE_RLE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/gridformat.h"
#include "oracle/rule.h"

/* RLE: "x = X, y = Y, rule = RULE:TW,H". The grid is W x H, a torus (:T) or a bounded plane
 * (:P, which the rule's topology then says); a bare :T or :P takes X and Y as its sides. The
 * pattern sits at the grid's top-left corner. Anything inconsistent (a row longer than X, more
 * rows than Y, a pattern larger than the grid, a bad token, a missing '!') is refused.
 * Without a topology suffix the pattern is unbounded, as Golly reads it: it comes back as its
 * X x Y bounding box with meta->unbounded set, and the caller places it on a grid it states
 * (cc_grid_place); it must never be run as a torus of its own size.
 * rule may be NULL; meta says whether the header named a rule and a topology. */
int cc_rle_parse_meta(const char *text, size_t len, cc_grid *out, cc_rule *rule,
                      cc_grid_meta *meta, cc_error *err);
/* cc_rle_parse_meta for callers that need only *has_rule (may be NULL). */
int cc_rle_parse(const char *text, size_t len, cc_grid *out, cc_rule *rule, int *has_rule,
                 cc_error *err);
/* The most bytes an RLE file whose text starts with text (len bytes, the header at least) can
 * justify: its comments and header, four bytes for each cell and row end of the pattern its
 * header names, and CC_RLE_SLACK_BYTES for trailing comments. Fails as cc_rle_parse would when
 * there is no valid header. */
int cc_rle_bytes_max(const char *text, size_t len, int64_t *max, cc_error *err);
/* Writes the whole grid as the pattern: "x = W, y = H, rule = RULE:TW,H" (:PW,H on the bounded
 * plane). rule may be NULL, and then the file names no grid: it reads back as an unbounded
 * pattern. */
int cc_rle_format(const cc_grid *g, const cc_rule *rule, char **text, size_t *len, cc_error *err);

#endif
