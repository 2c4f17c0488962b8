// cuda.runsum's device code: the program of runsum_program.h, which cpu.runsum-emu runs lane by
// lane on the CPU. Each thread is one lane of that description and computes with its functions;
// what the emulation reads from a neighbour lane's arrays comes here by __shfl_down_sync and
// __shfl_up_sync.
//
// A warp walks one band of one strip (30 words written, 32 loaded). Each row in costs one
// doubling of a signed row (Moore: new row - old row; the cross: its row arm) and one add into a
// counter of 2L + 1 or 2L + 2 (Moore) or L + 2 (the cross) planes; each row out the rule's comparisons on
// those planes and one 32-bit store. Nothing goes through shared memory; the three loads a row
// (the row coming in, the row going out, the centre row) read 128 contiguous bytes a warp, the
// latter two 2r+1 and r rows after the first, through L1 and L2, a few rows ahead of their use.
// The bands are cut for as many warps as the kernel's registers let be resident: the kernel is
// bound by the logic pipe once the loads are hidden (ncu, H200, r = 16: ALU 74 %, DRAM 7 %). The
// refresh then rewrites the three halo words of every row.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/runsum/band_mma.cuh"
#include "engines/cuda/runsum/runsum_kernels.h"
#include "engines/cuda/runsum/runsum_program.h"

