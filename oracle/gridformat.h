/* What the grid file formats (oracle/rle.h, oracle/gridtext.h) share: the most cells a file may
 * describe, the room left for trailing comments, and how a message shows a byte. Below the
 * formats and oracle/gridio.h, so each format stands on its own. */
#ifndef CELLCHECK_ORACLE_GRIDFORMAT_H
#define CELLCHECK_ORACLE_GRIDFORMAT_H

#include <stdint.h>
#include <stdio.h>

/* The most cells a grid file may describe (1 GiB of cells): a header that claims more is refused
 * before anything is allocated. Larger grids are drawn from case seeds, not read. */
#define CC_GRID_FILE_CELLS_MAX (INT64_C(1) << 30)

/* Bytes a grid file may hold past its pattern, for trailing comments (cc_rle_bytes_max). */
#define CC_RLE_SLACK_BYTES (INT64_C(1) << 16)

/* What a grid file says beyond its cells. Golly's pattern files (RLE, macrocell) name their grid
 * by the topology suffix of their rule, ":T64,48" or ":P" (the sides then the header's x and y);
 * without one the pattern is unbounded, as Golly reads it, and has no grid of its own. */
typedef struct cc_grid_meta {
    int has_rule;     /* the file names a rule */
    int has_topology; /* the rule ends in :T or :P, which decides the topology */
    int unbounded;    /* a pattern with no grid of its own: the cells read are its bounding box */
} cc_grid_meta;

/* A byte as a message shows it: 'c' when printable, otherwise \xNN. */
static inline const char *cc_show_byte(char buf[8], char c) {
    unsigned char u = (unsigned char)c;
    if (u >= 0x20 && u < 0x7f)
        snprintf(buf, 8, "'%c'", c);
    else
        snprintf(buf, 8, "\\x%02x", (unsigned)u);
    return buf;
}

#endif
