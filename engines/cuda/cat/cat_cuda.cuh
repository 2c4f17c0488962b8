// What the CAT CUDA engines (cuda.cat, cuda.cat-f32, cuda.cat8 and cuda.cat1) share (CUDA C++;
// included by .cu files only): the INT8 MMA, the asynchronous copies and the rule inside their
// step kernels, their refresh, load and store kernels, and the glue between their kernels and the
// common GPU driver (engines/cuda/common/gpu.h): a persistent step kernel followed by the refresh
// of the halo, load and store through the staging buffer.
#ifndef CELLCHECK_ENGINES_CUDA_CAT_CAT_CUDA_CUH
#define CELLCHECK_ENGINES_CUDA_CAT_CAT_CUDA_CUH

#ifndef __CUDACC__
#error "engines/cuda/cat/cat_cuda.cuh is CUDA C++: include it from .cu files only"
#endif

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"

namespace cat_cuda {

// ---- Inside the step kernels ----

// D += A x B: mma.sync m16n8k32, s8 operands, s32 accumulators (the PTX fragment layouts).
__device__ __forceinline__ void mma_s8(int (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1) {
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Asynchronous 16-byte copies from global to shared memory (sm_80 and newer), in groups.
__device__ __forceinline__ void cp_async16(void *smem_dst, const void *gmem_src) {
    const unsigned dst = (unsigned)__cvta_generic_to_shared(smem_dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem_src)
                 : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// The rule for one cell, alive when not 0: LIVE (a live cell as the engine stores it) or 0; sp
// is a step's parameters (.rule, and .single where SINGLE). SINGLE: one comparison
// (cat_rule_single_next). Otherwise both sets are tested with compile-time indices (a run-time
// index into the parameters would move them to local memory) and the alive one is kept; unrolled
// and predicated over CC_SET_MAX_RANGES ranges.
template <bool SINGLE, auto LIVE, class Params, class Alive>
__device__ __forceinline__ decltype(LIVE) next_state(const Params &sp, Alive alive, int raw) {
    if constexpr (SINGLE) {
        return cat_rule_single_next(&sp.single, alive != 0, raw) ? LIVE : 0;
    } else {
        const cat_rule_params &p = sp.rule;
        int dead_count = raw, alive_count = raw - p.self_weight;
        bool born = false, survives = false;
#pragma unroll
        for (int q = 0; q < CC_SET_MAX_RANGES; q++) {
            if (q >= p.ranges_max) break;
            born |= q < p.ranges[0] && dead_count >= p.lo[0][q] && dead_count <= p.hi[0][q];
            survives |= q < p.ranges[1] && alive_count >= p.lo[1][q] && alive_count <= p.hi[1][q];
        }
        return (alive ? survives : born) ? LIVE : 0;
    }
}

// ---- The kernels besides the step ----
//
// Layout is an engine's cells in the extended buffers: cell (what a position holds), frag (the
// fragment side), index(g, x, y) (the element of extended position (x, y)), encode (a portable
// cell, 0 or 1, as a position holds it) and decode (a position as a portable cell; 2 for a value
// that is not a cell, so that a corrupted buffer cannot pass for a grid).

// Every position of the border fragments outside the W x H cells takes the value of the cell it
// mirrors. The sources are real cells, which this kernel never writes.
template <class Layout>
__global__ void refresh_kernel(typename Layout::cell *buf, cat_geometry g, int64_t count) {
    constexpr int frag = Layout::frag, cells = frag * frag;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride) {
        int64_t ey, ex;
        cat_border_fragment(&g, idx / cells, &ey, &ex);
        const int e = (int)(idx % cells);
        const int64_t x = (ex - g.halo) * frag + e % frag, y = (ey - g.halo) * frag + e / frag;
        if (x >= 0 && x < g.w && y >= 0 && y < g.h) continue;
        buf[Layout::index(g, x, y)] = buf[Layout::index(g, cat_mod(x, g.w), cat_mod(y, g.h))];
    }
}

// Rows y0 .. y0 + count / W - 1 of portable cells into their positions.
template <class Layout>
__global__ void load_kernel(typename Layout::cell *buf, const uint8_t *cells, cat_geometry g,
                            int64_t y0, int64_t count) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride)
        buf[Layout::index(g, idx % g.w, y0 + idx / g.w)] = Layout::encode(cells[idx]);
}

// The positions of rows y0 .. y0 + count / W - 1 as portable cells.
template <class Layout>
__global__ void store_kernel(uint8_t *cells, const typename Layout::cell *buf, cat_geometry g,
                             int64_t y0, int64_t count) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride)
        cells[idx] = Layout::decode(buf[Layout::index(g, idx % g.w, y0 + idx / g.w)]);
}

// ---- On the host ----

// The fields every CAT step's parameters have (g, tiles_x, tiles, r, cross, rule, single), for
// tiles of tile_w x tile_h fragments; single: the rule's sets are at most one range each.
template <class Params>
int params_init(Params &p, const char *engine, const cat_geometry *geo, int32_t tile_w,
                int32_t tile_h, int32_t r, int cross, const cat_rule_params *rule, bool single,
                cc_error *err) {
    p.g = *geo;
    p.tiles_x = (geo->fw + tile_w - 1) / tile_w;
    p.tiles = p.tiles_x * ((geo->fh + tile_h - 1) / tile_h);
    p.r = r;
    p.cross = cross ? 1 : 0;
    p.rule = *rule;
    return single ? cat_rule_single_build(engine, rule, &p.single, err) : CC_OK;
}

