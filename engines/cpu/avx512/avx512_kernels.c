/* The row kernels of cpu.avx512: 64 cells a chunk, box sums in 64 u8 lanes, counts in two
 * vectors of 32 u16 lanes, the rule's ranges tested into opmasks. This file alone is compiled with
 * -mavx512f -mavx512bw; nothing here runs before available() has seen AVX-512 F and BW. */
#include "engines/cpu/avx512/avx512_kernels.h"

#include <immintrin.h>

static inline __m512i load8(const uint8_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline __m512i load16(const uint16_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline void store16(uint16_t *p, __m512i v) { _mm512_storeu_si512((void *)p, v); }

/* The 2r+1 cells centred on x .. x+63, in u8 lanes (2r+1 <= 129). Two accumulators: the loads
 * are independent, the adds need not be a chain. */
static inline __m512i box(const uint8_t *row, int32_t x, int32_t r) {
    __m512i a = load8(row + x - r), b = _mm512_setzero_si512();
    int32_t d = -r + 1;
    for (; d + 1 <= r; d += 2) {
        a = _mm512_add_epi8(a, load8(row + x + d));
        b = _mm512_add_epi8(b, load8(row + x + d + 1));
    }
    if (d <= r) a = _mm512_add_epi8(a, load8(row + x + d));
    return _mm512_add_epi8(a, b);
}

static inline __m512i low_u16(__m512i v) { return _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)); }
static inline __m512i high_u16(__m512i v) {
    return _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1));
}

static inline __mmask32 in_ranges(__m512i b, const sliding_ranges *s) {
    __mmask32 m = 0;
    for (int i = 0; i < s->n; i++) {
        __m512i off = _mm512_sub_epi16(b, _mm512_set1_epi16((short)s->lo[i]));
        m |= _mm512_cmple_epu16_mask(off, _mm512_set1_epi16((short)s->span[i]));
    }
    return m;
}

/* The next state of 64 cells from their centre-inclusive counts (lanes 0-31 in lo). */
static inline void emit(__m512i lo, __m512i hi, const uint8_t *centre, uint8_t *out,
                        const sliding_rule *rule) {
    __m512i cells = load8(centre);
    __mmask64 alive = _mm512_test_epi8_mask(cells, cells);
    __mmask64 born = (__mmask64)in_ranges(lo, &rule->birth) |
                     ((__mmask64)in_ranges(hi, &rule->birth) << 32);
    __mmask64 kept = (__mmask64)in_ranges(lo, &rule->survive) |
                     ((__mmask64)in_ranges(hi, &rule->survive) << 32);
    __mmask64 next = (alive & kept) | (~alive & born);
    _mm512_storeu_si512((void *)out, _mm512_maskz_mov_epi8(next, _mm512_set1_epi8(1)));
}

static void moore_row(uint16_t *sums, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width) {
    for (int32_t x = 0; x < width; x += 64) {
        __m512i in = box(add, x, r);
        __m512i lo = _mm512_add_epi16(load16(sums + x), low_u16(in));
        __m512i hi = _mm512_add_epi16(load16(sums + x + 32), high_u16(in));
        if (sub) {
            __m512i gone = box(sub, x, r);
            lo = _mm512_sub_epi16(lo, low_u16(gone));
            hi = _mm512_sub_epi16(hi, high_u16(gone));
        }
        store16(sums + x, lo);
        store16(sums + x + 32, hi);
        if (centre) emit(lo, hi, centre + x, out + x, rule);
    }
}

static void cross_row(uint8_t *cols, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width) {
    for (int32_t x = 0; x < width; x += 64) {
        __m512i c = _mm512_add_epi8(load8(cols + x), load8(add + x));
        if (sub) c = _mm512_sub_epi8(c, load8(sub + x));
        _mm512_storeu_si512((void *)(cols + x), c);
        if (!centre) continue;
        __m512i row = box(centre, x, r);
        __m512i self = load8(centre + x);
        /* b = box + column - self, which is at most 4r+1: u16. */
        __m512i lo = _mm512_sub_epi16(_mm512_add_epi16(low_u16(row), low_u16(c)), low_u16(self));
        __m512i hi =
            _mm512_sub_epi16(_mm512_add_epi16(high_u16(row), high_u16(c)), high_u16(self));
        emit(lo, hi, centre + x, out + x, rule);
    }
}

static void diagonal_row(uint16_t *q1, const uint16_t *q1_above, uint16_t *q2,
                         const uint16_t *q2_above, const uint8_t *cells, int32_t width) {
    for (int32_t x = 0; x < width; x += 64) {
        __m512i c = load8(cells + x);
        __m512i lo = low_u16(c), hi = high_u16(c);
        store16(q1 + x, _mm512_add_epi16(lo, load16(q1_above + x - 1)));
        store16(q1 + x + 32, _mm512_add_epi16(hi, load16(q1_above + x + 31)));
        store16(q2 + x, _mm512_add_epi16(lo, load16(q2_above + x + 1)));
        store16(q2 + x + 32, _mm512_add_epi16(hi, load16(q2_above + x + 33)));
    }
}

static void diamond_row(uint16_t *diamond, const sliding_diamond_rows *q, int32_t r,
                        const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                        int32_t width) {
    for (int32_t x = 0; x < width; x += 64) {
        __m512i half[2];
        for (int k = 0; k < 2; k++) {
            int32_t i = x + 32 * k;
            __m512i gain = _mm512_add_epi16(
                _mm512_add_epi16(load16(q->q1_low + i), load16(q->q1_top + i)),
                _mm512_add_epi16(load16(q->q2_low + i + 1), load16(q->q2_top + i + 1)));
            __m512i loss = _mm512_add_epi16(
                _mm512_add_epi16(load16(q->q1_mid + i - r - 1), load16(q->q1_mid + i + r)),
                _mm512_add_epi16(load16(q->q2_mid + i + r + 1), load16(q->q2_mid + i - r)));
            half[k] = _mm512_sub_epi16(_mm512_add_epi16(load16(diamond + i), gain), loss);
            store16(diamond + i, half[k]);
        }
        if (centre) emit(half[0], half[1], centre + x, out + x, rule);
    }
}

const sliding_kernels cpu_avx512_kernels = {
    .moore_row = moore_row,
    .cross_row = cross_row,
    .diagonal_row = diagonal_row,
    .diamond_row = diamond_row,
};
