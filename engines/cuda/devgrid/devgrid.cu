// The byte grids and next-state table of the byte-grid CUDA engines, on the common GPU driver.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/devgrid/devgrid.h"

namespace {

// A byte-grid engine's own state: everything of its view but the two grids.
struct devgrid {
    const cc_devgrid_ops *ops;
    cc_devgrid_view view; // in and out are set per launch
    uint8_t *table;       // on the device, 2 * view.table_stride
};

cc_devgrid_view view_of(const devgrid *d, const void *in, void *out) {
    cc_devgrid_view v = d->view;
    v.in = (const uint8_t *)in;
    v.out = (uint8_t *)out;
    return v;
}

int devgrid_step(void *self, const void *in, void *out, cc_error *err) {
    const devgrid *d = (const devgrid *)self;
    const cc_devgrid_view v = view_of(d, in, out);
    return d->ops->step(&v, err);
}

int devgrid_refresh(void *self, void *grid, cc_error *err) {
    const devgrid *d = (const devgrid *)self;
    const cc_devgrid_view v = view_of(d, grid, grid);
    return d->ops->refresh(&v, err);
}

void devgrid_release(void *self) {
    devgrid *d = (devgrid *)self;
    if (d->table) (void)cudaFree(d->table); // teardown cannot report
    free(d);
}

// Engines with halo copies to rewrite after a load, and those without.
const cc_gpu_ops with_refresh = {devgrid_step, devgrid_refresh, nullptr, nullptr, devgrid_release,
                                  nullptr};
const cc_gpu_ops plain = {devgrid_step, nullptr, nullptr, nullptr, devgrid_release, nullptr};

} // namespace

extern "C" int cc_devgrid_build_table(const cc_rule *rule, uint8_t *table, size_t size,
                                      cc_error *err) {
    size_t stride = (size_t)cc_rule_max_count(rule) + 1;
    if (size < 2 * stride)
        return cc_fail(err, CC_ERR_ARG, "next-state table of %zu bytes, %zu needed", size,
                       2 * stride);
    for (size_t c = 0; c < stride; c++) {
        table[c] = (uint8_t)cc_set_has(&rule->birth, (int32_t)c);
        table[stride + c] = (uint8_t)cc_set_has(&rule->survive, (int32_t)c);
    }
    return CC_OK;
}

static int upload_table(devgrid *d, const char *engine, const cc_rule *rule, cc_error *err) {
    std::vector<uint8_t> table(2 * (size_t)d->view.table_stride);
    int rc = cc_devgrid_build_table(rule, table.data(), table.size(), err);
    if (rc) return rc;
    CC_CUDA_CHECK(engine, cudaMalloc((void **)&d->table, table.size()));
    CC_CUDA_CHECK(engine,
                  cudaMemcpy(d->table, table.data(), table.size(), cudaMemcpyHostToDevice));
    d->view.table = d->table;
    return CC_OK;
}

extern "C" int cc_devgrid_create(const char *engine, const cc_rule *rule, int32_t w, int32_t h,
                                 size_t pitch, size_t lead, const cc_devgrid_ops *ops, void **ctx,
                                 cc_error *err) {
    *ctx = NULL;
    if (!ops || !ops->step)
        return cc_fail(err, CC_ERR_ARG, "%s: no step for the device grids", engine);
    devgrid *d = (devgrid *)calloc(1, sizeof *d);
    if (!d) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine);
    d->ops = ops;
    d->view.w = w;
    d->view.h = h;
    d->view.radius = rule->radius;
    d->view.pitch = pitch;
    d->view.lead = lead;
    d->view.table_stride = cc_rule_max_count(rule) + 1;
    d->view.centre = rule->centre;

    char buffers[64];
    snprintf(buffers, sizeof buffers, "two copies of %zu-byte rows", pitch);
    cc_gpu_layout layout = {};
    layout.engine = engine;
    layout.w = w;
    layout.h = h;
    layout.grid_bytes = pitch * (size_t)h;
    layout.pitch = pitch;
    layout.lead = lead;
    layout.extra_bytes = 2 * (size_t)d->view.table_stride;
    layout.buffers = buffers;
    cc_gpu *gpu = NULL;
    int rc = cc_gpu_create(&layout, ops->refresh ? &with_refresh : &plain, d, &gpu, err);
    if (rc) return rc; // d was released
    if ((rc = upload_table(d, engine, rule, err))) {
        cc_gpu_destroy(gpu);
        return rc;
    }
    *ctx = gpu;
    return CC_OK;
}
