// cuda.base's device code: the CAT paper's BASE. One thread per cell in 32 x 32 blocks, every
// neighbour read straight from global memory, one byte load each; no shared memory.
//
// Moore rules, the benchmark's workload, take a kernel specialised per radius: both loops are
// unrolled, so each neighbour is one load at a constant offset from its row's address and one
// add. Rows wrap once per row, not per neighbour; columns wrap only in the threads within r of
// the left or right edge, which take a second path. Other shapes, and every shape on the bounded
// plane, take a general kernel that walks each row's interval of the neighbourhood (on the plane,
// the part of it inside the grid).
#include <cuda_runtime.h>

#include <stdlib.h>

#include <vector>

#include "engines/cuda/common/by_radius.cuh"
#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/devgrid/devgrid.h"
#include "reference/cuda_base/cuda_base_kernels.h"

namespace {

constexpr int base_radius_max = 16;
constexpr int block = CUDA_BASE_BLOCK;
constexpr const char *engine = "cuda.base";

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

// cuda.base's own state on the driver: the rule's rows and next-state table, on the device.
struct base {
    int32_t w, h, r;
    int centre;
    int plane;                // the bounded plane: cells outside the grid are dead
    int moore;                // the neighbourhood is the full square: the specialised kernel runs
    int32_t stride;           // the rule's largest count + 1
    int32_t *row_lo, *row_hi; // 2r+1 each
    uint8_t *next_state;      // 2 * stride
};

// What one launch sees.
struct base_view {
    const uint8_t *in;
    uint8_t *out;
    const base *b;
};

struct moore_launch {
    template <int R> static int run(const base_view *v, cc_error *err) {
        const base *b = v->b;
        const int blocks_x = (b->w + block - 1) / block, blocks_y = (b->h + block - 1) / block;
        moore_kernel<R><<<cc_cuda_grid(blocks_x, blocks_y), dim3(block, block)>>>(
            v->in, v->out, b->w, b->h, b->centre, b->next_state, b->stride, blocks_y);
        return cc_cuda_launched(err, engine, "moore_kernel<%d>", R);
    }
};

} // namespace

// Any shape whose rows are one interval each (row_lo[dy + r] .. row_hi[dy + r], centre included).
__global__ void cuda_base_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out,
                                 int32_t w, int32_t h, int32_t r, int centre,
                                 const int32_t *__restrict__ row_lo,
                                 const int32_t *__restrict__ row_hi,
                                 const uint8_t *__restrict__ next_state, int32_t stride,
                                 int32_t blocks_y, int plane) {
    int32_t x = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= w) return;
    for (int32_t by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        int32_t y = (int32_t)(by * blockDim.y + threadIdx.y);
        if (y >= h) return;
        int32_t count = 0;
        if (plane) {
            for (int32_t dy = -r; dy <= r; dy++) {
                const int32_t ny = y + dy;
                if (ny < 0 || ny >= h) continue;
                const uint8_t *row = in + (size_t)ny * (size_t)w;
                int32_t lo = x + row_lo[dy + r], hi = x + row_hi[dy + r];
                if (lo < 0) lo = 0;
                if (hi > w - 1) hi = w - 1;
                for (int32_t nx = lo; nx <= hi; nx++) count += row[nx];
            }
        }
        int32_t ny = y - r;
        if (ny < 0) ny += h; // w, h >= 2r+1: one wrap is enough
        for (int32_t dy = -r; dy <= r && !plane; dy++) {
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

namespace {

int base_step(void *self, const void *in, void *out, cc_error *err) {
    const base *b = (const base *)self;
    if (b->moore) {
        const base_view v = {(const uint8_t *)in, (uint8_t *)out, b};
        return cc_cuda_launch_by_radius<moore_launch, base_radius_max>(engine, b->r, &v, err);
    }
    const int32_t blocks_y = (b->h + block - 1) / block;
    cuda_base_kernel<<<cc_cuda_grid((b->w + block - 1) / block, blocks_y), dim3(block, block)>>>(
        (const uint8_t *)in, (uint8_t *)out, b->w, b->h, b->r, b->centre, b->row_lo, b->row_hi,
        b->next_state, b->stride, blocks_y, b->plane);
    return cc_cuda_launched(err, engine, "cuda_base_kernel");
}

void base_release(void *self) {
    base *b = (base *)self;
    // Teardown cannot report: a failure here leaves nothing for the caller to do.
    if (b->row_lo) (void)cudaFree(b->row_lo);
    if (b->row_hi) (void)cudaFree(b->row_hi);
    if (b->next_state) (void)cudaFree(b->next_state);
    free(b);
}

const cc_gpu_ops base_ops = {base_step, nullptr, nullptr, nullptr, base_release, nullptr};

int upload(base *b, const cc_rule *rule, const int32_t *row_lo, const int32_t *row_hi,
           cc_error *err) {
    const size_t rows = (size_t)(2 * b->r + 1) * sizeof(int32_t);
    std::vector<uint8_t> table(2 * (size_t)b->stride);
    int rc = cc_devgrid_build_table(rule, table.data(), table.size(), err);
    if (rc) return rc;
    CC_CUDA_CHECK(engine, cudaMalloc((void **)&b->row_lo, rows));
    CC_CUDA_CHECK(engine, cudaMalloc((void **)&b->row_hi, rows));
    CC_CUDA_CHECK(engine, cudaMalloc((void **)&b->next_state, table.size()));
    CC_CUDA_CHECK(engine, cudaMemcpy(b->row_lo, row_lo, rows, cudaMemcpyHostToDevice));
    CC_CUDA_CHECK(engine, cudaMemcpy(b->row_hi, row_hi, rows, cudaMemcpyHostToDevice));
    CC_CUDA_CHECK(engine, cudaMemcpy(b->next_state, table.data(), table.size(),
                                     cudaMemcpyHostToDevice));
    return CC_OK;
}

} // namespace

extern "C" int cuda_base_create(const cc_rule *rule, int32_t w, int32_t h, const int32_t *row_lo,
                                const int32_t *row_hi, void **ctx, cc_error *err) {
    *ctx = NULL;
    base *b = (base *)calloc(1, sizeof *b);
    if (!b) return cc_fail(err, CC_ERR_NOMEM, "cuda.base: cannot allocate its context");
    const int32_t r = rule->radius;
    b->w = w;
    b->h = h;
    b->r = r;
    b->centre = rule->centre;
    b->plane = rule->topology == CC_TOPOLOGY_PLANE;
    b->stride = cc_rule_max_count(rule) + 1;
    // A neighbourhood whose every row is the full -r .. r is the square: the specialised kernel,
    // on the torus.
    b->moore = r <= base_radius_max && !b->plane;
    for (int32_t i = 0; i <= 2 * r && b->moore; i++)
        b->moore = row_lo[i] == -r && row_hi[i] == r;

    cc_gpu_layout layout = {};
    layout.engine = engine;
    layout.w = w;
    layout.h = h;
    layout.grid_bytes = (size_t)w * (size_t)h;
    layout.pitch = (size_t)w;
    layout.extra_bytes = 2 * (size_t)(2 * r + 1) * sizeof(int32_t) + 2 * (size_t)b->stride;
    layout.buffers = "two copies";
    cc_gpu *gpu = NULL;
    int rc = cc_gpu_create(&layout, &base_ops, b, &gpu, err);
    if (rc) return rc; // b was released
    if ((rc = upload(b, rule, row_lo, row_hi, err))) {
        cc_gpu_destroy(gpu);
        return rc;
    }
    *ctx = gpu;
    return CC_OK;
}
