/* What the grid file parsers share; private to //oracle:types. */
#ifndef CELLCHECK_ORACLE_GRIDIO_INTERNAL_H
#define CELLCHECK_ORACLE_GRIDIO_INTERNAL_H

#include <stdio.h>

/* A byte as a message shows it: 'c' when printable, otherwise \xNN. */
static inline const char *show_byte(char buf[8], char c) {
    unsigned char u = (unsigned char)c;
    if (u >= 0x20 && u < 0x7f)
        snprintf(buf, 8, "'%c'", c);
    else
        snprintf(buf, 8, "\\x%02x", (unsigned)u);
    return buf;
}

#endif
