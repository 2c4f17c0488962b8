// A single-GPU engine over several GPUs of one host (gpu_slabs.h): an instance of the engine a
// device on its buffer torus, halos exchanged every t steps through nccl_halos.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu_slabs.h"
#include "engines/cuda/common/nccl_halos.cuh"
extern "C" {
#include "engines/cuda/common/buffer_torus.h"
#include "engines/cuda/common/devices.h"
#include "engines/slabs/slabs.h"
}

namespace {

struct slab_device {
    cc_gpu *gpu;
    int32_t y0, rows, buffer_rows; // own rows and the buffer torus: halo + rows + halo
    // The exchange's own stream, joined to the default stream (where the engine's kernels run)
    // by an event each way, so that NCCL never waits on the default stream's implicit ordering.
    cudaStream_t stream;
    cudaEvent_t ready, exchanged, start, stop;
};

} // namespace

struct cc_gpu_slabs {
    const char *engine;
    int32_t w, h, halo, interval;
    int devices;
    int ids[CC_DEVICES_MAX];
    slab_device dev[CC_DEVICES_MAX];
    cc_slabs slabs;
    int cut; // slabs holds a cut
    cc_nccl nccl;
    size_t row_bytes; // of every instance: the same W and engine
    uint8_t *host;    // the tallest buffer torus's cells, for load and store
    char name[320];
};

namespace {

void *halo_row(void *ctx, int device, int32_t row) {
    return cc_gpu_row(((const cc_gpu_slabs *)ctx)->dev[device].gpu, row);
}

// Every device's halo rows of its current grid from the devices that own them. With one device
// the copies go on its default stream, behind and ahead of the steps; with several, on each
// device's exchange stream, which waits for the default stream's work and makes it wait in turn.
int exchange(cc_gpu_slabs *s, cc_error *err) {
    const char *engine = s->engine;
    const bool joined = s->nccl.comms > 0;
    cudaStream_t streams[CC_DEVICES_MAX];
    for (int d = 0; d < s->devices; d++) {
        slab_device &v = s->dev[d];
        streams[d] = joined ? v.stream : 0;
        if (!joined) continue;
        CC_CUDA_CHECK(engine, cudaSetDevice(s->ids[d]));
        CC_CUDA_CHECK(engine, cudaEventRecord(v.ready, 0));
        CC_CUDA_CHECK(engine, cudaStreamWaitEvent(v.stream, v.ready, 0));
    }
    cc_halo_exchange x = {};
    x.engine = engine;
    x.slabs = &s->slabs;
    x.ids = s->ids;
    x.streams = streams;
    x.row_bytes = s->row_bytes;
    x.row = halo_row;
    x.ctx = s;
    int rc = cc_nccl_exchange(&s->nccl, &x, err);
    if (rc != CC_OK || !joined) return rc;
    for (int d = 0; d < s->devices; d++) {
        slab_device &v = s->dev[d];
        CC_CUDA_CHECK(engine, cudaSetDevice(s->ids[d]));
        CC_CUDA_CHECK(engine, cudaEventRecord(v.exchanged, v.stream));
        CC_CUDA_CHECK(engine, cudaStreamWaitEvent(0, v.exchanged, 0));
    }
    return CC_OK;
}

// k steps on every device, enqueued without waiting: an exchange, then the refresh of the fresh
// halo rows' copies and at most `interval` steps.
int run(cc_gpu_slabs *s, int64_t k, cc_error *err) {
    while (k > 0) {
        const int64_t n = k < s->interval ? k : s->interval;
        int rc = exchange(s, err);
        for (int d = 0; d < s->devices && rc == CC_OK; d++) {
            rc = cc_gpu_refresh(s->dev[d].gpu, err);
            if (rc == CC_OK) rc = cc_gpu_launch(s->dev[d].gpu, n, err);
        }
        if (rc != CC_OK) return rc;
        k -= n;
    }
    return CC_OK;
}

int sync_all(cc_gpu_slabs *s, cc_error *err) {
    for (int d = 0; d < s->devices; d++) {
        CC_CUDA_CHECK(s->engine, cudaSetDevice(s->ids[d]));
        CC_CUDA_CHECK(s->engine, cudaDeviceSynchronize());
    }
    return CC_OK;
}

// The device's exchange stream and events; its instance is made by then.
int device_setup(cc_gpu_slabs *s, slab_device &v, int id, cc_error *err) {
    const char *engine = s->engine;
    CC_CUDA_CHECK(engine, cudaSetDevice(id));
    CC_CUDA_CHECK(engine, cudaStreamCreateWithFlags(&v.stream, cudaStreamNonBlocking));
    CC_CUDA_CHECK(engine, cudaEventCreateWithFlags(&v.ready, cudaEventDisableTiming));
    CC_CUDA_CHECK(engine, cudaEventCreateWithFlags(&v.exchanged, cudaEventDisableTiming));
    CC_CUDA_CHECK(engine, cudaEventCreate(&v.start));
    CC_CUDA_CHECK(engine, cudaEventCreate(&v.stop));
    return CC_OK;
}

} // namespace

