/* The engine table of a byte-grid CUDA engine (shared1, shared, coarse, mcell, pack). They share
 * their capabilities (Moore, radius 1..16, M0 and M1, any size whose two copies fit on the
 * device) and every table function but create, so a table names only what differs. */
#ifndef CELLCHECK_ENGINES_CUDA_DEVGRID_DEVGRID_ENGINE_H
#define CELLCHECK_ENGINES_CUDA_DEVGRID_DEVGRID_ENGINE_H

#include <stdint.h>

#include "engines/cuda/devgrid/devgrid.h"
#include "engines/engine.h"

/* An engine's own constructor: its layout and step on a cc_devgrid. */
typedef int (*cc_devgrid_create_fn)(const cc_rule *rule, int32_t w, int32_t h, cc_devgrid **out,
                                    cc_error *err);

/* cc_engine.create for engine: checks rule and size against its caps, then calls create; *ctx
 * is NULL on failure. */
int cc_devgrid_create_engine(const cc_engine *engine, cc_devgrid_create_fn create,
                             const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

/* The initializer of a byte-grid CUDA engine's table; create_engine has cc_engine.create's
 * signature. */
#define CC_DEVGRID_ENGINE(name_, summary_, create_engine_)                                      \
    {                                                                                            \
        .name = (name_), .summary = (summary_), .hardware = CC_HW_GPU,                          \
        .caps =                                                                                  \
            {                                                                                    \
                .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),                                          \
                .radius_min = 1,                                                                 \
                .radius_max = 16,                                                                \
                .centres = CC_CENTRE_M0 | CC_CENTRE_M1,                                          \
                .w_multiple = 1,                                                                 \
                .h_multiple = 1,                                                                 \
                .w_max = 0,                                                                      \
                .h_max = 0,                                                                      \
                .count_max = 0,                                                                  \
                .limits = "the grid's two copies must fit in the device's free memory",          \
            },                                                                                   \
        .available = cc_devgrid_available, .create = (create_engine_), .load = cc_devgrid_load, \
        .step = cc_devgrid_step, .store = cc_devgrid_store, .destroy = cc_devgrid_destroy,      \
        .timed_step = cc_devgrid_timed_step, .device_name = cc_devgrid_device_name,             \
    }

#endif
