// The host driver of every CUDA engine: device, grids, staging, the step loop and its timing.
#include <cuda_runtime.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/devices.h"
#include "engines/cuda/common/gpu.h"

struct cc_gpu {
    cc_gpu_layout layout; // layout.buffers is not kept: it is only read at create
    const cc_gpu_ops *ops;
    void *self;
    cc_gpu_info info;
    void *cur, *next; // the two grids, ping-pong
    uint8_t *staging;
    int64_t staging_rows;
    cudaEvent_t start, stop;
    int events; // both events were created
};

int cc_cuda_fail(cudaError_t status, const char *engine, const char *call, cc_error *err) {
    return cc_fail(err, CC_ERR_DEVICE, "%s: %s failed: %s", engine, call,
                   cudaGetErrorString(status));
}

int cc_cuda_launched(cc_error *err, const char *engine, const char *fmt, ...) {
    cudaError_t status = cudaGetLastError();
    if (status == cudaSuccess) return CC_OK;
    char kernel[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(kernel, sizeof kernel, fmt, ap);
    va_end(ap);
    return cc_fail(err, CC_ERR_DEVICE, "%s: launch of %s failed: %s", engine, kernel,
                   cudaGetErrorString(status));
}

extern "C" int cc_gpu_describe(char *buf, size_t size, cc_error *err) {
    int rc = cc_gpu_available(err);
    if (rc) return rc;
    cudaDeviceProp prop;
    int driver = 0, runtime = 0;
    cudaError_t status = cudaGetDeviceProperties(&prop, 0);
    if (status == cudaSuccess) status = cudaDriverGetVersion(&driver);
    if (status == cudaSuccess) status = cudaRuntimeGetVersion(&runtime);
    if (status != cudaSuccess)
        return cc_fail(err, CC_ERR_DEVICE, "describing device 0: %s", cudaGetErrorString(status));
    snprintf(buf, size, "%s (sm_%d%d), CUDA driver %d.%d, runtime %d.%d", prop.name, prop.major,
             prop.minor, driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    return CC_OK;
}

extern "C" int cc_gpu_versions(int *driver, int *runtime, cc_error *err) {
    *driver = *runtime = 0;
    cudaError_t status = cudaDriverGetVersion(driver);
    if (status == cudaSuccess) status = cudaRuntimeGetVersion(runtime);
    if (status != cudaSuccess)
        return cc_fail(err, CC_ERR_DEVICE, "querying the CUDA versions: %s",
                       cudaGetErrorString(status));
    return CC_OK;
}

// Why the runtime found no device, in words that say what is true: the runtime reports a missing
// driver and an old one alike as "insufficient", and cudaDriverGetVersion tells them apart (0
// where no driver is installed).
static int no_device(cudaError_t status, cc_error *err) {
    if (status == cudaErrorInsufficientDriver) {
        int driver = 0;
        if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0)
            return cc_fail(err, CC_ERR_UNAVAILABLE,
                           "no CUDA driver (libcuda.so.1 is not installed or cannot be loaded)");
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "CUDA driver too old for CUDA %d: it supports CUDA %d.%d, this build needs "
                       "%d.%d",
                       CUDART_VERSION / 1000, driver / 1000, driver % 1000 / 10,
                       CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    }
    if (status == cudaErrorNoDevice || status == cudaSuccess)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "no CUDA device (the driver sees none)");
    return cc_fail(err, CC_ERR_UNAVAILABLE, "no usable CUDA device: %s",
                   cudaGetErrorString(status));
}

extern "C" int cc_gpu_available(cc_error *err) {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess || count < 1) return no_device(status, err);
    cudaDeviceProp prop;
    status = cudaGetDeviceProperties(&prop, 0);
    if (status != cudaSuccess)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "cudaGetDeviceProperties(device 0) failed: %s",
                       cudaGetErrorString(status));
    if (prop.major < CC_GPU_CC_MAJOR ||
        (prop.major == CC_GPU_CC_MAJOR && prop.minor < CC_GPU_CC_MINOR))
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "device 0 (%s) has compute capability %d.%d; %d.%d or newer is needed",
                       prop.name, prop.major, prop.minor, CC_GPU_CC_MAJOR, CC_GPU_CC_MINOR);
    return CC_OK;
}

