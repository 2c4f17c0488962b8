// cuda.life-lop3-ranks's host side (life_lop3_ranks.h): one rank's slab on its device, halos by
// NCCL between processes.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/nccl_ranks.cuh"
#include "engines/cuda/life_lop3/life_lop3_module.cuh"
#include "engines/cuda/life_lop3/life_lop3_nccl.h"
#include "engines/cuda/life_lop3/life_lop3_ranks.h"
extern "C" {
#include "engines/slabs/slabs.h"
}

namespace {

const char engine_name[] = "cuda.life-lop3-ranks";
constexpr int32_t halo = LIFE_LOP3_NCCL_EXCHANGE_STEPS;

struct rank_engine {
    int32_t w, h, words;
    int32_t me, rows, buffer_rows; // its slab, and the buffer: halo + rows + halo
    int device;
    cc_slabs slabs;
    uint32_t *buf[2];
    int cur;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    life_lop3_module m;
    int multiprocessors;
    cc_nccl_rank nccl;
    uint32_t *host; // words * rows, for load and store
    char name[320];
};

void *row_of(void *ctx, int32_t row) {
    const rank_engine *e = (const rank_engine *)ctx;
    return e->buf[e->cur] + (size_t)row * (size_t)e->words;
}

// One launch: `full` LIFE_LOP3_STEPS steps, else one, over the own rows and `beyond` halo rows
// either side, which are then exact for the launches after it.
int launch(rank_engine *e, int full, int32_t beyond, cc_error *err) {
    const int in = e->cur, out = 1 - e->cur;
    life_lop3_bands b;
    life_lop3_bands_cut(e->words, e->rows + 2 * beyond, &life_lop3_default, e->multiprocessors,
                        &b);
    const int rc = life_lop3_launch_stream(engine_name, e->device, &e->m, &b,
                                           life_lop3_default.threads, full, e->buf[in],
                                           e->buf[out], e->words, e->buffer_rows, halo - beyond,
                                           e->rows + 2 * beyond, e->stream, err);
    if (rc == CC_OK) e->cur = out;
    return rc;
}

// As cuda.life-lop3-nccl: an exchange, then launches while the halo left exact suffices.
int run(rank_engine *e, int64_t k, cc_error *err) {
    int32_t exact = 0;
    while (k > 0) {
        const int full = k >= LIFE_LOP3_STEPS;
        const int32_t s = full ? LIFE_LOP3_STEPS : 1;
        int rc = CC_OK;
        if (s > exact) {
            rc = cc_nccl_rank_exchange(&e->nccl, engine_name, &e->slabs, e->me, e->stream,
                                       (size_t)e->words * sizeof(uint32_t), row_of, e, err);
            exact = halo;
        }
        exact -= s;
        if (rc == CC_OK) rc = launch(e, full, exact, err);
        if (rc != CC_OK) return rc;
        k -= s;
    }
    return CC_OK;
}

int wait(rank_engine *e, cc_error *err) {
    CC_CUDA_CHECK(engine_name, cudaStreamSynchronize(e->stream));
    return CC_OK;
}

int make(const cc_rule *rule, int32_t w, int32_t h, const cc_rank *rank, rank_engine **out,
         cc_error *err) {
    rank_engine *e = (rank_engine *)calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine_name);
    *out = e;
    e->w = w;
    e->h = h;
    e->words = w / 32;
    e->me = rank->rank;
    e->rows = rank->rows;
    e->buffer_rows = e->rows + 2 * halo;
    int rc = cc_slabs_cut(h, rank->ranks, halo, &e->slabs, err);
    if (rc != CC_OK) return rc;
    const size_t bytes = (size_t)e->buffer_rows * (size_t)e->words * sizeof(uint32_t);
    e->host = (uint32_t *)malloc((size_t)e->words * (size_t)e->rows * sizeof(uint32_t));
    if (!e->host)
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate %dx%d bits on the host",
                       engine_name, (int)w, (int)e->rows);
    int count = 0;
    cudaError_t c = cudaGetDeviceCount(&count);
    if (c != cudaSuccess) return cc_cuda_fail(c, engine_name, "cudaGetDeviceCount", err);
    if (rank->device >= count)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: rank %d's device %d; %d are visible",
                       engine_name, (int)rank->rank, (int)rank->device, count);
    e->device = rank->device;
    size_t free_bytes = 0, total = 0;
    c = cudaSetDevice(e->device);
    if (c == cudaSuccess) c = cudaMemGetInfo(&free_bytes, &total);
    if (c != cudaSuccess) return cc_cuda_fail(c, engine_name, "cudaSetDevice/cudaMemGetInfo", err);
    if (2 * bytes > free_bytes)
        return cc_fail(err, CC_ERR_NOMEM,
                       "%s: rank %d's slab (%d rows and two halos of %d, twice) needs %zu bytes; "
                       "%zu are free on device %d",
                       engine_name, (int)e->me, (int)e->rows, (int)halo, 2 * bytes, free_bytes,
                       e->device);
    // Zeroed on the slab's own stream, which a legacy-stream memset would not order.
    c = cudaStreamCreateWithFlags(&e->stream, cudaStreamNonBlocking);
    for (int i = 0; i < 2 && c == cudaSuccess; i++) {
        c = cudaMalloc((void **)&e->buf[i], bytes);
        if (c == cudaSuccess) c = cudaMemsetAsync(e->buf[i], 0, bytes, e->stream);
    }
    if (c == cudaSuccess) c = cudaEventCreate(&e->start);
    if (c == cudaSuccess) c = cudaEventCreate(&e->stop);
    if (c != cudaSuccess) return cc_cuda_fail(c, engine_name, "device buffers", err);
    cudaDeviceProp prop;
    c = cudaGetDeviceProperties(&prop, e->device);
    if (c != cudaSuccess) return cc_cuda_fail(c, engine_name, "cudaGetDeviceProperties", err);
    e->multiprocessors = prop.multiProcessorCount;
    // As the in-process engine names its devices, so that one gate line reads both.
    snprintf(e->name, sizeof e->name, "%d x %s, one process each (rank %d)", (int)rank->ranks,
             prop.name, (int)e->me);
    if ((rc = life_lop3_module_load(engine_name, rule, 0, &e->m, err)) != CC_OK) return rc;
    if ((rc = wait(e, err)) != CC_OK) return rc;
    return cc_nccl_rank_open(&e->nccl, engine_name, rank, err);
}

} // namespace

