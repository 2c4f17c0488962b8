// cuda.life-shared and cuda.life-shuffle: seed 001's multi-step simulation on bit grids (see
// life_kernels.h for the tile). A warp per tile and no block-wide barrier, as in the paper; four
// warps a block so that a block's tiles are consecutive strips of one column.
#include <cuda_runtime.h>

#include "engines/cuda/bitgrid/bitgrid.cuh"
#include "engines/cuda/common/check.cuh"
#include "engines/cuda/life/life_kernels.h"

namespace {

using bitgrid::rule_words;
using bitgrid::sum3;
using bitgrid::view;

constexpr int warps = 4;
constexpr unsigned full_mask = 0xffffffffu;

// n <= halo cells from x on (mod W) of row y, bit by bit: only the tiles at the torus seam, or of
// a last column too short to hold a halo, come here.
template <typename T>
__device__ T cells_one_by_one(const T *__restrict__ in, const view &v, int64_t x, int n,
                              int32_t y) {
    T out = 0;
    for (int b = 0; b < n; b++) {
        int64_t xx = (x + b) % v.w;
        if (xx < 0) xx += v.w;
        const int32_t col = (int32_t)(xx / v.cells), bit = v.halo + (int32_t)(xx % v.cells);
        out |= ((__ldg(in + v.at(col, y)) >> bit) & (T)1) << b;
    }
    return out;
}

// Row y of column j as a tile row: its own cells at their bits, the `halo` cells west of them in
// the bits below and the `halo` cells east of them in the bits above.
template <typename T>
__device__ __forceinline__ T tile_row(const T *__restrict__ in, const view &v, int32_t j,
                                      int32_t y) {
    const int t = v.halo;
    const int32_t c = v.cells_of(j);
    const int64_t x0 = (int64_t)j * v.cells;
    const T own = __ldg(in + v.at(j, y));
    // Column j-1 is full (only the last column can be short): its last t cells sit at bits
    // cells .. cells + t - 1.
    const T west = j > 0 ? (__ldg(in + v.at(j - 1, y)) >> v.cells) & bitgrid::low_bits<T>(t)
                         : cells_one_by_one(in, v, x0 - t, t, y);
    const int east_whole = j + 1 < v.columns - 1 || (j + 1 == v.columns - 1 && v.last >= t);
    const T east = east_whole ? (__ldg(in + v.at(j + 1, y)) >> t) & bitgrid::low_bits<T>(t)
                              : cells_one_by_one(in, v, x0 + c, t, y);
    return own | west | (east << (t + c));
}

struct tile_place {
    int32_t j;       // the word column
    int64_t first;   // the grid row of the tile's row 0 (before wrapping)
    int64_t out_row; // the grid row of the first clean row
    int32_t rows;    // clean rows
};

__device__ __forceinline__ bool place_tile(const view &v, int tile_rows, int64_t tiles,
                                           int64_t strips, tile_place *p) {
    const int64_t id = (int64_t)blockIdx.x * warps + threadIdx.x / 32;
    if (id >= tiles) return false;
    const int32_t clean = tile_rows - 2 * v.halo;
    p->j = (int32_t)(id / strips);
    p->out_row = (id % strips) * clean;
    p->first = p->out_row - v.halo;
    p->rows = clean;
    return true;
}

// Tile row r of a tile holds a clean row to write.
template <typename T>
__device__ __forceinline__ void write_row(T *__restrict__ out, const view &v, const tile_place &p,
                                          int r, T row) {
    const int64_t y = p.first + r;
    if (r < v.halo || r >= v.halo + p.rows || y >= v.h) return;
    const T own = bitgrid::low_bits<T>(v.cells_of(p.j)) << v.halo;
    out[v.at(p.j, (int32_t)y)] = row & own;
}

// Both rule forms, for either count.
template <typename T> struct rules {
    rule_words<T> eight; // on the 8 neighbours' count
    rule_words<T> nine;  // on the 3x3 block's count
};

// Section V-B: the tile's rows in shared memory, two copies stepped in turn; lane l takes rows
// l, l + 32, ... (neighbouring lanes, neighbouring words: no bank conflicts). RowSums: each row's
// horizontal sums (cell, west, east) are formed once into shared memory and added for the three
// rows that use them, and the rule reads the 3x3 block's count; otherwise SINGLE-WORD sums the
// eight shifted neighbour words of every row.
template <typename T, int R, bool RowSums>
__global__ void __launch_bounds__(32 * warps)
    shared_kernel(const T *__restrict__ in, T *__restrict__ out, view v, rules<T> rule,
                  int64_t tiles, int64_t strips, int steps) {
    constexpr int rows = 32 * R;
    __shared__ T tile[warps][2][rows];
    __shared__ T sums[RowSums ? warps : 1][2][RowSums ? rows : 1];
    tile_place p;
    if (!place_tile(v, rows, tiles, strips, &p)) return;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T *a = tile[warp][0], *b = tile[warp][1];
#pragma unroll
    for (int i = 0; i < R; i++) {
        const int r = lane + 32 * i;
        a[r] = tile_row(in, v, p.j, v.wrap_y(p.first + r));
    }
    __syncwarp();
    for (int s = 0; s < steps; s++) {
        if (RowSums) {
            T *s1 = sums[RowSums ? warp : 0][0], *s0 = sums[RowSums ? warp : 0][1];
#pragma unroll
            for (int i = 0; i < R; i++) {
                const int r = lane + 32 * i;
                const sum3<T> h = bitgrid::row_sum3(a[r]);
                s1[r] = h.s1;
                s0[r] = h.s0;
            }
            __syncwarp();
#pragma unroll
            for (int i = 0; i < R; i++) {
                const int r = lane + 32 * i;
                const sum3<T> none = {0, 0}, mid = {s1[r], s0[r]};
                const sum3<T> up = r > 0 ? sum3<T>{s1[r - 1], s0[r - 1]} : none;
                const sum3<T> down = r < rows - 1 ? sum3<T>{s1[r + 1], s0[r + 1]} : none;
                T t3, t2, t1, t0;
                bitgrid::add_sum3<T>(up, mid, down, t3, t2, t1, t0);
                b[r] = bitgrid::next_state<T>(rule.nine, a[r], t3, t2, t1, t0);
            }
        } else {
#pragma unroll
            for (int i = 0; i < R; i++) {
                const int r = lane + 32 * i;
                const T up = r > 0 ? a[r - 1] : (T)0, down = r < rows - 1 ? a[r + 1] : (T)0;
                b[r] = bitgrid::life_word<T>(rule.eight, up, a[r], down);
            }
        }
        __syncwarp(); // every lane's reads of a (and of the sums) are done before they are rewritten
        T *t = a;
        a = b;
        b = t;
    }
#pragma unroll
    for (int i = 0; i < R; i++) write_row(out, v, p, lane + 32 * i, a[lane + 32 * i]);
}

// Section V-C: the tile's rows in registers, lane l holding rows l*R .. l*R + R - 1; the row above
// a lane's first and below its last come from the neighbouring lanes by warp shuffles. RowSums as
// in shared_kernel: the horizontal sums of a lane's rows stay in its registers, those of the rows
// next to them come by shuffles.
template <typename T, int R, bool RowSums>
__global__ void __launch_bounds__(32 * warps)
    shuffle_kernel(const T *__restrict__ in, T *__restrict__ out, view v, rules<T> rule,
                   int64_t tiles, int64_t strips, int steps) {
    constexpr int rows = 32 * R;
    tile_place p;
    if (!place_tile(v, rows, tiles, strips, &p)) return;
    const int lane = threadIdx.x % 32;
    T row[R];
#pragma unroll
    for (int i = 0; i < R; i++) row[i] = tile_row(in, v, p.j, v.wrap_y(p.first + lane * R + i));
    for (int s = 0; s < steps; s++) {
        if (RowSums) {
            sum3<T> h[R];
#pragma unroll
            for (int i = 0; i < R; i++) h[i] = bitgrid::row_sum3(row[i]);
            sum3<T> up = {__shfl_up_sync(full_mask, h[R - 1].s1, 1),
                          __shfl_up_sync(full_mask, h[R - 1].s0, 1)};
            sum3<T> down = {__shfl_down_sync(full_mask, h[0].s1, 1),
                            __shfl_down_sync(full_mask, h[0].s0, 1)};
            if (lane == 0) up = sum3<T>{0, 0}; // past the tile: the spoiled border
            if (lane == 31) down = sum3<T>{0, 0};
#pragma unroll
            for (int i = 0; i < R; i++) {
                T t3, t2, t1, t0;
                bitgrid::add_sum3<T>(i > 0 ? h[i - 1] : up, h[i], i + 1 < R ? h[i + 1] : down, t3,
                                     t2, t1, t0);
                row[i] = bitgrid::next_state<T>(rule.nine, row[i], t3, t2, t1, t0);
            }
        } else {
            T up = __shfl_up_sync(full_mask, row[R - 1], 1);
            T down = __shfl_down_sync(full_mask, row[0], 1);
            if (lane == 0) up = 0;
            if (lane == 31) down = 0;
            T prev = up;
#pragma unroll
            for (int i = 0; i < R; i++) {
                const T cur = row[i];
                row[i] = bitgrid::life_word<T>(rule.eight, prev, cur, i + 1 < R ? row[i + 1] : down);
                prev = cur;
            }
        }
    }
#pragma unroll
    for (int i = 0; i < R; i++) write_row(out, v, p, lane * R + i, row[i]);
}

// The launch of one compiled tile; the context's kind is memory | row_sums << 1.
template <typename T, int R>
int launch_tile(const cc_bitgrid *g, const void *in, void *out, int steps, cc_error *err) {
    const view v = bitgrid::view_of(g->geo);
    const int32_t clean = 32 * R - 2 * v.halo;
    const int64_t strips = ((int64_t)v.h + clean - 1) / clean;
    const int64_t tiles = strips * v.columns;
    const unsigned blocks = (unsigned)((tiles + warps - 1) / warps);
    const rules<T> rule = {bitgrid::rule_words_of<T>(g->rule), bitgrid::rule9_words_of<T>(g->rule9)};
    const T *src = (const T *)in;
    T *dst = (T *)out;
    const int shuffle = (g->kind & 1) == CUDA_LIFE_SHUFFLE, row_sums = g->kind >> 1;
    if (shuffle && row_sums)
        shuffle_kernel<T, R, true><<<blocks, 32 * warps>>>(src, dst, v, rule, tiles, strips, steps);
    else if (shuffle)
        shuffle_kernel<T, R, false><<<blocks, 32 * warps>>>(src, dst, v, rule, tiles, strips, steps);
    else if (row_sums)
        shared_kernel<T, R, true><<<blocks, 32 * warps>>>(src, dst, v, rule, tiles, strips, steps);
    else
        shared_kernel<T, R, false><<<blocks, 32 * warps>>>(src, dst, v, rule, tiles, strips, steps);
    return cc_cuda_launched(err, g->engine, "%s_kernel<%d bits, %d rows a lane, %s>",
                            shuffle ? "shuffle" : "shared", (int)(8 * sizeof(T)), R,
                            row_sums ? "row sums" : "eight words");
}

using launch_fn = int (*)(const cc_bitgrid *, const void *, void *, int, cc_error *);

struct compiled_tile {
    int32_t bits, rows_per_lane;
    launch_fn launch;
};

// Keep in step with CUDA_LIFE_TILES.
const compiled_tile compiled[] = {
    {32, 1, launch_tile<uint32_t, 1>}, {64, 1, launch_tile<uint64_t, 1>},
    {64, 2, launch_tile<uint64_t, 2>}, {64, 4, launch_tile<uint64_t, 4>},
    {64, 8, launch_tile<uint64_t, 8>},
};

int launch(const cc_bitgrid *g, const void *in, void *out, int32_t steps, cc_error *err) {
    for (const compiled_tile &c : compiled)
        if (c.bits == g->geo.bits && 32 * c.rows_per_lane == g->tile_rows)
            return c.launch(g, in, out, steps, err);
    return cc_fail(err, CC_ERR_ARG, "%s: no compiled tile of %d bits by %d rows", g->engine,
                   (int)g->geo.bits, (int)g->tile_rows);
}

} // namespace

