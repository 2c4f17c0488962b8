// cuda.hexlut's device code: seed 002's lookup table on the GPU, one bit per cell (layout and
// word arithmetic in hexlut_bits.h, shared with the CPU test).
//
// A thread computes one 64-bit word (64 cells, 16 lookups) on each row of a strip of
// HEXLUT_STRIP_ROWS rows, walking down its word column so each row is loaded once, not three
// times; the 32 threads of a warp take 32 adjacent words, so every row load is one coalesced
// 256-byte access (the two words a thread borrows an edge bit from are its neighbours' and hit the
// same lines). The table lives in shared memory, 64 KiB a block: random byte lookups there cost a
// few bank conflicts, where through the L1 cache each would be a separate line. Blocks are
// persistent (as many as are resident, looping over the tiles), so each fills its table once a
// step rather than once a tile.
#include <cuda_runtime.h>

#include <stdlib.h>

#include <vector>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/hexlut/hexlut_bits.h"
#include "engines/cuda/hexlut/hexlut_kernels.h"

namespace {

constexpr const char *engine = "cuda.hexlut";
constexpr int threads_x = HEXLUT_THREADS_X, threads_y = HEXLUT_THREADS_Y;
constexpr int threads = threads_x * threads_y;
constexpr int strip = HEXLUT_STRIP_ROWS;
constexpr size_t table_bytes = HEXLUT_TABLE_ENTRIES;
static_assert(table_bytes % (sizeof(uint4) * threads) == 0, "the table copy is whole uint4s");

// The shape of one step: a tile is threads_x word columns by threads_y strips.
struct hexlut_geometry {
    int32_t w, h, words;
    size_t pitch; // words per row
    int32_t tiles_x;
    int64_t tiles;
};

__global__ void __launch_bounds__(threads)
    hexlut_step_kernel(const hexlut_word *__restrict__ in, hexlut_word *__restrict__ out,
                       const uint4 *__restrict__ table_global, hexlut_geometry g) {
    extern __shared__ uint4 table_shared[];
    const int thread = (int)(threadIdx.y * threads_x + threadIdx.x);
    for (int i = thread; i < (int)(table_bytes / sizeof(uint4)); i += threads)
        table_shared[i] = __ldg(table_global + i);
    __syncthreads();
    const uint8_t *table = (const uint8_t *)table_shared;
    for (int64_t t = blockIdx.x; t < g.tiles; t += gridDim.x) {
        int32_t k;
        int64_t y0;
        hexlut_tile_thread(g.tiles_x, t, (int32_t)threadIdx.x, (int32_t)threadIdx.y, &k, &y0);
        if (k < g.words && y0 < g.h)
            hexlut_strip(in, out, table, g.w, g.h, g.pitch, k, (int32_t)y0, strip);
    }
}

// Portable rows y0 .. (count / w rows) from staging into bit rows: a thread per bit position of
// the rows' words, a warp's 32 cells gathered by one ballot into one 32-bit half of a word.
__global__ void hexlut_load_kernel(hexlut_word *__restrict__ grid,
                                   const uint8_t *__restrict__ staging, hexlut_geometry g,
                                   int64_t y0, int64_t rows) {
    const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    // The row's words hold 64 * words positions, a multiple of the warp: whole warps leave here.
    if (x >= (int64_t)g.words * HEXLUT_WORD_CELLS) return;
    for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
        const int cell = x < g.w ? staging[r * g.w + x] : 0;
        const uint32_t half = __ballot_sync(0xffffffffu, cell);
        uint32_t *row = (uint32_t *)(grid + (size_t)(y0 + r) * g.pitch);
        if ((threadIdx.x & 31) == 0) row[x / 32] = half; // little-endian: half x/32 of the row
    }
}

__global__ void hexlut_store_kernel(uint8_t *__restrict__ staging,
                                    const hexlut_word *__restrict__ grid, hexlut_geometry g,
                                    int64_t y0, int64_t rows) {
    const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= g.w) return;
    for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
        const hexlut_word word = grid[(size_t)(y0 + r) * g.pitch + (size_t)(x / 64)];
        staging[r * g.w + x] = (uint8_t)((word >> (x % 64)) & 1u);
    }
}

// cuda.hexlut's own state on the driver.
struct hexlut {
    hexlut_geometry g;
    uint4 *table; // on the device, table_bytes
    int grid;     // blocks of the step kernel: as many as are resident, at most the tiles
};

