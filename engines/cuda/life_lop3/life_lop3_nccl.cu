// cuda.life-lop3-nccl's host side (life_lop3_nccl.h): slabs on several devices, halos by NCCL.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life_lop3/life_lop3_module.cuh"
#include "engines/cuda/life_lop3/life_lop3_nccl.h"
extern "C" {
#include "engines/slabs/slabs.h"
}

namespace {

const char engine_name[] = "cuda.life-lop3-nccl";
constexpr int devices_max = 16;
constexpr int32_t halo = LIFE_LOP3_STEPS;

// NCCL's functions, from the library loaded at create.
struct nccl_api {
    void *handle;
    ncclResult_t (*comm_init_all)(ncclComm_t *, int, const int *);
    ncclResult_t (*comm_finalize)(ncclComm_t);
    ncclResult_t (*comm_destroy)(ncclComm_t);
    ncclResult_t (*group_start)(void);
    ncclResult_t (*group_end)(void);
    ncclResult_t (*send)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*recv)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    const char *(*error_string)(ncclResult_t);
};

struct device {
    int id;
    int32_t y0, rows, buffer_rows; // own rows and the buffer: halo + rows + halo
    uint32_t *buf[2];
    cudaStream_t stream;
    cudaEvent_t start, stop;
    life_lop3_module m;
    life_lop3_bands b;
};

struct multi {
    int32_t w, h, words;
    int devices;
    device dev[devices_max];
    cc_slabs slabs;
    int cur;
    nccl_api nccl;
    ncclComm_t comm[devices_max];
    int comms;
    uint32_t *host; // words * h, for load and store
    char name[320];
};

int nccl_fail(const multi *e, ncclResult_t r, const char *call, cc_error *err) {
    return cc_fail(err, CC_ERR_DEVICE, "%s: %s failed: %s", engine_name, call,
                   e->nccl.error_string ? e->nccl.error_string(r) : "NCCL");
}

int load_nccl(nccl_api *api, cc_error *err) {
    *api = nccl_api{};
    const char *names[] = {"libnccl.so.2", "/usr/local/cuda/lib64/libnccl.so.2"};
    for (const char *n : names)
        // Never unloaded: NCCL sets itself up once a process, and a fresh copy each create
        // would set up (and hold) its host buffers again.
        if ((api->handle = dlopen(n, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) != nullptr) break;
    if (!api->handle)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: NCCL (libnccl.so.2) is not installed: %s",
                       engine_name, dlerror());
#define LIFE_LOP3_NCCL_SYM(field, sym)                                                           \
    if (!(*(void **)&api->field = dlsym(api->handle, sym)))                                      \
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: NCCL has no %s", engine_name, sym);
    LIFE_LOP3_NCCL_SYM(comm_init_all, "ncclCommInitAll")
    LIFE_LOP3_NCCL_SYM(comm_finalize, "ncclCommFinalize")
    LIFE_LOP3_NCCL_SYM(comm_destroy, "ncclCommDestroy")
    LIFE_LOP3_NCCL_SYM(group_start, "ncclGroupStart")
    LIFE_LOP3_NCCL_SYM(group_end, "ncclGroupEnd")
    LIFE_LOP3_NCCL_SYM(send, "ncclSend")
    LIFE_LOP3_NCCL_SYM(recv, "ncclRecv")
    LIFE_LOP3_NCCL_SYM(error_string, "ncclGetErrorString")
#undef LIFE_LOP3_NCCL_SYM
    return CC_OK;
}

// The devices to use: the visible ones, or the first CELLCHECK_DEVICES of them.
int devices_wanted(int *n, cc_error *err) {
    int count = 0;
    CC_CUDA_CHECK(engine_name, cudaGetDeviceCount(&count));
    *n = life_lop3_nccl_devices_setting(count);
    if (*n < 0)
        return cc_fail(err, CC_ERR_ARG,
                       "%s: CELLCHECK_DEVICES=%s; a number from 1 to the %d visible devices",
                       engine_name, getenv("CELLCHECK_DEVICES"), count);
    if (*n > devices_max) *n = devices_max;
    return CC_OK;
}

uint32_t *row_of(const device &d, int buffer, int32_t row, int32_t words) {
    return d.buf[buffer] + (size_t)row * (size_t)words;
}

// Every device's halos of buffer `buffer` from the devices that own those rows.
int exchange(multi *e, int buffer, cc_error *err) {
    const size_t row_words = (size_t)e->words;
    if (e->comms) {
        ncclResult_t r = e->nccl.group_start();
        if (r != ncclSuccess) return nccl_fail(e, r, "ncclGroupStart", err);
    }
    int rc = CC_OK;
    for (int d = 0; d < e->devices && rc == CC_OK; d++) {
        const cc_slab *sl = &e->slabs.slab[d];
        for (int32_t k = 0; k < sl->pieces && rc == CC_OK; k++) {
            const cc_slab_piece *p = &sl->piece[k];
            device &to = e->dev[d], &from = e->dev[p->src_device];
            uint32_t *dst = row_of(to, buffer, p->dst_row, e->words);
            const uint32_t *src = row_of(from, buffer, p->src_row, e->words);
            const size_t n = (size_t)p->count * row_words;
            if (p->src_device == d) {
                cudaError_t c = cudaSetDevice(to.id);
                if (c == cudaSuccess)
                    c = cudaMemcpyAsync(dst, src, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                                        to.stream);
                if (c != cudaSuccess) rc = cc_cuda_fail(c, engine_name, "halo copy", err);
                continue;
            }
            // The same order on both sides: pieces in order, each one's send and receive.
            ncclResult_t r = e->nccl.send(src, n, ncclUint32, d, e->comm[p->src_device],
                                          from.stream);
            if (r == ncclSuccess)
                r = e->nccl.recv(dst, n, ncclUint32, p->src_device, e->comm[d], to.stream);
            if (r != ncclSuccess) rc = nccl_fail(e, r, "ncclSend/ncclRecv", err);
        }
    }
    if (e->comms) {
        ncclResult_t r = e->nccl.group_end();
        if (r != ncclSuccess && rc == CC_OK) rc = nccl_fail(e, r, "ncclGroupEnd", err);
    }
    return rc;
}

