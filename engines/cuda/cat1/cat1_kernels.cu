// cuda.cat1's device code: the fragment program of cat1_program.h, which cpu.cat1-emu runs lane by
// lane on the CPU. Each thread is one lane of that description; the functions of cat1_program.h
// build its band registers, pack its sums and place its bits, so the two share every index.
//
// One block: CAT1_WARPS warps, each a strip of two words (64 columns) of the tile, sliding down
// the tile's CAT1_TILE_GROUPS groups of 8 rows. Per group a warp runs, for each of its four
// m-groups, two m16n8k256 .b1 MMAs (H of the newest group, and the cells C: of that group for the
// cross, of the output group for Moore), keeps the packed sums in a window of 4 kv groups in
// registers, and runs kv m16n8k32 s8 MMAs for the output group; the rule gives a bit per lane and
// accumulator, four ballots per m-group gather them, and 16 lanes store the group's eight rows of
// two words. Nothing goes through shared memory; every input word is read by the warp of its
// strip and by the two strips beside it (the window's halo word), through L1, two groups ahead of
// its use. A second kernel then refreshes every position outside the W x H cells.
//
// Where the time goes (H100, 32768^2, r = 1, 0.74 ms a step): not memory (the bit grids move
// about 0.28 GB a step, 11 % of the DRAM bandwidth) and not the tensor pipes (12 MMAs a warp per
// group of 8 x 64 cells, the INT8 pipe 15 % busy), but issue: about 200 instructions a group, 16
// ballots and two comparisons a cell among them, issued on 60 % of the cycles, with the integer
// ALU pipe (a warp instruction every second cycle) at 57 % and the multiply-add pipe at 50 %. So
// the kernel keeps the integer ALU for the tests and moves what it can to multiply-adds (the
// packing of sums, the shifts of the stored words) and to the MMAs (Moore's live-cell weight).
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#include "engines/cuda/cat/cat_cuda.cuh"
#include "engines/cuda/cat1/cat1_kernels.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"

