// cuda.life-lop3's host side: the rule's kernels loaded from specialised PTX, the bands, the
// launches, and the packing of portable rows into words and back.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life_lop3/life_lop3.h"
#include "engines/cuda/life_lop3/life_lop3_module.cuh"
#include "engines/cuda/life_lop3/life_lop3_ptx.h"
extern "C" {
#include "engines/lifenet/lifenet.h"
}

namespace {

const char engine_name[] = "cuda.life-lop3";
constexpr int pack_threads = 256;
constexpr int max_blocks = 65535;
constexpr int narrow_threads = 256;

struct lop3 {
    int32_t w, h, words;
    int narrow;                    // W not a multiple of 32: the one-step kernel
    life_lop3_bands b;
    int threads;
    life_lop3_module m; // the grid's kernels: the streaming pair, or the narrow one
};

// Rows y0 .. y0 + rows - 1 of staged cells into words: a thread a word.
__global__ void pack_kernel(uint32_t *grid, const uint8_t *staging, int32_t w, int32_t words,
                            int64_t y0, int64_t rows) {
    const int64_t total = rows * words;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t dy = i / words;
        const int32_t j = (int32_t)(i % words);
        const uint8_t *src = staging + (size_t)dy * (size_t)w + (size_t)j * 32;
        const int32_t n = w - 32 * j < 32 ? w - 32 * j : 32;
        uint32_t word = 0;
        for (int32_t b = 0; b < n; b++) word |= (uint32_t)(src[b] & 1u) << b;
        grid[(size_t)(y0 + dy) * (size_t)words + (size_t)j] = word;
    }
}

__global__ void unpack_kernel(uint8_t *staging, const uint32_t *grid, int32_t w, int32_t words,
                              int64_t y0, int64_t rows) {
    const int64_t total = rows * words;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t dy = i / words;
        const int32_t j = (int32_t)(i % words);
        uint8_t *dst = staging + (size_t)dy * (size_t)w + (size_t)j * 32;
        const int32_t n = w - 32 * j < 32 ? w - 32 * j : 32;
        const uint32_t word = grid[(size_t)(y0 + dy) * (size_t)words + (size_t)j];
        for (int32_t b = 0; b < n; b++) dst[b] = (uint8_t)(word >> b & 1u);
    }
}

int load_rows(void *self, void *grid, const uint8_t *staging, int64_t y0, int64_t count,
              cc_error *err) {
    const lop3 *e = (const lop3 *)self;
    const int64_t rows = count / e->w;
    pack_kernel<<<cc_cuda_blocks(rows * e->words, pack_threads, max_blocks), pack_threads>>>(
        (uint32_t *)grid, staging, e->w, e->words, y0, rows);
    return cc_cuda_launched(err, engine_name, "pack_kernel");
}

int store_rows(void *self, uint8_t *staging, const void *grid, int64_t y0, int64_t count,
               cc_error *err) {
    const lop3 *e = (const lop3 *)self;
    const int64_t rows = count / e->w;
    unpack_kernel<<<cc_cuda_blocks(rows * e->words, pack_threads, max_blocks), pack_threads>>>(
        staging, (const uint32_t *)grid, e->w, e->words, y0, rows);
    return cc_cuda_launched(err, engine_name, "unpack_kernel");
}

int steps(void *self, const void *in, void *out, int64_t k, int64_t *done, cc_error *err) {
    lop3 *e = (lop3 *)self;
    const void *src = in;
    void *dst = out;
    if (e->narrow) {
        *done = 1;
        void *args[] = {&src, &dst, &e->w, &e->h, &e->words};
        const unsigned blocks =
            cc_cuda_blocks((int64_t)e->words * e->h, narrow_threads, 1 << 20);
        const cudaError_t launched = cudaLaunchKernel(
            (const void *)e->m.narrow, dim3(blocks), dim3(narrow_threads), args, 0, 0);
        if (launched != cudaSuccess)
            return cc_cuda_fail(launched, engine_name, "cudaLaunchKernel(life_lop3_narrow)", err);
        return cc_cuda_launched(err, engine_name, "life_lop3_narrow");
    }
    // What is left after whole launches goes a step at a time.
    const int full = k >= LIFE_LOP3_STEPS;
    *done = full ? LIFE_LOP3_STEPS : 1;
    return life_lop3_launch_stream(engine_name, -1, &e->m, &e->b, e->threads, full, src, dst,
                                   e->words, e->h, 0, e->h, 0, err);
}