namespace {

constexpr int kThreadsMax = 128;
constexpr unsigned kFull = 0xffffffffu;

struct step_params {
    runsum_geometry g;
    runsum_rule rule;
};

// Bits s .. s + 31 of hi:lo, 0 <= s <= 32: a funnel shift, or two multiplies (MUL).
template <bool MUL>
__device__ __forceinline__ uint32_t funnel(uint32_t lo, uint32_t hi, uint32_t s) {
    if (!MUL) return __funnelshift_rc(lo, hi, s);
    return s == 0 ? lo : s >= 32 ? hi : runsum_funnel_by_multiply(lo, hi, (int32_t)s);
}

// The box of the signed row (d0, d1) over the window of radius r (2^L <= 2r+1 < 2^(L+1)), L + 2
// planes: doubling levels 1..L from the right neighbour, then the pieces of 2r+1 from the highest.
// Every lane of the warp takes part (the shuffles); r is the same for all of them.
template <int L, bool MUL>
__device__ __forceinline__ void box(uint32_t d0, uint32_t d1, int32_t r, uint32_t (&out)[L + 2]) {
    uint32_t s[L + 1][L + 2];
    s[0][0] = d0;
    s[0][1] = d1;
#pragma unroll
    for (int k = 1; k <= L; k++) {
        uint32_t shifted[L + 2];
#pragma unroll
        for (int q = 0; q < k + 1; q++) {
            const uint32_t right = __shfl_down_sync(kFull, s[k - 1][q], 1);
            shifted[q] = funnel<MUL>(s[k - 1][q], right, 1u << (k - 1));
        }
        runsum_add(s[k], k + 2, s[k - 1], k + 1, shifted, k + 1);
    }
#pragma unroll
    for (int q = 0; q < L + 2; q++) out[q] = 0;
    const int32_t w = 2 * r + 1;
#pragma unroll
    for (int k = L; k >= 0; k--) {
        if (!((w >> k) & 1)) continue;
        const int32_t off = runsum_piece_offset(r, k);
        uint32_t piece[L + 2];
        if (off >= 0) {
#pragma unroll
            for (int q = 0; q < k + 2; q++)
                piece[q] = funnel<MUL>(s[k][q], __shfl_down_sync(kFull, s[k][q], 1),
                                       (unsigned)off);
        } else {
#pragma unroll
            for (int q = 0; q < k + 2; q++)
                piece[q] = funnel<MUL>(__shfl_up_sync(kFull, s[k][q], 1), s[k][q],
                                       (unsigned)(RUNSUM_WORD + off));
        }
        runsum_add(out, L + 2, out, L + 2, piece, k + 2);
    }
}

// One step: a warp per (strip, band), whole warps leaving together past the last.
template <int L, bool CROSS, bool NARROW, bool SINGLE, bool MUL>
// At most 128 registers a thread (4 blocks a multiprocessor): with the block size alone ptxas
// spilled a few bytes in five of the kernels.
__global__ void __launch_bounds__(kThreadsMax, 4)
    step_kernel(const uint32_t *__restrict__ in, uint32_t *__restrict__ out,
                const __grid_constant__ step_params p) {
    constexpr int B = L + 2;                     // the box sums
    // the counter and the raw count (runsum_state_planes)
    constexpr int N = CROSS ? L + 2 : NARROW ? 2 * L + 1 : 2 * L + 2;
    const runsum_geometry &g = p.g;
    const int lane = (int)(threadIdx.x & 31u);
    const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (warp >= g.strips * g.bands) return;
    const int64_t strip = warp % g.strips, band = warp / g.strips;
    const int64_t e = RUNSUM_STRIP_WORDS * strip + lane;
    const size_t col = (size_t)(e < g.eww ? e : g.eww - 1), eww = (size_t)g.eww;
    const bool writes = lane >= 1 && lane <= RUNSUM_STRIP_WORDS && e <= g.nw;
    const int64_t y0 = band * g.band_h;
    const int64_t y1 = y0 + g.band_h < (int64_t)g.h ? y0 + g.band_h : (int64_t)g.h;
    const int64_t side = 2 * (int64_t)g.r + 1;
    uint32_t state[N];
    runsum_counter_start(&p.rule, state, N);
    // Iteration i reads row ynew_i = y0 - r + i coming in, ynew_i - (2r+1) going out and
    // ynew_i - r, the row it writes. Each is loaded P iterations ahead into a ring of registers:
    // the row coming in is a fresh read from memory, and a warp's few dozen instructions a row hide
    // its latency only with several in flight.
    constexpr int P = L <= 2 ? 4 : 2;
    const uint32_t *const base = in + col;
    const uint32_t h = (uint32_t)g.h, ew = (uint32_t)g.eww;
    const int64_t iterations = side - 1 + (y1 - y0);
    uint32_t yn = (uint32_t)cat_mod(y0 - g.r, g.h);
    uint32_t yo = (uint32_t)cat_mod((int64_t)yn - side, g.h), ya = (uint32_t)cat_mod(y0 - 2 * g.r, g.h);
    uint32_t ring_new[P], ring_old[P], ring_alive[P];
    // The next iteration's three words into slot j of the ring; rows past the band's last
    // iteration are read and not used (every row index is mod H).
    auto fetch = [&](int j) {
        ring_new[j] = __ldg(base + (size_t)yn * ew);
        ring_old[j] = __ldg(base + (size_t)yo * ew);
        ring_alive[j] = __ldg(base + (size_t)ya * ew);
        if (++yn == h) yn = 0;
        if (++yo == h) yo = 0;
        if (++ya == h) ya = 0;
    };
#pragma unroll
    for (int j = 0; j < P; j++) fetch(j);
    uint32_t *dst = out + (size_t)y0 * eww + (size_t)e;
    for (int64_t i0 = 0; i0 < iterations; i0 += P) {
#pragma unroll
        for (int j = 0; j < P; j++) {
            const int64_t i = i0 + j;
            if (i >= iterations) break;
            const uint32_t fresh = ring_new[j];
            const uint32_t old = i >= side ? ring_old[j] : 0u;
            const uint32_t alive = ring_alive[j];
            fetch(j);
            const uint32_t d[2] = {fresh ^ old, old & ~fresh};
            if (CROSS) {
                runsum_add(state, N, state, N, d, 2);
            } else {
                uint32_t diff[B];
                box<L, MUL>(d[0], d[1], g.r, diff);
                runsum_add(state, N, state, N, diff, B);
            }
            if (i >= side - 1) {
                uint32_t next;
                if (CROSS) {
                    uint32_t arm[B], raw[N];
                    box<L, MUL>(alive, 0u, g.r, arm);
                    runsum_add(raw, N, arm, B, state, N);
                    next = SINGLE ? runsum_next_single(&p.rule, raw, N, alive)
                                  : runsum_next(&p.rule, raw, N, alive);
                } else {
                    next = SINGLE ? runsum_next_single(&p.rule, state, N, alive)
                                  : runsum_next(&p.rule, state, N, alive);
                }
                if (writes) *dst = next;
                dst += eww;
            }
        }
    }
}

using step_kernel_t = void (*)(const uint32_t *, uint32_t *, step_params);

// Where word e of row y lies (e = 0: the left halo word): in rows of words, or in columns
// (COLUMNS: the band-matrix count's, word e of row y at e H + y, runsum_mma_program.h).
template <bool COLUMNS>
__device__ __forceinline__ size_t word_index(const runsum_geometry &g, int64_t e, int64_t y) {
    return COLUMNS ? (size_t)e * (size_t)g.h + (size_t)y : (size_t)y * (size_t)g.eww + (size_t)e;
}

// The halo words of every row (runsum_refreshed_word), a thread a word: in rows, a row's three
// words side by side; in columns, consecutive rows of one word column. The cells they read keep
// their values in every word this kernel writes.
template <bool COLUMNS>
__global__ void refresh_kernel(uint32_t *grid, runsum_geometry g) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x, count = 3 * (int64_t)g.h;
    const size_t word_stride = COLUMNS ? (size_t)g.h : 1;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride) {
        const int64_t y = COLUMNS ? idx % g.h : idx / 3;
        const int64_t e = runsum_refresh_column(&g, (int)(COLUMNS ? idx / g.h : idx % 3));
        grid[word_index<COLUMNS>(g, e, y)] =
            runsum_refreshed_word_strided(&g, grid + word_index<COLUMNS>(g, 0, y), word_stride, e);
    }
}

