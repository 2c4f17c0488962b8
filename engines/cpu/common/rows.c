/* The two grids of padded byte rows of a CPU engine. */
#include "engines/cpu/common/rows.h"

#include <stdlib.h>

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
