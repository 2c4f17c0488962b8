/* The two byte grids of a cell-by-cell CPU engine. */
#include "engines/cpu/common/byte_grids.h"

#include <stdlib.h>
#include <string.h>

static size_t cells_of(const cpu_byte_grids *g) { return (size_t)g->w * (size_t)g->h; }

int cpu_byte_grids_alloc(cpu_byte_grids *g, int32_t w, int32_t h) {
    g->w = w;
    g->h = h;
    g->cur = calloc(cells_of(g), 1);
    g->next = calloc(cells_of(g), 1);
    return g->cur && g->next ? CC_OK : CC_ERR_NOMEM;
}

void cpu_byte_grids_free(cpu_byte_grids *g) {
    free(g->cur);
    free(g->next);
    g->cur = g->next = NULL;
}

int cpu_byte_grids_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    cpu_byte_grids *g = ctx;
    memcpy(g->cur, cells, cells_of(g));
    return CC_OK;
}

int cpu_byte_grids_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const cpu_byte_grids *g = ctx;
    memcpy(cells, g->cur, cells_of(g));
    return CC_OK;
}
