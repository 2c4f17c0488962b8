// cuda.shared1's device code: Millan's "Shared v1". Blocks overlap: each covers a tile of T x T
// cells, every thread loads its cell of the tile into shared memory, and only the threads whose
// cell lies at least r inside the tile (the interior, (T - 2r)^2 cells) go on to compute it; the
// halo threads only load. Consecutive blocks are T - 2r cells apart.
#include <cuda_runtime.h>

#include "engines/cuda/devgrid/engine.cuh"
#include "engines/cuda/shared1/shared1_kernels.h"

namespace {

constexpr int block = CUDA_SHARED1_BLOCK;

template <int R> struct geometry {
    // Tile cells per thread, along each axis.
    static constexpr int cells = R <= CUDA_SHARED1_SINGLE_MAX ? 1 : 2;
    static constexpr int tile = block * cells;
    static constexpr int inner = tile - 2 * R; // cells computed per block, per axis
    static constexpr int words = devgrid::window_words<R, 1>();
    // Windows start at tile columns 0 .. inner-1; their reads end before this byte.
    static constexpr int read = devgrid::max_of(tile, (inner - 1) / 4 * 4 + 4 * words);
    static constexpr int pitch = devgrid::round_up(read, 16);
    static_assert(inner >= 1 && read - tile <= block, "tile geometry");
};

template <int R>
__global__ void __launch_bounds__(block *block)
    shared1_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, int w, int h,
                   const uint8_t *__restrict__ table, int stride, int centre, int blocks_y) {
    using g = geometry<R>;
    __shared__ __align__(16) uint8_t tile[g::tile * g::pitch];
    const int tx = threadIdx.x, ty = threadIdx.y;

    for (int by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        // Tile cell (row, col) is grid cell (y0 - R + row, x0 - R + col); the block computes
        // grid cells y0 .. y0 + inner - 1 and x0 .. x0 + inner - 1.
        const int x0 = blockIdx.x * g::inner, y0 = by * g::inner;
#pragma unroll
        for (int j = 0; j < g::cells; j++) {
            const int row = ty + block * j;
            const uint8_t *src = in + (size_t)devgrid::wrap(y0 - R + row, h) * (size_t)w;
#pragma unroll
            for (int i = 0; i < g::cells; i++) {
                const int col = tx + block * i;
                tile[row * g::pitch + col] = src[devgrid::wrap(x0 - R + col, w)];
            }
            if (tx < g::read - g::tile) // padding that window_counts reads past the tile
                tile[row * g::pitch + g::tile + tx] = 0;
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < g::cells; j++) {
#pragma unroll
            for (int i = 0; i < g::cells; i++) {
                const int row = ty + block * j, col = tx + block * i;
                const bool inside = row >= R && row < g::tile - R && col >= R && col < g::tile - R;
                const int x = x0 + col - R, y = y0 + row - R;
                if (inside && x < w && y < h)
                    out[(size_t)y * (size_t)w + x] = devgrid::next_from_tile<R, g::pitch>(
                        tile, row, col, table, stride, centre);
            }
        }
        __syncthreads(); // the tile is refilled for the next block row
    }
}

// One step at radius R, for devgrid::create.
struct shared1_engine {
    static constexpr const char *engine = "cuda.shared1";
    template <int R> static int run(const cc_devgrid_view *v, cc_error *err) {
        constexpr int inner = geometry<R>::inner;
        return devgrid::launch(shared1_kernel<R>, v, inner, inner, dim3(block, block), engine,
                               "shared1_kernel", R, err);
    }
};

} // namespace

extern "C" int cuda_shared1_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                   cc_error *err) {
    return devgrid::create<shared1_engine>(rule, w, h, ctx, err);
}