void release(void *self) {
    lop3 *e = (lop3 *)self;
    life_lop3_module_unload(&e->m);
    free(e);
}

const cc_gpu_ops lop3_ops = {nullptr, nullptr, load_rows, store_rows, release, steps};


} // namespace

int life_lop3_module_load(const char *engine, const cc_rule *rule, int narrow,
                          life_lop3_module *m, cc_error *err) {
    *m = life_lop3_module{};
    lifenet net;
    int rc = lifenet_build(rule, &net, err);
    if (rc != CC_OK) return rc;
    char *ptx = NULL;
    int sites = 0;
    const int hex = rule->shape == CC_SHAPE_HEX;
    const char *kernels = narrow ? (hex ? life_lop3_narrow_hex_ptx : life_lop3_narrow_ptx)
                                 : (hex ? life_lop3_stream_hex_ptx : life_lop3_stream_ptx);
    rc = life_lop3_ptx_specialise(kernels, &net, &ptx, &sites, err);
    if (rc != CC_OK) return rc;
    char log[2048] = "";
    cudaJitOption options[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
    void *values[] = {log, (void *)(uintptr_t)sizeof log};
    const cudaError_t loaded =
        cudaLibraryLoadData(&m->library, ptx, options, values, 2, nullptr, nullptr, 0);
    free(ptx);
    if (loaded != cudaSuccess) {
        m->library = nullptr;
        return cc_fail(err, CC_ERR_DEVICE,
                       "%s: the driver did not compile the rule's kernels (%d gates at %d "
                       "places): %s; %s",
                       engine, net.gates, sites, cudaGetErrorString(loaded), log);
    }
    cudaError_t found = narrow ? cudaLibraryGetKernel(&m->narrow, m->library, "life_lop3_narrow")
                               : cudaLibraryGetKernel(&m->stream, m->library, "life_lop3_stream");
    if (found == cudaSuccess && !narrow)
        found = cudaLibraryGetKernel(&m->stream1, m->library, "life_lop3_stream1");
    if (found != cudaSuccess) {
        life_lop3_module_unload(m);
        return cc_cuda_fail(found, engine, "cudaLibraryGetKernel", err);
    }
    return CC_OK;
}

void life_lop3_module_unload(life_lop3_module *m) {
    if (m->library) cudaLibraryUnload(m->library);
    m->library = nullptr;
}

int life_lop3_launch_stream(const char *engine, int device, const life_lop3_module *m,
                            const life_lop3_bands *b, int threads, int full, const void *src,
                            void *dst, int32_t words, int32_t h, int32_t y_first, int32_t y_count,
                            cudaStream_t stream, cc_error *err) {
    life_lop3_bands bands = *b;
    void *args[] = {&src,    &dst,            &words,        &h,          &y_first,
                    &y_count, &bands.band_rows, &bands.groups, &bands.warps};
    const unsigned blocks = (unsigned)((bands.warps * 32 + threads - 1) / threads);
    const char *kernel = full ? "life_lop3_stream" : "life_lop3_stream1";
    const cudaError_t launched =
        cudaLaunchKernel((const void *)(full ? m->stream : m->stream1), dim3(blocks),
                         dim3((unsigned)threads), args, 0, stream);
    if (launched != cudaSuccess)
        return cc_cuda_fail(launched, engine,
                            full ? "cudaLaunchKernel(life_lop3_stream)"
                                 : "cudaLaunchKernel(life_lop3_stream1)",
                            err);
    if (device < 0) return cc_cuda_launched(err, engine, "%s", kernel);
    return cc_cuda_launched(err, engine, "%s on device %d", kernel, device);
}

void life_lop3_bands_cut(int32_t words, int32_t rows, const life_lop3_config *cfg,
                         int multiprocessors, life_lop3_bands *b) {
    b->groups = (words + 29) / 30;
    const int64_t want = (int64_t)cfg->warps_per_sm * multiprocessors;
    int64_t bands = (want + b->groups - 1) / b->groups;
    if (bands < 1) bands = 1;
    int64_t band = ((int64_t)rows + bands - 1) / bands;
    if (band < cfg->band_min) band = cfg->band_min;
    if (band > cfg->band_max) band = cfg->band_max;
    if (band > rows) band = rows;
    b->band_rows = (int32_t)band;
    b->bands = (int32_t)(((int64_t)rows + band - 1) / band);
    b->warps = (int64_t)b->groups * b->bands;
}

// 48 warps a multiprocessor against 24 (life_lop3_compare, H200, Life; ms a step): 8192^2 0.0046
// against 0.0056, 16384^2 0.0133 against 0.0130, 32768^2 0.0420 against 0.0435, 65536 x 32768 (a
// slab of two devices) 0.0794 against 0.0857, 65536^2 0.1537 against 0.1553. Bands of at least
// 96 rows: 32 made 16384^2 24 % slower, as each band also streams about 37 rows it does not write.
// With the levels idle where the stream starts and ends (H200, 16384^2): 48, 64, 80, 96, 112 and
// 128 rows 0.0118, 0.0117, 0.0110, 0.0111, 0.0109 and 0.0121 ms; 24 and 32 warps no faster.
extern "C" const life_lop3_config life_lop3_default = {64, 48, 96, 1024};

extern "C" int life_lop3_create(const life_lop3_config *cfg, const cc_rule *rule, int32_t w,
                                int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    if ((rule->shape != CC_SHAPE_MOORE && rule->shape != CC_SHAPE_HEX) || rule->radius != 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: only the Moore and hexagonal neighbourhoods of radius 1", engine_name);
    if (cfg->threads < 32 || cfg->threads > 256 || cfg->threads % 32 || cfg->warps_per_sm < 1 ||
        cfg->band_min < 1 || cfg->band_max < cfg->band_min)
        return cc_fail(err, CC_ERR_ARG,
                       "%s: a block of %d threads, %d warps a multiprocessor, bands of %d .. %d "
                       "rows",
                       engine_name, (int)cfg->threads, (int)cfg->warps_per_sm,
                       (int)cfg->band_min, (int)cfg->band_max);
    lop3 *e = (lop3 *)calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine_name);
    e->w = w;
    e->h = h;
    e->words = (w + 31) / 32;
    e->narrow = w % 32 != 0;
    e->threads = cfg->threads;
    cc_gpu_layout layout = {};
    layout.engine = engine_name;
    layout.w = w;
    layout.h = h;
    layout.grid_bytes = (size_t)e->words * (size_t)h * sizeof(uint32_t);
    layout.staged = 1;
    layout.buffers = "two copies of 32-bit words, a bit a cell";
    cc_gpu *gpu = NULL;
    int rc = cc_gpu_create(&layout, &lop3_ops, e, &gpu, err);
    if (rc != CC_OK) return rc;
    life_lop3_bands_cut(e->words, h, cfg, cc_gpu_device(gpu)->multiprocessors, &e->b);
    rc = life_lop3_module_load(engine_name, rule, e->narrow, &e->m, err);
    if (rc != CC_OK) {
        cc_gpu_destroy(gpu);
        return rc;
    }
    *ctx = gpu;
    return CC_OK;
}

extern "C" int cuda_life_lop3_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                     cc_error *err) {
    return life_lop3_create(&life_lop3_default, rule, w, h, ctx, err);
}
