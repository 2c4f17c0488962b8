// The count of runsum_program.h's words by band matrices on the tensor cores (CUDA C++; included
// by runsum_kernels.cu only): a second step kernel, on the words in columns (word e of row y at
// e H + y), which cpu.runsum-mma-emu runs lane by lane (runsum_mma_program.h holds the layouts
// both follow).
//
// A warp owns one word of columns (e) and a band of rows, and walks it 32 output rows an
// iteration. Row sums: for 8 rows at a time, mma.m16n8k128 .b1 (AND, POPC) of a constant band A
// (16 columns x the 128 bits of words e - 1 .. e + 2) by the rows' window words (B), twice (the
// word's 32 columns are two m-tiles); a chunk of 32 rows is 8 of them, packed as s8 in the very
// registers the vertical pass reads as its A (no data moves between lanes). Counts: for each
// group of 8 output rows, mma.m16n8k32 s8 of those chunks by a constant vertical band, the
// chunks around the group within the kernel's reach (REACH, below; a zero band where a chunk has
// no row within r: straight-line MMAs). The rule: a lookup a cell in the block's copy of the
// tables (runsum_mma_program.h) in shared memory, added into a byte of 4 cells; three butterfly
// exchanges turn each lane's 4 x 8 block into one row of the word, whose cells then choose S or B
// by their states, which come from the lanes that loaded the row's centre word for the row sums.
// The cross: below, at the kernel.
//
// Where the time goes (H200, 32768^2, ncu): 179 instructions a warp per 1024 cells at r = 4, 184
// at 16, 195 at 32; the rule is 32 shared-memory loads of a byte and 16 three-way ors; 1.27 passes
// a load at r = 16 (Table VI's rule after 100 steps), 1.0 elsewhere; at 20 warps a multiprocessor
// (r = 4) issue 61 % of cycles, stalled most on fixed-latency dependencies (1.96 cycles an
// instruction), the logic pipe at 61 % and the load-store pipe at 64 % of their rates. The rule by
// two multiply-adds, a logic op and a shift-and-add a cell took 249 instructions: 0.426 ms a step
// to r = 8, 0.433 at 16, 0.488 at 32; by lookup 0.346, 0.375 and 0.421.
#ifndef CELLCHECK_ENGINES_CUDA_RUNSUM_BAND_MMA_CUH
#define CELLCHECK_ENGINES_CUDA_RUNSUM_BAND_MMA_CUH

#ifndef __CUDACC__
#error "engines/cuda/runsum/band_mma.cuh is CUDA C++: include it from .cu files only"
#endif

#include <cuda_runtime.h>

#include <stdint.h>

#include "engines/cuda/cat/cat_cuda.cuh"
#include "engines/cuda/runsum/runsum_mma_program.h"

