/* The engine table of a CPU engine that takes any W and H and both centre conventions, with no
 * limits text and no timed step, so that each engine states only what is its own. */
#ifndef CELLCHECK_ENGINES_CPU_COMMON_CPU_ENGINE_H
#define CELLCHECK_ENGINES_CPU_COMMON_CPU_ENGINE_H

#include "engines/engine.h"

/* An initializer for a const cc_engine: shape_bits a set of CC_SHAPE_BIT, radii 1 .. r_max. */
#define CPU_ENGINE_TABLE(engine_name, engine_summary, engine_hardware, shape_bits, r_max,         \
                         available_fn, create_fn, load_fn, step_fn, store_fn, destroy_fn)         \
    {                                                                                             \
        .name = (engine_name), .summary = (engine_summary), .hardware = (engine_hardware),        \
        .caps = {.shapes = (shape_bits), .radius_min = 1, .radius_max = (r_max),                  \
                 .centres = CC_CENTRE_M0 | CC_CENTRE_M1, .w_multiple = 1, .h_multiple = 1,        \
                 .w_max = 0, .h_max = 0, .count_max = 0, .limits = NULL},                         \
        .available = (available_fn), .create = (create_fn), .load = (load_fn),                    \
        .step = (step_fn), .store = (store_fn), .destroy = (destroy_fn), .timed_step = NULL,      \
        .device_name = NULL,                                                                      \
    }

/* available() of an engine that needs nothing past a plain CPU. */
static inline int cpu_engine_always_available(cc_error *err) {
    (void)err;
    return CC_OK;
}

#endif