constexpr int side_threads = 256; // load and store kernels

int hexlut_step(void *self, const void *in, void *out, cc_error *err) {
    const hexlut *d = (const hexlut *)self;
    hexlut_step_kernel<<<(unsigned)d->grid, dim3(threads_x, threads_y), table_bytes>>>(
        (const hexlut_word *)in, (hexlut_word *)out, d->table, d->g);
    return cc_cuda_launched(err, engine, "hexlut_step_kernel");
}

int hexlut_load_rows(void *self, void *grid, const uint8_t *staging, int64_t y0, int64_t count,
                     cc_error *err) {
    const hexlut *d = (const hexlut *)self;
    const int64_t rows = count / d->g.w;
    const int64_t positions = (int64_t)d->g.words * HEXLUT_WORD_CELLS;
    const dim3 blocks((unsigned)((positions + side_threads - 1) / side_threads),
                      (unsigned)(rows < 65535 ? rows : 65535));
    hexlut_load_kernel<<<blocks, side_threads>>>((hexlut_word *)grid, staging, d->g, y0, rows);
    return cc_cuda_launched(err, engine, "hexlut_load_kernel");
}

int hexlut_store_rows(void *self, uint8_t *staging, const void *grid, int64_t y0, int64_t count,
                      cc_error *err) {
    const hexlut *d = (const hexlut *)self;
    const int64_t rows = count / d->g.w;
    const dim3 blocks((unsigned)((d->g.w + side_threads - 1) / side_threads),
                      (unsigned)(rows < 65535 ? rows : 65535));
    hexlut_store_kernel<<<blocks, side_threads>>>(staging, (const hexlut_word *)grid, d->g, y0,
                                                  rows);
    return cc_cuda_launched(err, engine, "hexlut_store_kernel");
}

void hexlut_release(void *self) {
    hexlut *d = (hexlut *)self;
    if (d->table) (void)cudaFree(d->table); // teardown cannot report
    free(d);
}

// By field, so fields the driver adds later start out null.
constexpr cc_gpu_ops make_ops() {
    cc_gpu_ops ops{};
    ops.step = hexlut_step;
    ops.load_rows = hexlut_load_rows;
    ops.store_rows = hexlut_store_rows;
    ops.release = hexlut_release;
    return ops;
}
constexpr cc_gpu_ops hexlut_ops = make_ops();

int upload_table(hexlut *d, const cc_rule *rule, cc_error *err) {
    std::vector<uint8_t> table(table_bytes);
    hexlut_build_table(rule, table.data());
    CC_CUDA_CHECK(engine, cudaMalloc((void **)&d->table, table_bytes));
    CC_CUDA_CHECK(engine,
                  cudaMemcpy(d->table, table.data(), table_bytes, cudaMemcpyHostToDevice));
    return CC_OK;
}

} // namespace

extern "C" int cuda_hexlut_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                  cc_error *err) {
    *ctx = NULL;
    hexlut *d = (hexlut *)calloc(1, sizeof *d);
    if (!d) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", engine);
    hexlut_geometry &g = d->g;
    g.w = w;
    g.h = h;
    g.words = hexlut_words(w);
    g.pitch = hexlut_pitch(w);
    g.tiles_x = hexlut_tiles_x(w);
    g.tiles = hexlut_tiles(w, h);

    cc_gpu_layout layout = {};
    layout.engine = engine;
    layout.w = w;
    layout.h = h;
    layout.grid_bytes = g.pitch * sizeof(hexlut_word) * (size_t)h;
    layout.staged = 1;
    layout.extra_bytes = table_bytes;
    layout.buffers = "two copies at one bit per cell, rows padded to 128 bytes, and a 64 KiB table";
    cc_gpu *gpu = NULL;
    int rc = cc_gpu_create(&layout, &hexlut_ops, d, &gpu, err); // takes d: released on failure
    if (rc) return rc;
    rc = cc_gpu_persistent_grid(gpu, (const void *)hexlut_step_kernel, threads, table_bytes,
                                g.tiles, &d->grid, err);
    if (!rc) rc = upload_table(d, rule, err);
    if (rc) {
        cc_gpu_destroy(gpu);
        return rc;
    }
    *ctx = gpu;
    return CC_OK;
}