namespace {

// The MMA probe serves cuda.cat1; an instance names the engine it was created for.
constexpr const char *probe_engine = "cuda.cat1";
constexpr int kThreads = CAT1_WARPS * 32;

struct step_params {
    cat1_geometry g;
    cat_rule_params rule;
    cat_rule_single single; // filled when both sets are at most one range (the SINGLE kernels)
    // SINGLE: a cell's accumulators start at -base[0] (plus kAliveWeight * alive for the cross;
    // Moore's MMAs add its weight themselves), so the MMAs leave T = raw + alive_weight * alive -
    // base[0]; a dead cell is born when T is in 0..span[0] - 1, a live one survives when
    // T - alive_shift is in 0..span[1] - 1.
    int32_t neg_base0;     // -single.base[0]
    int32_t alive_weight;  // the weight of a live cell in T: cat1_alive_weight(r) for Moore,
                           // kAliveWeight for the cross
    int32_t alive_shift;   // alive_weight + single.base[1] - single.base[0]
    int32_t alive_mult[4]; // kAliveWeight >> k: the weight of centre bit k (a parameter too)
    cat1_mults mults;      // cat1_mults_of(), kept from the compiler (cat1_program.h)
};

// Above every raw sum a kernel reads ((2r+1)^2 = 4225 at r = 32), so that no dead cell's T reaches
// a live cell's range; a power of two, so that the weight of a centre bit k is 8192 >> k.
constexpr int32_t kAliveWeight = 8192;
static_assert((2 * CAT1_RADIUS_MAX + 1) * (2 * CAT1_RADIUS_MAX + 1) + 1 < kAliveWeight,
              "a live cell's T must stay above every dead cell's");

typedef void (*step_kernel_t)(const uint32_t *, uint32_t *, step_params);

// D += A x B over 256 bits: popcount of A's row AND B's column.
__device__ __forceinline__ void mma_b1(int (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1) {
    asm("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, "
        "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

using cat_cuda::mma_s8; // D += A x B over 32 s8 products

// The horizontal pass of one group of the strip from its B word b0: this lane's G word per
// m-group of H (the band's lower half, B = {b0, 0}) and, for the cross, of the cells C (its
// upper half, B = {0, b0}).
template <bool CROSS>
__device__ __forceinline__ void horizontal(uint32_t b0, const cat1_mults &m,
                                           const uint32_t (&ba)[CAT1_MGROUPS][4],
                                           uint32_t (&gh_out)[CAT1_MGROUPS],
                                           uint32_t (&gc_out)[CAT1_MGROUPS]) {
#pragma unroll
    for (int mg = 0; mg < CAT1_MGROUPS; mg++) {
        int d[4] = {0, 0, 0, 0};
        mma_b1(d, ba[mg], b0, 0u);
        gh_out[mg] = cat1_pack_h(d[0], d[1], d[2], d[3], &m);
        if constexpr (CROSS) {
            int c[4] = {0, 0, 0, 0};
            mma_b1(c, ba[mg], 0u, b0);
            gc_out[mg] = cat1_pack_h(c[0], c[1], c[2], c[3], &m);
        }
    }
}

using cat_cuda::next_state;

// One warp's work on its strip: KV chunks of 32 rows in the vertical window, GH groups of halo
// above (cat1_kv, cat1_gh); CROSS: the cross's vertical pass runs on the cells and adds H; SINGLE:
// the rule's sets are at most one range each. Group y0 - GH + i of a tile sits in window slot
// i % NG, so window group j (0..NG-1) of output group y0 + NG u + PH is slot (PH + j) % NG: the
// loop over the groups is unrolled by NG and the window turns without moving a register.
template <int KV, int GH, bool CROSS, bool SINGLE> struct strip_warp {
    static constexpr int NG = 4 * KV;
    const uint32_t *__restrict__ in;
    uint32_t *__restrict__ out;
    const step_params &p;
    const int lane;
    int64_t strip;
    uint32_t ba[CAT1_MGROUPS][4], bv[KV][2]; // the bands (cat1_band_a, cat1_band_v)
    uint32_t wh[NG][CAT1_MGROUPS], wc[NG][CAT1_MGROUPS];          // the window: H, C

    __device__ __forceinline__ strip_warp(const uint32_t *in_, uint32_t *out_,
                                          const step_params &p_, int lane_)
        : in(in_), out(out_), p(p_), lane(lane_), strip(0) {
#pragma unroll
        for (int mg = 0; mg < CAT1_MGROUPS; mg++)
#pragma unroll
            for (int q = 0; q < 4; q++) {
                ba[mg][q] = cat1_band_a(p.g.r, mg, lane, q);
            }
#pragma unroll
        for (int kappa = 0; kappa < KV; kappa++)
#pragma unroll
            for (int q = 0; q < 2; q++)
                bv[kappa][q] =
                    cat1_band_v(p.g.r, kappa, lane, q, CROSS ? 0 : cat1_alive_b(p.g.r));
    }

    // Moore: the window holds H of its first NG - 1 groups; its last group is the output group's
    // cells (cat1_program.h), so the newest H is window group NG - 2. The cross sums all NG.
    static constexpr int AHEAD = CROSS ? NG - 1 : NG - 2;
    uint32_t cells[CAT1_MGROUPS]; // Moore: the output group's cells, times CAT1_ALIVE_SCALE

    // Moore: the cells of the group whose B word is b0, as the last window group's G words.
    __device__ __forceinline__ void output_cells(uint32_t b0) {
#pragma unroll
        for (int mg = 0; mg < CAT1_MGROUPS; mg++) {
            int d[4] = {0, 0, 0, 0};
            mma_b1(d, ba[mg], 0u, b0);
            cells[mg] = cat1_pack_h(d[0], d[1], d[2], d[3], &p.mults) * CAT1_ALIVE_SCALE;
        }
    }

    // The newest B word is loaded two output groups ahead (at 0.6 instructions a cycle a group's
    // ~200 instructions did not cover one load measured at more than 1,000 cycles), into
    // next_b0[PH % 2]; NG is even, so the phases alternate across the unrolled loop. Moore keeps
    // each group's B word in its window slot (bw) until the group is the output group and its
    // cells are needed; the cross loads its centre words one group ahead. Pointers step a group
    // (8 rows) at a time: the newest B word last loaded, the cross's next centre words (row 2t,
    // strip word 1) and the word the lane stores.
    uint32_t next_b0[2], next_centre[2][2], bw[NG];
    const uint32_t *b_next, *c_next;
    uint32_t *o_word;

    // The word of interior row `row` (negative into the top halo) at window word w of the strip
    // (w = 0 is the halo word left of it).
    template <class T> __device__ __forceinline__ T *word_at(T *base, int64_t row, int w) const {
        return base + (size_t)(p.g.top + row) * (size_t)p.g.eww +
               (size_t)(CAT1_STRIP_WORDS * strip + w);
    }

    __device__ __forceinline__ void load_centre() {
        const size_t eww = (size_t)p.g.eww;
        next_centre[0][0] = __ldg(c_next);
        next_centre[0][1] = __ldg(c_next + 1);
        next_centre[1][0] = __ldg(c_next + eww);
        next_centre[1][1] = __ldg(c_next + eww + 1);
    }

    // The first AHEAD groups of the window of output group y0, and the loads of groups y0 and
    // y0 + 1 (before y1).
    __device__ __forceinline__ void prologue(int64_t y0, int64_t y1) {
        const size_t stride = CAT1_GROUP * (size_t)p.g.eww;
        b_next = word_at(in, CAT1_GROUP * (y0 - GH) + (lane >> 2), lane & 3);
#pragma unroll
        for (int j = 0; j < AHEAD; j++) {
            const uint32_t w = __ldg(b_next);
            if constexpr (!CROSS) bw[j] = w;
            horizontal<CROSS>(w, p.mults, ba, wh[j], wc[j]);
            b_next += stride;
        }
        next_b0[0] = __ldg(b_next);
        if (y0 + 1 < y1) {
            b_next += stride;
            next_b0[1] = __ldg(b_next);
        }
        if constexpr (CROSS) {
            c_next = word_at(in, CAT1_GROUP * y0 + 2 * (lane & 3), 1);
            load_centre();
        }
        o_word = word_at(out, CAT1_GROUP * y0 + ((lane >> 1) & 7), 1 + (lane & 1));
    }

    template <int PH> __device__ __forceinline__ void group(int64_t y, int64_t y1) {
        constexpr int newest = (PH + AHEAD) % NG;
        const size_t stride = CAT1_GROUP * (size_t)p.g.eww;
        const uint32_t b0 = next_b0[PH & 1];
        if (y + 2 < y1) {
            b_next += stride;
            next_b0[PH & 1] = __ldg(b_next);
        }
        // The cross: [row 2t + h][word], bit j the cell of bit 4 g + j.
        uint32_t centre[2][2] = {{0u, 0u}, {0u, 0u}};
        if constexpr (CROSS) {
#pragma unroll
            for (int h = 0; h < 2; h++)
#pragma unroll
                for (int s = 0; s < 2; s++) centre[h][s] = next_centre[h][s] >> (4 * (lane >> 2));
            if (y + 1 < y1) {
                c_next += stride;
                load_centre();
            }
        } else {
            bw[newest] = b0;
        }
        horizontal<CROSS>(b0, p.mults, ba, wh[newest], wc[newest]);
        if constexpr (!CROSS) output_cells(bw[(PH + GH) % NG]);

        uint32_t ballot[CAT1_MGROUPS][4];
#pragma unroll
        for (int mg = 0; mg < CAT1_MGROUPS; mg++) {
            const int s = mg >> 1;
            uint32_t alive[4]; // the cross: the cell's centre bit where it is (bit k), else 0
            int d[4];
#pragma unroll
            for (int q = 0; q < 4; q++) {
                const int k = 2 * (mg & 1) + (q >> 1);
                alive[q] = CROSS ? centre[q & 1][s] & (1u << k) : 0u;
                // The cross: a multiply-add (kAliveWeight * alive - base[0]) rather than
                // selects, leaving the integer ALU, this kernel's busiest pipe, to the tests.
                // Moore: the MMAs add the weight (the window's last group).
                d[q] = SINGLE ? (int)alive[q] * p.alive_mult[k] + p.neg_base0 : 0;
            }
#pragma unroll
            for (int kappa = 0; kappa < KV; kappa++) {
                constexpr int w0 = PH % NG; // slot of window group 0
                const int s0 = (w0 + 4 * kappa) % NG, s1 = (w0 + 4 * kappa + 1) % NG,
                          s2 = (w0 + 4 * kappa + 2) % NG, s3 = (w0 + 4 * kappa + 3) % NG;
                uint32_t a[4];
                if constexpr (CROSS)
                    cat1_vertical_a(wc[s0][mg], wc[s1][mg], wc[s2][mg], wc[s3][mg], a);
                else
                    cat1_vertical_a(wh[s0][mg], wh[s1][mg], wh[s2][mg],
                                    kappa == KV - 1 ? cells[mg] : wh[s3][mg], a);
                mma_s8(d, a, bv[kappa][0], bv[kappa][1]);
            }
#pragma unroll
            for (int q = 0; q < 4; q++) {
                int raw = d[q];
                if constexpr (CROSS) raw += cat1_g_byte(wh[(PH + GH) % NG][mg], q);
                bool next;
                if constexpr (SINGLE) {
                    next = (uint32_t)raw < (uint32_t)p.single.span[0] ||
                           (uint32_t)(raw - p.alive_shift) < (uint32_t)p.single.span[1];
                } else if constexpr (CROSS) {
                    next = next_state<false, 1u>(p, alive[q] != 0u, raw) != 0;
                } else {
                    const int live = cat1_split_alive(raw, p.alive_weight, &raw);
                    next = next_state<false, 1u>(p, live, raw) != 0;
                }
                ballot[mg][q] = __ballot_sync(0xffffffffu, next);
            }
        }
        // Lane 2 row + s (lanes 0..15) stores the group's row `row`, strip word s, from the
        // ballots of m-groups 2s and 2s+1 (cat1_row_word).
        const int s = lane & 1, row_in = (lane >> 1) & 7, h = row_in & 1;
        const uint32_t p0 = s ? (h ? ballot[2][1] : ballot[2][0]) : (h ? ballot[0][1] : ballot[0][0]);
        const uint32_t p1 = s ? (h ? ballot[2][3] : ballot[2][2]) : (h ? ballot[0][3] : ballot[0][2]);
        const uint32_t p2 = s ? (h ? ballot[3][1] : ballot[3][0]) : (h ? ballot[1][1] : ballot[1][0]);
        const uint32_t p3 = s ? (h ? ballot[3][3] : ballot[3][2]) : (h ? ballot[1][3] : ballot[1][2]);
        const uint32_t word = cat1_row_word_parts(p0, p1, p2, p3, row_in, &p.mults);
        if (lane < CAT1_GROUP * CAT1_STRIP_WORDS) *o_word = word;
        o_word += stride;
    }

    // Output groups yb .. yb + NG - 1, stopping at y1.
    template <int PH> __device__ __forceinline__ void phases(int64_t yb, int64_t y1) {
        if constexpr (PH < NG) {
            if (yb + PH >= y1) return;
            group<PH>(yb + PH, y1);
            phases<PH + 1>(yb, y1);
        }
    }
};

// The step kernel's minimum of resident blocks per multiprocessor, which caps its registers. Up
// to r = 8 (GH = 1), 4 blocks (128 registers); to r = 16, 3 (168); past r = 16 the window needs
// the registers, so 1. Measured at 32768^2 on the H100: at r = 1, 0.769 ms a step with 4 blocks
// against 0.823 with 3; at r = 16, 0.828 with 3 against 0.905 with 4 (its spills). An earlier
// kernel measured 1.09 ms with 3 blocks against 1.44 with 1 block of up to 255 registers.
constexpr int min_blocks(int gh) { return gh <= 1 ? 4 : gh <= 2 ? 3 : 1; }

template <int KV, int GH, bool CROSS, bool SINGLE>
__global__ void __launch_bounds__(kThreads, min_blocks(GH))
    cat1_step_kernel(const uint32_t *__restrict__ in, uint32_t *__restrict__ out, step_params p) {
    const cat1_geometry &g = p.g;
    const int warp = (int)(threadIdx.x >> 5), lane = (int)(threadIdx.x & 31);
    strip_warp<KV, GH, CROSS, SINGLE> sw(in, out, p, lane); // the bands, once per thread
    for (int64_t tile = blockIdx.x; tile < g.tiles; tile += gridDim.x) {
        sw.strip = tile % g.tiles_x * CAT1_WARPS + warp;
        if (sw.strip >= g.strips) continue; // the whole warp: no block-wide barrier follows
        const int64_t y0 = tile / g.tiles_x * CAT1_TILE_GROUPS;
        const int64_t y1 = min(y0 + CAT1_TILE_GROUPS, g.fg);
        sw.prologue(y0, y1);
        for (int64_t yb = y0; yb < y1; yb += strip_warp<KV, GH, CROSS, SINGLE>::NG)
            sw.template phases<0>(yb, y1);
    }
}

// Every border word from the cells it mirrors (cat1_refreshed_word). The real cells, the only
// sources, keep their values in every word this kernel writes.
__global__ void refresh_kernel(uint32_t *buf, cat1_geometry g, int64_t count) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; b < count; b += stride) {
        int64_t row, word;
        cat1_border_word(&g, b, &row, &word);
        buf[(size_t)row * (size_t)g.eww + (size_t)word] = cat1_refreshed_word(&g, buf, row, word);
    }
}

// Interior words of rows y0 .. y0 + count / W - 1 from portable cells; positions past W are 0
// until the refresh.
__global__ void load_kernel(uint32_t *buf, const uint8_t *cells, cat1_geometry g, int64_t y0,
                            int64_t rows) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x, words = rows * g.fww;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < words; idx += stride) {
        const int64_t y = idx / g.fww, w = idx % g.fww;
        const uint8_t *row = cells + (size_t)y * (size_t)g.w;
        uint32_t v = 0;
        for (int b = 0; b < 32; b++) {
            const int64_t x = CAT1_WORD * w + cat1_column_of_bit(b);
            if (x < g.w) v |= (uint32_t)(row[x] & 1u) << b;
        }
        buf[(size_t)(g.top + y0 + y) * (size_t)g.eww + (size_t)(w + 1)] = v;
    }
}

