// cuda.mcell's device code: the multi-cell method (Millan's "Cells", after Balasalle) as the CAT
// authors extended it: out-halo shared tile of (2*16 + 2r) x (16 + 2r) cells per block of
// 16 x 16 threads, each thread computing two horizontally adjacent cells. The two windows share
// 2r of their 2r+1 columns: the thread sums each column of its 2r+2 once and gets the second
// count from the first by dropping one column and adding one.
#include <cuda_runtime.h>

#include "engines/cuda/devgrid/engine.cuh"
#include "engines/cuda/mcell/mcell_kernels.h"

namespace {

constexpr int threads = CUDA_MCELL_THREADS, cells = CUDA_MCELL_CELLS;
constexpr int width = threads * cells; // cells per block, across

template <int R> using geometry = devgrid::out_halo<R, width, threads, cells, threads * threads>;

template <int R>
__global__ void __launch_bounds__(threads *threads)
    mcell_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, int w, int h,
                 const uint8_t *__restrict__ table, int stride, int centre, int blocks_y) {
    using g = geometry<R>;
    __shared__ __align__(16) uint8_t tile[g::bytes];
    const int tx = threadIdx.x, ty = threadIdx.y;
    g::each_block(tile, in, w, h, blocks_y, ty * threads + tx, [&](int x0, int y0) {
        const int col = cells * tx, x = x0 + col, y = y0 + ty;
        if (y < h && x < w) {
            int count[cells];
            devgrid::window_counts<R, cells, g::pitch>(tile, ty, col, count);
            const uint8_t *centre_row = tile + (ty + R) * g::pitch + col + R;
            uint8_t *dst = out + (size_t)y * (size_t)w + x;
#pragma unroll
            for (int n = 0; n < cells; n++) {
                if (x + n >= w) break;
                dst[n] = devgrid::next_state(table, stride, centre, centre_row[n], count[n]);
            }
        }
    });
}

// One step at radius R, for devgrid::create.
struct mcell_engine {
    static constexpr const char *engine = "cuda.mcell";
    template <int R> static int run(const cc_devgrid_view *v, cc_error *err) {
        return devgrid::launch(mcell_kernel<R>, v, width, threads, dim3(threads, threads), engine,
                               "mcell_kernel", R, err);
    }
};

} // namespace

extern "C" int cuda_mcell_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                 cc_error *err) {
    return devgrid::create<mcell_engine>(rule, w, h, ctx, err);
}
