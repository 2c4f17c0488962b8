// cuda.base's device code: the CAT paper's BASE. One thread per cell in 32 x 32 blocks, every
// neighbour read straight from global memory, one byte load each; no shared memory.
//
// Moore rules, the benchmark's workload, take a kernel specialised per radius: both loops are
// unrolled, so each neighbour is one load at a constant offset from its row's address and one
// add. Rows wrap once per row, not per neighbour; columns wrap only in the threads within r of
// the left or right edge, which take a second path. Other shapes take a general kernel that walks
// each row's interval of the neighbourhood.
#include <cuda_runtime.h>

#include <array>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utility>

#include "reference/cuda_base/cuda_base_kernels.h"
#include "engines/cuda/devgrid/probe.h"

struct cuda_base_device {
    int32_t w, h, r;
    int centre;
    int moore;             // the neighbourhood is the full square: the specialised kernel runs
    int32_t max_count;
    uint8_t *cur, *next;   // the two grids, ping-pong
    int32_t *row_lo, *row_hi; // 2r+1 each
    uint8_t *next_state;   // 2 * (max_count + 1)
    cudaEvent_t start, stop;
    int events;            // the events were created
    char name[256];
};

#define CUDA_BASE_CHECK(call)                                                                    \
    do {                                                                                         \
        cudaError_t cuda_base_status = (call);                                                   \
        if (cuda_base_status != cudaSuccess)                                                     \
            return cc_fail(err, CC_ERR_DEVICE, "cuda.base: %s failed: %s", #call,                \
                           cudaGetErrorString(cuda_base_status));                                \
    } while (0)

namespace {

constexpr int base_radius_max = 16;
constexpr int block = CUDA_BASE_BLOCK;
constexpr int grid_y_max = 65535;

// Grid rows y0 - R .. y0 + R of cell column x summed over columns x - R .. x + R. Rows and columns
// are already on the torus when `wrap_columns` is false; w, h >= 2R+1, so one wrap is enough.
template <int R, bool wrap_columns>
__device__ __forceinline__ int moore_count(const uint8_t *__restrict__ in, int w, int h, int x,
                                           int y) {
    int row = y - R;
    if (row < 0) row += h;
    int first = x - R; // leftmost column of the window
    if (wrap_columns && first < 0) first += w;
    int count = 0;
    // Small windows: all rows unrolled, so their loads are in flight together. Large ones: a row
    // at a time, since unrolling every row hoists all the loads and spills.
#pragma unroll(R <= 3 ? 2 * R + 1 : 1)
    for (int dy = 0; dy <= 2 * R; dy++) {
        const uint8_t *src = in + (size_t)row * (size_t)w;
        if (wrap_columns) {
            int col = first;
#pragma unroll 1 // the edge threads' path: kept small, so it costs the others no registers
            for (int dx = 0; dx <= 2 * R; dx++) {
                count += __ldg(src + col);
                col = col + 1 == w ? 0 : col + 1;
            }
        } else {
            src += first;
#pragma unroll
            for (int dx = 0; dx <= 2 * R; dx++) count += __ldg(src + dx);
        }
        row = row + 1 == h ? 0 : row + 1;
    }
    return count;
}

template <int R>
__global__ void __launch_bounds__(block *block)
    moore_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, int w, int h,
                 int centre, const uint8_t *__restrict__ next_state, int stride, int blocks_y) {
    const int x = (int)(blockIdx.x * block + threadIdx.x);
    if (x >= w) return;
    const bool inside = x >= R && x < w - R; // the window needs no column wrap
    for (int by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        const int y = by * block + (int)threadIdx.y;
        if (y >= h) return;
        const int count = inside ? moore_count<R, false>(in, w, h, x, y)
                                 : moore_count<R, true>(in, w, h, x, y);
        const size_t i = (size_t)y * (size_t)w + (size_t)x;
        const int alive = in[i];
        out[i] = __ldg(next_state + alive * stride + count - (centre ? 0 : alive));
    }
}

template <int R> cudaError_t launch_moore(const cuda_base_device *d) {
    const int blocks_x = (d->w + block - 1) / block, blocks_y = (d->h + block - 1) / block;
    dim3 grid((unsigned)blocks_x, (unsigned)(blocks_y < grid_y_max ? blocks_y : grid_y_max));
    moore_kernel<R><<<grid, dim3(block, block)>>>(d->cur, d->next, d->w, d->h, d->centre,
                                                  d->next_state, d->max_count + 1, blocks_y);
    return cudaGetLastError();
}

typedef cudaError_t (*moore_launch)(const cuda_base_device *);

