// Bit-per-cell grids on the common GPU driver: geometry, packing from and to the portable form,
// and the driver's glue for the bit-grid engines.
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>

#include "engines/cuda/bitgrid/bitgrid.cuh"
#include "engines/cuda/common/check.cuh"

namespace {

constexpr int pack_threads = 256;
constexpr int max_blocks = 65535;

// Rows y0 .. y0 + rows - 1 of staged portable cells into the grid: a thread per word, consecutive
// threads on consecutive rows of a column (the grid's order).
template <typename T>
__global__ void load_kernel(T *grid, const uint8_t *staging, bitgrid::view v, int64_t y0,
                            int64_t rows) {
    const int64_t words = rows * v.columns;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int32_t j = (int32_t)(i / rows), dy = (int32_t)(i % rows);
        const uint8_t *src = staging + (size_t)dy * (size_t)v.w + (size_t)j * (size_t)v.cells;
        const int32_t n = v.cells_of(j);
        T word = 0;
        for (int32_t b = 0; b < n; b++) word |= (T)(src[b] & 1u) << (v.halo + b);
        grid[v.at(j, (int32_t)(y0 + dy))] = word;
    }
}

template <typename T>
__global__ void store_kernel(uint8_t *staging, const T *grid, bitgrid::view v, int64_t y0,
                             int64_t rows) {
    const int64_t words = rows * v.columns;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int32_t j = (int32_t)(i / rows), dy = (int32_t)(i % rows);
        uint8_t *dst = staging + (size_t)dy * (size_t)v.w + (size_t)j * (size_t)v.cells;
        const int32_t n = v.cells_of(j);
        const T word = grid[v.at(j, (int32_t)(y0 + dy))];
        for (int32_t b = 0; b < n; b++) dst[b] = (uint8_t)((word >> (v.halo + b)) & 1u);
    }
}

int load_rows(void *self, void *grid, const uint8_t *staging, int64_t y0, int64_t count,
              cc_error *err) {
    const cc_bitgrid *g = (const cc_bitgrid *)self;
    const bitgrid::view v = bitgrid::view_of(g->geo);
    const int64_t rows = count / g->geo.w;
    const unsigned blocks = cc_cuda_blocks(rows * g->geo.columns, pack_threads, max_blocks);
    if (g->geo.bits == 64)
        load_kernel<uint64_t><<<blocks, pack_threads>>>((uint64_t *)grid, staging, v, y0, rows);
    else
        load_kernel<uint32_t><<<blocks, pack_threads>>>((uint32_t *)grid, staging, v, y0, rows);
    return cc_cuda_launched(err, g->engine, "bitgrid load_kernel<%d bits>", (int)g->geo.bits);
}

int store_rows(void *self, uint8_t *staging, const void *grid, int64_t y0, int64_t count,
               cc_error *err) {
    const cc_bitgrid *g = (const cc_bitgrid *)self;
    const bitgrid::view v = bitgrid::view_of(g->geo);
    const int64_t rows = count / g->geo.w;
    const unsigned blocks = cc_cuda_blocks(rows * g->geo.columns, pack_threads, max_blocks);
    if (g->geo.bits == 64)
        store_kernel<uint64_t>
            <<<blocks, pack_threads>>>(staging, (const uint64_t *)grid, v, y0, rows);
    else
        store_kernel<uint32_t>
            <<<blocks, pack_threads>>>(staging, (const uint32_t *)grid, v, y0, rows);
    return cc_cuda_launched(err, g->engine, "bitgrid store_kernel<%d bits>", (int)g->geo.bits);
}

int steps(void *self, const void *in, void *out, int64_t k, int64_t *done, cc_error *err) {
    const cc_bitgrid *g = (const cc_bitgrid *)self;
    const int32_t n = k < g->steps_max ? (int32_t)k : g->steps_max;
    *done = n;
    return g->launch(g, in, out, n, err);
}

void release(void *self) { free(self); }

const cc_gpu_ops bitgrid_ops = {nullptr, nullptr, load_rows, store_rows, release, steps};

} // namespace

extern "C" int cc_bitgrid_geometry_init(const char *engine, int32_t w, int32_t h, int32_t bits,
                                        int32_t halo, cc_bitgrid_geometry *geo, cc_error *err) {
    if (bits != 32 && bits != 64)
        return cc_fail(err, CC_ERR_ARG, "%s: words of %d bits; 32 or 64", engine, (int)bits);
    const int32_t cells = bits - 2 * halo;
    if (halo < 0 || cells < halo || cells < 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: a halo of %d bits leaves %d cells in a %d-bit word, fewer than the "
                       "halo (at most %d)",
                       engine, (int)halo, (int)cells, (int)bits, (int)(bits / 3));
    if (w < 1 || h < 1) return cc_fail(err, CC_ERR_ARG, "%s: a %dx%d grid", engine, (int)w, (int)h);
    geo->w = w;
    geo->h = h;
    geo->bits = bits;
    geo->halo = halo;
    geo->cells = cells;
    geo->columns = (w + cells - 1) / cells;
    geo->last = w - cells * (geo->columns - 1);
    return CC_OK;
}

extern "C" size_t cc_bitgrid_bytes(const cc_bitgrid_geometry *geo) {
    return (size_t)geo->columns * (size_t)geo->h * (size_t)(geo->bits / 8);
}

extern "C" int cc_bitgrid_create(const char *engine, const cc_rule *rule,
                                 const cc_bitgrid_geometry *geo, int32_t steps_max,
                                 int32_t kind, int32_t tile_rows, cc_bitgrid_launch launch,
                                 void **ctx, cc_error *err) {
    *ctx = NULL;
    if (rule->shape != CC_SHAPE_MOORE || rule->radius != 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: only the Moore neighbourhood of radius 1",
                       engine);
    if (steps_max < 1 || steps_max > (geo->halo > 0 ? geo->halo : 1))
        return cc_fail(err, CC_ERR_ARG,
                       "%s: %d steps a launch need a halo of as many bits; this one has %d",
                       engine, (int)steps_max, (int)geo->halo);
    cc_bitgrid *g = (cc_bitgrid *)calloc(1, sizeof *g);
    if (!g) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine);
    g->engine = engine;
    g->geo = *geo;
    bitrows_build_rule(rule, &g->rule);
    bitrows_build_rule9(rule, &g->rule9);
    g->steps_max = steps_max;
    g->kind = kind;
    g->tile_rows = tile_rows;
    g->launch = launch;
    char buffers[96];
    snprintf(buffers, sizeof buffers, "two copies of %d-bit words of %d cells", (int)geo->bits,
             (int)geo->cells);
    cc_gpu_layout layout = {};
    layout.engine = engine;
    layout.w = geo->w;
    layout.h = geo->h;
    layout.grid_bytes = cc_bitgrid_bytes(geo);
    layout.staged = 1;
    layout.buffers = buffers;
    return cc_gpu_create(&layout, &bitgrid_ops, g, (cc_gpu **)ctx, err);
}
