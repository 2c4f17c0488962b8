// cuda.cat8's device code: the CAT band-matrix method on INT8 tensor-core MMAs.
//
// Fragments are 32 x 32 cells, one byte each, stored one after another (cat_common.h's extended
// buffer with a halo of one fragment), each in the order of cuda_cat8_offset: every lane of a warp
// loads the fragment's B operands with two 16-byte loads. The band fragments (A operands, s8) are
// built in registers once per thread. Both passes use mma.sync.m16n8k32.s32.s8.s8.s32:
//   horizontal, transposed: H^T = sum_d pi_d x Lambda_d^T  (A: band, B: Lambda rows as columns)
//   vertical:               R   = sum_d pi_d x H_d         (A: the same band, B: H from shared)
// With out index first and in index second, the vertical band equals the horizontal one, so one
// set of 24 registers serves both. The horizontal result lands in the accumulators as H's columns;
// the warp writes it to shared memory column-major (HsT), exactly as the vertical pass's B operand
// reads it: 4 consecutive rows of one column per register. H <= 2r+1 <= 65 fits an s8 operand.
//
// One thread block per tile of TW x TH fragments, TH + 2 warps, persistent over the tiles. Step 1:
// warp i takes tile row i (the TH rows and one halo row above and below) and slides along its TW
// fragments with a window of three in registers. Step 2: one warp per fragment computes R, applies
// the rule against the centre cells kept in shared memory, and writes the fragment with 16-byte
// stores. A second kernel refreshes the positions outside the W x H cells.
#include <cuda_runtime.h>

#include <stdio.h>

#include "engines/cuda/cat/cat_cuda.cuh"
#include "engines/cuda/cat8/cat8_kernels.h"
#include "engines/cuda/common/gpu.h"