// An engine's kernels besides the step: Cell is a position's bits in the extended buffers.
template <class Cell> struct side_kernels {
    const char *engine;
    void (*refresh)(Cell *buf, cat_geometry g, int64_t count);
    void (*load)(Cell *buf, const uint8_t *cells, cat_geometry g, int64_t y0, int64_t count);
    void (*store)(uint8_t *cells, const Cell *buf, cat_geometry g, int64_t y0, int64_t count);
};

// The side kernels of the engine named engine, whose cells are laid out as Layout.
template <class Layout>
constexpr side_kernels<typename Layout::cell> side_kernels_of(const char *engine) {
    return {engine, refresh_kernel<Layout>, load_kernel<Layout>, store_kernel<Layout>};
}

// A step kernel (Operand: what it reads the buffers as) and what it is launched with.
template <class Operand, class Params> struct step_kernel {
    void (*kernel)(const Operand *, Operand *, Params);
    int threads;
    size_t smem; // its dynamic shared memory
};

// An engine's state on the driver. Operand is what the step kernel reads the buffers as.
template <class Operand, class Cell, class Params> struct state {
    const side_kernels<Cell> *side;
    void (*step)(const Operand *, Operand *, Params); // the step kernel chosen at create
    int threads;
    size_t smem; // its dynamic shared memory
    Params params;
    int grid;      // persistent blocks of the step kernel
    int side_grid; // most blocks of the refresh, load and store kernels
};

template <class Operand, class Cell, class Params> struct driver {
    typedef state<Operand, Cell, Params> self_t;

    // Every position of the border fragments outside the W x H cells from the cell it mirrors.
    static int refresh(void *self, void *grid, cc_error *err) {
        const self_t *d = (const self_t *)self;
        const cat_geometry &g = d->params.g;
        const int64_t count = cat_geometry_border_fragments(&g) * g.frag * g.frag;
        d->side->refresh<<<cc_cuda_blocks(count, 256, d->side_grid), 256>>>((Cell *)grid, g,
                                                                            count);
        return cc_cuda_launched(err, d->side->engine, "the refresh kernel");
    }

    // The step, then the refresh of the halo the next step reads.
    static int step(void *self, const void *in, void *out, cc_error *err) {
        const self_t *d = (const self_t *)self;
        d->step<<<(unsigned)d->grid, (unsigned)d->threads, d->smem>>>(
            (const Operand *)in, (Operand *)out, d->params);
        int rc = cc_cuda_launched(err, d->side->engine, "the step kernel");
        return rc ? rc : refresh(self, out, err);
    }

    static int load_rows(void *self, void *grid, const uint8_t *staging, int64_t y0,
                         int64_t count, cc_error *err) {
        const self_t *d = (const self_t *)self;
        d->side->load<<<cc_cuda_blocks(count, 256, d->side_grid), 256>>>(
            (Cell *)grid, staging, d->params.g, y0, count);
        return cc_cuda_launched(err, d->side->engine, "the load kernel");
    }

    static int store_rows(void *self, uint8_t *staging, const void *grid, int64_t y0,
                          int64_t count, cc_error *err) {
        const self_t *d = (const self_t *)self;
        d->side->store<<<cc_cuda_blocks(count, 256, d->side_grid), 256>>>(
            staging, (const Cell *)grid, d->params.g, y0, count);
        return cc_cuda_launched(err, d->side->engine, "the store kernel");
    }

    static void release(void *self) { free(self); }

    static constexpr cc_gpu_ops ops = {step, refresh, load_rows, store_rows, release, nullptr};

    // The driver for the step kernel k with params: two buffers of grid_bytes (buffers says what
    // they are, in a refusal) and a staging buffer; then the persistent grid of the step kernel.
    static int create(const side_kernels<Cell> *side, const step_kernel<Operand, Params> &k,
                      const Params &params, size_t grid_bytes, const char *buffers, cc_gpu **out,
                      cc_error *err) {
        *out = NULL;
        self_t *d = (self_t *)calloc(1, sizeof *d);
        if (!d) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", side->engine);
        d->side = side;
        d->step = k.kernel;
        d->threads = k.threads;
        d->smem = k.smem;
        d->params = params;
        const cat_geometry &g = d->params.g;
        cc_gpu_layout layout = {};
        layout.engine = d->side->engine;
        layout.w = g.w;
        layout.h = g.h;
        layout.grid_bytes = grid_bytes;
        layout.staged = 1;
        layout.buffers = buffers;
        cc_gpu *gpu = NULL;
        int rc = cc_gpu_create(&layout, &ops, d, &gpu, err); // takes d: released on failure
        if (rc) return rc;
        rc = cc_gpu_persistent_grid(gpu, (const void *)d->step, d->threads, d->smem,
                                    d->params.tiles, &d->grid, err);
        if (rc) {
            cc_gpu_destroy(gpu);
            return rc;
        }
        d->side_grid = cc_gpu_device(gpu)->multiprocessors * 16;
        *out = gpu;
        return CC_OK;
    }
};

} // namespace cat_cuda

#endif
