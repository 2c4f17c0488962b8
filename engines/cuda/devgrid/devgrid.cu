// The device grids, table, events and engine-table functions shared by the byte-grid CUDA engines.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/devgrid/probe.h"

extern "C" {
#include "engines/engine.h"
}

struct cc_devgrid {
    const char *engine;
    const cc_devgrid_ops *ops;
    int32_t w, h, radius, table_stride;
    int centre;
    size_t pitch, lead;
    uint8_t *cur, *next; // the two grids, ping-pong
    uint8_t *table;      // 2 * table_stride
    cudaEvent_t start, stop;
    int events; // both events were created
    char name[256];
};

#define DEVGRID_CHECK(d, call)                                                                   \
    do {                                                                                         \
        cudaError_t devgrid_status = (call);                                                     \
        if (devgrid_status != cudaSuccess)                                                       \
            return cc_fail(err, CC_ERR_DEVICE, "%s: %s failed: %s", (d)->engine, #call,          \
                           cudaGetErrorString(devgrid_status));                                  \
    } while (0)

extern "C" int cc_devgrid_available(cc_error *err) {
    return cc_cuda_probe(NULL, CC_DEVGRID_CC_MAJOR, CC_DEVGRID_CC_MINOR, err);
}

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

extern "C" void cc_devgrid_destroy(void *ctx) {
    cc_devgrid *d = (cc_devgrid *)ctx;
    if (!d) return;
    // Teardown cannot report: a failure here leaves nothing for the caller to do.
    if (d->cur) (void)cudaFree(d->cur);
    if (d->next) (void)cudaFree(d->next);
    if (d->table) (void)cudaFree(d->table);
    if (d->events) {
        (void)cudaEventDestroy(d->start);
        (void)cudaEventDestroy(d->stop);
    }
    free(d);
}

static int devgrid_setup(cc_devgrid *d, const uint8_t *table, cc_error *err) {
    size_t bytes = d->pitch * (size_t)d->h;
    size_t table_bytes = 2 * (size_t)d->table_stride;
    size_t needed = 2 * bytes + table_bytes;

    DEVGRID_CHECK(d, cudaSetDevice(0));
    cudaDeviceProp prop;
    DEVGRID_CHECK(d, cudaGetDeviceProperties(&prop, 0));
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    size_t free_bytes = 0, total_bytes = 0;
    DEVGRID_CHECK(d, cudaMemGetInfo(&free_bytes, &total_bytes));
    if (needed > free_bytes)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: a %dx%d grid needs %zu bytes on the device (two copies of %zu-byte "
                       "rows), but only %zu of its %zu bytes are free",
                       d->engine, (int)d->w, (int)d->h, needed, d->pitch, free_bytes,
                       total_bytes);

    DEVGRID_CHECK(d, cudaMalloc((void **)&d->cur, bytes));
    DEVGRID_CHECK(d, cudaMalloc((void **)&d->next, bytes));
    DEVGRID_CHECK(d, cudaMalloc((void **)&d->table, table_bytes));
    DEVGRID_CHECK(d, cudaMemset(d->cur, 0, bytes));
    DEVGRID_CHECK(d, cudaMemset(d->next, 0, bytes));
    DEVGRID_CHECK(d, cudaMemcpy(d->table, table, table_bytes, cudaMemcpyHostToDevice));
    DEVGRID_CHECK(d, cudaEventCreate(&d->start));
    cudaError_t status = cudaEventCreate(&d->stop);
    if (status != cudaSuccess) {
        (void)cudaEventDestroy(d->start);
        return cc_fail(err, CC_ERR_DEVICE, "%s: cudaEventCreate(&d->stop) failed: %s", d->engine,
                       cudaGetErrorString(status));
    }
    d->events = 1;
    return CC_OK;
}

