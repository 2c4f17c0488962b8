// Device helpers of the shared-memory engines (CUDA C++; included by .cu files only): the torus
// wrap, loading a tile of cells into shared memory, counting live cells in (2R+1)^2 windows of
// such a tile four columns at a time, and the rule table's next state from those counts.
#ifndef CELLCHECK_ENGINES_CUDA_DEVGRID_TILE_H
#define CELLCHECK_ENGINES_CUDA_DEVGRID_TILE_H

#ifndef __CUDACC__
#error "engines/cuda/devgrid/tile.h is CUDA C++: include it from .cu files only"
#endif

#include <stdint.h>

namespace devgrid {

// The largest radius the engines take.
constexpr int radius_max = 16;

__host__ __device__ constexpr int round_up(int v, int m) { return (v + m - 1) / m * m; }
__host__ __device__ constexpr int max_of(int a, int b) { return a > b ? a : b; }

// A tile row pitch of at least `bytes` whose 4-byte word count is 16 mod 32: two tile rows a warp
// reads together then fall in opposite halves of the 32 banks.
__host__ __device__ constexpr int pitch_apart(int bytes) {
    return bytes <= 64 ? 64 : round_up(bytes - 64, 128) + 64;
}

// v taken onto 0 .. n-1, for any v >= -n (tiles reach at most r <= n cells before a grid edge;
// beyond its far edge a tile can wrap more than once on a small torus).
__device__ __forceinline__ int wrap(int v, int n) {
    if (v < 0) return v + n;
    if (v >= n) {
        v -= n;
        if (v >= n) v %= n;
    }
    return v;
}

// The 32-bit words a thread reads in each tile row to count N adjacent windows 2R+1 wide: the
// first window starts at byte (col0 & 3) <= 3 of the first word.
template <int R, int N> __host__ __device__ constexpr int window_words() {
    return (3 + (N - 1) + 2 * R) / 4 + 1;
}

// Live cells in the (2R+1) x (2R+1) windows whose top-left corners are tile (row0, col0 + n),
// n < N. The tile is bytes 0 or 1, PITCH bytes a row, rows 4-byte aligned, and every byte up to
// word (col0 >> 2) + window_words<R, N>() of each row it reads holds 0 or 1.
// The rows are added as packed bytes: each byte of a sum gathers at most 2R+1 <= 33 ones, so no
// carry crosses into its neighbour, and the four column sums of a word come out of one add.
template <int R, int N, int PITCH>
__device__ __forceinline__ void window_counts(const uint8_t *tile, int row0, int col0,
                                              int (&count)[N]) {
    constexpr int words = window_words<R, N>();
    constexpr int aligned = (2 * R) / 4 + 1;          // words holding one window once aligned
    constexpr int last = 2 * R + 1 - 4 * (aligned - 1); // window bytes in the last of them
    constexpr uint32_t last_mask = last == 4 ? 0xffffffffu : (1u << (8 * last)) - 1u;
    static_assert(PITCH % 4 == 0, "tile rows must be word-aligned");
    static_assert(2 * R + 1 <= 255, "a column sum must fit in a byte");

    const uint32_t *p = reinterpret_cast<const uint32_t *>(tile + row0 * PITCH) + (col0 >> 2);
    uint32_t column[words + 1];
#pragma unroll
    for (int k = 0; k <= words; k++) column[k] = 0;
#pragma unroll
    for (int dy = 0; dy <= 2 * R; dy++)
#pragma unroll
        for (int k = 0; k < words; k++) column[k] += p[dy * (PITCH / 4) + k];

    // Aligning by the window's start byte puts window column j at byte j of the shifted words.
    const unsigned shift = 8u * (unsigned)(col0 & 3);
    unsigned c = 0;
#pragma unroll
    for (int k = 0; k < aligned; k++) {
        uint32_t u = __funnelshift_r(column[k], column[k + 1], shift);
        if (k == aligned - 1) u &= last_mask;
        c = __dp4a(u, 0x01010101u, c);
    }
    count[0] = (int)c;
    // The next window shares all but one column sum: drop the first, add the one after the last.
#pragma unroll
    for (int n = 1; n < N; n++) {
        constexpr int span = 2 * R + 1;
        const int leave = n - 1, enter = n - 1 + span;
        uint32_t lw = __funnelshift_r(column[leave / 4], column[leave / 4 + 1], shift);
        uint32_t ew = __funnelshift_r(column[enter / 4], column[enter / 4 + 1], shift);
        c = c - ((lw >> (8 * (leave % 4))) & 0xffu) + ((ew >> (8 * (enter % 4))) & 0xffu);
        count[n] = (int)c;
    }
}

// Loads the tile whose cell (row, col) is grid cell (gy0 + row, gx0 + col), wrapped onto the
// torus, for rows < TH and columns < TW, and zeroes columns TW .. PW-1. The grid is row-major,
// w bytes a row. THREADS threads share the work: warps take rows, lanes take columns, so each warp
// reads consecutive bytes of one grid row.
template <int TW, int TH, int PW, int PITCH, int THREADS>
__device__ __forceinline__ void load_tile(uint8_t *tile, const uint8_t *__restrict__ in, int w,
                                          int h, int gx0, int gy0, int tid) {
    constexpr int warps = THREADS / 32, chunks = (PW + 31) / 32;
    static_assert(THREADS % 32 == 0 && PW <= PITCH && TW <= PW, "tile geometry");
    const int lane = tid & 31;
    int gx[chunks];
#pragma unroll
    for (int c = 0; c < chunks; c++) {
        const int col = lane + 32 * c;
        gx[c] = col < TW ? wrap(gx0 + col, w) : -1;
    }
#pragma unroll 4
    for (int row = tid >> 5; row < TH; row += warps) {
        const uint8_t *src = in + (size_t)wrap(gy0 + row, h) * (size_t)w;
#pragma unroll
        for (int c = 0; c < chunks; c++) {
            const int col = lane + 32 * c;
            if (col < PW) tile[row * PITCH + col] = gx[c] >= 0 ? src[gx[c]] : (uint8_t)0;
        }
    }
}

// The next state of a cell, alive 0 or 1, whose window holds count live cells, itself included:
// the entry of the rule table (cc_devgrid_view.table, .table_stride, .centre), read through the
// read-only cache.
__device__ __forceinline__ uint8_t next_state(const uint8_t *__restrict__ table, int stride,
                                              int centre, int alive, int count) {
    return __ldg(table + alive * stride + count - (centre ? 0 : alive));
}

// The next state of tile cell (row, col), R or more from the tile's top and left edges, from its
// window; the tile as window_counts<R, 1, PITCH> reads it.
template <int R, int PITCH>
__device__ __forceinline__ uint8_t next_from_tile(const uint8_t *tile, int row, int col,
                                                  const uint8_t *__restrict__ table, int stride,
                                                  int centre) {
    int count[1];
    window_counts<R, 1, PITCH>(tile, row - R, col - R, count);
    return next_state(table, stride, centre, tile[row * PITCH + col], count[0]);
}

// The out-halo tile of a block computing CW x CH cells, N adjacent windows a count
// (window_counts<R, N>): those cells and R more on every side, loaded by THREADS threads with
// load_tile.
template <int R, int CW, int CH, int N, int THREADS> struct out_halo {
    static constexpr int tile_w = CW + 2 * R, tile_h = CH + 2 * R;
    // Columns window_counts reads: the last N windows start at column CW - N.
    static constexpr int read = max_of(tile_w, (CW - N) / 4 * 4 + 4 * window_words<R, N>());
    // A warp reads two tile rows at once: keep them on different banks.
    static constexpr int pitch = pitch_apart(read);
    static constexpr int bytes = tile_h * pitch;

    // For each block row of the launch (the grid's rows are capped: by += gridDim.y): loads into
    // tile the tile of the block whose first cell is grid (x0, y0), then calls cells(x0, y0).
    template <class Cells>
    static __device__ __forceinline__ void each_block(uint8_t *tile,
                                                      const uint8_t *__restrict__ in, int w,
                                                      int h, int blocks_y, int tid, Cells cells) {
        for (int by = blockIdx.y; by < blocks_y; by += gridDim.y) {
            const int x0 = blockIdx.x * CW, y0 = by * CH;
            load_tile<tile_w, tile_h, read, pitch, THREADS>(tile, in, w, h, x0 - R, y0 - R, tid);
            __syncthreads();
            cells(x0, y0);
            __syncthreads(); // the tile is refilled for the next block row
        }
    }
};

} // namespace devgrid

#endif
