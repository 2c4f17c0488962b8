// cuda.life-lop3-nccl's host side (life_lop3_nccl.h): slabs on several devices, halos by NCCL.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/common/nccl_halos.cuh"
#include "engines/cuda/life_lop3/life_lop3_module.cuh"
#include "engines/cuda/life_lop3/life_lop3_nccl.h"
extern "C" {
#include "engines/slabs/slabs.h"
}

namespace {

const char engine_name[] = "cuda.life-lop3-nccl";
constexpr int32_t halo = LIFE_LOP3_NCCL_EXCHANGE_STEPS;

struct device {
    int id;
    int32_t y0, rows, buffer_rows; // own rows and the buffer: halo + rows + halo
    uint32_t *buf[2];
    cudaStream_t stream;
    cudaEvent_t start, stop;
    life_lop3_module m;
    int multiprocessors; // the bands are cut for each launch's rows
};

struct multi {
    int32_t w, h, words;
    int devices;
    device dev[CC_DEVICES_MAX];
    cc_slabs slabs;
    int cur;
    cc_nccl nccl;
    uint32_t *host; // words * h, for load and store
    char name[320];
};

uint32_t *row_of(const device &d, int buffer, int32_t row, int32_t words) {
    return d.buf[buffer] + (size_t)row * (size_t)words;
}

void *halo_row(void *ctx, int device, int32_t row) {
    const multi *e = (const multi *)ctx;
    return row_of(e->dev[device], e->cur, row, e->words);
}

// Every device's halos of the current buffers from the devices that own those rows.
int exchange(multi *e, cc_error *err) {
    int ids[CC_DEVICES_MAX];
    cudaStream_t streams[CC_DEVICES_MAX];
    for (int d = 0; d < e->devices; d++) {
        ids[d] = e->dev[d].id;
        streams[d] = e->dev[d].stream;
    }
    cc_halo_exchange x = {};
    x.engine = engine_name;
    x.slabs = &e->slabs;
    x.ids = ids;
    x.streams = streams;
    x.row_bytes = (size_t)e->words * sizeof(uint32_t);
    x.row = halo_row;
    x.ctx = e;
    return cc_nccl_exchange(&e->nccl, &x, err);
}

// One launch on every device: `full` LIFE_LOP3_STEPS steps, else one. It steps the own rows and
// `beyond` halo rows either side, which are then exact for the launches after it.
int launch(multi *e, int full, int32_t beyond, cc_error *err) {
    const int in = e->cur, out = 1 - e->cur;
    for (int d = 0; d < e->devices; d++) {
        device &v = e->dev[d];
        CC_CUDA_CHECK(engine_name, cudaSetDevice(v.id));
        const int32_t first = halo - beyond, count = v.rows + 2 * beyond;
        life_lop3_bands b;
        life_lop3_bands_cut(e->words, count, &life_lop3_default, v.multiprocessors, &b);
        const int rc = life_lop3_launch_stream(engine_name, v.id, &v.m, &b,
                                               life_lop3_default.threads, full, v.buf[in],
                                               v.buf[out], e->words, v.buffer_rows, first, count,
                                               v.stream, err);
        if (rc != CC_OK) return rc;
    }
    e->cur = out;
    return CC_OK;
}

// After an exchange the halos are exact `halo` rows deep; each launch of s steps leaves them
// exact s rows less deep (a row's next state reads the rows beside it), so the launches go on
// without an exchange while they need no more than is left.
int run(multi *e, int64_t k, cc_error *err) {
    int32_t exact = 0;
    while (k > 0) {
        const int full = k >= LIFE_LOP3_STEPS;
        const int32_t s = full ? LIFE_LOP3_STEPS : 1;
        int rc = CC_OK;
        if (s > exact) {
            rc = exchange(e, err);
            exact = halo;
        }
        exact -= s;
        if (rc == CC_OK) rc = launch(e, full, exact, err);
        if (rc != CC_OK) return rc;
        k -= s;
    }
    return CC_OK;
}

int sync_all(multi *e, cc_error *err) {
    for (int d = 0; d < e->devices; d++) {
        CC_CUDA_CHECK(engine_name, cudaSetDevice(e->dev[d].id));
        CC_CUDA_CHECK(engine_name, cudaStreamSynchronize(e->dev[d].stream));
    }
    return CC_OK;
}

} // namespace

extern "C" int life_lop3_nccl_available(cc_error *err) { return cc_gpu_available(err); }