// The words of cells of rows y0 .. y0 + rows - 1 from portable cells; bits past W are 0 until the
// refresh.
template <bool COLUMNS>
__global__ void load_kernel(uint32_t *grid, const uint8_t *cells, runsum_geometry g, int64_t y0,
                            int64_t rows) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x, words = rows * g.nw;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < words; idx += stride) {
        const int64_t y = idx / g.nw, word = idx % g.nw;
        const uint8_t *row = cells + (size_t)y * (size_t)g.w;
        uint32_t v = 0;
        for (int b = 0; b < RUNSUM_WORD; b++) {
            const int64_t x = RUNSUM_WORD * word + b;
            if (x < g.w) v |= (uint32_t)(row[x] & 1u) << b;
        }
        grid[word_index<COLUMNS>(g, word + 1, y0 + y)] = v;
    }
}

// The cells of rows y0 .. as portable cells.
template <bool COLUMNS>
__global__ void store_kernel(uint8_t *cells, const uint32_t *grid, runsum_geometry g, int64_t y0,
                             int64_t count) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride) {
        const int64_t x = idx % g.w, y = y0 + idx / g.w;
        cells[idx] =
            (uint8_t)((grid[word_index<COLUMNS>(g, 1 + x / RUNSUM_WORD, y)] >> (x % RUNSUM_WORD)) & 1u);
    }
}

struct state {
    const char *engine; // static
    step_kernel_t step;
    runsum_mma::kernel_t mma_step; // the band-matrix count instead, where not NULL
    runsum_mma::params mma;
    step_params params;
    int threads;        // a block of the step kernel
    unsigned blocks;    // of the step kernel: a warp per strip and band
    int side_grid;      // most blocks of the refresh, load and store kernels
};

int refresh(void *self, void *grid, cc_error *err) {
    const state *d = (const state *)self;
    const unsigned blocks = cc_cuda_blocks(3 * (int64_t)d->params.g.h, 256, d->side_grid);
    if (d->mma_step)
        refresh_kernel<true><<<blocks, 256>>>((uint32_t *)grid, d->params.g);
    else
        refresh_kernel<false><<<blocks, 256>>>((uint32_t *)grid, d->params.g);
    return cc_cuda_launched(err, d->engine, "the refresh kernel");
}

int step(void *self, const void *in, void *out, cc_error *err) {
    const state *d = (const state *)self;
    int rc;
    if (d->mma_step) {
        d->mma_step<<<d->blocks, (unsigned)d->threads, runsum_mma_tables_bytes(d->mma.g.r)>>>(
            (const uint32_t *)in, (uint32_t *)out, d->mma);
        rc = cc_cuda_launched(err, d->engine, "the band-matrix step kernel (radius %d)",
                              (int)d->mma.g.r);
    } else {
        d->step<<<d->blocks, (unsigned)d->threads>>>((const uint32_t *)in, (uint32_t *)out,
                                                     d->params);
        rc = cc_cuda_launched(err, d->engine, "the step kernel (L %d, %s)",
                              (int)d->params.g.levels, d->params.g.cross ? "cross" : "Moore");
    }
    return rc ? rc : refresh(self, out, err);
}

int load_rows(void *self, void *grid, const uint8_t *staging, int64_t y0, int64_t count,
              cc_error *err) {
    const state *d = (const state *)self;
    const int64_t rows = count / d->params.g.w;
    const unsigned blocks = cc_cuda_blocks(rows * d->params.g.nw, 256, d->side_grid);
    if (d->mma_step)
        load_kernel<true><<<blocks, 256>>>((uint32_t *)grid, staging, d->params.g, y0, rows);
    else
        load_kernel<false><<<blocks, 256>>>((uint32_t *)grid, staging, d->params.g, y0, rows);
    return cc_cuda_launched(err, d->engine, "the load kernel");
}

