/* The device side every byte-grid CUDA engine of engines/cuda/{shared1,shared,coarse,mcell,pack}
 * shares: two grids on the device (ping-pong), the rule's next-state table, CUDA events for timing,
 * and the engine-table functions that need nothing engine-specific. An engine supplies its layout
 * (row pitch and where a row's first cell sits) and a function that launches one step.
 *
 * Every function checks every CUDA call it makes and returns a cc_code with the call named. */
#ifndef CELLCHECK_ENGINES_CUDA_DEVGRID_DEVGRID_H
#define CELLCHECK_ENGINES_CUDA_DEVGRID_DEVGRID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* The smallest compute capability these engines are built for (sm_90). */
#define CC_DEVGRID_CC_MAJOR 9
#define CC_DEVGRID_CC_MINOR 0

/* What one step sees. Cell (x, y) of a grid g is g[y * pitch + lead + x]. */
typedef struct cc_devgrid_view {
    const uint8_t *in; /* the current grid */
    uint8_t *out;      /* the next grid */
    int32_t w, h, radius;
    size_t pitch, lead;
    const uint8_t *table; /* next state: table[alive * table_stride + count] */
    int32_t table_stride; /* the rule's largest count + 1 */
    int centre;           /* 1: M1, the count includes a live centre */
} cc_devgrid_view;

typedef struct cc_devgrid_ops {
    /* Launches one step from view->in into view->out without waiting for it; checks the launch. */
    int (*step)(const cc_devgrid_view *view, cc_error *err);
    /* Optional: after a load, rewrites whatever the layout keeps beside the cells (halo copies)
     * in view->out from its cells. NULL: nothing to do. */
    int (*refresh)(const cc_devgrid_view *view, cc_error *err);
} cc_devgrid_ops;

typedef struct cc_devgrid cc_devgrid;

/* 0 when a device of compute capability >= 9.0 is present; otherwise CC_ERR_UNAVAILABLE with
 * what was found. The signature of cc_engine.available. */
int cc_devgrid_available(cc_error *err);

/* Fills table[alive * stride + count] (stride = cc_rule_max_count(rule) + 1, size >= 2 * stride)
 * from the rule's sets: alive 0 reads B, alive 1 reads S. */
int cc_devgrid_build_table(const cc_rule *rule, uint8_t *table, size_t size, cc_error *err);

/* Allocates two grids of h rows of pitch bytes (pitch >= lead + w), both zeroed, and the rule's
 * table. Refuses, with the numbers, a grid that does not fit in the device's free memory. engine
 * (a static string) names the engine in every message; ops must outlive the grid. */
int cc_devgrid_create(const char *engine, const cc_rule *rule, int32_t w, int32_t h, size_t pitch,
                      size_t lead, const cc_devgrid_ops *ops, cc_devgrid **out, cc_error *err);

/* The engine-table functions, ctx being a cc_devgrid. load refuses cells other than 0 and 1;
 * step runs k launches and waits for them; timed_step runs them between two CUDA events. */
int cc_devgrid_load(void *ctx, const uint8_t *cells, cc_error *err);
int cc_devgrid_step(void *ctx, int64_t k, cc_error *err);
int cc_devgrid_timed_step(void *ctx, int64_t k, double *ms, cc_error *err);
int cc_devgrid_store(void *ctx, uint8_t *cells, cc_error *err);
void cc_devgrid_destroy(void *ctx);
const char *cc_devgrid_device_name(void *ctx);

#ifdef __cplusplus
}
#endif

#endif
