// cuda.bitslice1 and cuda.bitslice2: seed 001's Algorithms SINGLE-WORD and DOUBLE-WORD on the GPU,
// one step per launch, global memory only. Words of 64 cells (halo 0), column-major: the threads of
// a block take consecutive rows of one word column, so each of their loads is one coalesced run.
//
// A word's west and east neighbour words are the word shifted by one with the one bit that comes
// in from the next column (or, across the torus seam, from the other end of the row) added. The
// last column may hold fewer than 64 cells: its east neighbour's bit goes in at its last cell, and
// the bits past it are cleared in the result.
#include <cuda_runtime.h>

#include "engines/cuda/bitgrid/bitgrid.cuh"
#include "engines/cuda/bitslice/bitslice_kernels.h"
#include "engines/cuda/common/check.cuh"

namespace {

using word = uint64_t;
using bitgrid::rule_words;
using bitgrid::view;

constexpr int threads = CUDA_BITSLICE_THREADS;
constexpr int max_blocks_y = 65535;

// One row of a word column and its two shifted copies.
struct row3 {
    word west, mid, east;
};

__device__ __forceinline__ row3 row_at(const word *__restrict__ g, const view &v, int32_t j,
                                       int32_t y) {
    const word p = __ldg(g + v.at(j, y));
    const int last_column = j == v.columns - 1;
    // The cell west of cell 0 of column j, and the cell east of its last cell.
    const word in_west = j == 0 ? (__ldg(g + v.at(v.columns - 1, y)) >> (v.last - 1)) & 1u
                                : __ldg(g + v.at(j - 1, y)) >> 63;
    const word in_east = __ldg(g + v.at(last_column ? 0 : j + 1, y)) & 1u;
    const int east_bit = last_column ? v.last - 1 : 63;
    return row3{(p << 1) | in_west, p, (p >> 1) | (in_east << east_bit)};
}

__device__ __forceinline__ word column_mask(const view &v, int32_t j) {
    return j == v.columns - 1 ? bitgrid::low_bits<word>(v.last) : ~(word)0;
}

// A thread per word: blockIdx.x picks the column, blockIdx.y and the thread the row.
__global__ void __launch_bounds__(threads)
    single_word_kernel(const word *__restrict__ in, word *__restrict__ out, view v,
                       rule_words<word> rule) {
    const int32_t j = blockIdx.x;
    for (int64_t y = (int64_t)blockIdx.y * threads + threadIdx.x; y < v.h;
         y += (int64_t)gridDim.y * threads) {
        const int32_t yi = (int32_t)y;
        const row3 a = row_at(in, v, j, v.wrap_y(y - 1));
        const row3 m = row_at(in, v, j, yi);
        const row3 b = row_at(in, v, j, v.wrap_y(y + 1));
        word x2, x1, x0, z2, z1, z0, s3, s2, s1, s0;
        bitgrid::add4<word>(a.west, a.mid, a.east, m.west, x2, x1, x0);
        bitgrid::add4<word>(m.east, b.west, b.mid, b.east, z2, z1, z0);
        bitgrid::add33<word>(x2, x1, x0, z2, z1, z0, s3, s2, s1, s0);
        out[v.at(j, yi)] = bitgrid::next_state<word>(rule, m.mid, s3, s2, s1, s0) & column_mask(v, j);
    }
}

// A thread per pair of rows y (word K) and y+1 (word L), named as in the paper's Figure 5: the
// four words both counts need (rows y and y+1 shifted west and east) are summed once. With H odd,
// the last pair's second row is row 0 again: read, counted, not written.
__global__ void __launch_bounds__(threads)
    double_word_kernel(const word *__restrict__ in, word *__restrict__ out, view v,
                       rule_words<word> rule) {
    const int32_t j = blockIdx.x;
    const int64_t pairs = ((int64_t)v.h + 1) / 2;
    for (int64_t p = (int64_t)blockIdx.y * threads + threadIdx.x; p < pairs;
         p += (int64_t)gridDim.y * threads) {
        const int64_t y = 2 * p;
        const row3 r0 = row_at(in, v, j, v.wrap_y(y - 1)); // A B C
        const row3 r1 = row_at(in, v, j, (int32_t)y);      // D K E
        const row3 r2 = row_at(in, v, j, v.wrap_y(y + 1)); // I L J
        const row3 r3 = row_at(in, v, j, v.wrap_y(y + 2)); // F G H
        word sh2, sh1, sh0, ab2, ab1, ab0, be2, be1, be0, s3, s2, s1, s0;
        bitgrid::add4<word>(r1.west, r1.east, r2.west, r2.east, sh2, sh1, sh0);
        bitgrid::add4<word>(r0.west, r0.mid, r0.east, r2.mid, ab2, ab1, ab0);
        bitgrid::add4<word>(r3.west, r3.mid, r3.east, r1.mid, be2, be1, be0);
        const word mask = column_mask(v, j);
        bitgrid::add33<word>(ab2, ab1, ab0, sh2, sh1, sh0, s3, s2, s1, s0);
        out[v.at(j, (int32_t)y)] = bitgrid::next_state<word>(rule, r1.mid, s3, s2, s1, s0) & mask;
        if (y + 1 < v.h) {
            bitgrid::add33<word>(be2, be1, be0, sh2, sh1, sh0, s3, s2, s1, s0);
            out[v.at(j, (int32_t)(y + 1))] =
                bitgrid::next_state<word>(rule, r2.mid, s3, s2, s1, s0) & mask;
        }
    }
}

int launch_single(const cc_bitgrid *g, const void *in, void *out, int32_t steps, cc_error *err) {
    (void)steps; // one step a launch
    const view v = bitgrid::view_of(g->geo);
    const int64_t blocks_y = ((int64_t)v.h + threads - 1) / threads;
    const dim3 grid((unsigned)v.columns,
                    (unsigned)(blocks_y < max_blocks_y ? blocks_y : max_blocks_y));
    single_word_kernel<<<grid, threads>>>((const word *)in, (word *)out, v,
                                          bitgrid::rule_words_of<word>(g->rule));
    return cc_cuda_launched(err, g->engine, "single_word_kernel");
}

int launch_double(const cc_bitgrid *g, const void *in, void *out, int32_t steps, cc_error *err) {
    (void)steps;
    const view v = bitgrid::view_of(g->geo);
    const int64_t pairs = ((int64_t)v.h + 1) / 2;
    const int64_t blocks_y = (pairs + threads - 1) / threads;
    const dim3 grid((unsigned)v.columns,
                    (unsigned)(blocks_y < max_blocks_y ? blocks_y : max_blocks_y));
    double_word_kernel<<<grid, threads>>>((const word *)in, (word *)out, v,
                                          bitgrid::rule_words_of<word>(g->rule));
    return cc_cuda_launched(err, g->engine, "double_word_kernel");
}

int create(const char *engine, const cc_rule *rule, int32_t w, int32_t h, cc_bitgrid_launch fn,
           void **ctx, cc_error *err) {
    *ctx = NULL;
    cc_bitgrid_geometry geo;
    int rc = cc_bitgrid_geometry_init(engine, w, h, 64, 0, &geo, err);
    return rc ? rc : cc_bitgrid_create(engine, rule, &geo, 1, 0, 0, fn, ctx, err);
}

} // namespace

extern "C" int cuda_bitslice1_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                     cc_error *err) {
    return create("cuda.bitslice1", rule, w, h, launch_single, ctx, err);
}

extern "C" int cuda_bitslice2_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                     cc_error *err) {
    return create("cuda.bitslice2", rule, w, h, launch_double, ctx, err);
}