namespace {

constexpr int kFrag = CUDA_CAT8_FRAG;
constexpr int kBytes = kFrag * kFrag;

struct step_params {
    cat_geometry g;
    int64_t tiles_x, tiles;
    int32_t r, cross;
    int32_t stride; // bytes per column of the shared H^T tile
    cat_rule_params rule;
    cat_rule_single single; // filled when both sets are at most one range (the SINGLE kernels)
};

typedef void (*step_kernel_t)(const uint8_t *, uint8_t *, step_params);

using cat_cuda::mma_s8;

__device__ __forceinline__ void load_fragment(uint32_t (&v)[8], const uint8_t *frag, int lane) {
    const uint4 lo = *reinterpret_cast<const uint4 *>(frag + lane * 16);
    const uint4 hi = *reinterpret_cast<const uint4 *>(frag + 512 + lane * 16);
    v[0] = lo.x;
    v[1] = lo.y;
    v[2] = lo.z;
    v[3] = lo.w;
    v[4] = hi.x;
    v[5] = hi.y;
    v[6] = hi.z;
    v[7] = hi.w;
}

// The 2 x 4 accumulator blocks of a fragment's MMAs: acc[mb][nb][q] is the sum at row
// 16 mb + g + 8 (q / 2), column 8 nb + 2 t + q % 2 (g = lane / 4, t = lane % 4).
__device__ __forceinline__ void zero(int (&acc)[2][4][4]) {
#pragma unroll
    for (int mb = 0; mb < 2; mb++)
#pragma unroll
        for (int nb = 0; nb < 4; nb++)
#pragma unroll
            for (int q = 0; q < 4; q++) acc[mb][nb][q] = 0;
}

// acc += band x b, b a fragment's B operands as load_fragment holds them; the band's all-zero row
// blocks (live false) are skipped.
__device__ __forceinline__ void mma_band(int (&acc)[2][4][4], const uint32_t (&band)[2][4],
                                         const bool (&live)[2], const uint32_t (&b)[8]) {
#pragma unroll
    for (int mb = 0; mb < 2; mb++) {
        if (!live[mb]) continue;
#pragma unroll
        for (int nb = 0; nb < 4; nb++) mma_s8(acc[mb][nb], band[mb], b[2 * nb], b[2 * nb + 1]);
    }
}

using cat_cuda::cp_async16;
using cat_cuda::cp_async_commit;
using cat_cuda::cp_async_wait;
using cat_cuda::next_state;

// Copies the Lambda fragments a tile reads (its own and a halo fragment on each side) into lam:
// tile fragment (r, c) is extended fragment (fy0 + r, fx0 + c).
template <int TW, int TH>
__device__ __forceinline__ void stage_tile(uint8_t *lam, const uint8_t *__restrict__ in,
                                           const step_params &p, int64_t tile) {
    constexpr int kCols = TW + 2, kChunks = kBytes / 16, kThreads = (TH + 2) * 32;
    const int64_t fy0 = tile / p.tiles_x * TH, fx0 = tile % p.tiles_x * TW;
    const int rows = (int)min((int64_t)TH, p.g.fh - fy0) + 2;
    const int cols = (int)min((int64_t)TW, p.g.fw - fx0) + 2;
    for (int c = (int)threadIdx.x; c < rows * cols * kChunks; c += kThreads) {
        const int f = c / kChunks, part = c % kChunks, r = f / cols, col = f % cols;
        cp_async16(lam + (size_t)(r * kCols + col) * kBytes + part * 16,
                   in + ((size_t)(fy0 + r) * (size_t)p.g.ew + (size_t)(fx0 + col)) * kBytes +
                       part * 16);
    }
}

// STAGED: each tile's Lambda fragments are copied into shared memory asynchronously, the next
// tile's while the current one is computed (two buffers), and the results are written over the
// centre fragments there; otherwise step 1 reads them from global memory and keeps the centre
// fragments in shared memory for step 2. SINGLE: the rule's sets are at most one range each.
template <int TW, int TH, bool STAGED, bool SINGLE>
__global__ void __launch_bounds__((TH + 2) * 32, (TH + 2) * 32 <= 256 ? 3 : 1)
    cat8_step_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, step_params p) {
    extern __shared__ __align__(16) uint8_t smem[];
    constexpr int kCols = TW + 2, kLamBytes = (TH + 2) * kCols * kBytes;
    const int stride = p.stride;
    // STAGED: two Lambda tiles, H^T, Lambda^T. Otherwise: H^T, the centre fragments, Lambda^T.
    uint8_t *const lam_buffers = smem;
    uint8_t *const ht = STAGED ? smem + 2 * kLamBytes : smem; // TW*32 columns of stride bytes
    uint8_t *const centre_s = ht + TW * kFrag * stride;
    uint8_t *const lt = STAGED ? centre_s : centre_s + TW * TH * kBytes; // cross only

    const int warp = (int)(threadIdx.x >> 5), lane = (int)(threadIdx.x & 31);
    const int g = lane >> 2, t = lane & 3;

    // The band: a[d][mb][q] holds rows m = 16 mb + g (+8 for q odd), k = 4t (+16 for q >= 2)
    // .. +3 of the band fragment for neighbour offset d - 1, one s8 per byte.
    uint32_t band[3][2][4];
    bool live[3][2];
#pragma unroll
    for (int d = 0; d < 3; d++)
#pragma unroll
        for (int mb = 0; mb < 2; mb++) {
            uint32_t any = 0;
#pragma unroll
            for (int q = 0; q < 4; q++) {
                const int m = 16 * mb + g + 8 * (q & 1), k = 4 * t + 16 * (q >> 1);
                uint32_t v = 0;
#pragma unroll
                for (int e = 0; e < 4; e++)
                    v |= (uint32_t)cat_band(d - 1, m, k + e, p.r, kFrag) << (8 * e);
                band[d][mb][q] = v;
                any |= v;
            }
            live[d][mb] = __any_sync(0xffffffffu, any != 0); // all-zero blocks are skipped
        }

    const int64_t ew = p.g.ew;
    int buffer = 0;
    if constexpr (STAGED) {
        if ((int64_t)blockIdx.x < p.tiles) stage_tile<TW, TH>(lam_buffers, in, p, blockIdx.x);
        cp_async_commit();
    }
    for (int64_t tile = blockIdx.x; tile < p.tiles; tile += gridDim.x, buffer ^= 1) {
        const int64_t fy0 = tile / p.tiles_x * TH, fx0 = tile % p.tiles_x * TW;
        const int th = (int)min((int64_t)TH, p.g.fh - fy0);
        const int tw = (int)min((int64_t)TW, p.g.fw - fx0);
        uint8_t *const lam = lam_buffers + buffer * kLamBytes;
        if constexpr (STAGED) {
            // The other buffer was last read by the previous tile, which ended with a barrier.
            const int64_t next = tile + gridDim.x;
            if (next < p.tiles)
                stage_tile<TW, TH>(lam_buffers + (buffer ^ 1) * kLamBytes, in, p, next);
            cp_async_commit();
            cp_async_wait<1>(); // this tile's copies (the older group) have landed
            __syncthreads();
        }

        // Step 1: warp i, tile row i (extended row fy0 + i), along the tile's columns. STAGED: the
        // fragments are read from the staged tile; otherwise from global memory, through a window
        // of three in registers.
        if (warp < th + 2) {
            const int i = warp;
            const uint8_t *row = in + ((size_t)(fy0 + i) * (size_t)ew + (size_t)fx0) * kBytes;
            uint32_t win[3][8];
            if constexpr (!STAGED) {
                load_fragment(win[0], row, lane);
                load_fragment(win[1], row + kBytes, lane);
            }
#pragma unroll
            for (int j = 0; j < TW; j++) {
                if (j >= tw) break;
                if constexpr (!STAGED)
                    load_fragment(win[(j + 2) % 3], row + (size_t)(j + 2) * kBytes, lane);
                int acc[2][4][4];
                zero(acc);
#pragma unroll
                for (int d = 0; d < 3; d++) {
                    if constexpr (STAGED) {
                        if (!live[d][0] && !live[d][1]) continue;
                        uint32_t b[8];
                        load_fragment(b, lam + (size_t)(i * kCols + j + d) * kBytes, lane);
                        mma_band(acc, band[d], live[d], b);
                    } else {
                        mma_band(acc, band[d], live[d], win[(j + d) % 3]);
                    }
                }
                // acc[mb][nb]: H at rows 8nb + 2t, +1 and columns 16mb + g, +8.
#pragma unroll
                for (int mb = 0; mb < 2; mb++)
#pragma unroll
                    for (int nb = 0; nb < 4; nb++) {
                        uint8_t *col = ht + (size_t)(j * kFrag + 16 * mb + g) * stride + i * kFrag +
                                       8 * nb + 2 * t;
                        *reinterpret_cast<uint16_t *>(col) =
                            (uint16_t)((acc[mb][nb][0] & 0xff) | ((acc[mb][nb][1] & 0xff) << 8));
                        *reinterpret_cast<uint16_t *>(col + 8 * stride) =
                            (uint16_t)((acc[mb][nb][2] & 0xff) | ((acc[mb][nb][3] & 0xff) << 8));
                    }
                // The centre fragment: in the window, or read again from the staged tile where
                // the cross needs it.
                uint32_t staged_c[8];
                const uint32_t(&c)[8] = STAGED ? staged_c : win[(j + 1) % 3];
                if (!STAGED && i >= 1 && i <= th) {
                    uint8_t *dst = centre_s + (size_t)((i - 1) * TW + j) * kBytes;
                    *reinterpret_cast<uint4 *>(dst + lane * 16) =
                        make_uint4(c[0], c[1], c[2], c[3]);
                    *reinterpret_cast<uint4 *>(dst + 512 + lane * 16) =
                        make_uint4(c[4], c[5], c[6], c[7]);
                }
                if (p.cross) {
                    if constexpr (STAGED)
                        load_fragment(staged_c, lam + (size_t)(i * kCols + j + 1) * kBytes, lane);
                    // Lambda^T for the cross's vertical pass: register v holds row 8(v/2) + g,
                    // columns 16(v%2) + 4t .. +3.
#pragma unroll
                    for (int v = 0; v < 8; v++)
#pragma unroll
                        for (int e = 0; e < 4; e++)
                            lt[(size_t)(j * kFrag + 16 * (v & 1) + 4 * t + e) * stride + i * kFrag +
                               8 * (v >> 1) + g] = (uint8_t)(c[v] >> (8 * e));
                }
            }
        }
        __syncthreads();

        // Step 2: R for fragment (i, j), tile rows i .. i + 2 as d = -1 .. 1, then the rule.
        for (int u = warp; u < tw * th; u += TH + 2) {
            const int i = u / tw, j = u % tw;
            const uint8_t *src = p.cross ? lt : ht;
            int acc[2][4][4];
            zero(acc);
#pragma unroll
            for (int d = 0; d < 3; d++) {
                if (!live[d][0] && !live[d][1]) continue;
#pragma unroll
                for (int nb = 0; nb < 4; nb++) {
                    const uint8_t *col =
                        src + (size_t)(j * kFrag + 8 * nb + g) * stride + (i + d) * kFrag + 4 * t;
                    const uint32_t b0 = *reinterpret_cast<const uint32_t *>(col);
                    const uint32_t b1 = *reinterpret_cast<const uint32_t *>(col + 16);
#pragma unroll
                    for (int mb = 0; mb < 2; mb++)
                        if (live[d][mb]) mma_s8(acc[mb][nb], band[d][mb], b0, b1);
                }
            }
            // acc[mb][nb][q]: R at row 16mb + g + 8(q/2), column 8nb + 2t + q%2.
            uint8_t *frag = STAGED ? lam + (size_t)((i + 1) * kCols + j + 1) * kBytes
                                   : centre_s + (size_t)(i * TW + j) * kBytes;
#pragma unroll
            for (int mb = 0; mb < 2; mb++)
#pragma unroll
                for (int nb = 0; nb < 4; nb++)
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        const int y = 16 * mb + g + 8 * h, x = 8 * nb + 2 * t;
                        uint16_t *pair =
                            reinterpret_cast<uint16_t *>(frag + cuda_cat8_offset(x, y));
                        const uint32_t cells = *pair;
                        int raw0 = acc[mb][nb][2 * h], raw1 = acc[mb][nb][2 * h + 1];
                        if (p.cross) { // Eq. 3's + H, in INT32
                            const uint8_t *hrow =
                                ht + (size_t)(j * kFrag + x) * stride + (i + 1) * kFrag + y;
                            raw0 += hrow[0];
                            raw1 += hrow[stride];
                        }
                        // The rule, for the 32 cells a lane updates, is most of the kernel's
                        // instructions.
                        *pair = (uint16_t)(next_state<SINGLE, 1u>(p, cells & 0xffu, raw0) |
                                           (next_state<SINGLE, 1u>(p, cells >> 8, raw1) << 8));
                    }
            __syncwarp();
            uint8_t *dst =
                out + ((size_t)(fy0 + i + 1) * (size_t)ew + (size_t)(fx0 + j + 1)) * kBytes;
            *reinterpret_cast<uint4 *>(dst + lane * 16) =
                *reinterpret_cast<const uint4 *>(frag + lane * 16);
            *reinterpret_cast<uint4 *>(dst + 512 + lane * 16) =
                *reinterpret_cast<const uint4 *>(frag + 512 + lane * 16);
        }
        __syncthreads();
    }
}

