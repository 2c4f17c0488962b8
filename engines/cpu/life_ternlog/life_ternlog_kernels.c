/* cpu.life-ternlog's step on AVX-512: per row, the three cells around each position summed by a
 * full adder (two vpternlog), once and shared by three output rows (hexagonal rules: a half adder
 * of two of them, different for each reader); then the rule's gate network
 * (engines/lifenet), one vpternlog a gate, over chunks of 64 words. A gate's truth table is an
 * immediate of the instruction, so each of the 256 has a function of its own and the network
 * calls them in turn, a chunk at a time. */
#include "engines/cpu/life_ternlog/life_ternlog_kernels.h"

#include <immintrin.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 64 /* words a gate runs over per call: 16 KiB of signals stay in L1 */

/* n: words, a multiple of 8 up to CHUNK (a row narrower than a chunk runs only its own words). */
typedef void (*gate_fn)(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                        int32_t n);

#define GATE_FN(imm)                                                                               \
    static void gate_##imm(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c,  \
                           int32_t n) {                                                            \
        for (int32_t k = 0; k < n; k += 8)                                                         \
            _mm512_storeu_si512(d + k, _mm512_ternarylogic_epi64(_mm512_loadu_si512(a + k),        \
                                                                 _mm512_loadu_si512(b + k),        \
                                                                 _mm512_loadu_si512(c + k), imm)); \
    }