int store_rows(void *self, uint8_t *staging, const void *grid, int64_t y0, int64_t count,
               cc_error *err) {
    const state *d = (const state *)self;
    const unsigned blocks = cc_cuda_blocks(count, 256, d->side_grid);
    if (d->mma_step)
        store_kernel<true><<<blocks, 256>>>(staging, (const uint32_t *)grid, d->params.g, y0, count);
    else
        store_kernel<false><<<blocks, 256>>>(staging, (const uint32_t *)grid, d->params.g, y0, count);
    return cc_cuda_launched(err, d->engine, "the store kernel");
}

void release(void *self) {
    state *d = (state *)self;
    if (d->mma.tables) (void)cudaFree((void *)d->mma.tables); // teardown cannot report
    free(d);
}

// The rule's tables for the band-matrix kernel (runsum_mma_program.h), on the device.
int upload_tables(state *d, const runsum_rule *rule, cc_error *err) {
    const size_t bytes = runsum_mma_tables_bytes(d->mma.g.r);
    uint8_t *host = (uint8_t *)malloc(bytes);
    if (!host)
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate the rule's tables", d->engine);
    runsum_mma_tables_of_rule(rule, &d->mma.g, host);
    uint8_t *tables = NULL;
    cudaError_t c = cudaMalloc((void **)&tables, bytes);
    if (c == cudaSuccess) {
        d->mma.tables = tables; // freed by release, whatever follows
        c = cudaMemcpy(tables, host, bytes, cudaMemcpyHostToDevice);
    }
    free(host);
    if (c != cudaSuccess)
        return cc_fail(err, CC_ERR_DEVICE, "%s: the rule's tables (%zu bytes) on the device: %s",
                       d->engine, bytes, cudaGetErrorString(c));
    return CC_OK;
}

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

template <int L, bool MUL>
step_kernel_t choose(bool cross, bool narrow, bool single) {
    if (cross)
        return single ? step_kernel<L, true, false, true, MUL> : step_kernel<L, true, false, false, MUL>;
    if (narrow)
        return single ? step_kernel<L, false, true, true, MUL> : step_kernel<L, false, true, false, MUL>;
    return single ? step_kernel<L, false, false, true, MUL> : step_kernel<L, false, false, false, MUL>;
}

template <int L>
step_kernel_t choose(bool cross, bool narrow, bool single, bool mul) {
    return mul ? choose<L, true>(cross, narrow, single) : choose<L, false>(cross, narrow, single);
}

// The kernel of L = floor(log2(2r+1)): 1 at r = 1, 2 to 3, 3 to 7, 4 to 15, 5 to 31, 6 at 32.
// Rules of one range a set (every Larger than Life rule) get the kernel whose thresholds are
// constant operands.
step_kernel_t pick_kernel(int32_t levels, bool cross, bool narrow, bool single, bool mul) {
    switch (levels) {
    case 1: return choose<1>(cross, narrow, single, mul);
    case 2: return choose<2>(cross, narrow, single, mul);
    case 3: return choose<3>(cross, narrow, single, mul);
    case 4: return choose<4>(cross, narrow, single, mul);
    case 5: return choose<5>(cross, narrow, single, mul);
    case 6: return choose<6>(cross, narrow, single, mul);
    default: return nullptr;
    }
}

} // namespace

extern "C" const runsum_config runsum_default = {128, 0, RUNSUM_BAND_WINDOWS, 0, 0, 0};

