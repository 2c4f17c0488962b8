// cuda.mcell's device code: the multi-cell method (Millan's "Cells", after Balasalle) as the CAT
// authors extended it: out-halo shared tile of (2*16 + 2r) x (16 + 2r) cells per block of
// 16 x 16 threads, each thread computing two horizontally adjacent cells. The two windows share
// 2r of their 2r+1 columns: the thread sums each column of its 2r+2 once and gets the second
// count from the first by dropping one column and adding one.
#include <cuda_runtime.h>

#include <array>
#include <utility>

#include "engines/cuda/devgrid/tile.h"
#include "engines/cuda/mcell/mcell_kernels.h"

namespace {

constexpr int threads = CUDA_MCELL_THREADS, cells = CUDA_MCELL_CELLS;
constexpr int width = threads * cells; // cells per block, across

template <int R> struct geometry {
    static constexpr int tile_w = width + 2 * R, tile_h = threads + 2 * R;
    static constexpr int words = devgrid::window_words<R, cells>();
    static constexpr int read = devgrid::max_of(tile_w, (width - cells) / 4 * 4 + 4 * words);
    // A warp reads two tile rows at once: keep them on different banks.
    static constexpr int pitch = devgrid::pitch_apart(read);
};

template <int R>
__global__ void __launch_bounds__(threads *threads)
    mcell_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, int w, int h,
                 const uint8_t *__restrict__ table, int stride, int centre, int blocks_y) {
    using g = geometry<R>;
    __shared__ __align__(16) uint8_t tile[g::tile_h * g::pitch];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * threads + tx;

    for (int by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        const int x0 = blockIdx.x * width, y0 = by * threads;
        devgrid::load_tile<g::tile_w, g::tile_h, g::read, g::pitch, threads * threads>(
            tile, in, w, h, x0 - R, y0 - R, tid);
        __syncthreads();
        const int col = cells * tx, x = x0 + col, y = y0 + ty;
        if (y < h && x < w) {
            int count[cells];
            devgrid::window_counts<R, cells, g::pitch>(tile, ty, col, count);
            const uint8_t *centre_row = tile + (ty + R) * g::pitch + col + R;
            uint8_t *dst = out + (size_t)y * (size_t)w + x;
#pragma unroll
            for (int n = 0; n < cells; n++) {
                if (x + n >= w) break;
                const int alive = centre_row[n];
                dst[n] = __ldg(table + alive * stride + count[n] - (centre ? 0 : alive));
            }
        }
        __syncthreads(); // the tile is refilled for the next block row
    }
}

template <int R> int launch(const cc_devgrid_view *v, cc_error *err) {
    const int blocks_x = (v->w + width - 1) / width, blocks_y = (v->h + threads - 1) / threads;
    dim3 grid((unsigned)blocks_x, (unsigned)(blocks_y < 65535 ? blocks_y : 65535));
    mcell_kernel<R><<<grid, dim3(threads, threads)>>>(v->in, v->out, v->w, v->h, v->table,
                                                     v->table_stride, v->centre, blocks_y);
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess)
        return cc_fail(err, CC_ERR_DEVICE, "cuda.mcell: launch of mcell_kernel<%d> failed: %s", R,
                       cudaGetErrorString(status));
    return CC_OK;
}

typedef int (*launch_fn)(const cc_devgrid_view *, cc_error *);

template <int... I> constexpr auto launches(std::integer_sequence<int, I...>) {
    return std::array<launch_fn, sizeof...(I)>{{launch<I + 1>...}};
}

const auto by_radius = launches(std::make_integer_sequence<int, devgrid::radius_max>());

int mcell_step(const cc_devgrid_view *v, cc_error *err) {
    if (v->radius < 1 || v->radius > devgrid::radius_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "cuda.mcell: radius %d outside 1..%d",
                       (int)v->radius, devgrid::radius_max);
    return by_radius[v->radius - 1](v, err);
}

const cc_devgrid_ops mcell_ops = {mcell_step, nullptr};

} // namespace

extern "C" int cuda_mcell_create(const cc_rule *rule, int32_t w, int32_t h, cc_devgrid **out,
                                 cc_error *err) {
    return cc_devgrid_create("cuda.mcell", rule, w, h, (size_t)w, 0, &mcell_ops, out, err);
}
