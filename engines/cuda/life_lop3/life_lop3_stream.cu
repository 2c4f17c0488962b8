// cuda.life-lop3's streaming kernels, compiled to PTX at build time and specialised to one rule
// at create: every `// cellcheck.lifenet` line in the PTX stands for the rule's gate network
// (engines/lifenet), which life_lop3_ptx.c writes in its place as LOP3 instructions before the
// driver compiles the PTX for the device.
//
// Layout: row-major 32-bit words, `words` a row, cell 32 j + i of a row at bit i of word j; the
// bits past W in a row's last word are zero. W is a multiple of 32 here.
#include <type_traits>

#include "engines/cuda/life_lop3/life_lop3_net.cuh"
#include "engines/cuda/life_lop3/life_lop3_steps.h"

// LIFE_LOP3_HEX (given on nvcc's command line): 1 for hexagonal rules, 0 for Moore.
#ifndef LIFE_LOP3_HEX
#error "compile with -DLIFE_LOP3_HEX=0 or 1"
#endif

namespace {

// f(std::integral_constant<int, t>) for t = first .. end - 1, in order.
template <int first, int end, class F> __device__ __forceinline__ void unrolled(F &f) {
    if constexpr (first < end) {
        f(std::integral_constant<int, first>{});
        unrolled<first + 1, end>(f);
    }
}

using life_lop3::full_warp;
using life_lop3::lanes;
using life_lop3::rule_net;

// West and east neighbours of the 32 cells of x, from the words of the lanes before and after.
// (As multiply-adds, off the logic's pipe, they measured slower on the H200.)
__device__ __forceinline__ void neighbours(uint32_t x, uint32_t before, uint32_t after,
                                           uint32_t &west, uint32_t &east) {
    west = __funnelshift_l(before, x, 1);
    east = __funnelshift_r(x, after, 1);
}

// One iteration of the stream at phase p (of 3: the slots rotate instead of moving, so each
// unrolled phase names every register where it is). Level k takes the row level k - 1 gave out
// in the previous iteration (pending[k]; level 0 the row just read) and gives out the row above
// it one step on (pending[k + 1]). No level waits on another within an iteration, so the
// levels' chains of gates run side by side.
//
// Moore: each row's pair is the full adder of its three cells, shared by the three rows that
// see it. Hexagonal: each row gives a different half adder to the row below it (x-1, x: kept in
// sum0/sum1), to its own (x-1, x+1: kept in mid0/mid1) and to the row above (x, x+1: used as it
// arrives).
//
// Only levels lo .. hi - 1 run: where the stream starts and ends, the rows the others take are not
// yet, or no longer, any that lead to a row the band writes.
template <int levels, int p, int lo, int hi>
__device__ __forceinline__ void advance(uint32_t row, uint32_t (&pending)[levels + 1],
                                        uint32_t (&sum0)[3][levels], uint32_t (&sum1)[3][levels],
                                        uint32_t (&mid0)[3][levels], uint32_t (&mid1)[3][levels],
                                        uint32_t (&centre)[3][levels]) {
    constexpr int fresh = p % 3, above = (p + 1) % 3, at = (p + 2) % 3;
    // From the last level down, so each level reads its pending row before the level below
    // replaces it.
#pragma unroll
    for (int k = hi - 1; k >= lo; k--) {
        const uint32_t x = k == 0 ? row : pending[k];
        const uint32_t before = __shfl_up_sync(full_warp, x, 1);
        const uint32_t after = __shfl_down_sync(full_warp, x, 1);
        uint32_t west, east;
        neighbours(x, before, after, west, east);
        if (LIFE_LOP3_HEX) {
            sum0[fresh][k] = west ^ x;
            sum1[fresh][k] = west & x;
            mid0[fresh][k] = west ^ east;
            mid1[fresh][k] = west & east;
            pending[k + 1] = rule_net(sum0[above][k], sum1[above][k], mid0[at][k], mid1[at][k],
                                      x ^ east, x & east, centre[at][k]);
        } else {
            sum0[fresh][k] = west ^ x ^ east;
            sum1[fresh][k] = (west & x) | (west & east) | (x & east);
            pending[k + 1] = rule_net(sum0[above][k], sum1[above][k], sum0[at][k], sum1[at][k],
                                      sum0[fresh][k], sum1[fresh][k], centre[at][k]);
        }
        centre[fresh][k] = x;
    }
}

// W a multiple of 32. A warp takes 30 word columns (lanes 1..30; lanes 0 and 31 hold the columns
// either side, whose inner bits stay exact for up to 31 steps) and a band of rows, and streams
// down the band from `levels` rows above it to below it: each row read passes through every
// level in registers, one level an iteration, and comes out `levels` steps on. West and east
// neighbours come from the next lanes by shuffles.
//
// The bands cover rows y_first .. y_first + y_count - 1 of a buffer of h rows, read modulo h: the
// whole torus (0, h), or a device's own rows between halos at least `levels` deep (halo, rows).
template <int levels>
__device__ __forceinline__ void stream(const uint32_t *__restrict__ src, uint32_t *__restrict__ dst,
                                       int32_t words, int32_t h, int32_t y_first, int32_t y_count,
                                       int32_t band_rows, int32_t groups, int64_t warps) {
    const int lane = (int)(threadIdx.x % lanes);
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / lanes;
    if (warp >= warps) return; // the whole warp
    const int32_t group = (int32_t)(warp % groups), band = (int32_t)(warp / groups);
    const int32_t own = group * 30 + lane - 1;
    const int32_t col = own < 0 ? own + words : own % words;
    const bool writes = lane >= 1 && lane <= 30 && own < words;
    const int32_t y0 = y_first + band * band_rows;
    const int32_t rows = band_rows < y_first + y_count - y0 ? band_rows : y_first + y_count - y0;

    uint32_t pending[levels + 1], sum0[3][levels], sum1[3][levels], mid0[3][levels],
        mid1[3][levels], centre[3][levels];
#pragma unroll
    for (int k = 0; k <= levels; k++) pending[k] = 0;
#pragma unroll
    for (int k = 0; k < levels; k++)
        for (int j = 0; j < 3; j++)
            sum0[j][k] = sum1[j][k] = mid0[j][k] = mid1[j][k] = centre[j][k] = 0;

    // Row y0 - levels + i is read in iteration i; the row out of the last level in iteration i
    // is y0 + i + 1 - 3 levels. The count is rounded up to whole rotations; rows past the band
    // are not written.
    const int32_t lag = 3 * levels - 1;
    const int32_t n = (rows + lag + 2) / 3 * 3;
    const int32_t r0 = (int32_t)((((int64_t)y0 - levels) % h + h) % h);
    const uint32_t *const first = src + col, *const end = first + (size_t)h * (size_t)words;
    const uint32_t *next_row = first + (size_t)r0 * (size_t)words;
    uint32_t *const out = dst + (size_t)y0 * (size_t)words + (size_t)col;
    uint32_t ahead = *next_row;
#define LIFE_LOP3_ITERATION(p, lo, hi)                                                           \
    {                                                                                            \
        const uint32_t row = ahead;                                                              \
        next_row += words;                                                                       \
        if (next_row == end) next_row = first;                                                   \
        ahead = *next_row;                                                                       \
        advance<levels, p, lo, hi>(row, pending, sum0, sum1, mid0, mid1, centre);                \
        const int32_t y = i + p - lag;                                                           \
        if (writes && y >= 0 && y < rows) out[(size_t)y * (size_t)words] = pending[levels];      \
    }
    // Level k's input is a row of the band's light cone from iteration 3 k on (its first output
    // that is, at 3 k + 2, needs its sums of the two before), and the last it is needed in is
    // last + k: so rotation t (i = 3 t) of the start runs levels 0 .. t, and the u-th past last
    // levels 1 + 3 u on (at least i - last: a level run where it is not needed changes no row
    // written). n >= 3 levels, so the rotations of the start all run. At 12 levels that skips
    // 264 of the 12 (rows + 37) level-iterations: 17 % of a band of 96 rows, 3 % of one of 713.
    const int32_t last = rows + 2 * levels - 1;
    int32_t i = 0;
    auto rotation = [&](auto lo_c, auto hi_c) {
        constexpr int lo = decltype(lo_c)::value, hi = decltype(hi_c)::value;
        LIFE_LOP3_ITERATION(0, lo, hi)
        LIFE_LOP3_ITERATION(1, lo, hi)
        LIFE_LOP3_ITERATION(2, lo, hi)
        i += 3;
    };
    using none = std::integral_constant<int, 0>;
    using all = std::integral_constant<int, levels>;
    auto start = [&](auto t) {
        rotation(none{}, std::integral_constant<int, decltype(t)::value + 1>{});
    };
    unrolled<0, levels - 1>(start);
    while (i < n && i <= last) rotation(none{}, all{});
    auto finish = [&](auto u) {
        if (i < n) rotation(std::integral_constant<int, 1 + 3 * decltype(u)::value>{}, all{});
    };
    unrolled<0, (levels + 1) / 3>(finish);
#undef LIFE_LOP3_ITERATION
}

} // namespace

extern "C" {

// LIFE_LOP3_STEPS steps a launch, and one step (what is left of a step() after those).
__global__ void __launch_bounds__(256)
    life_lop3_stream(const uint32_t *__restrict__ src, uint32_t *__restrict__ dst, int32_t words,
                     int32_t h, int32_t y_first, int32_t y_count, int32_t band_rows,
                     int32_t groups, int64_t warps) {
    stream<LIFE_LOP3_STEPS>(src, dst, words, h, y_first, y_count, band_rows, groups, warps);
}

__global__ void __launch_bounds__(256)
    life_lop3_stream1(const uint32_t *__restrict__ src, uint32_t *__restrict__ dst, int32_t words,
                      int32_t h, int32_t y_first, int32_t y_count, int32_t band_rows,
                      int32_t groups, int64_t warps) {
    stream<1>(src, dst, words, h, y_first, y_count, band_rows, groups, warps);
}

} // extern "C"