extern "C" void cc_gpu_slabs_destroy(void *ctx) {
    cc_gpu_slabs *s = (cc_gpu_slabs *)ctx;
    if (!s) return;
    // Teardown cannot report. The communicators go first: their finalize may still use the grids.
    cc_nccl_close(&s->nccl);
    for (int d = 0; d < s->devices; d++) {
        slab_device &v = s->dev[d];
        if (cudaSetDevice(s->ids[d]) == cudaSuccess) {
            if (v.stream) (void)cudaStreamDestroy(v.stream);
            if (v.ready) (void)cudaEventDestroy(v.ready);
            if (v.exchanged) (void)cudaEventDestroy(v.exchanged);
            if (v.start) (void)cudaEventDestroy(v.start);
            if (v.stop) (void)cudaEventDestroy(v.stop);
        }
        cc_gpu_destroy(v.gpu); // selects its own device
    }
    if (s->cut) cc_slabs_free(&s->slabs);
    free(s->host);
    free(s);
}

extern "C" int cc_gpu_slabs_create(const cc_gpu_slabs_spec *spec, void **ctx, cc_error *err) {
    *ctx = NULL;
    const char *engine = spec->engine;
    if (spec->w < 1 || spec->h < 1 || spec->radius < 1 || spec->interval < 1 || !spec->make)
        return cc_fail(err, CC_ERR_ARG, "%s: bad slab driver spec (%dx%d, r %d, interval %d)",
                       engine, (int)spec->w, (int)spec->h, (int)spec->radius,
                       (int)spec->interval);
    int32_t wanted = 0;
    int rc = cc_gpu_devices(&wanted, err);
    if (rc != CC_OK) return cc_prefix(err, "%s", engine);
    cc_gpu_slabs *s = (cc_gpu_slabs *)calloc(1, sizeof *s);
    if (!s) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine);
    s->engine = engine;
    s->w = spec->w;
    s->h = spec->h;
    s->interval = spec->interval;
    s->halo = spec->radius * spec->interval;
    // A device owns at least one row.
    rc = cc_slabs_cut(s->h, wanted < s->h ? wanted : s->h, s->halo, &s->slabs, err);
    if (rc != CC_OK) {
        free(s);
        return cc_prefix(err, "%s", engine);
    }
    s->cut = 1;
    s->devices = s->slabs.devices;
    const int32_t tallest = cc_buffer_torus_rows_max(s->h, s->devices, s->halo);
    s->host = (uint8_t *)malloc((size_t)s->w * (size_t)tallest);
    if (!s->host) {
        cc_gpu_slabs_destroy(s);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate %dx%d cells on the host", engine,
                       (int)s->w, (int)tallest);
    }
    for (int d = 0; d < s->devices && rc == CC_OK; d++) {
        slab_device &v = s->dev[d];
        s->ids[d] = d; // the first visible devices, in order
        v.y0 = s->slabs.slab[d].y0;
        v.rows = s->slabs.slab[d].rows;
        v.buffer_rows = v.rows + 2 * s->halo;
        rc = spec->make(spec->arg, s->ids[d], s->w, v.buffer_rows, &v.gpu, err);
        if (rc != CC_OK) break;
        const cc_gpu_layout *l = cc_gpu_layout_of(v.gpu);
        if (l->row_bytes == 0 || l->device != s->ids[d] || (d > 0 && l->row_bytes != s->row_bytes)) {
            rc = cc_fail(err, CC_ERR_ARG,
                         "%s: device %d's instance cannot exchange rows (%zu bytes a row, on "
                         "device %d)",
                         engine, s->ids[d], l->row_bytes, l->device);
            break;
        }
        s->row_bytes = l->row_bytes;
        rc = device_setup(s, v, s->ids[d], err);
    }
    if (rc == CC_OK) {
        snprintf(s->name, sizeof s->name, "%d x %s", s->devices,
                 cc_gpu_device(s->dev[0].gpu)->name);
        rc = cc_nccl_open(&s->nccl, engine, s->ids, s->devices, err);
        if (rc == CC_OK && s->devices > 1) {
            const size_t used = strlen(s->name);
            snprintf(s->name + used, sizeof s->name - used, ", halos by %s",
                     cc_nccl_transport(&s->nccl));
        }
    }
    if (rc != CC_OK) {
        cc_gpu_slabs_destroy(s);
        return rc;
    }
    *ctx = s;
    return CC_OK;
}

