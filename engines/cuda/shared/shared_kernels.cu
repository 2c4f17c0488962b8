// cuda.shared's device code: Millan's "Shared v2" with the halo pattern of Topa. A 32 x 32 block
// computes 32 x 32 cells from a (32 + 2r)^2 tile in shared memory. Every thread loads its own
// cell; the first four rows of threads also load the halo: row 0 the r rows above (corners
// included), row 1 the r rows below, row 2 the r columns on the left, row 3 those on the right.
// Then every thread counts its window from the tile.
#include <cuda_runtime.h>

#include <type_traits>
#include <vector>

#include "engines/cuda/devgrid/engine.cuh"
#include "engines/cuda/shared/shared_kernels.h"

namespace {

constexpr int block = CUDA_SHARED_BLOCK;

template <int R> struct geometry {
    static constexpr int tile = block + 2 * R; // tile side
    static constexpr int words = devgrid::window_words<R, 1>();
    // Columns window_counts reads: the tile's and, past it, a little padding, zeroed once.
    static constexpr int read = devgrid::max_of(tile, (block - 1) / 4 * 4 + 4 * words);
    static constexpr int pitch = devgrid::round_up(read, 16);
    // Below the tile, one scratch byte for each thread of the first four rows (see load_share).
    static constexpr int scratch = tile * pitch;
    static constexpr int bytes = scratch + 4 * block;
};

// Thread row `role` (0..3) of a block loads a share of the halo, Topa's pattern: 0 the R rows
// above the block, corners included, 1 the R rows below, 2 the R columns on the left of the
// block's rows, 3 those on the right.
template <int R> __host__ __device__ constexpr int share_size(int role) {
    return role <= 1 ? R * geometry<R>::tile : R * block;
}

// Element e of a role's share is tile cell (row, col).
template <int R, int role> __host__ __device__ inline void share_cell(int e, int &row, int &col) {
    using g = geometry<R>;
    if (role <= 1) {
        row = (role == 0 ? 0 : R + block) + e / g::tile;
        col = e % g::tile;
    } else {
        row = R + e / R;
        col = (role == 2 ? 0 : R + block) + e % R;
    }
}

// Grid offset of tile cell (row, col) on the torus, for grids at least geometry::tile + 1 on a
// side, where one wrap is enough and can be done without branches (a branch between two loads
// keeps the second from being issued before the first has returned).
template <int R>
__device__ __forceinline__ size_t near_offset(int w, int h, int x0, int y0, int row, int col) {
    int gy = y0 - R + row, gx = x0 - R + col;
    gy += gy < 0 ? h : 0;
    gy -= gy >= h ? h : 0;
    gx += gx < 0 ? w : 0;
    gx -= gx >= w ? w : 0;
    return (size_t)gy * (size_t)w + (size_t)gx;
}

// Thread tx's share of the halo for thread row `role`, on a grid where near_offset holds. The
// addresses of a group of elements come first, then all their loads, then the stores, so a
// group's loads are in flight together. Past the end of its share (in the last group) a thread
// loads a valid cell all the same and stores it into its own scratch byte: no branch in a group.
template <int R, int role>
__device__ __forceinline__ void load_share(uint8_t *tile, const uint8_t *__restrict__ in, int w,
                                           int h, int x0, int y0, int tx) {
    using g = geometry<R>;
    constexpr int total = share_size<R>(role), count = (total + block - 1) / block;
    constexpr int group = count < 3 ? count : 3;
#pragma unroll 1 // a group at a time: more loads in flight would not fit in the registers
    for (int first = 0; first < count; first += group) {
        uint8_t value[group];
        int to[group];
#pragma unroll
        for (int j = 0; j < group; j++) {
            const int e = tx + block * (first + j);
            int row, col;
            share_cell<R, role>(e < total ? e : 0, row, col);
            to[j] = e < total ? row * g::pitch + col : g::scratch + role * block + tx;
            value[j] = in[near_offset<R>(w, h, x0, y0, row, col)];
        }
#pragma unroll
        for (int j = 0; j < group; j++) tile[to[j]] = value[j];
    }
}

// The same share on any grid: every coordinate wrapped as often as it takes.
template <int R, int role>
__device__ __forceinline__ void load_share_wrapped(uint8_t *tile, const uint8_t *__restrict__ in,
                                                   int w, int h, int x0, int y0, int tx) {
    using g = geometry<R>;
    for (int e = tx; e < share_size<R>(role); e += block) {
        int row, col;
        share_cell<R, role>(e, row, col);
        tile[row * g::pitch + col] = in[(size_t)devgrid::wrap(y0 - R + row, h) * (size_t)w +
                                        devgrid::wrap(x0 - R + col, w)];
    }
}

// Thread row `role`'s share: load_share on a grid where near_offset holds (NEAR), else
// load_share_wrapped.
template <int R, int role, bool NEAR>
__device__ __forceinline__ void load_role(uint8_t *tile, const uint8_t *__restrict__ in, int w,
                                          int h, int x0, int y0, int tx) {
    if constexpr (NEAR)
        load_share<R, role>(tile, in, w, h, x0, y0, tx);
    else
        load_share_wrapped<R, role>(tile, in, w, h, x0, y0, tx);
}

// The halo: thread rows 0..3 each load their share, the other rows nothing.
template <int R, bool NEAR>
__device__ __forceinline__ void load_halo(uint8_t *tile, const uint8_t *__restrict__ in, int w,
                                          int h, int x0, int y0, int tx, int ty) {
    switch (ty) {
    case 0: load_role<R, 0, NEAR>(tile, in, w, h, x0, y0, tx); break;
    case 1: load_role<R, 1, NEAR>(tile, in, w, h, x0, y0, tx); break;
    case 2: load_role<R, 2, NEAR>(tile, in, w, h, x0, y0, tx); break;
    case 3: load_role<R, 3, NEAR>(tile, in, w, h, x0, y0, tx); break;
    default: break;
    }
}

template <int R>
__global__ void __launch_bounds__(block *block, 2) // two blocks per SM: one loads while one counts
    shared_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, int w, int h,
                  const uint8_t *__restrict__ table, int stride, int centre, int blocks_y) {
    using g = geometry<R>;
    __shared__ __align__(16) uint8_t tile[g::bytes];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const bool near = w > g::tile && h > g::tile;
    // The padding right of the tile's columns never changes: zeroed once, before the first barrier.
    if constexpr (g::read > g::tile) {
        constexpr int padding = g::read - g::tile;
        for (int i = ty * block + tx; i < g::tile * padding; i += block * block)
            tile[i / padding * g::pitch + g::tile + i % padding] = 0;
    }

    for (int by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        const int x0 = blockIdx.x * block, y0 = by * block;
        // Its own cell is stored last, so that its load overlaps the halo loads.
        uint8_t own;
        if (near) {
            own = in[near_offset<R>(w, h, x0, y0, ty + R, tx + R)];
            load_halo<R, true>(tile, in, w, h, x0, y0, tx, ty);
        } else {
            own = in[(size_t)devgrid::wrap(y0 + ty, h) * (size_t)w + devgrid::wrap(x0 + tx, w)];
            load_halo<R, false>(tile, in, w, h, x0, y0, tx, ty);
        }
        tile[(ty + R) * g::pitch + tx + R] = own;
        __syncthreads();
        const int x = x0 + tx, y = y0 + ty;
        if (x < w && y < h)
            out[(size_t)y * (size_t)w + x] =
                devgrid::next_from_tile<R, g::pitch>(tile, ty + R, tx + R, table, stride, centre);
        __syncthreads(); // the tile is refilled for the next block row
    }
}