// The cells of rows y0 .. y0 + count / W - 1 as portable cells.
__global__ void store_kernel(uint8_t *cells, const uint32_t *buf, cat1_geometry g, int64_t y0,
                             int64_t count) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride) {
        const int64_t x = idx % g.w, y = y0 + idx / g.w;
        cells[idx] = (uint8_t)((buf[cat1_word_index(&g, x, y)] >> cat1_bit_index(x)) & 1u);
    }
}

// One MMA per lane's registers: the layout probe (cuda_cat1_mma_probe).
__global__ void mma_probe_kernel(int binary, const uint32_t *a, const uint32_t *b, int32_t *d) {
    const int lane = (int)threadIdx.x;
    const uint32_t ar[4] = {a[4 * lane], a[4 * lane + 1], a[4 * lane + 2], a[4 * lane + 3]};
    int acc[4] = {0, 0, 0, 0};
    if (binary)
        mma_b1(acc, ar, b[2 * lane], b[2 * lane + 1]);
    else
        mma_s8(acc, ar, b[2 * lane], b[2 * lane + 1]);
    for (int q = 0; q < 4; q++) d[4 * lane + q] = acc[q];
}

struct state {
    const char *engine; // static: cuda.cat1, or cuda.cat1-nccl's instance on one device
    step_kernel_t step;
    step_params params;
    int grid;      // persistent blocks of the step kernel
    int side_grid; // most blocks of the refresh, load and store kernels
};

