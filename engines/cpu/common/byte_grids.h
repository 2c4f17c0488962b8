/* Two W x H grids of 0/1 bytes in the portable form (row-major, no halo), the current one and the
 * next, for CPU engines that step cell by cell: load and store are plain copies, and the grids
 * swap after each step. An engine whose context begins with a cpu_byte_grids can use
 * cpu_byte_grids_load and cpu_byte_grids_store as its table's .load and .store. */
#ifndef CELLCHECK_ENGINES_CPU_COMMON_BYTE_GRIDS_H
#define CELLCHECK_ENGINES_CPU_COMMON_BYTE_GRIDS_H

#include <stdint.h>

#include "oracle/error.h"

typedef struct cpu_byte_grids {
    int32_t w, h;
    uint8_t *cur, *next;
} cpu_byte_grids;

/* Allocates both grids, all dead. CC_OK, or CC_ERR_NOMEM (no message: the caller names itself);
 * either way cpu_byte_grids_free may follow. */
int cpu_byte_grids_alloc(cpu_byte_grids *g, int32_t w, int32_t h);
void cpu_byte_grids_free(cpu_byte_grids *g);

static inline void cpu_byte_grids_swap(cpu_byte_grids *g) {
    uint8_t *t = g->cur;
    g->cur = g->next;
    g->next = t;
}

/* ctx begins with a cpu_byte_grids: copies cells into, or out of, its current grid. */
int cpu_byte_grids_load(void *ctx, const uint8_t *cells, cc_error *err);
int cpu_byte_grids_store(void *ctx, uint8_t *cells, cc_error *err);

/* The four functions of such an engine, as fields of its table's designated initializer: the
 * grids' load and store, and the engine's own prefix_step and prefix_destroy. */
#define CPU_BYTE_GRIDS_FUNCTIONS(prefix)                                                           \
    .load = cpu_byte_grids_load, .step = prefix##_step, .store = cpu_byte_grids_store,             \
    .destroy = prefix##_destroy

#endif
