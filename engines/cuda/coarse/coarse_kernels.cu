// cuda.coarse's device code: the CAT authors' COARSE. A block of 16 x 16 threads loads an
// (80 + 2r)^2 tile into shared memory (the out-halo design) and computes its 80 x 80 cells; thread
// coarsening gives each thread 5 x 5 of them, 16 cells apart, so a warp's threads always work on
// neighbouring cells.
#include <cuda_runtime.h>

#include "engines/cuda/coarse/coarse_kernels.h"
#include "engines/cuda/devgrid/engine.cuh"

namespace {

constexpr int side = CUDA_COARSE_TILE, threads = CUDA_COARSE_THREADS;
constexpr int per_thread = side / threads;
static_assert(side % threads == 0, "the tile splits evenly among the threads");

template <int R> using geometry = devgrid::out_halo<R, side, side, 1, threads * threads>;

template <int R>
__global__ void __launch_bounds__(threads *threads)
    coarse_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, int w, int h,
                  const uint8_t *__restrict__ table, int stride, int centre, int blocks_y) {
    using g = geometry<R>;
    __shared__ __align__(16) uint8_t tile[g::bytes];
    const int tx = threadIdx.x, ty = threadIdx.y;
    g::each_block(tile, in, w, h, blocks_y, ty * threads + tx, [&](int x0, int y0) {
#pragma unroll 1
        for (int j = 0; j < per_thread; j++) {
            const int row = ty + threads * j, y = y0 + row;
            if (y >= h) break;
#pragma unroll 1
            for (int i = 0; i < per_thread; i++) {
                const int col = tx + threads * i, x = x0 + col;
                if (x >= w) break;
                out[(size_t)y * (size_t)w + x] = devgrid::next_from_tile<R, g::pitch>(
                    tile, row + R, col + R, table, stride, centre);
            }
        }
    });
}

// One step at radius R, for devgrid::create.
struct coarse_engine {
    static constexpr const char *engine = "cuda.coarse";
    template <int R> static int run(const cc_devgrid_view *v, cc_error *err) {
        return devgrid::launch(coarse_kernel<R>, v, side, side, dim3(threads, threads), engine,
                               "coarse_kernel", R, err);
    }
};

} // namespace

extern "C" int cuda_coarse_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                  cc_error *err) {
    return devgrid::create<coarse_engine>(rule, w, h, ctx, err);
}