int refresh(void *self, void *grid, cc_error *err) {
    const state *d = (const state *)self;
    const int64_t count = cat1_border_words(&d->params.g);
    refresh_kernel<<<cc_cuda_blocks(count, 256, d->side_grid), 256>>>((uint32_t *)grid,
                                                                       d->params.g, count);
    return cc_cuda_launched(err, d->engine, "the refresh kernel");
}

int step(void *self, const void *in, void *out, cc_error *err) {
    const state *d = (const state *)self;
    d->step<<<(unsigned)d->grid, kThreads>>>((const uint32_t *)in, (uint32_t *)out, d->params);
    int rc = cc_cuda_launched(err, d->engine, "the step kernel");
    return rc ? rc : refresh(self, out, err);
}

int load_rows(void *self, void *grid, const uint8_t *staging, int64_t y0, int64_t count,
              cc_error *err) {
    const state *d = (const state *)self;
    const int64_t rows = count / d->params.g.w;
    load_kernel<<<cc_cuda_blocks(rows * d->params.g.fww, 256, d->side_grid), 256>>>(
        (uint32_t *)grid, staging, d->params.g, y0, rows);
    return cc_cuda_launched(err, d->engine, "the load kernel");
}

int store_rows(void *self, uint8_t *staging, const void *grid, int64_t y0, int64_t count,
               cc_error *err) {
    const state *d = (const state *)self;
    store_kernel<<<cc_cuda_blocks(count, 256, d->side_grid), 256>>>(
        staging, (const uint32_t *)grid, d->params.g, y0, count);
    return cc_cuda_launched(err, d->engine, "the store kernel");
}