extern "C" int cuda_life_create(const char *engine, const cuda_life_config *cfg,
                                const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                cc_error *err) {
    *ctx = NULL;
    int found = 0;
    for (const compiled_tile &c : compiled)
        found |= c.bits == cfg->bits && c.rows_per_lane == cfg->rows_per_lane;
    if (!found)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: no compiled tile of %d bits by %d rows a lane; compiled: %s", engine,
                       (int)cfg->bits, (int)cfg->rows_per_lane, CUDA_LIFE_TILES);
    if (cfg->steps < 1 || CUDA_LIFE_TILE_H(cfg->rows_per_lane, cfg->steps) < 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: %d steps a launch leave no clean rows in a tile of %d rows", engine,
                       (int)cfg->steps, (int)(32 * cfg->rows_per_lane));
    cc_bitgrid_geometry geo;
    int rc = cc_bitgrid_geometry_init(engine, w, h, cfg->bits, cfg->steps, &geo, err);
    if (rc) return rc;
    const int32_t kind = (int32_t)cfg->memory | (cfg->row_sums ? 2 : 0);
    return cc_bitgrid_create(engine, rule, &geo, cfg->steps, kind, 32 * cfg->rows_per_lane,
                             launch, ctx, err);
}

extern "C" int cuda_life_shared_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                       cc_error *err) {
    const cuda_life_config cfg = {CUDA_LIFE_SHARED, CUDA_LIFE_SHARED_BITS, CUDA_LIFE_SHARED_ROWS,
                                  CUDA_LIFE_SHARED_STEPS, CUDA_LIFE_SHARED_ROW_SUMS};
    return cuda_life_create("cuda.life-shared", &cfg, rule, w, h, ctx, err);
}

extern "C" int cuda_life_shuffle_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                        cc_error *err) {
    const cuda_life_config cfg = {CUDA_LIFE_SHUFFLE, CUDA_LIFE_SHUFFLE_BITS,
                                  CUDA_LIFE_SHUFFLE_ROWS, CUDA_LIFE_SHUFFLE_STEPS,
                                  CUDA_LIFE_SHUFFLE_ROW_SUMS};
    return cuda_life_create("cuda.life-shuffle", &cfg, rule, w, h, ctx, err);
}