extern "C" int cc_gpu_devices(int32_t *count, cc_error *err) {
    *count = 0;
    int visible = 0;
    const cudaError_t status = cudaGetDeviceCount(&visible);
    if (status != cudaSuccess || visible < 1) return no_device(status, err);
    const int n = cc_devices_setting(visible);
    if (n < 0)
        return cc_fail(err, CC_ERR_ARG, "CELLCHECK_DEVICES=%s: not a number from 1 to the %d "
                                        "visible devices",
                       getenv("CELLCHECK_DEVICES"), visible);
    *count = n < CC_DEVICES_MAX ? n : CC_DEVICES_MAX;
    return CC_OK;
}

extern "C" void cc_gpu_destroy(void *ctx) {
    cc_gpu *g = (cc_gpu *)ctx;
    if (!g) return;
    // Teardown cannot report: a failure here leaves nothing for the caller to do. The frees
    // belong to the context's device, which another context may have left unselected.
    (void)cudaSetDevice(g->layout.device);
    if (g->self && g->ops->release) g->ops->release(g->self);
    if (g->cur) (void)cudaFree(g->cur);
    if (g->next) (void)cudaFree(g->next);
    if (g->staging) (void)cudaFree(g->staging);
    if (g->events) {
        (void)cudaEventDestroy(g->start);
        (void)cudaEventDestroy(g->stop);
    }
    free(g);
}

static int gpu_setup(cc_gpu *g, const char *buffers, cc_error *err) {
    const cc_gpu_layout *l = &g->layout;
    const char *engine = l->engine;
    size_t staging = 0;
    if (l->staged) {
        const size_t cells = (size_t)l->w * (size_t)l->h;
        staging = cells < CC_GPU_STAGING_MAX ? cells : CC_GPU_STAGING_MAX;
        g->staging_rows = (int64_t)(staging / (size_t)l->w);
        if (g->staging_rows < 1) g->staging_rows = 1;
        staging = (size_t)g->staging_rows * (size_t)l->w;
    }
    const size_t needed = 2 * l->grid_bytes + staging + l->extra_bytes;

    CC_CUDA_CHECK(engine, cudaSetDevice(l->device));
    cudaDeviceProp prop;
    CC_CUDA_CHECK(engine, cudaGetDeviceProperties(&prop, l->device));
    snprintf(g->info.name, sizeof g->info.name, "%s", prop.name);
    g->info.multiprocessors = prop.multiProcessorCount;
    g->info.shared_per_block_optin = (size_t)prop.sharedMemPerBlockOptin;
    size_t free_bytes = 0, total_bytes = 0;
    CC_CUDA_CHECK(engine, cudaMemGetInfo(&free_bytes, &total_bytes));
    if (needed > free_bytes)
        return cc_fail(err, CC_ERR_NOMEM,
                       "%s: a %dx%d grid needs %zu bytes on the device (%s), but only %zu of its "
                       "%zu bytes are free",
                       engine, (int)l->w, (int)l->h, needed, buffers ? buffers : "two copies",
                       free_bytes, total_bytes);

    CC_CUDA_CHECK(engine, cudaMalloc(&g->cur, l->grid_bytes));
    CC_CUDA_CHECK(engine, cudaMalloc(&g->next, l->grid_bytes));
    if (staging > 0) CC_CUDA_CHECK(engine, cudaMalloc((void **)&g->staging, staging));
    CC_CUDA_CHECK(engine, cudaMemset(g->cur, 0, l->grid_bytes));
    CC_CUDA_CHECK(engine, cudaMemset(g->next, 0, l->grid_bytes));
    CC_CUDA_CHECK(engine, cudaEventCreate(&g->start));
    cudaError_t status = cudaEventCreate(&g->stop);
    if (status != cudaSuccess) {
        (void)cudaEventDestroy(g->start);
        return cc_cuda_fail(status, engine, "cudaEventCreate(&g->stop)", err);
    }
    g->events = 1;
    return CC_OK;
}