namespace runsum_mma {

constexpr unsigned kFull = 0xffffffffu;

struct params {
    runsum_geometry g;
    const uint8_t *tables; // runsum_mma_table_build's, RUNSUM_MMA_TABLES x the reach's stride
    int64_t band_h, bands; // band_h a multiple of RUNSUM_MMA_CHUNK
};

// D = A x B over 128 bits: the popcount of A's row AND B's column.
__device__ __forceinline__ void mma_b1(int (&d)[4], uint32_t a0, uint32_t a1, uint32_t b0) {
    asm("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5}, {%6}, "
        "{%7,%7,%7,%7};\n"
        : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
        : "r"(a0), "r"(a1), "r"(b0), "r"(0));
}

using cat_cuda::mma_s8; // D += A x B over 32 s8 products

// a | b | c in one logic op (the compiler would add them two at a time)
__device__ __forceinline__ uint32_t or3(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t d;
    asm("lop3.b32 %0, %1, %2, %3, 0xfe;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

// Keeps v in a register from here on: without it the compiler recomputes the bands at every use
// (two dozen compares and selects an MMA, the bulk of the loop).
__device__ __forceinline__ void pin(uint32_t &v) { asm volatile("" : "+r"(v)); }
// The same for a pair that an MMA reads as its B operand: one 64-bit value keeps its halves in
// adjacent registers, with no moves to pair them before each MMA.
__device__ __forceinline__ void pin(uint64_t &v) { asm volatile("" : "+l"(v)); }

// A chunk: the vertical pass's A registers of both m-tiles.
struct chunk {
    uint32_t a[2][4];
};

// The window words of a chunk's 32 rows: lane (g, t) holds word e - 1 + t of rows
// 8 q + runsum_mma_row_of_column(g).
struct chunk_words {
    uint32_t b[4];
};

// The words of the chunk whose first row is y (0 <= y < H) from this lane's column of words,
// row 8 q + row of each group q of 8.
__device__ __forceinline__ void load_chunk(chunk_words &w, const uint32_t *__restrict__ column,
                                           int32_t y, int32_t h, int row) {
    if (y + RUNSUM_MMA_CHUNK <= h) {
#pragma unroll
        for (int q = 0; q < 4; q++) w.b[q] = __ldg(column + y + 8 * q + row);
    } else { // the chunk wraps past row H - 1 (several times where H < 32)
#pragma unroll
        for (int q = 0; q < 4; q++) w.b[q] = __ldg(column + (y + 8 * q + row) % h);
    }
}

// Row sums of a chunk's words, packed as s8 (runsum_mma_pack order).
__device__ __forceinline__ void row_sums(chunk &c, const chunk_words &w,
                                         const uint32_t (&band)[2][2]) {
#pragma unroll
    for (int h = 0; h < 2; h++) {
        int d[4][4];
#pragma unroll
        for (int q = 0; q < 4; q++) mma_b1(d[q], band[h][0], band[h][1], w.b[q]);
        runsum_mma_pack_chunk(d, c.a[h]);
    }
}

// The lane's masks and rotations of the three exchanges (s = 2, 3, 4).
struct exchanges {
    uint32_t keep[3], rotate[3];
};

__device__ __forceinline__ exchanges exchanges_of(int lane) {
    exchanges x;
#pragma unroll
    for (int i = 0; i < 3; i++) {
        const int s = i + 2;
        x.keep[i] = runsum_mma_exchange_keep(lane, s);
        // what the lane sends moves up by 2^(s-2) where its bit s is 1, down where it is 0
        x.rotate[i] = ((lane >> s) & 1) ? (1u << i) : 32u - (1u << i);
        pin(x.keep[i]);
        pin(x.rotate[i]);
    }
    return x;
}

// Bit s of the lane and bit s - 2 of the word change places (s = 2, 3, 4; lane = 4 g + t).
__device__ __forceinline__ uint32_t exchange(uint32_t w, const exchanges &x) {
#pragma unroll
    for (int i = 0; i < 3; i++) {
        const uint32_t send = __funnelshift_l(w, w, x.rotate[i]) & x.keep[i];
        w = (w & x.keep[i]) | __shfl_xor_sync(kFull, send, 4 << i);
    }
    return w;
}

// The kernels are cut by reach (runsum_mma_reach): REACH bounds the radii a kernel takes, and a
// chunk no row of which lies within REACH of a group takes no MMA and no band register (12 MMAs
// an iteration at 8, 16 at 16, 20 at 24, 24 at 32).

// Blocks of 128 threads, five a multiprocessor (96 registers a thread) for Moore to r = 16, four
// (128) for the rest: H200, 32768^2, five against four took 0.349 against 0.370 ms a step at
// r = 4 and 0.392 against 0.403 at 16 (with a 4-byte spill), but 0.441 against 0.427 at r = 32
// and 0.539 against 0.470 for the cross at 32, which spill more; three (168 registers) were 7 %
// slower on the H100.
constexpr int blocks_per_multiprocessor(int reach, bool cross) {
    return !cross && reach <= 16 ? 5 : 4;
}

// The cross (CROSS): the chunks hold each cell's own bit (the row band of radius 0), so the
// vertical MMAs sum the vertical arm; the horizontal arm of the rows an iteration writes (their
// row sums by the band of radius r, from the words already held for their states) is the
// accumulator the first vertical MMA of each group starts from (runsum_mma_program.h).
template <int REACH, bool CROSS>
__global__ void __launch_bounds__(128, blocks_per_multiprocessor(REACH, CROSS))
    step_kernel(const uint32_t *__restrict__ in, uint32_t *__restrict__ out,
                const __grid_constant__ params p) {
    extern __shared__ uint4 shared_tables[];
    const int table_words = RUNSUM_MMA_TABLES * runsum_mma_table_stride(REACH) / 16;
    for (int k = (int)threadIdx.x; k < table_words; k += (int)blockDim.x)
        shared_tables[k] = __ldg((const uint4 *)p.tables + k);
    __syncthreads();
    const uint8_t *tables = (const uint8_t *)shared_tables;
    const int lane = (int)(threadIdx.x & 31u), g = lane >> 2, t = lane & 3;
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (warp >= p.g.nw * p.bands) return;
    const int64_t e = 1 + warp % p.g.nw, band = warp / p.g.nw;
    // rows in 32 bits: H <= CC_GRID_SIDE_MAX (2^20)
    const int32_t y0 = (int32_t)(band * p.band_h);
    const int32_t y1 = (int32_t)(y0 + p.band_h < (int64_t)p.g.h ? y0 + p.band_h : (int64_t)p.g.h);
    const int32_t r = p.g.r;
    // The constant operands of this lane: the chunks' row band (radius 0 for the cross) and the
    // cross's horizontal arm's.
    uint32_t hband[2][2], arm_band[2][2] = {};
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            hband[h][hh] = runsum_mma_row_band(CROSS ? 0 : r, h, g + 8 * hh, t);
            pin(hband[h][hh]);
            if (!CROSS) continue;
            arm_band[h][hh] = runsum_mma_row_band(r, h, g + 8 * hh, t);
            pin(arm_band[h][hh]);
        }
    uint64_t vband[4][3] = {};
#pragma unroll
    for (int gp = 0; gp < 4; gp++)
#pragma unroll
        for (int d = 0; d < 3; d++) {
            if (!runsum_mma_chunk_used(REACH, gp, d)) continue;
            vband[gp][d] = (uint64_t)runsum_mma_column_band(r, gp, d, 1, g, t) << 32 |
                           runsum_mma_column_band(r, gp, d, 0, g, t);
            pin(vband[gp][d]);
        }
    const exchanges xchg = exchanges_of(lane);
    const int32_t h = p.g.h;
    // Word e - 1 + t of every row, a column of H words (the fourth word, never in a window, is
    // clamped into the grid).
    const int64_t wcol = e - 1 + t < p.g.eww ? e - 1 + t : p.g.eww - 1;
    const uint32_t *column = in + (size_t)wcol * (size_t)h;
    uint32_t *out_column = out + (size_t)e * (size_t)h; // word e of every row
    const int row_of_lane = runsum_mma_row_of_lane(lane); // the row it writes
    const int row_in_group = runsum_mma_row_of_column(g);  // the row of 8 its B operands hold
    // The next chunk's first row: rows advance 32 a chunk, with no division but where they wrap.
    int32_t ychunk = (int32_t)(((y0 - RUNSUM_MMA_CHUNK) % h + h) % h);
    auto advance = [&]() {
        ychunk += RUNSUM_MMA_CHUNK;
        if (ychunk >= h) ychunk = h >= RUNSUM_MMA_CHUNK ? ychunk - h : ychunk % h;
    };
    chunk c0, c1, c2;
    chunk_words next;
    load_chunk(next, column, ychunk, h, row_in_group);
    row_sums(c0, next, hband);
    advance();
    load_chunk(next, column, ychunk, h, row_in_group);
    row_sums(c1, next, hband);
    // The words of the rows an iteration writes (chunk b's), whose centre words (t = 1) are the
    // cells' states: lane 4 g + 1 holds row 8 q + runsum_mma_row_of_column(g) in b[q].
    chunk_words held = next;
    advance();
    load_chunk(next, column, ychunk, h, row_in_group);
    // One iteration: rows y .. y + 31 from chunks a (rows y - 32 ..), b (y ..) and c, which it
    // fills from the words loaded the iteration before (rows y + 32 ..).
    auto iteration = [&](int32_t y, chunk &a, chunk &b, chunk &c) {
        // This lane's row's states, from the lane that loaded that row's centre word.
        uint32_t alive = 0;
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const uint32_t v = __shfl_sync(
                kFull, held.b[q], 4 * runsum_mma_column_of_row(row_of_lane & 7) + 1);
            if (q == row_of_lane >> 3) alive = v;
        }
        const chunk_words rows = held; // the cross's horizontal arms come from these
        held = next;
        row_sums(c, next, hband);
        advance();
        load_chunk(next, column, ychunk, h, row_in_group);
        const chunk *window[3] = {&a, &b, &c};
        // Cell i (31 - runsum_mma_bit_of_cell): entry raw of table i % 4 added into bytes[i / 4],
        // the table's offset a constant of the load.
        uint32_t bytes[8] = {};
#pragma unroll
        for (int gp = 3; gp >= 0; gp--) {
            int d[2][4];
#pragma unroll
            for (int m = 0; m < 2; m++) {
                if (CROSS) {
                    mma_b1(d[m], arm_band[m][0], arm_band[m][1], rows.b[gp]);
                } else {
#pragma unroll
                    for (int k = 0; k < 4; k++) d[m][k] = 0;
                }
                // every chunk within REACH, a zero band where none of its rows is within r:
                // straight-line MMAs, which the compiler interleaves with the rule of the group
                // before
#pragma unroll
                for (int ch = 0; ch < 3; ch++)
                    if (runsum_mma_chunk_used(REACH, gp, ch))
                        mma_s8(d[m], window[ch]->a[m], (uint32_t)vband[gp][ch],
                               (uint32_t)(vband[gp][ch] >> 32));
            }
            // register 2 hh + b of m-tile m; both b of one (m, hh) share a byte, taken in by one
            // three-way or (the entries' bits are disjoint)
#pragma unroll
            for (int m = 1; m >= 0; m--)
#pragma unroll
                for (int hh = 1; hh >= 0; hh--) {
                    uint32_t entry[2];
                    int byte = 0;
#pragma unroll
                    for (int b = 0; b < 2; b++) {
                        const int i = 31 - runsum_mma_bit_of_cell(gp, b, m, hh);
                        entry[b] = tables[(i & 3) * runsum_mma_table_stride(REACH) +
                                          d[m][2 * hh + b]];
                        byte = i >> 2;
                    }
                    bytes[byte] = or3(bytes[byte], entry[0], entry[1]);
                }
        }
        uint32_t stays, born;
        runsum_mma_words_of_bytes(bytes, &stays, &born);
        stays = exchange(stays, xchg);
        born = exchange(born, xchg);
        const int32_t yo = y + row_of_lane;
        if (yo < y1) {
            out_column[yo] = (alive & stays) | (~alive & born);
        }
    };
    for (int32_t y = y0; y < y1; y += 3 * RUNSUM_MMA_CHUNK) {
        iteration(y, c0, c1, c2);
        if (y + RUNSUM_MMA_CHUNK >= y1) break;
        iteration(y + RUNSUM_MMA_CHUNK, c1, c2, c0);
        if (y + 2 * RUNSUM_MMA_CHUNK >= y1) break;
        iteration(y + 2 * RUNSUM_MMA_CHUNK, c2, c0, c1);
    }
}

using kernel_t = void (*)(const uint32_t *, uint32_t *, params);

template <bool CROSS>
kernel_t kernel_of_reach(int32_t r) {
    switch (runsum_mma_reach(r)) {
    case 8: return step_kernel<8, CROSS>;
    case 16: return step_kernel<16, CROSS>;
    case 24: return step_kernel<24, CROSS>;
    default: return step_kernel<32, CROSS>;
    }
}

// The kernel for the shape and radius r (<= RUNSUM_MMA_RADIUS_MAX); it launches with
// runsum_mma_tables_bytes(r) of shared memory, its copy of the tables.
inline kernel_t kernel_of(bool cross, int32_t r) {
    return cross ? kernel_of_reach<true>(r) : kernel_of_reach<false>(r);
}

} // namespace runsum_mma

#endif