void release(void *self) { free(self); }

// Field by field: the driver's table may gain optional entries, which stay NULL here.
cc_gpu_ops make_ops() {
    cc_gpu_ops o = {};
    o.step = step;
    o.refresh = refresh;
    o.load_rows = load_rows;
    o.store_rows = store_rows;
    o.release = release;
    return o;
}

const cc_gpu_ops ops = make_ops();

template <int KV, int GH>
step_kernel_t choose(bool cross, bool single) {
    if (cross)
        return single ? cat1_step_kernel<KV, GH, true, true>
                      : cat1_step_kernel<KV, GH, true, false>;
    return single ? cat1_step_kernel<KV, GH, false, true> : cat1_step_kernel<KV, GH, false, false>;
}

// The kernel of the window radius r needs (cat1_kv, cat1_gh: 1 and 1 up to r = 8, 2 and 2 to 16,
// 2 and 3 to 24, 3 and 4 to 32).
step_kernel_t pick_kernel(int32_t r, bool cross, bool single) {
    if (r <= 8) return choose<1, 1>(cross, single);
    if (r <= 16) return choose<2, 2>(cross, single);
    if (r <= 24) return choose<2, 3>(cross, single);
    if (r <= 32) return choose<3, 4>(cross, single);
    return nullptr;
}

} // namespace

