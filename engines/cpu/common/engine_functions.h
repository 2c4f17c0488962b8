/* The functions a family of CPU engines shares in its tables. A family (bitrows, the sliding
 * driver, the AMX context, the CAT emulation) defines prefix_load, prefix_step, prefix_store and
 * prefix_destroy on its own context, or all but the store where one serves several families;
 * each engine of it adds its name, caps and create. */
#ifndef CELLCHECK_ENGINES_CPU_COMMON_ENGINE_FUNCTIONS_H
#define CELLCHECK_ENGINES_CPU_COMMON_ENGINE_FUNCTIONS_H

#include <stdint.h>

#include "oracle/error.h"

/* Declares a family's load, step and destroy, with the types of cc_engine's fields: all it
 * defines when its store is shared with other families (rows.h's cpu_padded_grids_store). */
#define CPU_ENGINE_LOAD_STEP_DESTROY_DECLARE(prefix)                                               \
    int prefix##_load(void *ctx, const uint8_t *cells, cc_error *err);                             \
    int prefix##_step(void *ctx, int64_t k, cc_error *err);                                        \
    void prefix##_destroy(void *ctx)

/* Declares a family's four functions. */
#define CPU_ENGINE_FUNCTIONS_DECLARE(prefix)                                                       \
    CPU_ENGINE_LOAD_STEP_DESTROY_DECLARE(prefix);                                                  \
    int prefix##_store(void *ctx, uint8_t *cells, cc_error *err)

/* The four as fields of an engine table's designated initializer. */
#define CPU_ENGINE_FUNCTIONS(prefix) CPU_ENGINE_FUNCTIONS_STORING(prefix, prefix##_store)

/* The same with store_fn as the store. */
#define CPU_ENGINE_FUNCTIONS_STORING(prefix, store_fn)                                             \
    .load = prefix##_load, .step = prefix##_step, .store = store_fn, .destroy = prefix##_destroy

#endif
