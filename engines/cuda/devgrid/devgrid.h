/* What every byte-grid CUDA engine of engines/cuda/{shared1,shared,coarse,mcell,pack} shares on
 * top of the common GPU driver (engines/cuda/common/gpu.h): grids of one byte per cell in rows of
 * a pitch, the rule's next-state table on the device, and one statement of their capabilities. An
 * engine supplies its layout (row pitch and where a row's first cell sits) and a function that
 * launches one step; CC_DEVGRID_ENGINE is the rest of its table. */
#ifndef CELLCHECK_ENGINES_CUDA_DEVGRID_DEVGRID_H
#define CELLCHECK_ENGINES_CUDA_DEVGRID_DEVGRID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/common/gpu.h"
#include "oracle/error.h"
#include "oracle/rule.h"

/* What the byte-grid engines can do, for their tables' .caps: Moore, radius 1..16 (tile.h's
 * radius_max), M0 and M1, any size whose two copies fit on the device; the cells a block of
 * threads covers is each engine's own (tile_w x tile_h), where the draw puts its seams. */
#define CC_DEVGRID_CAPS(tile_w_, tile_h_)                                                        \
    {                                                                                            \
        .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 16, .tile_w = (tile_w_),           \
        .tile_h = (tile_h_),                                                                     \
        .limits = "the grid's two copies must fit in the device's free memory",                  \
    }

/* The fields every byte-grid engine's table shares, after its .name and .summary (the table's
 * file includes engines/engine.h): create_fn is its cc_engine.create, tile_w x tile_h the cells
 * one block of its threads computes.
 *   const cc_engine cc_engine_cuda_x = {.name = ..., .summary = ..., CC_DEVGRID_ENGINE(...)};
 */
#define CC_DEVGRID_ENGINE(create_fn, tile_w, tile_h)                                             \
    .hardware = CC_HW_GPU, .caps = CC_DEVGRID_CAPS(tile_w, tile_h), .create = (create_fn),       \
    CC_GPU_ENGINE_FUNCTIONS

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

/* Fills table[alive * stride + count] (stride = cc_rule_max_count(rule) + 1, size >= 2 * stride)
 * from the rule's sets: alive 0 reads B, alive 1 reads S. */
int cc_devgrid_build_table(const cc_rule *rule, uint8_t *table, size_t size, cc_error *err);

/* cc_engine.create of a byte-grid engine: a cc_gpu (*ctx) of two grids of h rows of pitch bytes
 * (pitch >= lead + w), both zeroed, and the rule's table, stepped by ops. Refuses, with the
 * numbers, a grid that does not fit in the device's free memory. engine (a static string) names
 * the engine in every message; ops must outlive the context. */
int cc_devgrid_create(const char *engine, const cc_rule *rule, int32_t w, int32_t h, size_t pitch,
                      size_t lead, const cc_devgrid_ops *ops, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