extern "C" int cuda_cat1_create(const char *engine, int device, const cat1_geometry *geo,
                                int cross, const cat_rule_params *rule, cc_gpu **out,
                                cc_error *err) {
    *out = NULL;
    const bool single = cat_rule_is_single(rule) != 0;
    step_kernel_t kernel = pick_kernel(geo->r, cross != 0, single);
    if (!kernel || geo->r < 1 || cat1_kv(geo->r) != geo->kv || cat1_gh(geo->r) != geo->gh)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: radius %d is outside 1..%d", engine,
                       (int)geo->r, CAT1_RADIUS_MAX);
    state *d = (state *)calloc(1, sizeof *d);
    if (!d) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine);
    d->engine = engine;
    d->step = kernel;
    d->params.g = *geo;
    for (int k = 0; k < 4; k++) d->params.alive_mult[k] = kAliveWeight >> k;
    d->params.alive_weight = cross ? kAliveWeight : cat1_alive_weight(geo->r);
    d->params.mults = cat1_mults_of();
    d->params.rule = *rule;
    if (single) {
        int rc = cat_rule_single_build(engine, rule, &d->params.single, err);
        if (rc) {
            free(d);
            return rc;
        }
        d->params.neg_base0 = -d->params.single.base[0];
        d->params.alive_shift =
            d->params.alive_weight + d->params.single.base[1] - d->params.single.base[0];
    }
    char buffers[128];
    snprintf(buffers, sizeof buffers,
             "two grids of %lldx%lld 32-bit words and a staging buffer", (long long)geo->eww,
             (long long)geo->eh);
    cc_gpu_layout layout = {};
    layout.engine = engine;
    layout.w = geo->w;
    layout.h = geo->h;
    layout.grid_bytes = cat1_geometry_words(geo) * sizeof(uint32_t);
    layout.staged = 1;
    layout.buffers = buffers;
    layout.device = device;
    // Interior row y is extended row top + y: its eww words, the halo words beside its cells
    // included, which mirror the same row (cat1_word_index).
    layout.row_bytes = (size_t)geo->eww * sizeof(uint32_t);
    layout.row0_offset = (size_t)geo->top * layout.row_bytes;
    cc_gpu *gpu = NULL;
    int rc = cc_gpu_create(&layout, &ops, d, &gpu, err); // takes d: released on failure
    if (rc) return rc;
    rc = cc_gpu_persistent_grid(gpu, (const void *)d->step, kThreads, 0, geo->tiles, &d->grid,
                                err);
    if (rc) {
        cc_gpu_destroy(gpu);
        return rc;
    }
    d->side_grid = cc_gpu_device(gpu)->multiprocessors * 16;
    *out = gpu;
    return CC_OK;
}

