// cuda.cat's device code: the CAT method on 16 x 16 FP16 WMMA fragments (cat_common.h).
//
// One thread block per tile of TW x TH fragments, persistent over the tiles. At start the block
// builds the band fragments for the radius in shared memory and each warp keeps them as WMMA
// fragments. Per tile: the horizontal pass computes H for the tile's fragments and the halo rows
// above and below (2*HF+1 MMAs each, reading Lambda from the fragment-contiguous global buffer)
// into a shared tile; after a barrier the vertical pass computes R from it (2*HF+1 MMAs), and the
// same warp applies the rule to its fragment, 8 cells a thread, writing the next buffer. A second
// kernel then refreshes the positions outside the W x H cells from the cells they mirror.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <stdio.h>

#include <type_traits>

#include "engines/cuda/cat/cat_cuda.cuh"
#include "engines/cuda/cat/cat_kernels.h"
#include "engines/cuda/common/gpu.h"

using namespace nvcuda;

namespace {

constexpr int kFrag = CUDA_CAT_FRAG;
constexpr int kCells = kFrag * kFrag;
constexpr int kWarps = 8; // the paper's 16 x 16 threads
constexpr int kThreads = kWarps * 32;
constexpr uint16_t kOne = 0x3C00; // FP16 1.0

struct step_params {
    cat_geometry g;
    int64_t tiles_x, tiles;
    int32_t r, cross;
    cat_rule_params rule;
    cat_rule_single single; // filled when both sets are at most one range (the SINGLE kernels)
};

typedef void (*step_kernel_t)(const __half *, __half *, step_params);

using cat_cuda::cp_async16;
using cat_cuda::cp_async_commit;
using cat_cuda::cp_async_wait;
using cat_cuda::next_state;

// Copies the Lambda fragments a tile reads (its rows and columns with HF of halo on each side)
// into lam: tile fragment (r, c) is extended fragment (fy0 + r, fx0 + c).
template <int TW, int TH, int HF>
__device__ __forceinline__ void stage_tile(__half *lam, const __half *__restrict__ in,
                                           const step_params &p, int64_t tile) {
    constexpr int kCols = TW + 2 * HF, kChunks = kCells / 8; // 16-byte chunks per fragment
    const int64_t fy0 = tile / p.tiles_x * TH, fx0 = tile % p.tiles_x * TW;
    const int rows = (int)min((int64_t)TH, p.g.fh - fy0) + 2 * HF;
    const int cols = (int)min((int64_t)TW, p.g.fw - fx0) + 2 * HF;
    for (int c = (int)threadIdx.x; c < rows * cols * kChunks; c += kThreads) {
        const int f = c / kChunks, part = c % kChunks, r = f / cols, col = f % cols;
        cp_async16(lam + (size_t)(r * kCols + col) * kCells + part * 8,
                   in + ((size_t)(fy0 + r) * (size_t)p.g.ew + (size_t)(fx0 + col)) * kCells +
                       part * 8);
    }
}

__device__ __forceinline__ int to_int(float v) { return __float2int_rn(v); }
__device__ __forceinline__ int to_int(__half v) { return __float2int_rn(__half2float(v)); }

// STAGED: each tile's Lambda fragments are copied into shared memory asynchronously, the next
// tile's while the current one is computed (two buffers in dynamic shared memory); otherwise the
// warps read them from global memory (the paper's choice). SINGLE: the rule's sets are at most one
// range each.
template <int TW, int TH, int HF, bool F32, bool STAGED, bool SINGLE>
__global__ void __launch_bounds__(kThreads, 3)
    cat_step_kernel(const __half *__restrict__ in, __half *__restrict__ out, step_params p) {
    typedef typename std::conditional<F32, float, __half>::type acc_t;
    constexpr int kBands = 2 * HF + 1;
    constexpr int kRows = TH + 2 * HF;
    constexpr int kCols = TW + 2 * HF;
    constexpr int kLamCells = kRows * kCols * kCells;
    extern __shared__ __align__(128) unsigned char dynamic_smem[];
    __half *const lam_buffers = reinterpret_cast<__half *>(dynamic_smem);
    __shared__ __align__(128) __half band_h[kBands][kCells];
    __shared__ __align__(128) __half band_v[kBands][kCells];
    __shared__ __align__(128) __half tile_h[kRows * TW][kCells];
    __shared__ __align__(128) acc_t staging[kWarps][kCells];

    const int warp = (int)(threadIdx.x >> 5), lane = (int)(threadIdx.x & 31);
    // GenSharedBandMats: horizontal pi[in][out], vertical pi[out][in], offset d = band - HF.
    for (int idx = (int)threadIdx.x; idx < kBands * kCells; idx += kThreads) {
        int band = idx / kCells, e = idx % kCells, row = e / kFrag, col = e % kFrag;
        int d = band - HF;
        band_h[band][e] = __float2half(cat_band(d, col, row, p.r, kFrag) ? 1.0f : 0.0f);
        band_v[band][e] = __float2half(cat_band(d, row, col, p.r, kFrag) ? 1.0f : 0.0f);
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> pi_h[kBands];
    wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> pi_v[kBands];
#pragma unroll
    for (int b = 0; b < kBands; b++) {
        wmma::load_matrix_sync(pi_h[b], band_h[b], kFrag);
        wmma::load_matrix_sync(pi_v[b], band_v[b], kFrag);
    }

    const int64_t ew = p.g.ew;
    int buffer = 0;
    if constexpr (STAGED) {
        if ((int64_t)blockIdx.x < p.tiles) stage_tile<TW, TH, HF>(lam_buffers, in, p, blockIdx.x);
        cp_async_commit();
    }
    for (int64_t tile = blockIdx.x; tile < p.tiles; tile += gridDim.x, buffer ^= 1) {
        const int64_t fy0 = tile / p.tiles_x * TH, fx0 = tile % p.tiles_x * TW;
        const int th = (int)min((int64_t)TH, p.g.fh - fy0);
        const int tw = (int)min((int64_t)TW, p.g.fw - fx0);
        const __half *const lam = lam_buffers + buffer * kLamCells;
        if constexpr (STAGED) {
            // The other buffer was last read by the previous tile, which ended with a barrier.
            const int64_t next = tile + gridDim.x;
            if (next < p.tiles)
                stage_tile<TW, TH, HF>(lam_buffers + (buffer ^ 1) * kLamCells, in, p, next);
            cp_async_commit();
            cp_async_wait<1>(); // this tile's copies (the older group) have landed
            __syncthreads();
        }

        // Step 1: H for the tile's columns, its rows and HF halo rows above and below. Tile row
        // i is extended row fy0 + i; the leftmost neighbour (d = -HF) is extended column fx0 + j.
        for (int u = warp; u < tw * (th + 2 * HF); u += kWarps) {
            const int i = u / tw, j = u % tw;
            const __half *left = in + ((size_t)(fy0 + i) * (size_t)ew + (size_t)(fx0 + j)) * kCells;
            wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, acc_t> acc;
            wmma::fill_fragment(acc, acc_t(0.0f));
#pragma unroll
            for (int b = 0; b < kBands; b++) {
                wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> a;
                if constexpr (STAGED)
                    wmma::load_matrix_sync(a, lam + (size_t)(i * kCols + j + b) * kCells, kFrag);
                else
                    wmma::load_matrix_sync(a, left + (size_t)b * kCells, kFrag);
                wmma::mma_sync(acc, a, pi_h[b], acc);
            }
            __half *dst = tile_h[i * TW + j];
            if constexpr (F32) {
                // H <= 2r+1 <= 65: the conversion to an FP16 operand is exact.
                wmma::store_matrix_sync(&staging[warp][0], acc, kFrag, wmma::mem_row_major);
                __syncwarp();
#pragma unroll
                for (int e = 0; e < 8; e++)
                    dst[lane * 8 + e] = __float2half_rn((float)staging[warp][lane * 8 + e]);
                __syncwarp();
            } else {
                wmma::store_matrix_sync(reinterpret_cast<acc_t *>(dst), acc, kFrag,
                                        wmma::mem_row_major);
            }
        }
        __syncthreads();

        // Step 2: R for the tile's fragments, then the rule, by the same warp.
        for (int u = warp; u < tw * th; u += kWarps) {
            const int i = u / tw, j = u % tw;
            const size_t centre =
                ((size_t)(fy0 + i + HF) * (size_t)ew + (size_t)(fx0 + j + HF)) * kCells;
            wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, acc_t> acc;
            wmma::fill_fragment(acc, acc_t(0.0f));
#pragma unroll
            for (int b = 0; b < kBands; b++) {
                wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> x;
                if (p.cross) // Eq. 3: the vertical pass sums Lambda's columns (row fy0 + i + b)
                    wmma::load_matrix_sync(
                        x,
                        STAGED
                            ? lam + (size_t)((i + b) * kCols + j + HF) * kCells
                            : in + ((size_t)(fy0 + i + b) * (size_t)ew + (size_t)(fx0 + j + HF)) *
                                       kCells,
                        kFrag);
                else
                    wmma::load_matrix_sync(x, tile_h[(i + b) * TW + j], kFrag);
                wmma::mma_sync(acc, pi_v[b], x, acc);
            }
            wmma::store_matrix_sync(&staging[warp][0], acc, kFrag, wmma::mem_row_major);
            __syncwarp();

            const int e0 = lane * 8;
            const uint4 cells = *reinterpret_cast<const uint4 *>(
                (STAGED ? lam + (size_t)((i + HF) * kCols + j + HF) * kCells : in + centre) + e0);
            const uint16_t *alive = reinterpret_cast<const uint16_t *>(&cells);
            const __half *h_centre = tile_h[(i + HF) * TW + j];
            uint4 next;
            uint16_t *next_cells = reinterpret_cast<uint16_t *>(&next);
#pragma unroll
            for (int e = 0; e < 8; e++) {
                int raw = to_int(staging[warp][e0 + e]);
                if (p.cross) raw += to_int(h_centre[e0 + e]); // Eq. 3's + H, in INT32
                next_cells[e] = next_state<SINGLE, kOne>(p, alive[e] != 0, raw);
            }
            *reinterpret_cast<uint4 *>(out + centre + e0) = next;
            __syncwarp();
        }
        __syncthreads();
    }
}

// FP16 cells, row-major inside each fragment; any value but FP16 0 or 1 is not a cell.
struct layout {
    typedef uint16_t cell;
    static constexpr int frag = kFrag;
    static __device__ __forceinline__ size_t index(const cat_geometry &g, int64_t x, int64_t y) {
        return cat_ext_index(&g, x, y);
    }
    static __device__ __forceinline__ cell encode(uint8_t c) { return c ? kOne : 0; }
    static __device__ __forceinline__ uint8_t decode(cell v) {
        return v == kOne ? 1 : v == 0 ? 0 : 2;
    }
};

struct kernel_choice {
    step_kernel_t kernel;
    size_t smem; // dynamic shared memory
};

template <int TW, int TH, int HF, bool SINGLE>
kernel_choice choose(bool f32, bool staged) {
    const size_t lam =
        staged ? 2 * (size_t)(TH + 2 * HF) * (TW + 2 * HF) * kCells * sizeof(__half) : 0;
    if (staged)
        return {f32 ? cat_step_kernel<TW, TH, HF, true, true, SINGLE>
                    : cat_step_kernel<TW, TH, HF, false, true, SINGLE>,
                lam};
    return {f32 ? cat_step_kernel<TW, TH, HF, true, false, SINGLE>
                : cat_step_kernel<TW, TH, HF, false, false, SINGLE>,
            0};
}

template <int TW, int TH>
kernel_choice choose_halo(int halo, bool f32, bool staged, bool single) {
    if (halo == 1)
        return single ? choose<TW, TH, 1, true>(f32, staged)
                      : choose<TW, TH, 1, false>(f32, staged);
    if (halo == 2)
        return single ? choose<TW, TH, 2, true>(f32, staged)
                      : choose<TW, TH, 2, false>(f32, staged);
    return {nullptr, 0};
}

// The compiled tiles (CUDA_CAT_TILES); single: the rule's sets are at most one range each.
kernel_choice pick_kernel(int tw, int th, int halo, bool f32, bool staged, bool single) {
    if (tw == 1 && th == 14) return choose_halo<1, 14>(halo, f32, staged, single);
    if (tw == 1 && th == 8) return choose_halo<1, 8>(halo, f32, staged, single);
    if (tw == 1 && th == 16) return choose_halo<1, 16>(halo, f32, staged, single);
    if (tw == 2 && th == 8) return choose_halo<2, 8>(halo, f32, staged, single);
    if (tw == 2 && th == 14) return choose_halo<2, 14>(halo, f32, staged, single);
    if (tw == 4 && th == 8) return choose_halo<4, 8>(halo, f32, staged, single);
    return {nullptr, 0};
}

constexpr const char *engine = "cuda.cat";
constexpr cat_cuda::side_kernels<uint16_t> side = cat_cuda::side_kernels_of<layout>(engine);
typedef cat_cuda::driver<__half, uint16_t, step_params> cat_driver;

} // namespace

extern "C" int cuda_cat_tile_compiled(int32_t tile_w, int32_t tile_h) {
    return pick_kernel(tile_w, tile_h, 1, false, false, false).kernel != nullptr;
}

extern "C" int cuda_cat_create(const cat_geometry *geo, int32_t r, int cross,
                               const cat_rule_params *rule, const cuda_cat_config *cfg,
                               cc_gpu **out, cc_error *err) {
    *out = NULL;
    if (geo->frag != kFrag || geo->halo < 1 || geo->halo > CUDA_CAT_HALO_MAX ||
        r > geo->halo * kFrag)
        return cc_fail(err, CC_ERR_ARG,
                       "cuda.cat: fragments of %d with a halo of %d cannot hold radius %d (the "
                       "kernels take fragments of %d and a halo of 1..%d)",
                       (int)geo->frag, (int)geo->halo, (int)r, kFrag, CUDA_CAT_HALO_MAX);
    if (cfg->accumulator != CAT_NUM_F16 && cfg->accumulator != CAT_NUM_F32)
        return cc_fail(err, CC_ERR_ARG, "cuda.cat: %s accumulators are not compiled (FP16, FP32)",
                       cat_number_name(cfg->accumulator));
    // Rules whose B and S are at most one range each (Larger than Life, Life) take the kernels
    // with the one-comparison rule; the others the general loop over ranges.
    const bool single = cat_rule_is_single(rule) != 0;
    kernel_choice kernel = pick_kernel(cfg->tile_w, cfg->tile_h, geo->halo,
                                       cfg->accumulator == CAT_NUM_F32, cfg->staged != 0, single);
    if (!kernel.kernel)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "cuda.cat: tile %dx%d is not compiled (tiles: " CUDA_CAT_TILES ")",
                       (int)cfg->tile_w, (int)cfg->tile_h);
    step_params params = {};
    int rc = cat_cuda::params_init(params, engine, geo, cfg->tile_w, cfg->tile_h, r, cross, rule,
                                   single, err);
    if (rc) return rc;
    char buffers[128];
    snprintf(buffers, sizeof buffers,
             "two FP16 buffers of %lldx%lld fragments and a staging buffer", (long long)geo->ew,
             (long long)geo->eh);
    return cat_driver::create(&side, {kernel.kernel, kThreads, kernel.smem}, params,
                              cat_geometry_positions(geo) * sizeof(uint16_t), buffers, out, err);
}
