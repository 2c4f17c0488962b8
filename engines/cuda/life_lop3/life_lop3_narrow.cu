// cuda.life-lop3's kernel for any W (not a multiple of 32): one step, a thread a word, the
// neighbours gathered across the row's wrap; Moore or hexagonal as life_lop3_stream.cu.
// Compiled to PTX and specialised to the rule like life_lop3_stream.cu; the layout is the same.
#include "engines/cuda/life_lop3/life_lop3_net.cuh"

// LIFE_LOP3_HEX (given on nvcc's command line): 1 for hexagonal rules, 0 for Moore.
#ifndef LIFE_LOP3_HEX
#error "compile with -DLIFE_LOP3_HEX=0 or 1"
#endif

namespace {

using life_lop3::full_warp;
using life_lop3::rule_net;

// 32 cells of a row from cell x on (0 <= x < w), wrapping past w as often as a narrow row needs.
__device__ uint32_t cells32(const uint32_t *row, int32_t x, int32_t w) {
    uint32_t v = 0;
    int filled = 0;
    while (filled < 32) {
        const int off = x & 31;
        int n = 32 - off;
        if (n > w - x) n = w - x;
        if (n > 32 - filled) n = 32 - filled;
        uint32_t bits = row[x >> 5] >> off;
        if (n < 32) bits &= (1u << n) - 1u;
        v |= bits << filled;
        filled += n;
        x += n;
        if (x == w) x = 0;
    }
    return v;
}

} // namespace

extern "C" {

// Any W: one step, a thread a word, the neighbours gathered across the row's wrap.
__global__ void life_lop3_narrow(const uint32_t *__restrict__ src, uint32_t *__restrict__ dst,
                                 int32_t w, int32_t h, int32_t words) {
    const int64_t total = (int64_t)words * h;
    const uint32_t last_mask = (w & 31) ? (1u << (w & 31)) - 1u : full_warp;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int32_t y = (int32_t)(i / words), j = (int32_t)(i % words);
        const int32_t ys[3] = {y == 0 ? h - 1 : y - 1, y, y + 1 == h ? 0 : y + 1};
        const int32_t xw = j == 0 ? w - 1 : 32 * j - 1, xe = 32 * j + 1 < w ? 32 * j + 1 : 0;
        uint32_t s0[3], s1[3], centre = 0;
        for (int d = 0; d < 3; d++) {
            const uint32_t *row = src + (size_t)ys[d] * (size_t)words;
            const uint32_t west = cells32(row, xw, w), mid = cells32(row, 32 * j, w),
                           east = cells32(row, xe, w);
            if (LIFE_LOP3_HEX) {
                // Above: (x-1, x); at: (x-1, x+1); below: (x, x+1).
                const uint32_t p = d == 2 ? mid : west, q = d == 0 ? mid : east;
                s0[d] = p ^ q;
                s1[d] = p & q;
            } else {
                s0[d] = west ^ mid ^ east;
                s1[d] = (west & mid) | (west & east) | (mid & east);
            }
            if (d == 1) centre = mid;
        }
        const uint32_t next = rule_net(s0[0], s1[0], s0[1], s1[1], s0[2], s1[2], centre);
        dst[i] = j == words - 1 ? next & last_mask : next;
    }
}

} // extern "C"