// One launch on every device: `full` LIFE_LOP3_STEPS steps, else one.
int launch(multi *e, int full, cc_error *err) {
    const int in = e->cur, out = 1 - e->cur;
    for (int d = 0; d < e->devices; d++) {
        device &v = e->dev[d];
        CC_CUDA_CHECK(engine_name, cudaSetDevice(v.id));
        const int rc = life_lop3_launch_stream(
            engine_name, v.id, &v.m, &v.b, life_lop3_default.threads, full, v.buf[in], v.buf[out],
            e->words, v.buffer_rows, halo, v.rows, v.stream, err);
        if (rc != CC_OK) return rc;
    }
    e->cur = out;
    return CC_OK;
}

int run(multi *e, int64_t k, cc_error *err) {
    while (k > 0) {
        const int full = k >= LIFE_LOP3_STEPS;
        int rc = exchange(e, e->cur, err);
        if (rc == CC_OK) rc = launch(e, full, err);
        if (rc != CC_OK) return rc;
        k -= full ? LIFE_LOP3_STEPS : 1;
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

extern "C" int life_lop3_nccl_devices_setting(int visible) {
    const char *want = getenv("CELLCHECK_DEVICES");
    if (!want || !*want) return visible;
    char *end;
    const long v = strtol(want, &end, 10);
    if (*end || v < 1 || (visible > 0 && v > visible)) return -1;
    return (int)v;
}

extern "C" int life_lop3_nccl_available(cc_error *err) { return cc_gpu_available(err); }

extern "C" void life_lop3_nccl_destroy(void *ctx) {
    multi *e = (multi *)ctx;
    if (!e) return;
    // Finalized together (a communicator's finalize waits on its peers), then destroyed.
    if (e->comms) {
        e->nccl.group_start();
        for (int c = 0; c < e->comms; c++) e->nccl.comm_finalize(e->comm[c]);
        e->nccl.group_end();
        for (int c = 0; c < e->comms; c++) e->nccl.comm_destroy(e->comm[c]);
    }
    for (int d = 0; d < e->devices; d++) {
        device &v = e->dev[d];
        if (cudaSetDevice(v.id) != cudaSuccess) continue;
        life_lop3_module_unload(&v.m);
        for (int i = 0; i < 2; i++) cudaFree(v.buf[i]);
        if (v.stream) cudaStreamDestroy(v.stream);
        if (v.start) cudaEventDestroy(v.start);
        if (v.stop) cudaEventDestroy(v.stop);
    }
    if (e->nccl.handle) dlclose(e->nccl.handle);
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
    int wanted = 0;
    int rc = devices_wanted(&wanted, err);
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
        for (int i = 0; i < 2 && c == cudaSuccess; i++) {
            c = cudaMalloc((void **)&v.buf[i], bytes);
            if (c == cudaSuccess) c = cudaMemset(v.buf[i], 0, bytes);
        }
        if (c == cudaSuccess) c = cudaStreamCreateWithFlags(&v.stream, cudaStreamNonBlocking);
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
        life_lop3_bands_cut(e->words, v.rows, &life_lop3_default, prop.multiProcessorCount, &v.b);
        rc = life_lop3_module_load(engine_name, rule, 0, &v.m, err);
    }
    if (rc == CC_OK && e->devices > 1) {
        rc = load_nccl(&e->nccl, err);
        int ids[devices_max];
        for (int d = 0; d < e->devices; d++) ids[d] = e->dev[d].id;
        if (rc == CC_OK) {
            const ncclResult_t r = e->nccl.comm_init_all(e->comm, e->devices, ids);
            if (r != ncclSuccess) rc = nccl_fail(e, r, "ncclCommInitAll", err);
            else e->comms = e->devices;
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
    for (int d = 0; d < e->devices; d++) {
        device &v = e->dev[d];
        CC_CUDA_CHECK(engine_name, cudaSetDevice(v.id));
        CC_CUDA_CHECK(engine_name,
                      cudaMemcpy(row_of(v, 0, halo, e->words),
                                 e->host + (size_t)v.y0 * (size_t)e->words,
                                 (size_t)v.rows * (size_t)e->words * sizeof(uint32_t),
                                 cudaMemcpyHostToDevice));
    }
    return CC_OK;
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
    int rc = sync_all(e, err);
    if (rc != CC_OK) return rc;
    for (int d = 0; d < e->devices; d++) {
        device &v = e->dev[d];
        CC_CUDA_CHECK(engine_name, cudaSetDevice(v.id));
        CC_CUDA_CHECK(engine_name,
                      cudaMemcpy(e->host + (size_t)v.y0 * (size_t)e->words,
                                 row_of(v, e->cur, halo, e->words),
                                 (size_t)v.rows * (size_t)e->words * sizeof(uint32_t),
                                 cudaMemcpyDeviceToHost));
    }
    const size_t words = (size_t)e->words * (size_t)e->h;
    for (size_t i = 0; i < words; i++) {
        uint8_t *c = cells + 32 * i;
        const uint32_t v = e->host[i];
        for (int b = 0; b < 32; b++) c[b] = (uint8_t)(v >> b & 1u);
    }
    return CC_OK;
}

extern "C" const char *life_lop3_nccl_device_name(void *ctx) { return ((multi *)ctx)->name; }
