/* The create step every byte-grid CUDA engine's table shares. */
#include "engines/cuda/devgrid/devgrid_engine.h"

#include <stddef.h>

int cc_devgrid_create_engine(const cc_engine *engine, cc_devgrid_create_fn create,
                             const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    int rc = cc_engine_check(engine, rule, w, h, err);
    if (rc) return rc;
    cc_devgrid *d = NULL;
    if ((rc = create(rule, w, h, &d, err))) return rc;
    *ctx = d;
    return CC_OK;
}
