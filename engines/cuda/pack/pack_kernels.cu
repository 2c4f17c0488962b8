// cuda.pack's device code: Cagigas' packet coding, extended to radius 16. A row is stored as
// 64-bit words of eight 8-bit cells, so one coalesced access reads eight cells, and each thread
// computes the eight cells of one word. It adds the 2r+1 rows of its word and of the K words on
// either side (K = 1 for r <= 8, 2 for 8 < r <= 16) as packed bytes, which gives the column sums of
// 8 (2K + 1) columns (each at most 2r+1 <= 33, so no carry crosses bytes); the first cell's count
// sums 2r+1 of them, and each next cell's drops one column and adds one.
//
// The torus: rows wrap by index; columns wrap through a halo of two words kept on either side of
// each row (after Millan's halo copies), rewritten after every step by a second, small kernel, so
// the step reads whole words only, whatever W is.
#include <cuda_runtime.h>

#include "engines/cuda/devgrid/engine.cuh"
#include "engines/cuda/pack/pack_kernels.h"

namespace {

constexpr int per_word = CUDA_PACK_CELLS_PER_WORD, halo_words = CUDA_PACK_HALO_WORDS;
constexpr int lead = halo_words * per_word; // byte of cell 0 in its row
constexpr int threads_x = CUDA_PACK_THREADS_X, threads_y = CUDA_PACK_THREADS_Y;

// Words of a w-cell row: the cells' words and the halo on both sides.
__host__ __device__ constexpr int row_words(int w) {
    return (w + per_word - 1) / per_word + 2 * halo_words;
}

// A byte mask of bytes lo..hi (0..3) of a 32-bit word.
__host__ __device__ constexpr uint32_t byte_mask(int lo, int hi) {
    return (hi >= 3 ? 0xffffffffu : (1u << (8 * (hi + 1))) - 1u) & ~((1u << (8 * lo)) - 1u);
}

template <int R>
__global__ void __launch_bounds__(threads_x *threads_y)
    pack_kernel(const uint8_t *__restrict__ in, uint8_t *__restrict__ out, int h, int cell_words,
                size_t pitch, const uint8_t *__restrict__ table, int stride, int centre,
                int blocks_y) {
    constexpr int K = R <= per_word ? 1 : 2; // words read on either side
    constexpr int span = 2 * K + 1;
    static_assert(K <= halo_words, "the halo covers the radius");
    // Byte b of the span's column sums is column 8 * (word - K) + b; cell i's window is bytes
    // first + i .. last + i.
    constexpr int first = per_word * K - R, last = per_word * K + R;

    const int word = blockIdx.x * threads_x + threadIdx.x; // among the row's cell words
    if (word >= cell_words) return;
    for (int by = blockIdx.y; by < blocks_y; by += gridDim.y) {
        const int y = by * threads_y + threadIdx.y;
        if (y >= h) return;
        int row = devgrid::wrap(y - R, h);
        uint64_t column[span], centre_word = 0;
#pragma unroll
        for (int k = 0; k < span; k++) column[k] = 0;
#pragma unroll
        for (int dy = 0; dy <= 2 * R; dy++) {
            const uint64_t *src = reinterpret_cast<const uint64_t *>(in + (size_t)row * pitch) +
                                  halo_words + word - K;
#pragma unroll
            for (int k = 0; k < span; k++) {
                const uint64_t v = __ldg(src + k);
                column[k] += v;
                if (dy == R && k == K) centre_word = v;
            }
            row = row + 1 == h ? 0 : row + 1;
        }
        uint32_t half[2 * span];
#pragma unroll
        for (int k = 0; k < span; k++) {
            half[2 * k] = (uint32_t)column[k];
            half[2 * k + 1] = (uint32_t)(column[k] >> 32);
        }
        auto byte = [&](int b) -> unsigned { return (half[b >> 2] >> (8 * (b & 3))) & 0xffu; };
        unsigned count = 0;
#pragma unroll
        for (int q = 0; q < 2 * span; q++) {
            const int b0 = 4 * q, b1 = 4 * q + 3;
            if (b1 < first || b0 > last) continue;
            const uint32_t mask = byte_mask(b0 < first ? first - b0 : 0, b1 > last ? last - b0 : 3);
            count = __dp4a(half[q] & mask, 0x01010101u, count);
        }
        uint64_t next = 0;
#pragma unroll
        for (int i = 0; i < per_word; i++) {
            if (i > 0) count += byte(last + i) - byte(first + i - 1);
            const unsigned alive = (unsigned)(centre_word >> (8 * i)) & 0xffu;
            const unsigned state = __ldg(table + alive * stride + count - (centre ? 0u : alive));
            next |= (uint64_t)state << (8 * i);
        }
        reinterpret_cast<uint64_t *>(out + (size_t)y * pitch)[halo_words + word] = next;
    }
}

// Rewrites the halo bytes of every row from its cells: byte b of a row holds cell (b - lead) mod w
// for b < lead and for b >= lead + w (which also overwrites what the step wrote past the last
// cell in the row's last word).
__global__ void pack_halo_kernel(uint8_t *grid, int w, int h, size_t pitch, int halo_bytes) {
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (long long)h * halo_bytes) return;
    const int y = (int)(t / halo_bytes), e = (int)(t % halo_bytes);
    const int b = e < lead ? e : w + e; // e >= lead: byte lead + w + (e - lead)
    int x = (b - lead) % w;
    if (x < 0) x += w;
    uint8_t *row = grid + (size_t)y * pitch;
    row[b] = row[lead + x];
}

// One step at radius R (the step kernel, then the halo's), for devgrid::step.
struct pack_engine {
    static constexpr const char *engine = "cuda.pack";
    template <int R> static int run(const cc_devgrid_view *v, cc_error *err);
};

int halo(const cc_devgrid_view *v, cc_error *err) {
    const int halo_bytes = per_word * row_words(v->w) - v->w;
    const long long total = (long long)v->h * halo_bytes;
    const int block = 256;
    pack_halo_kernel<<<(unsigned)((total + block - 1) / block), block>>>(v->out, v->w, v->h,
                                                                         v->pitch, halo_bytes);
    return cc_cuda_launched(err, pack_engine::engine, "pack_halo_kernel");
}

template <int R> int pack_engine::run(const cc_devgrid_view *v, cc_error *err) {
    const int cell_words = (v->w + per_word - 1) / per_word;
    const int blocks_x = (cell_words + threads_x - 1) / threads_x;
    const int blocks_y = (v->h + threads_y - 1) / threads_y;
    pack_kernel<R><<<cc_cuda_grid(blocks_x, blocks_y), dim3(threads_x, threads_y)>>>(
        v->in, v->out, v->h, cell_words, v->pitch, v->table, v->table_stride, v->centre,
        blocks_y);
    int rc = cc_cuda_launched(err, engine, "pack_kernel<%d>", R);
    return rc ? rc : halo(v, err);
}

// After each step, and after a load, the halo is rewritten from the cells.
const cc_devgrid_ops pack_ops = {devgrid::step<pack_engine>, halo};

} // namespace

extern "C" size_t cuda_pack_pitch(int32_t w) { return (size_t)per_word * (size_t)row_words(w); }
extern "C" size_t cuda_pack_lead(void) { return (size_t)lead; }

extern "C" int cuda_pack_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                cc_error *err) {
    return cc_devgrid_create(pack_engine::engine, rule, w, h, cuda_pack_pitch(w), (size_t)lead,
                             &pack_ops, ctx, err);
}