extern "C" void life_lop3_nccl_destroy(void *ctx) {
    multi *e = (multi *)ctx;
    if (!e) return;
    cc_nccl_close(&e->nccl);
    for (int d = 0; d < e->devices; d++) {
        device &v = e->dev[d];
        if (cudaSetDevice(v.id) != cudaSuccess) continue;
        life_lop3_module_unload(&v.m);
        for (int i = 0; i < 2; i++) cudaFree(v.buf[i]);
        if (v.stream) cudaStreamDestroy(v.stream);
        if (v.start) cudaEventDestroy(v.start);
        if (v.stop) cudaEventDestroy(v.stop);
    }
    cc_slabs_free(&e->slabs);
    free(e->host);
    free(e);
}

extern "C" int life_lop3_nccl_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                     cc_error *err) {
    *ctx = NULL;
    multi *e = (multi *)calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine_name);
    e->w = w;
    e->h = h;
    e->words = w / 32;
    int32_t wanted = 0;
    int rc = cc_gpu_devices(&wanted, err);
    if (rc != CC_OK) cc_prefix(err, "%s", engine_name);
    // A device owns at least one row.
    if (rc == CC_OK) rc = cc_slabs_cut(h, wanted < h ? wanted : h, halo, &e->slabs, err);
    if (rc != CC_OK) {
        free(e);
        return rc;
    }
    e->devices = e->slabs.devices;
    e->host = (uint32_t *)malloc((size_t)e->words * (size_t)h * sizeof(uint32_t));
    if (!e->host) {
        life_lop3_nccl_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate %dx%d bits on the host",
                       engine_name, (int)w, (int)h);
    }
    for (int d = 0; d < e->devices && rc == CC_OK; d++) {
        device &v = e->dev[d];
        v.id = d;
        v.y0 = e->slabs.slab[d].y0;
        v.rows = e->slabs.slab[d].rows;
        v.buffer_rows = v.rows + 2 * halo;
        const size_t bytes = (size_t)v.buffer_rows * (size_t)e->words * sizeof(uint32_t);
        cudaError_t c = cudaSetDevice(v.id);
        size_t free_bytes = 0, total = 0;
        if (c == cudaSuccess) c = cudaMemGetInfo(&free_bytes, &total);
        if (c != cudaSuccess) {
            rc = cc_cuda_fail(c, engine_name, "cudaSetDevice/cudaMemGetInfo", err);
            break;
        }
        if (2 * bytes > free_bytes) {
            rc = cc_fail(err, CC_ERR_NOMEM,
                         "%s: device %d's slab (%d rows and two halos of %d, twice) needs %zu "
                         "bytes; %zu are free",
                         engine_name, v.id, (int)v.rows, (int)halo, 2 * bytes, free_bytes);
            break;
        }
        // Zeroed on the device's own stream: a cudaMemset goes to the legacy stream, which a
        // non-blocking stream does not wait for, so a busy GPU could zero the rows load wrote.
        c = cudaStreamCreateWithFlags(&v.stream, cudaStreamNonBlocking);
        for (int i = 0; i < 2 && c == cudaSuccess; i++) {
            c = cudaMalloc((void **)&v.buf[i], bytes);
            if (c == cudaSuccess) c = cudaMemsetAsync(v.buf[i], 0, bytes, v.stream);
        }
        if (c == cudaSuccess) c = cudaEventCreate(&v.start);
        if (c == cudaSuccess) c = cudaEventCreate(&v.stop);
        if (c != cudaSuccess) {
            rc = cc_cuda_fail(c, engine_name, "device buffers", err);
            break;
        }
        cudaDeviceProp prop;
        c = cudaGetDeviceProperties(&prop, v.id);
        if (c != cudaSuccess) {
            rc = cc_cuda_fail(c, engine_name, "cudaGetDeviceProperties", err);
            break;
        }
        if (d == 0)
            snprintf(e->name, sizeof e->name, "%d x %s", e->devices, prop.name);
        v.multiprocessors = prop.multiProcessorCount;
        rc = life_lop3_module_load(engine_name, rule, 0, &v.m, err);
    }
    if (rc == CC_OK) rc = sync_all(e, err);
    if (rc == CC_OK) {
        int ids[CC_DEVICES_MAX];
        for (int d = 0; d < e->devices; d++) ids[d] = e->dev[d].id;
        rc = cc_nccl_open(&e->nccl, engine_name, ids, e->devices, err);
        if (rc == CC_OK && e->devices > 1) {
            const size_t used = strlen(e->name);
            snprintf(e->name + used, sizeof e->name - used, ", halos by %s",
                     cc_nccl_transport(&e->nccl));
        }
    }
    if (rc != CC_OK) {
        life_lop3_nccl_destroy(e);
        return rc;
    }
    *ctx = e;
    return CC_OK;
}