extern "C" int cuda_cat1_mma_probe(int binary, const uint32_t a[32][4], const uint32_t b[32][2],
                                   int32_t d[32][4], cc_error *err) {
    int rc = cc_gpu_available(err);
    if (rc) return rc;
    // One allocation: A (128 words), B (64), D (128).
    uint32_t *buf = NULL;
    const size_t words = 128 + 64 + 128;
    CC_CUDA_CHECK(probe_engine, cudaMalloc((void **)&buf, words * sizeof(uint32_t)));
    cudaError_t status = cudaMemcpy(buf, a, 128 * sizeof(uint32_t), cudaMemcpyHostToDevice);
    if (status == cudaSuccess)
        status = cudaMemcpy(buf + 128, b, 64 * sizeof(uint32_t), cudaMemcpyHostToDevice);
    if (status != cudaSuccess) {
        (void)cudaFree(buf);
        return cc_cuda_fail(status, probe_engine, "cudaMemcpy of the probe's operands", err);
    }
    mma_probe_kernel<<<1, 32>>>(binary, buf, buf + 128, (int32_t *)(buf + 192));
    rc = cc_cuda_launched(err, probe_engine, "the MMA probe kernel");
    if (!rc) {
        status = cudaMemcpy(d, buf + 192, 128 * sizeof(int32_t), cudaMemcpyDeviceToHost);
        if (status != cudaSuccess)
            rc = cc_cuda_fail(status, probe_engine, "cudaMemcpy of the probe's results", err);
    }
    (void)cudaFree(buf);
    return rc;
}