// Bytes in the order of cuda_cat8_offset inside each fragment; any value but 0 or 1 is not a cell.
struct layout {
    typedef uint8_t cell;
    static constexpr int frag = kFrag;
    static __device__ __forceinline__ size_t index(const cat_geometry &g, int64_t x, int64_t y) {
        const int64_t fx = (x + g.halo * kFrag) / kFrag, fy = (y + g.halo * kFrag) / kFrag;
        const int32_t ix = (int32_t)((x + g.halo * kFrag) % kFrag),
                      iy = (int32_t)((y + g.halo * kFrag) % kFrag);
        return (size_t)(fy * g.ew + fx) * kBytes + (size_t)cuda_cat8_offset(ix, iy);
    }
    static __device__ __forceinline__ cell encode(uint8_t c) { return c; }
    static __device__ __forceinline__ uint8_t decode(cell v) { return v <= 1 ? v : 2; }
};

struct kernel_choice {
    step_kernel_t kernel;
    int threads;
    bool staged;
};

template <int TW, int TH, bool SINGLE>
kernel_choice choice(bool staged) {
    if (staged) return {cat8_step_kernel<TW, TH, true, SINGLE>, (TH + 2) * 32, true};
    return {cat8_step_kernel<TW, TH, false, SINGLE>, (TH + 2) * 32, false};
}

