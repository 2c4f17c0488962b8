/* The two grids of padded byte rows of a CPU engine. */
#include "engines/cpu/common/rows.h"

#include <stdlib.h>
#include <string.h>

/* Rows on every core: one core moves a grid past 2^32 cells in seconds. */
void cpu_rows_load(uint8_t *base, size_t pitch, const uint8_t *cells, int32_t w, int32_t h) {
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < h; y++)
        memcpy(base + (size_t)y * pitch, cells + (size_t)y * (size_t)w, (size_t)w);
}

void cpu_rows_store(uint8_t *cells, const uint8_t *base, size_t pitch, int32_t w, int32_t h) {
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < h; y++)
        memcpy(cells + (size_t)y * (size_t)w, base + (size_t)y * pitch, (size_t)w);
}

void cpu_padded_grids_free(cpu_padded_grids *g) {
    free(g->cur);
    free(g->next);
    g->cur = g->next = NULL;
}

int cpu_padded_grids_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const cpu_padded_grids *g = ctx;
    cpu_rows_store(cells, g->cur + g->origin, g->pitch, g->w, g->h);
    return CC_OK;
}
