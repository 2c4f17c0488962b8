/* Golly's macrocell format (.mc), read only: the quadtree files HashLife saves, two states. */
#ifndef CELLCHECK_ORACLE_MACROCELL_H
#define CELLCHECK_ORACLE_MACROCELL_H

#include <stddef.h>

#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/gridformat.h"
#include "oracle/rule.h"

/* A macrocell file: a "[M2]" first line, '#' lines ("#R RULE" names the rule, the others are
 * comments, a generation count or a timeline, all ignored), then one node a line, numbered from 1:
 * an 8x8 leaf written as rows of '.' (dead) and '*' (alive) each ended by '$', top row first,
 * trailing dead cells and rows left out; or "K NW NE SW SE", a 2^K square (K >= 4) made of four
 * earlier nodes of level K-1 (a leaf is level 3; 0 is the empty node). The last node is the root.
 *
 * The cells read are the live cells' bounding box, as the RLE Golly writes for the same pattern,
 * and from there it is read as that RLE: a rule ending in :TW,H or :PW,H puts the box at the top
 * left of that grid, a bare :T or :P makes the box the grid, and no suffix leaves an unbounded
 * pattern (meta->unbounded) for the caller to place on a grid it states. Multi-state files (nodes
 * of level 1 that hold cell states) are refused as unsupported. */
int cc_mc_parse(const char *text, size_t len, cc_grid *out, cc_rule *rule, cc_grid_meta *meta,
                cc_error *err);

#endif