template <int... I> constexpr auto moore_launches(std::integer_sequence<int, I...>) {
    return std::array<moore_launch, sizeof...(I)>{{launch_moore<I + 1>...}};
}

const auto moore_by_radius = moore_launches(std::make_integer_sequence<int, base_radius_max>());

} // namespace

// Any shape whose rows are one interval each (row_lo[dy + r] .. row_hi[dy + r], centre included).
__global__ void cuda_base_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out,
                                 int32_t w, int32_t h, int32_t r, int centre,
                                 const int32_t *__restrict__ row_lo,
                                 const int32_t *__restrict__ row_hi,
                                 const uint8_t *__restrict__ next_state, int32_t stride,
                                 int32_t blocks_y) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= w) return;
    for (int32_t by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        int32_t y = (int32_t)(by * blockDim.y + threadIdx.y);
        if (y >= h) return;
        int32_t count = 0;
        int32_t ny = y - r;
        if (ny < 0) ny += h; // w, h >= 2r+1: one wrap is enough
        for (int32_t dy = -r; dy <= r; dy++) {
            const uint8_t *row = in + (size_t)ny * (size_t)w;
            int32_t lo = row_lo[dy + r], hi = row_hi[dy + r];
            int32_t nx = x + lo;
            nx = nx < 0 ? nx + w : nx >= w ? nx - w : nx;
            for (int32_t dx = lo; dx <= hi; dx++) {
                count += row[nx];
                nx = nx + 1 == w ? 0 : nx + 1;
            }
            ny = ny + 1 == h ? 0 : ny + 1;
        }
        size_t i = (size_t)y * (size_t)w + (size_t)x;
        int32_t alive = in[i];
        if (!centre) count -= alive; // the centre row's interval includes the centre
        out[i] = next_state[alive * stride + count];
    }
}

extern "C" int cuda_base_probe(cc_error *err) {
    return cc_cuda_probe("cuda.base", CUDA_BASE_CC_MAJOR, CUDA_BASE_CC_MINOR, err);
}

extern "C" void cuda_base_destroy(cuda_base_device *d) {
    if (!d) return;
    // Teardown cannot report: a failure here leaves nothing for the caller to do.
    if (d->cur) (void)cudaFree(d->cur);
    if (d->next) (void)cudaFree(d->next);
    if (d->row_lo) (void)cudaFree(d->row_lo);
    if (d->row_hi) (void)cudaFree(d->row_hi);
    if (d->next_state) (void)cudaFree(d->next_state);
    if (d->events) {
        (void)cudaEventDestroy(d->start);
        (void)cudaEventDestroy(d->stop);
    }
    free(d);
}

static int cuda_base_setup(cuda_base_device *d, const int32_t *row_lo, const int32_t *row_hi,
                           const uint8_t *next_state, cc_error *err) {
    size_t cells = (size_t)d->w * (size_t)d->h;
    size_t rows = (size_t)(2 * d->r + 1);
    size_t table = 2 * ((size_t)d->max_count + 1);
    size_t needed = 2 * cells + 2 * rows * sizeof(int32_t) + table;

    CUDA_BASE_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_BASE_CHECK(cudaGetDeviceProperties(&prop, 0));
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_BASE_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (needed > free_bytes)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "cuda.base: a %dx%d grid needs %zu bytes on the device (two copies), but "
                       "only %zu of its %zu bytes are free",
                       (int)d->w, (int)d->h, needed, free_bytes, total_bytes);

    CUDA_BASE_CHECK(cudaMalloc((void **)&d->cur, cells));
    CUDA_BASE_CHECK(cudaMalloc((void **)&d->next, cells));
    CUDA_BASE_CHECK(cudaMalloc((void **)&d->row_lo, rows * sizeof(int32_t)));
    CUDA_BASE_CHECK(cudaMalloc((void **)&d->row_hi, rows * sizeof(int32_t)));
    CUDA_BASE_CHECK(cudaMalloc((void **)&d->next_state, table));
    CUDA_BASE_CHECK(cudaMemset(d->cur, 0, cells));
    CUDA_BASE_CHECK(cudaMemset(d->next, 0, cells));
    CUDA_BASE_CHECK(
        cudaMemcpy(d->row_lo, row_lo, rows * sizeof(int32_t), cudaMemcpyHostToDevice));
    CUDA_BASE_CHECK(
        cudaMemcpy(d->row_hi, row_hi, rows * sizeof(int32_t), cudaMemcpyHostToDevice));
    CUDA_BASE_CHECK(cudaMemcpy(d->next_state, next_state, table, cudaMemcpyHostToDevice));
    CUDA_BASE_CHECK(cudaEventCreate(&d->start));
    cudaError_t status = cudaEventCreate(&d->stop);
    if (status != cudaSuccess) {
        (void)cudaEventDestroy(d->start);
        return cc_fail(err, CC_ERR_DEVICE, "cuda.base: cudaEventCreate(&d->stop) failed: %s",
                       cudaGetErrorString(status));
    }
    d->events = 1;
    return CC_OK;
}