extern "C" int life_lop3_nccl_load(void *ctx, const uint8_t *cells, cc_error *err) {
    multi *e = (multi *)ctx;
    const size_t words = (size_t)e->words * (size_t)e->h;
    for (size_t i = 0; i < words; i++) {
        const uint8_t *c = cells + 32 * i;
        uint32_t v = 0;
        for (int b = 0; b < 32; b++) v |= (uint32_t)(c[b] & 1u) << b;
        e->host[i] = v;
    }
    e->cur = 0;
    // On the device's own stream, waited for: a cudaMemcpy from pageable memory may return before
    // its DMA lands, and the non-blocking stream's first exchange would copy stale halo rows.
    for (int d = 0; d < e->devices; d++) {
        device &v = e->dev[d];
        CC_CUDA_CHECK(engine_name, cudaSetDevice(v.id));
        CC_CUDA_CHECK(engine_name,
                      cudaMemcpyAsync(row_of(v, 0, halo, e->words),
                                      e->host + (size_t)v.y0 * (size_t)e->words,
                                      (size_t)v.rows * (size_t)e->words * sizeof(uint32_t),
                                      cudaMemcpyHostToDevice, v.stream));
    }
    return sync_all(e, err);
}

extern "C" int life_lop3_nccl_step(void *ctx, int64_t k, cc_error *err) {
    multi *e = (multi *)ctx;
    int rc = run(e, k, err);
    if (rc == CC_OK) rc = sync_all(e, err);
    return rc;
}

extern "C" int life_lop3_nccl_timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    multi *e = (multi *)ctx;
    int rc = sync_all(e, err);
    for (int d = 0; d < e->devices && rc == CC_OK; d++) {
        CC_CUDA_CHECK(engine_name, cudaSetDevice(e->dev[d].id));
        CC_CUDA_CHECK(engine_name, cudaEventRecord(e->dev[d].start, e->dev[d].stream));
    }
    if (rc == CC_OK) rc = run(e, k, err);
    for (int d = 0; d < e->devices && rc == CC_OK; d++) {
        CC_CUDA_CHECK(engine_name, cudaSetDevice(e->dev[d].id));
        CC_CUDA_CHECK(engine_name, cudaEventRecord(e->dev[d].stop, e->dev[d].stream));
    }
    if (rc == CC_OK) rc = sync_all(e, err);
    // The slowest device's time: they all end on the last exchange.
    *ms = 0;
    for (int d = 0; d < e->devices && rc == CC_OK; d++) {
        float t = 0;
        CC_CUDA_CHECK(engine_name, cudaEventElapsedTime(&t, e->dev[d].start, e->dev[d].stop));
        if (t > *ms) *ms = t;
    }
    return rc;
}

extern "C" int life_lop3_nccl_store(void *ctx, uint8_t *cells, cc_error *err) {
    multi *e = (multi *)ctx;
    // Behind the device's own stream's steps, waited for.
    for (int d = 0; d < e->devices; d++) {
        device &v = e->dev[d];
        CC_CUDA_CHECK(engine_name, cudaSetDevice(v.id));
        CC_CUDA_CHECK(engine_name,
                      cudaMemcpyAsync(e->host + (size_t)v.y0 * (size_t)e->words,
                                      row_of(v, e->cur, halo, e->words),
                                      (size_t)v.rows * (size_t)e->words * sizeof(uint32_t),
                                      cudaMemcpyDeviceToHost, v.stream));
    }
    int rc = sync_all(e, err);
    if (rc != CC_OK) return rc;
    const size_t words = (size_t)e->words * (size_t)e->h;
    for (size_t i = 0; i < words; i++) {
        uint8_t *c = cells + 32 * i;
        const uint32_t v = e->host[i];
        for (int b = 0; b < 32; b++) c[b] = (uint8_t)(v >> b & 1u);
    }
    return CC_OK;
}

extern "C" const char *life_lop3_nccl_device_name(void *ctx) { return ((multi *)ctx)->name; }
