/* Golly RLE with the torus size in the header: "x = X, y = Y, rule = RULE:TW,H". */
#ifndef CELLCHECK_ORACLE_RLE_H
#define CELLCHECK_ORACLE_RLE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/gridformat.h"
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
int cc_rle_bytes_max(const char *text, size_t len, int64_t *max, cc_error *err);
/* Writes the whole torus as the pattern: "x = W, y = H, rule = RULE:TW,H". rule may be NULL. */
int cc_rle_format(const cc_grid *g, const cc_rule *rule, char **text, size_t *len, cc_error *err);

#endif