extern "C" void life_lop3_ranks_destroy(void *ctx) {
    rank_engine *e = (rank_engine *)ctx;
    if (!e) return;
    cc_nccl_rank_close(&e->nccl);
    if (cudaSetDevice(e->device) == cudaSuccess) {
        life_lop3_module_unload(&e->m);
        for (int i = 0; i < 2; i++) cudaFree(e->buf[i]);
        if (e->stream) cudaStreamDestroy(e->stream);
        if (e->start) cudaEventDestroy(e->start);
        if (e->stop) cudaEventDestroy(e->stop);
    }
    cc_slabs_free(&e->slabs);
    free(e->host);
    free(e);
}

extern "C" int life_lop3_ranks_id(uint8_t *id, cc_error *err) {
    return cc_nccl_rank_id(engine_name, id, err);
}

extern "C" int life_lop3_ranks_rank_create(const cc_rule *rule, int32_t w, int32_t h,
                                           const cc_rank *rank, void **ctx, cc_error *err) {
    *ctx = NULL;
    rank_engine *e = NULL;
    const int rc = make(rule, w, h, rank, &e, err);
    if (rc != CC_OK) {
        life_lop3_ranks_destroy(e);
        return rc;
    }
    *ctx = e;
    return CC_OK;
}

extern "C" int life_lop3_ranks_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                      cc_error *err) {
    int device = 0;
    CC_CUDA_CHECK(engine_name, cudaGetDevice(&device));
    cc_rank one = {};
    one.ranks = 1;
    one.device = device;
    one.rows = h;
    return life_lop3_ranks_rank_create(rule, w, h, &one, ctx, err);
}

extern "C" int life_lop3_ranks_load(void *ctx, const uint8_t *cells, cc_error *err) {
    rank_engine *e = (rank_engine *)ctx;
    const size_t words = (size_t)e->words * (size_t)e->rows;
    for (size_t i = 0; i < words; i++) {
        const uint8_t *c = cells + 32 * i;
        uint32_t v = 0;
        for (int b = 0; b < 32; b++) v |= (uint32_t)(c[b] & 1u) << b;
        e->host[i] = v;
    }
    e->cur = 0;
    CC_CUDA_CHECK(engine_name, cudaSetDevice(e->device));
    CC_CUDA_CHECK(engine_name, cudaMemcpyAsync(row_of(e, halo), e->host, words * sizeof(uint32_t),
                                               cudaMemcpyHostToDevice, e->stream));
    return wait(e, err);
}

extern "C" int life_lop3_ranks_step(void *ctx, int64_t k, cc_error *err) {
    rank_engine *e = (rank_engine *)ctx;
    CC_CUDA_CHECK(engine_name, cudaSetDevice(e->device));
    int rc = run(e, k, err);
    return rc == CC_OK ? wait(e, err) : rc;
}

extern "C" int life_lop3_ranks_timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    rank_engine *e = (rank_engine *)ctx;
    *ms = 0;
    CC_CUDA_CHECK(engine_name, cudaSetDevice(e->device));
    int rc = wait(e, err);
    if (rc != CC_OK) return rc;
    CC_CUDA_CHECK(engine_name, cudaEventRecord(e->start, e->stream));
    if ((rc = run(e, k, err)) != CC_OK) return rc;
    CC_CUDA_CHECK(engine_name, cudaEventRecord(e->stop, e->stream));
    if ((rc = wait(e, err)) != CC_OK) return rc;
    float t = 0;
    CC_CUDA_CHECK(engine_name, cudaEventElapsedTime(&t, e->start, e->stop));
    *ms = t;
    return CC_OK;
}

extern "C" int life_lop3_ranks_store(void *ctx, uint8_t *cells, cc_error *err) {
    rank_engine *e = (rank_engine *)ctx;
    const size_t words = (size_t)e->words * (size_t)e->rows;
    CC_CUDA_CHECK(engine_name, cudaSetDevice(e->device));
    CC_CUDA_CHECK(engine_name, cudaMemcpyAsync(e->host, row_of(e, halo), words * sizeof(uint32_t),
                                               cudaMemcpyDeviceToHost, e->stream));
    int rc = wait(e, err);
    if (rc != CC_OK) return rc;
    for (size_t i = 0; i < words; i++) {
        uint8_t *c = cells + 32 * i;
        const uint32_t v = e->host[i];
        for (int b = 0; b < 32; b++) c[b] = (uint8_t)(v >> b & 1u);
    }
    return CC_OK;
}

extern "C" const char *life_lop3_ranks_device_name(void *ctx) {
    return ((rank_engine *)ctx)->name;
}
