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