extern "C" int cc_gpu_create(const cc_gpu_layout *layout, const cc_gpu_ops *ops, void *self,
                             cc_gpu **out, cc_error *err) {
    *out = NULL;
    const char *engine = layout->engine;
    int bad = layout->w < 1 || layout->h < 1 || !ops || (!ops->step && !ops->steps);
    if (!bad && layout->staged) bad = !ops->load_rows || !ops->store_rows;
    if (!bad && !layout->staged)
        bad = layout->pitch < layout->lead + (size_t)layout->w ||
              layout->grid_bytes < layout->pitch * (size_t)layout->h;
    if (!bad && layout->row_bytes)
        bad = layout->row0_offset + layout->row_bytes * (size_t)layout->h > layout->grid_bytes;
    if (!bad) bad = layout->device < 0;
    if (bad) {
        if (ops && ops->release && self) ops->release(self);
        return cc_fail(err, CC_ERR_ARG,
                       "%s: bad device layout (%dx%d on device %d, %zu bytes a grid, pitch %zu, "
                       "lead %zu, rows of %zu bytes from %zu)",
                       engine, (int)layout->w, (int)layout->h, layout->device,
                       layout->grid_bytes, layout->pitch, layout->lead, layout->row_bytes,
                       layout->row0_offset);
    }
    cc_gpu *g = (cc_gpu *)calloc(1, sizeof *g);
    if (!g) {
        if (ops->release && self) ops->release(self);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine);
    }
    g->layout = *layout;
    g->layout.buffers = NULL;
    g->ops = ops;
    g->self = self;
    int rc = gpu_setup(g, layout->buffers, err);
    if (rc) {
        cc_gpu_destroy(g);
        return rc;
    }
    *out = g;
    return CC_OK;
}

extern "C" const cc_gpu_info *cc_gpu_device(const cc_gpu *gpu) { return &gpu->info; }

extern "C" int cc_gpu_persistent_grid(const cc_gpu *gpu, const void *kernel, int threads,
                                      size_t smem, int64_t tiles, int *grid, cc_error *err) {
    const char *engine = gpu->layout.engine;
    CC_CUDA_CHECK(engine, cudaSetDevice(gpu->layout.device));
    if (smem > gpu->info.shared_per_block_optin)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: the tile needs %zu bytes of shared memory; %s allows %zu a block",
                       engine, smem, gpu->info.name, gpu->info.shared_per_block_optin);
    /* The attribute belongs to the kernel, not to this context: set to this context's need, a
     * second live context needing less would lower it under the first, whose launches then fail
     * ("invalid argument"; found by the two-context call pattern). The device's whole opt-in
     * allows every context's launch. */
    if (smem > 0)
        CC_CUDA_CHECK(engine, cudaFuncSetAttribute(kernel,
                                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   (int)gpu->info.shared_per_block_optin));
    int per_sm = 0;
    CC_CUDA_CHECK(engine,
                  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    if (per_sm < 1)
        return cc_fail(err, CC_ERR_DEVICE, "%s: the step kernel cannot be resident on %s", engine,
                       gpu->info.name);
    const int64_t resident = (int64_t)per_sm * gpu->info.multiprocessors;
    *grid = (int)(resident < tiles ? resident : tiles);
    return CC_OK;
}

extern "C" int cc_gpu_load(void *ctx, const uint8_t *cells, cc_error *err) {
    cc_gpu *g = (cc_gpu *)ctx;
    const cc_gpu_layout *l = &g->layout;
    int rc;
    CC_CUDA_CHECK(l->engine, cudaSetDevice(l->device));
    if (l->staged) {
        const size_t w = (size_t)l->w;
        for (int64_t y0 = 0; y0 < l->h; y0 += g->staging_rows) {
            const int64_t rows = l->h - y0 < g->staging_rows ? l->h - y0 : g->staging_rows;
            const int64_t count = rows * (int64_t)w;
            CC_CUDA_CHECK(l->engine, cudaMemcpy(g->staging, cells + (size_t)y0 * w, (size_t)count,
                                                cudaMemcpyHostToDevice));
            if ((rc = g->ops->load_rows(g->self, g->cur, g->staging, y0, count, err))) return rc;
        }
    } else {
        CC_CUDA_CHECK(l->engine,
                      cudaMemcpy2D((uint8_t *)g->cur + l->lead, l->pitch, cells, (size_t)l->w,
                                   (size_t)l->w, (size_t)l->h, cudaMemcpyHostToDevice));
    }
    if (g->ops->refresh) {
        if ((rc = g->ops->refresh(g->self, g->cur, err))) return rc;
    }
    if (l->staged || g->ops->refresh) CC_CUDA_CHECK(l->engine, cudaDeviceSynchronize());
    return CC_OK;
}