extern "C" int cc_devgrid_create(const char *engine, const cc_rule *rule, int32_t w, int32_t h,
                                 size_t pitch, size_t lead, const cc_devgrid_ops *ops,
                                 cc_devgrid **out, cc_error *err) {
    *out = NULL;
    if (w < 1 || h < 1 || pitch < lead + (size_t)w || !ops || !ops->step)
        return cc_fail(err, CC_ERR_ARG, "%s: bad device layout (%dx%d, pitch %zu, lead %zu)",
                       engine, (int)w, (int)h, pitch, lead);
    int32_t stride = cc_rule_max_count(rule) + 1;
    uint8_t *table = (uint8_t *)malloc(2 * (size_t)stride);
    cc_devgrid *d = (cc_devgrid *)calloc(1, sizeof *d);
    if (!table || !d) {
        free(table);
        free(d);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine);
    }
    d->engine = engine;
    d->ops = ops;
    d->w = w;
    d->h = h;
    d->radius = rule->radius;
    d->centre = rule->centre;
    d->table_stride = stride;
    d->pitch = pitch;
    d->lead = lead;
    int rc = cc_devgrid_build_table(rule, table, 2 * (size_t)stride, err);
    if (!rc) rc = devgrid_setup(d, table, err);
    free(table);
    if (rc) {
        cc_devgrid_destroy(d);
        return rc;
    }
    *out = d;
    return CC_OK;
}

static cc_devgrid_view devgrid_view(const cc_devgrid *d, const uint8_t *in, uint8_t *out) {
    cc_devgrid_view v;
    v.in = in;
    v.out = out;
    v.w = d->w;
    v.h = d->h;
    v.radius = d->radius;
    v.pitch = d->pitch;
    v.lead = d->lead;
    v.table = d->table;
    v.table_stride = d->table_stride;
    v.centre = d->centre;
    return v;
}

extern "C" int cc_devgrid_load(void *ctx, const uint8_t *cells, cc_error *err) {
    cc_devgrid *d = (cc_devgrid *)ctx;
    size_t n = (size_t)d->w * (size_t)d->h;
    int rc = cc_engine_check_cells(d->engine, cells, n, err);
    if (rc) return rc;
    DEVGRID_CHECK(d, cudaMemcpy2D(d->cur + d->lead, d->pitch, cells, (size_t)d->w, (size_t)d->w,
                                  (size_t)d->h, cudaMemcpyHostToDevice));
    if (d->ops->refresh) {
        cc_devgrid_view v = devgrid_view(d, d->cur, d->cur);
        rc = d->ops->refresh(&v, err);
        if (rc) return rc;
        DEVGRID_CHECK(d, cudaDeviceSynchronize());
    }
    return CC_OK;
}

extern "C" int cc_devgrid_store(void *ctx, uint8_t *cells, cc_error *err) {
    cc_devgrid *d = (cc_devgrid *)ctx;
    DEVGRID_CHECK(d, cudaMemcpy2D(cells, (size_t)d->w, d->cur + d->lead, d->pitch, (size_t)d->w,
                                  (size_t)d->h, cudaMemcpyDeviceToHost));
    return CC_OK;
}

// Launches k steps on the default stream without waiting for them.
static int devgrid_launch(cc_devgrid *d, int64_t k, cc_error *err) {
    int rc = cc_engine_check_steps(d->engine, k, err);
    if (rc) return rc;
    for (int64_t s = 0; s < k; s++) {
        cc_devgrid_view v = devgrid_view(d, d->cur, d->next);
        rc = d->ops->step(&v, err);
        if (rc) return rc;
        uint8_t *t = d->cur;
        d->cur = d->next;
        d->next = t;
    }
    return CC_OK;
}

extern "C" int cc_devgrid_step(void *ctx, int64_t k, cc_error *err) {
    cc_devgrid *d = (cc_devgrid *)ctx;
    int rc = devgrid_launch(d, k, err);
    if (rc) return rc;
    DEVGRID_CHECK(d, cudaDeviceSynchronize());
    return CC_OK;
}

extern "C" int cc_devgrid_timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    cc_devgrid *d = (cc_devgrid *)ctx;
    DEVGRID_CHECK(d, cudaEventRecord(d->start, 0));
    int rc = devgrid_launch(d, k, err);
    if (rc) return rc;
    DEVGRID_CHECK(d, cudaEventRecord(d->stop, 0));
    DEVGRID_CHECK(d, cudaEventSynchronize(d->stop));
    float elapsed = 0.0f;
    DEVGRID_CHECK(d, cudaEventElapsedTime(&elapsed, d->start, d->stop));
    *ms = (double)elapsed;
    return CC_OK;
}

extern "C" const char *cc_devgrid_device_name(void *ctx) { return ((cc_devgrid *)ctx)->name; }