extern "C" int cuda_base_create(int32_t w, int32_t h, int32_t r, int centre,
                                const int32_t *row_lo, const int32_t *row_hi,
                                const uint8_t *next_state, int32_t max_count,
                                cuda_base_device **out, cc_error *err) {
    *out = NULL;
    cuda_base_device *d = (cuda_base_device *)calloc(1, sizeof *d);
    if (!d) return cc_fail(err, CC_ERR_NOMEM, "cuda.base: cannot allocate its context");
    d->w = w;
    d->h = h;
    d->r = r;
    d->centre = centre;
    d->max_count = max_count;
    // A neighbourhood whose every row is the full -r .. r is the square: the specialised kernel.
    d->moore = r <= base_radius_max;
    for (int32_t i = 0; i <= 2 * r && d->moore; i++)
        d->moore = row_lo[i] == -r && row_hi[i] == r;
    int rc = cuda_base_setup(d, row_lo, row_hi, next_state, err);
    if (rc) {
        cuda_base_destroy(d);
        return rc;
    }
    *out = d;
    return CC_OK;
}

extern "C" int cuda_base_load(cuda_base_device *d, const uint8_t *cells, cc_error *err) {
    CUDA_BASE_CHECK(
        cudaMemcpy(d->cur, cells, (size_t)d->w * (size_t)d->h, cudaMemcpyHostToDevice));
    return CC_OK;
}

extern "C" int cuda_base_store(cuda_base_device *d, uint8_t *cells, cc_error *err) {
    CUDA_BASE_CHECK(
        cudaMemcpy(cells, d->cur, (size_t)d->w * (size_t)d->h, cudaMemcpyDeviceToHost));
    return CC_OK;
}

// Launches k steps on the default stream without waiting for them.
static int cuda_base_launch(cuda_base_device *d, int64_t k, cc_error *err) {
    dim3 block_dims(CUDA_BASE_BLOCK, CUDA_BASE_BLOCK);
    int32_t blocks_y = (d->h + CUDA_BASE_BLOCK - 1) / CUDA_BASE_BLOCK;
    dim3 grid((unsigned)((d->w + CUDA_BASE_BLOCK - 1) / CUDA_BASE_BLOCK),
              (unsigned)(blocks_y < grid_y_max ? blocks_y : grid_y_max));
    for (int64_t s = 0; s < k; s++) {
        if (d->moore) {
            cudaError_t status = moore_by_radius[d->r - 1](d);
            if (status != cudaSuccess)
                return cc_fail(err, CC_ERR_DEVICE,
                               "cuda.base: launch of moore_kernel<%d> failed: %s", (int)d->r,
                               cudaGetErrorString(status));
        } else {
            cuda_base_kernel<<<grid, block_dims>>>(d->cur, d->next, d->w, d->h, d->r, d->centre,
                                                   d->row_lo, d->row_hi, d->next_state,
                                                   d->max_count + 1, blocks_y);
            CUDA_BASE_CHECK(cudaGetLastError());
        }
        uint8_t *t = d->cur;
        d->cur = d->next;
        d->next = t;
    }
    return CC_OK;
}

extern "C" int cuda_base_step(cuda_base_device *d, int64_t k, cc_error *err) {
    int rc = cuda_base_launch(d, k, err);
    if (rc) return rc;
    CUDA_BASE_CHECK(cudaDeviceSynchronize());
    return CC_OK;
}

extern "C" int cuda_base_timed_step(cuda_base_device *d, int64_t k, double *ms, cc_error *err) {
    CUDA_BASE_CHECK(cudaEventRecord(d->start, 0));
    int rc = cuda_base_launch(d, k, err);
    if (rc) return rc;
    CUDA_BASE_CHECK(cudaEventRecord(d->stop, 0));
    CUDA_BASE_CHECK(cudaEventSynchronize(d->stop));
    float elapsed = 0.0f;
    CUDA_BASE_CHECK(cudaEventElapsedTime(&elapsed, d->start, d->stop));
    *ms = (double)elapsed;
    return CC_OK;
}

extern "C" const char *cuda_base_device_name(const cuda_base_device *d) { return d->name; }