extern "C" int cc_gpu_store(void *ctx, uint8_t *cells, cc_error *err) {
    cc_gpu *g = (cc_gpu *)ctx;
    const cc_gpu_layout *l = &g->layout;
    CC_CUDA_CHECK(l->engine, cudaSetDevice(l->device));
    if (!l->staged) {
        CC_CUDA_CHECK(l->engine,
                      cudaMemcpy2D(cells, (size_t)l->w, (const uint8_t *)g->cur + l->lead,
                                   l->pitch, (size_t)l->w, (size_t)l->h, cudaMemcpyDeviceToHost));
        return CC_OK;
    }
    const size_t w = (size_t)l->w;
    for (int64_t y0 = 0; y0 < l->h; y0 += g->staging_rows) {
        const int64_t rows = l->h - y0 < g->staging_rows ? l->h - y0 : g->staging_rows;
        const int64_t count = rows * (int64_t)w;
        int rc = g->ops->store_rows(g->self, g->staging, g->cur, y0, count, err);
        if (rc) return rc;
        CC_CUDA_CHECK(l->engine, cudaMemcpy(cells + (size_t)y0 * w, g->staging, (size_t)count,
                                            cudaMemcpyDeviceToHost));
    }
    return CC_OK;
}

// Launches k steps on the default stream without waiting for them.
static int gpu_launch(cc_gpu *g, int64_t k, cc_error *err) {
    for (int64_t s = 0; s < k;) {
        int64_t done = 1;
        int rc = g->ops->steps ? g->ops->steps(g->self, g->cur, g->next, k - s, &done, err)
                               : g->ops->step(g->self, g->cur, g->next, err);
        if (rc) return rc;
        if (done < 1 || done > k - s)
            return cc_fail(err, CC_ERR_DEVICE, "%s: a launch reported %lld steps of the %lld asked",
                           g->layout.engine, (long long)done, (long long)(k - s));
        s += done;
        void *t = g->cur;
        g->cur = g->next;
        g->next = t;
    }
    return CC_OK;
}

extern "C" int cc_gpu_step(void *ctx, int64_t k, cc_error *err) {
    cc_gpu *g = (cc_gpu *)ctx;
    CC_CUDA_CHECK(g->layout.engine, cudaSetDevice(g->layout.device));
    int rc = gpu_launch(g, k, err);
    if (rc) return rc;
    CC_CUDA_CHECK(g->layout.engine, cudaDeviceSynchronize());
    return CC_OK;
}

extern "C" int cc_gpu_timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    cc_gpu *g = (cc_gpu *)ctx;
    const char *engine = g->layout.engine;
    CC_CUDA_CHECK(engine, cudaSetDevice(g->layout.device));
    CC_CUDA_CHECK(engine, cudaEventRecord(g->start, 0));
    int rc = gpu_launch(g, k, err);
    if (rc) return rc;
    CC_CUDA_CHECK(engine, cudaEventRecord(g->stop, 0));
    CC_CUDA_CHECK(engine, cudaEventSynchronize(g->stop));
    float elapsed = 0.0f;
    CC_CUDA_CHECK(engine, cudaEventElapsedTime(&elapsed, g->start, g->stop));
    *ms = (double)elapsed;
    return CC_OK;
}

extern "C" const char *cc_gpu_device_name(void *ctx) { return ((cc_gpu *)ctx)->info.name; }

extern "C" int cc_gpu_launch(cc_gpu *gpu, int64_t k, cc_error *err) {
    CC_CUDA_CHECK(gpu->layout.engine, cudaSetDevice(gpu->layout.device));
    return gpu_launch(gpu, k, err);
}

extern "C" int cc_gpu_refresh(cc_gpu *gpu, cc_error *err) {
    if (!gpu->ops->refresh) return CC_OK;
    CC_CUDA_CHECK(gpu->layout.engine, cudaSetDevice(gpu->layout.device));
    return gpu->ops->refresh(gpu->self, gpu->cur, err);
}

extern "C" void *cc_gpu_row(const cc_gpu *gpu, int64_t y) {
    const cc_gpu_layout *l = &gpu->layout;
    if (!l->row_bytes) return NULL;
    return (uint8_t *)gpu->cur + l->row0_offset + (size_t)y * l->row_bytes;
}

extern "C" const cc_gpu_layout *cc_gpu_layout_of(const cc_gpu *gpu) { return &gpu->layout; }