extern "C" int cc_gpu_slabs_load(void *ctx, const uint8_t *cells, cc_error *err) {
    cc_gpu_slabs *s = (cc_gpu_slabs *)ctx;
    int rc = sync_all(s, err);
    for (int d = 0; d < s->devices && rc == CC_OK; d++) {
        const slab_device &v = s->dev[d];
        cc_buffer_torus_gather(cells, s->w, s->h, v.y0, v.rows, s->halo, s->host);
        rc = cc_gpu_load(v.gpu, s->host, err); // waits: the scratch is reused
    }
    return rc;
}

extern "C" int cc_gpu_slabs_step(void *ctx, int64_t k, cc_error *err) {
    cc_gpu_slabs *s = (cc_gpu_slabs *)ctx;
    int rc = run(s, k, err);
    if (rc == CC_OK) rc = sync_all(s, err);
    return rc;
}

extern "C" int cc_gpu_slabs_timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    cc_gpu_slabs *s = (cc_gpu_slabs *)ctx;
    const char *engine = s->engine;
    *ms = 0;
    int rc = sync_all(s, err);
    if (rc != CC_OK) return rc;
    for (int d = 0; d < s->devices; d++) {
        CC_CUDA_CHECK(engine, cudaSetDevice(s->ids[d]));
        CC_CUDA_CHECK(engine, cudaEventRecord(s->dev[d].start, 0));
    }
    if ((rc = run(s, k, err)) != CC_OK) return rc;
    for (int d = 0; d < s->devices; d++) {
        CC_CUDA_CHECK(engine, cudaSetDevice(s->ids[d]));
        CC_CUDA_CHECK(engine, cudaEventRecord(s->dev[d].stop, 0));
    }
    if ((rc = sync_all(s, err)) != CC_OK) return rc;
    // The slowest device's time: the exchanges keep them in step.
    for (int d = 0; d < s->devices; d++) {
        float t = 0;
        CC_CUDA_CHECK(engine, cudaEventElapsedTime(&t, s->dev[d].start, s->dev[d].stop));
        if (t > *ms) *ms = t;
    }
    return CC_OK;
}

extern "C" int cc_gpu_slabs_store(void *ctx, uint8_t *cells, cc_error *err) {
    cc_gpu_slabs *s = (cc_gpu_slabs *)ctx;
    int rc = sync_all(s, err);
    for (int d = 0; d < s->devices && rc == CC_OK; d++) {
        const slab_device &v = s->dev[d];
        rc = cc_gpu_store(v.gpu, s->host, err);
        if (rc == CC_OK) cc_buffer_torus_scatter(s->host, s->w, v.y0, v.rows, s->halo, cells);
    }
    return rc;
}

extern "C" const char *cc_gpu_slabs_device_name(void *ctx) {
    return ((cc_gpu_slabs *)ctx)->name;
}