template <int TW, int TH>
kernel_choice choice_rule(bool staged, bool single) {
    return single ? choice<TW, TH, true>(staged) : choice<TW, TH, false>(staged);
}

// The compiled tiles (CUDA_CAT8_TILES); single: the rule's sets are at most one range each.
kernel_choice pick_kernel(int tw, int th, bool staged, bool single) {
    if (tw == 1 && th == 6) return choice_rule<1, 6>(staged, single);
    if (tw == 1 && th == 4) return choice_rule<1, 4>(staged, single);
    if (tw == 1 && th == 8) return choice_rule<1, 8>(staged, single);
    if (tw == 1 && th == 14) return choice_rule<1, 14>(staged, single);
    if (tw == 2 && th == 6) return choice_rule<2, 6>(staged, single);
    if (tw == 2 && th == 14) return choice_rule<2, 14>(staged, single);
    return {nullptr, 0, false};
}

constexpr const char *engine = "cuda.cat8";
constexpr cat_cuda::side_kernels<uint8_t> side = cat_cuda::side_kernels_of<layout>(engine);
typedef cat_cuda::driver<uint8_t, uint8_t, step_params> cat8_driver;

} // namespace

extern "C" int cuda_cat8_tile_compiled(int32_t tile_w, int32_t tile_h) {
    return pick_kernel(tile_w, tile_h, false, false).kernel != nullptr;
}

