/* A grid as rows of '.' and 'o' joined by '/', for comparing with pictures drawn by hand in
 * tests. */
#ifndef CELLCHECK_TESTING_GRID_PICTURE_H
#define CELLCHECK_TESTING_GRID_PICTURE_H

#include <stddef.h>

#include "oracle/grid.h"

static inline void grid_picture(const cc_grid *g, char *buf, size_t size) {
    size_t n = 0;
    for (int y = 0; y < g->h; y++) {
        for (int x = 0; x < g->w && n + 2 < size; x++) buf[n++] = g->cells[y * g->w + x] ? 'o' : '.';
        if (y + 1 < g->h && n + 2 < size) buf[n++] = '/';
    }
    buf[n] = '\0';
}

#endif
