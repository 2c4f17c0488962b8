// example.cuda-threshold's device code: one thread per cell, global memory, a threshold kernel
// (SMIN..SMAX, BMIN..BMAX) on an n x n torus. Built with -DEXAMPLE_WRONG_OFFSET32 its cell offsets
// are 32-bit, the mistake that only grids past 2^32 cells show; certify must catch that version.
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "threshold_gpu.h"

#ifdef EXAMPLE_WRONG_OFFSET32
typedef uint32_t offset_t;
#else
typedef size_t offset_t;
#endif

struct gpu_threshold {
    int n, r, centre, smin, smax, bmin, bmax;
    uint8_t *cur, *next;
};

__global__ void threshold_kernel(const uint8_t *in, uint8_t *out, int n, int r, int centre,
                                 int smin, int smax, int bmin, int bmax) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n) return;
    int count = 0;
    for (int dy = -r; dy <= r; dy++) {
        const int yy = (y + dy + n) % n;
        for (int dx = -r; dx <= r; dx++)
            count += in[(offset_t)yy * (offset_t)n + (offset_t)((x + dx + n) % n)];
    }
    const offset_t i = (offset_t)y * (offset_t)n + (offset_t)x;
    const int alive = in[i];
    if (!centre) count -= alive;
    out[i] = alive ? (count >= smin && count <= smax) : (count >= bmin && count <= bmax);
}

static int failed(cc_error *err, const char *what, cudaError_t e) {
    return cc_fail(err, CC_ERR_DEVICE, "example.cuda-threshold: %s: %s", what,
                   cudaGetErrorString(e));
}

extern "C" int gpu_threshold_available(cc_error *err) {
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "example.cuda-threshold: no CUDA device: %s",
                       e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    return CC_OK;
}

extern "C" void gpu_threshold_destroy(void *p) {
    gpu_threshold *t = (gpu_threshold *)p;
    if (!t) return;
    cudaFree(t->cur);
    cudaFree(t->next);
    free(t);
}

extern "C" int gpu_threshold_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                    cc_error *err) {
    (void)h; /* the caps make h == w */
    gpu_threshold *t = (gpu_threshold *)calloc(1, sizeof *t);
    if (!t) return cc_fail(err, CC_ERR_NOMEM, "example.cuda-threshold: no memory");
    t->n = w;
    t->r = rule->radius;
    t->centre = rule->centre;
    cc_set_hull(&rule->survive, &t->smin, &t->smax);
    cc_set_hull(&rule->birth, &t->bmin, &t->bmax);
    const size_t bytes = (size_t)w * (size_t)w;
    size_t free_bytes = 0, total = 0;
    cudaError_t e = cudaMemGetInfo(&free_bytes, &total);
    if (e != cudaSuccess) {
        gpu_threshold_destroy(t);
        return failed(err, "cudaMemGetInfo", e);
    }
    if (2 * bytes > free_bytes) {
        gpu_threshold_destroy(t);
        return cc_fail(err, CC_ERR_NOMEM,
                       "example.cuda-threshold: %dx%d needs %zu bytes, %zu are free", (int)w,
                       (int)w, 2 * bytes, free_bytes);
    }
    if ((e = cudaMalloc(&t->cur, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&t->next, bytes)) != cudaSuccess) {
        gpu_threshold_destroy(t);
        return failed(err, "cudaMalloc", e);
    }
    *ctx = t;
    return CC_OK;
}

extern "C" int gpu_threshold_load(void *p, const uint8_t *cells, cc_error *err) {
    gpu_threshold *t = (gpu_threshold *)p;
    cudaError_t e = cudaMemcpy(t->cur, cells, (size_t)t->n * (size_t)t->n, cudaMemcpyHostToDevice);
    return e == cudaSuccess ? CC_OK : failed(err, "load", e);
}

extern "C" int gpu_threshold_store(void *p, uint8_t *cells, cc_error *err) {
    gpu_threshold *t = (gpu_threshold *)p;
    cudaError_t e = cudaMemcpy(cells, t->cur, (size_t)t->n * (size_t)t->n, cudaMemcpyDeviceToHost);
    return e == cudaSuccess ? CC_OK : failed(err, "store", e);
}

extern "C" int gpu_threshold_step(void *p, int64_t k, cc_error *err) {
    gpu_threshold *t = (gpu_threshold *)p;
    const dim3 block(32, 8), grid((t->n + 31) / 32, (t->n + 7) / 8);
    for (int64_t s = 0; s < k; s++) {
        threshold_kernel<<<grid, block>>>(t->cur, t->next, t->n, t->r, t->centre, t->smin,
                                          t->smax, t->bmin, t->bmax);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return failed(err, "threshold_kernel launch", e);
        uint8_t *swap = t->cur;
        t->cur = t->next;
        t->next = swap;
    }
    cudaError_t e = cudaDeviceSynchronize();
    return e == cudaSuccess ? CC_OK : failed(err, "threshold_kernel", e);
}