extern "C" int cuda_cat8_create(const cat_geometry *geo, int32_t r, int cross,
                                const cat_rule_params *rule, int32_t tile_w, int32_t tile_h,
                                int staged, cc_gpu **out, cc_error *err) {
    *out = NULL;
    if (geo->frag != kFrag || geo->halo != 1 || r < 1 || r > kFrag)
        return cc_fail(err, CC_ERR_ARG,
                       "cuda.cat8: fragments of %d with a halo of %d cannot hold radius %d (the "
                       "kernels take fragments of %d, a halo of 1, radius 1..%d)",
                       (int)geo->frag, (int)geo->halo, (int)r, kFrag, kFrag);
    // Rules whose B and S are at most one range each (Larger than Life, Life) take the kernels
    // with the one-comparison rule; the others the general loop over ranges.
    const bool single = cat_rule_is_single(rule) != 0;
    kernel_choice k = pick_kernel(tile_w, tile_h, staged != 0, single);
    if (!k.kernel)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "cuda.cat8: tile %dx%d is not compiled (tiles: " CUDA_CAT8_TILES ")",
                       (int)tile_w, (int)tile_h);
    step_params params = {};
    int rc =
        cat_cuda::params_init(params, engine, geo, tile_w, tile_h, r, cross, rule, single, err);
    if (rc) return rc;
    // A column of H^T: the tile's rows and a halo row each side, padded so that the 8 columns a
    // warp's lanes read (4 bytes each, 4 lanes a column) fall in distinct banks: stride = 16
    // mod 32.
    params.stride = (tile_h + 2) * kFrag + 16;
    const size_t column_tile = (size_t)tile_w * kFrag * (size_t)params.stride;
    const size_t lam = 2 * (size_t)(tile_h + 2) * (size_t)(tile_w + 2) * kBytes;
    const size_t smem = (k.staged ? lam : (size_t)tile_w * (size_t)tile_h * kBytes) +
                        column_tile + (cross ? column_tile : 0);
    char buffers[128];
    snprintf(buffers, sizeof buffers,
             "two buffers of %lldx%lld fragments of 1 KB and a staging buffer",
             (long long)geo->ew, (long long)geo->eh);
    return cat8_driver::create(&side, {k.kernel, k.threads, smem}, params,
                               cat_geometry_positions(geo), buffers, out, err);
}