extern "C" int cuda_runsum_create(const char *engine, int device, const runsum_geometry *geo,
                                  const runsum_rule *rule, const runsum_config *cfg, cc_gpu **out,
                                  cc_error *err) {
    *out = NULL;
    if (cfg->threads < 32 || cfg->threads > kThreadsMax || cfg->threads % 32 ||
        cfg->warps_per_sm < 0 || cfg->windows < 1 || cfg->band_chunks < 0 ||
        cfg->count < RUNSUM_COUNT_FASTER || cfg->count > RUNSUM_COUNT_BANDS)
        return cc_fail(err, CC_ERR_ARG,
                       "%s: a block of %d threads, %d warps a multiprocessor, bands of %d windows "
                       "or %d chunks, count %d: blocks of 32 .. %d threads in whole warps, at "
                       "least 1 window, warps and chunks 0 (the default) or more, count 0 .. 2",
                       engine, (int)cfg->threads, (int)cfg->warps_per_sm, (int)cfg->windows,
                       (int)cfg->band_chunks, cfg->count, kThreadsMax);
    int rc = runsum_check(engine, geo->cross ? CC_SHAPE_CROSS : CC_SHAPE_MOORE, geo->r, err);
    if (rc) return rc;
    const bool band_mma =
        cfg->count == RUNSUM_COUNT_BANDS ||
        (cfg->count == RUNSUM_COUNT_FASTER &&
         geo->r >= (geo->cross ? RUNSUM_MMA_CROSS_RADIUS_FROM : RUNSUM_MMA_RADIUS_FROM));
    if (band_mma && geo->r > RUNSUM_MMA_RADIUS_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: the band-matrix count takes r <= %d, not %d",
                       engine, RUNSUM_MMA_RADIUS_MAX, (int)geo->r);
    // Moore's counter in 2L + 1 planes where they hold it (runsum_state_planes), else 2L + 2
    const bool narrow = !geo->cross && geo->state_planes == 2 * geo->levels + 1;
    step_kernel_t kernel = pick_kernel(geo->levels, geo->cross != 0, narrow,
                                       runsum_rule_single(rule) != 0, cfg->shifts_by_multiply != 0);
    if (!kernel || geo->levels != runsum_levels(geo->r) ||
        geo->state_planes != runsum_state_planes(geo->r, geo->cross))
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: no kernel for radius %d", engine, (int)geo->r);
    state *d = (state *)calloc(1, sizeof *d);
    if (!d) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine);
    d->engine = engine;
    d->step = kernel;
    d->params.g = *geo;
    d->params.rule = *rule;
    if (band_mma) {
        d->mma_step = runsum_mma::kernel_of(geo->cross != 0, geo->r);
        d->mma.g = *geo;
        const int64_t chunks = cfg->band_chunks ? cfg->band_chunks : RUNSUM_MMA_BAND_CHUNKS;
        d->mma.band_h = chunks * RUNSUM_MMA_CHUNK;
        d->mma.bands = (geo->h + d->mma.band_h - 1) / d->mma.band_h;
    }
    char buffers[128];
    snprintf(buffers, sizeof buffers, "two grids of %lldx%d 32-bit words and a staging buffer",
             (long long)geo->eww, (int)geo->h);
    cc_gpu_layout layout = {};
    layout.engine = engine;
    layout.w = geo->w;
    layout.h = geo->h;
    layout.grid_bytes = runsum_geometry_words(geo) * sizeof(uint32_t);
    layout.staged = 1;
    layout.extra_bytes = band_mma ? runsum_mma_tables_bytes(geo->r) : 0;
    layout.buffers = buffers;
    layout.device = device;
    // Row y is its eww words, the halo words that mirror the same row included; the band-matrix
    // count's columns of words keep no row in one piece.
    layout.row_bytes = band_mma ? 0 : (size_t)geo->eww * sizeof(uint32_t);
    layout.row0_offset = 0;
    cc_gpu *gpu = NULL;
    rc = cc_gpu_create(&layout, &ops, d, &gpu, err); // takes d: released on failure
    if (rc) return rc;
    const int multiprocessors = cc_gpu_device(gpu)->multiprocessors;
    d->side_grid = multiprocessors * 16;
    d->threads = cfg->threads;
    if (d->mma_step) {
        rc = upload_tables(d, rule, err);
        if (rc) {
            cc_gpu_destroy(gpu);
            return rc;
        }
        const int64_t threads = d->mma.g.nw * d->mma.bands * 32;
        d->blocks = (unsigned)((threads + cfg->threads - 1) / cfg->threads);
        *out = gpu;
        return CC_OK;
    }
    int warps_per_sm = cfg->warps_per_sm;
    if (warps_per_sm == 0) {
        // as many warps as the kernel's registers let be resident: each hides the others' loads
        int resident = 0;
        rc = cc_gpu_persistent_grid(gpu, (const void *)kernel, cfg->threads, 0, INT64_MAX,
                                    &resident, err);
        if (rc) {
            cc_gpu_destroy(gpu);
            return rc;
        }
        warps_per_sm = resident / multiprocessors * (cfg->threads / 32);
    }
    runsum_geometry_bands(&d->params.g, multiprocessors, warps_per_sm, cfg->windows);
    const int64_t threads = d->params.g.strips * d->params.g.bands * 32;
    d->threads = cfg->threads;
    d->blocks = (unsigned)((threads + cfg->threads - 1) / cfg->threads);
    d->side_grid = multiprocessors * 16;
    *out = gpu;
    return CC_OK;
}
