/* cuda.mcell: the multi-cell method (two adjacent cells per thread sharing their column sums,
 * out-halo shared tile) behind the engine contract. The device code is in mcell_kernels.cu. */
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/mcell/mcell_kernels.h"
#include "engines/engine.h"

extern const cc_engine cc_engine_cuda_mcell;

static int cuda_mcell_create_engine(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                     cc_error *err) {
    *ctx = NULL;
    int rc = cc_engine_check(&cc_engine_cuda_mcell, rule, w, h, err);
    if (rc) return rc;
    cc_devgrid *d = NULL;
    if ((rc = cuda_mcell_create(rule, w, h, &d, err))) return rc;
    *ctx = d;
    return CC_OK;
}

const cc_engine cc_engine_cuda_mcell = {
    .name = "cuda.mcell",
    .summary = "multi-cell: two adjacent cells per thread sharing their column sums, 16x16 "
               "threads on a (32+2r)x(16+2r) shared tile",
    .hardware = CC_HW_GPU,
    .caps =
        {
            .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
            .radius_min = 1,
            .radius_max = 16,
            .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
            .w_multiple = 1,
            .h_multiple = 1,
            .w_max = 0,
            .h_max = 0,
            .count_max = 0,
            .limits = "the grid's two copies must fit in the device's free memory",
        },
    .available = cc_devgrid_available,
    .create = cuda_mcell_create_engine,
    .load = cc_devgrid_load,
    .step = cc_devgrid_step,
    .store = cc_devgrid_store,
    .destroy = cc_devgrid_destroy,
    .timed_step = cc_devgrid_timed_step,
    .device_name = cc_devgrid_device_name,
};