#define GATE_ROW(h)                                                                                \
    GATE_FN(0x##h##0) GATE_FN(0x##h##1) GATE_FN(0x##h##2) GATE_FN(0x##h##3) GATE_FN(0x##h##4)      \
    GATE_FN(0x##h##5) GATE_FN(0x##h##6) GATE_FN(0x##h##7) GATE_FN(0x##h##8) GATE_FN(0x##h##9)      \
    GATE_FN(0x##h##a) GATE_FN(0x##h##b) GATE_FN(0x##h##c) GATE_FN(0x##h##d) GATE_FN(0x##h##e)      \
    GATE_FN(0x##h##f)
GATE_ROW(0) GATE_ROW(1) GATE_ROW(2) GATE_ROW(3) GATE_ROW(4) GATE_ROW(5) GATE_ROW(6) GATE_ROW(7)
GATE_ROW(8) GATE_ROW(9) GATE_ROW(a) GATE_ROW(b) GATE_ROW(c) GATE_ROW(d) GATE_ROW(e) GATE_ROW(f)

#define GATE_ENTRY_ROW(h)                                                                          \
    gate_0x##h##0, gate_0x##h##1, gate_0x##h##2, gate_0x##h##3, gate_0x##h##4, gate_0x##h##5,      \
        gate_0x##h##6, gate_0x##h##7, gate_0x##h##8, gate_0x##h##9, gate_0x##h##a, gate_0x##h##b,  \
        gate_0x##h##c, gate_0x##h##d, gate_0x##h##e, gate_0x##h##f
static const gate_fn gates[256] = {
    GATE_ENTRY_ROW(0), GATE_ENTRY_ROW(1), GATE_ENTRY_ROW(2), GATE_ENTRY_ROW(3),
    GATE_ENTRY_ROW(4), GATE_ENTRY_ROW(5), GATE_ENTRY_ROW(6), GATE_ENTRY_ROW(7),
    GATE_ENTRY_ROW(8), GATE_ENTRY_ROW(9), GATE_ENTRY_ROW(a), GATE_ENTRY_ROW(b),
    GATE_ENTRY_ROW(c), GATE_ENTRY_ROW(d), GATE_ENTRY_ROW(e), GATE_ENTRY_ROW(f)};

/* Row p's pairs into s0 and s1, core words only: kind 0 the full adder of (west, centre, east)
 * (Moore); for hexagonal rules the half adder of kind 1 (west, centre: the row above), 2 (west,
 * east: the row at) or 3 (centre, east: the row below). Immediates in (west, centre, east) order. */
#define ROW_PAIRS(name, imm0, imm1, f0, f1)                                                        \
    static void name(const uint64_t *p, int32_t nw, uint64_t *s0, uint64_t *s1) {                  \
        int32_t j = 0;                                                                             \
        for (; j + 8 <= nw; j += 8) {                                                              \
            __m512i before = _mm512_loadu_si512(p + j), mid = _mm512_loadu_si512(p + 1 + j),       \
                    after = _mm512_loadu_si512(p + 2 + j);                                         \
            __m512i west =                                                                         \
                _mm512_or_si512(_mm512_slli_epi64(mid, 1), _mm512_srli_epi64(before, 63));         \
            __m512i east = _mm512_or_si512(_mm512_srli_epi64(mid, 1), _mm512_slli_epi64(after, 63)); \
            _mm512_storeu_si512(s0 + j, _mm512_ternarylogic_epi64(west, mid, east, imm0));         \
            _mm512_storeu_si512(s1 + j, _mm512_ternarylogic_epi64(west, mid, east, imm1));         \
        }                                                                                          \
        for (; j < nw; j++) {                                                                      \
            uint64_t west = bitrows_west(p, 1 + j), mid = p[1 + j], east = bitrows_east(p, 1 + j); \
            (void)west, (void)mid, (void)east;                                                     \
            s0[j] = f0;                                                                            \
            s1[j] = f1;                                                                            \
        }                                                                                          \
    }
ROW_PAIRS(row_sums, 0x96, 0xE8, west ^ mid ^ east, (west & mid) | (west & east) | (mid & east))
ROW_PAIRS(row_pairs_above, 0x3C, 0xC0, west ^ mid, west & mid)
ROW_PAIRS(row_pairs_at, 0x5A, 0xA0, west ^ east, west & east)
ROW_PAIRS(row_pairs_below, 0x66, 0x88, mid ^ east, mid & east)
/* Rows y0 .. y1-1 of next. Buffers: three rows of sums (s0, s1), the centre row, the signals. */
static int band(const bitrows *b, int32_t y0, int32_t y1) {
    const lifenet *net = &b->net;
    const int32_t nw = b->nw, padded = (nw + CHUNK - 1) / CHUNK * CHUNK;
    uint64_t *buf = aligned_alloc(64, sizeof(uint64_t) * ((size_t)7 * (size_t)padded +
                                                          (size_t)(net->gates + 2) * CHUNK));
    if (!buf) return CC_ERR_NOMEM;
    memset(buf, 0, sizeof(uint64_t) * ((size_t)7 * (size_t)padded + (size_t)(net->gates + 2) * CHUNK));
    uint64_t *sums[3][2], *alive = buf + (size_t)6 * (size_t)padded;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++) sums[i][k] = buf + (size_t)(2 * i + k) * (size_t)padded;
    uint64_t *gate_out = buf + (size_t)7 * (size_t)padded;
    uint64_t *zero = gate_out + (size_t)net->gates * CHUNK, *one = zero + CHUNK;
    for (int k = 0; k < CHUNK; k++) one[k] = ~UINT64_C(0);
    /* sums[(y + 3) % 3]: row y's. */
    for (int32_t y = y0 - 1; y <= y0 && !b->hex; y++) {
        int i = (int)(((y % 3) + 3) % 3);
        row_sums(bitrows_row(b, b->cur, y), nw, sums[i][0], sums[i][1]);
    }
    for (int32_t y = y0; y < y1; y++) {
        int up = (int)((((y - 1) % 3) + 3) % 3), at = (int)(y % 3), down = (int)((y + 1) % 3);
        if (b->hex) {
            /* Each row gives each of its three readers a different pair: none is shared. */
            up = 0, at = 1, down = 2;
            row_pairs_above(bitrows_row(b, b->cur, y - 1), nw, sums[up][0], sums[up][1]);
            row_pairs_at(bitrows_row(b, b->cur, y), nw, sums[at][0], sums[at][1]);
            row_pairs_below(bitrows_row(b, b->cur, y + 1), nw, sums[down][0], sums[down][1]);
        } else {
            row_sums(bitrows_row(b, b->cur, y + 1), nw, sums[down][0], sums[down][1]);
        }
        memcpy(alive, bitrows_row(b, b->cur, y) + 1, sizeof(uint64_t) * (size_t)nw);
        uint64_t *out = bitrows_row(b, b->next, y);
        for (int32_t j = 0; j < nw; j += CHUNK) {
            const uint64_t *sig[LIFENET_INPUTS + LIFENET_GATES_MAX] = {
                sums[up][0] + j, sums[up][1] + j, sums[at][0] + j,  sums[at][1] + j,
                sums[down][0] + j, sums[down][1] + j, alive + j};
            for (int g = 0; g < net->gates; g++) sig[LIFENET_INPUTS + g] = gate_out + (size_t)g * CHUNK;
#define SIG(s) ((s) == LIFENET_ZERO ? zero : (s) == LIFENET_ONE ? one : sig[(s)])
            int32_t n = nw - j < CHUNK ? nw - j : CHUNK, n8 = (n + 7) / 8 * 8;
            for (int g = 0; g < net->gates; g++) {
                const lifenet_gate *gt = &net->gate[g];
                gates[gt->imm](gate_out + (size_t)g * CHUNK, SIG(gt->a), SIG(gt->b), SIG(gt->c),
                               n8);
            }
            memcpy(out + 1 + j, SIG(net->out), sizeof(uint64_t) * (size_t)n);
#undef SIG
        }
        bitrows_fix_row(b, out);
    }
    free(buf);
    return CC_OK;
}

int life_ternlog_step_rows_avx512(const bitrows *b) {
    int failed = 0;
#pragma omp parallel reduction(| : failed)
    {
        int32_t threads = omp_get_num_threads(), me = omp_get_thread_num();
        int32_t y0 = (int32_t)((int64_t)b->h * me / threads),
                y1 = (int32_t)((int64_t)b->h * (me + 1) / threads);
        if (y1 > y0) failed |= band(b, y0, y1) != CC_OK;
    }
    return failed ? CC_ERR_NOMEM : CC_OK;
}