// One step at radius R, for devgrid::create.
struct shared_engine {
    static constexpr const char *engine = "cuda.shared";
    template <int R> static int run(const cc_devgrid_view *v, cc_error *err) {
        return devgrid::launch(shared_kernel<R>, v, block, block, dim3(block, block), engine,
                               "shared_kernel", R, err);
    }
};

// Counts, on the host, the writes the kernel's loading makes to each tile byte: the own cells,
// the four shares, the padding.
template <int R> int check_cover(cc_error *err) {
    using g = geometry<R>;
    std::vector<int> writes(g::tile * g::pitch, 0);
    for (int ty = 0; ty < block; ty++)
        for (int tx = 0; tx < block; tx++) writes[(ty + R) * g::pitch + tx + R]++;
    auto share = [&](auto role_constant) {
        constexpr int role = decltype(role_constant)::value;
        for (int tx = 0; tx < block; tx++)
            for (int e = tx; e < share_size<R>(role); e += block) {
                int row, col;
                share_cell<R, role>(e, row, col);
                if (row < 0 || row >= g::tile || col < 0 || col >= g::tile) {
                    writes[0] = -1000; // outside the tile: reported below
                    continue;
                }
                writes[row * g::pitch + col]++;
            }
    };
    share(std::integral_constant<int, 0>());
    share(std::integral_constant<int, 1>());
    share(std::integral_constant<int, 2>());
    share(std::integral_constant<int, 3>());
    for (int row = 0; row < g::tile; row++)
        for (int col = g::tile; col < g::read; col++) writes[row * g::pitch + col]++;
    for (int row = 0; row < g::tile; row++)
        for (int col = 0; col < g::read; col++)
            if (writes[row * g::pitch + col] != 1)
                return cc_fail(err, CC_ERR_MISMATCH,
                               "cuda.shared at radius %d: tile byte (%d, %d) written %d times", R,
                               row, col, writes[row * g::pitch + col]);
    return CC_OK;
}

// The cover check at radius R, for cc_cuda_launch_by_radius (which passes no view).
struct cover {
    template <int R> static int run(const void *, cc_error *err) { return check_cover<R>(err); }
};

} // namespace

extern "C" int cuda_shared_check_cover(int32_t r, cc_error *err) {
    return cc_cuda_launch_by_radius<cover, devgrid::radius_max>("cuda.shared", (int)r,
                                                                (const void *)nullptr, err);
}

extern "C" int cuda_shared_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                  cc_error *err) {
    return devgrid::create<shared_engine>(rule, w, h, ctx, err);
}
