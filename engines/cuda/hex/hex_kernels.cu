// cuda.hex's device code: one thread per cell, every read from global memory. A cell's count is
// its six hexagonal neighbours, DESIGN.md's (Golly's) pair of diagonals: the row above at dx -1
// and 0, its own row at dx -1 and +1, the row below at dx 0 and +1 (y grows downward). The torus
// wrap costs a select per column and per row, computed once per thread and once per row.
#include <cuda_runtime.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/devgrid/devgrid.h"
#include "engines/cuda/hex/hex_kernels.h"

namespace {

constexpr const char *engine = "cuda.hex";
constexpr int threads_x = CUDA_HEX_THREADS_X, threads_y = CUDA_HEX_THREADS_Y;

__global__ void __launch_bounds__(threads_x *threads_y)
    hex_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, int w, int h,
               const uint8_t *__restrict__ table, int stride, int centre, int blocks_y) {
    const int x = (int)(blockIdx.x * threads_x + threadIdx.x);
    if (x >= w) return;
    const int left = x == 0 ? w - 1 : x - 1;
    const int right = x + 1 == w ? 0 : x + 1;
    for (int by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        const int y = by * threads_y + (int)threadIdx.y;
        if (y >= h) return;
        const int above = y == 0 ? h - 1 : y - 1;
        const int below = y + 1 == h ? 0 : y + 1;
        // size_t offsets: a grid may pass 2^32 cells.
        const uint8_t *up = in + (size_t)above * (size_t)w;
        const uint8_t *row = in + (size_t)y * (size_t)w;
        const uint8_t *down = in + (size_t)below * (size_t)w;
        const int alive = __ldg(row + x);
        const int count = __ldg(up + left) + __ldg(up + x) + __ldg(row + left) +
                          __ldg(row + right) + __ldg(down + x) + __ldg(down + right) +
                          (centre ? alive : 0);
        out[(size_t)y * (size_t)w + (size_t)x] = __ldg(table + alive * stride + count);
    }
}

int hex_step(const cc_devgrid_view *v, cc_error *err) {
    const int blocks_x = (v->w + threads_x - 1) / threads_x;
    const int blocks_y = (v->h + threads_y - 1) / threads_y;
    hex_kernel<<<cc_cuda_grid(blocks_x, blocks_y), dim3(threads_x, threads_y)>>>(
        v->in, v->out, v->w, v->h, v->table, v->table_stride, v->centre, blocks_y);
    return cc_cuda_launched(err, engine, "hex_kernel");
}

// By field, so fields devgrid adds later start out null.
constexpr cc_devgrid_ops make_ops() {
    cc_devgrid_ops ops{};
    ops.step = hex_step;
    return ops;
}
constexpr cc_devgrid_ops hex_ops = make_ops();

} // namespace

extern "C" int cuda_hex_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                               cc_error *err) {
    // Rows of w bytes, cell 0 first; the table reads table[alive * stride + count] with the
    // centre in the count under M1, as devgrid builds it.
    return cc_devgrid_create(engine, rule, w, h, (size_t)w, 0, &hex_ops, ctx, err);
}
