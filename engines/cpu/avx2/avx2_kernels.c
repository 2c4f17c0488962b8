/* The row kernels of cpu.avx2: 32 cells a chunk, box sums in 32 u8 lanes, counts in two vectors
 * of 16 u16 lanes, the rule's ranges tested lane-wise with an unsigned minimum (AVX2 has no
 * unsigned 16-bit compare). This file alone is compiled with -mavx2; nothing here runs before
 * available() has seen AVX2. */
#include "engines/cpu/avx2/avx2_kernels.h"

#include <immintrin.h>

static inline __m256i load8(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline __m256i load16(const uint16_t *p) {
    return _mm256_loadu_si256((const __m256i *)p);
}
static inline void store16(uint16_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

/* The 2r+1 cells centred on x .. x+31, in u8 lanes (2r+1 <= 129). */
static inline __m256i box(const uint8_t *row, int32_t x, int32_t r) {
    __m256i a = load8(row + x - r), b = _mm256_setzero_si256();
    int32_t d = -r + 1;
    for (; d + 1 <= r; d += 2) {
        a = _mm256_add_epi8(a, load8(row + x + d));
        b = _mm256_add_epi8(b, load8(row + x + d + 1));
    }
    if (d <= r) a = _mm256_add_epi8(a, load8(row + x + d));
    return _mm256_add_epi8(a, b);
}

static inline __m256i low_u16(__m256i v) {
    return _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
}
static inline __m256i high_u16(__m256i v) {
    return _mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1));
}

/* All-ones in the lanes whose count is in the set. */
static inline __m256i in_ranges(__m256i b, const sliding_ranges *s) {
    __m256i m = _mm256_setzero_si256();
    for (int i = 0; i < s->n; i++) {
        __m256i off = _mm256_sub_epi16(b, _mm256_set1_epi16((short)s->lo[i]));
        __m256i clipped = _mm256_min_epu16(off, _mm256_set1_epi16((short)s->span[i]));
        m = _mm256_or_si256(m, _mm256_cmpeq_epi16(clipped, off));
    }
    return m;
}

/* The next state of 16 cells (u16 lanes, all-ones where alive next) from their counts and the
 * current cells widened to u16. */
static inline __m256i next16(__m256i b, __m256i cells16, const sliding_rule *rule) {
    __m256i alive = _mm256_sub_epi16(_mm256_setzero_si256(), cells16); /* 0/1 -> 0/all-ones */
    __m256i born = in_ranges(b, &rule->birth), kept = in_ranges(b, &rule->survive);
    return _mm256_or_si256(_mm256_and_si256(alive, kept), _mm256_andnot_si256(alive, born));
}

/* The next state of 32 cells from their centre-inclusive counts (lanes 0-15 in lo). */
static inline void emit(__m256i lo, __m256i hi, const uint8_t *centre, uint8_t *out,
                        const sliding_rule *rule) {
    __m256i cells = load8(centre);
    __m256i n_lo = next16(lo, low_u16(cells), rule);
    __m256i n_hi = next16(hi, high_u16(cells), rule);
    /* packs interleaves the 128-bit halves: quadwords lo0 hi0 lo1 hi1 -> lo0 lo1 hi0 hi1. */
    __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi16(n_lo, n_hi), 0xd8);
    _mm256_storeu_si256((__m256i *)out, _mm256_and_si256(packed, _mm256_set1_epi8(1)));
}

static void moore_row(uint16_t *sums, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width) {
    for (int32_t x = 0; x < width; x += 32) {
        __m256i in = box(add, x, r);
        __m256i lo = _mm256_add_epi16(load16(sums + x), low_u16(in));
        __m256i hi = _mm256_add_epi16(load16(sums + x + 16), high_u16(in));
        if (sub) {
            __m256i gone = box(sub, x, r);
            lo = _mm256_sub_epi16(lo, low_u16(gone));
            hi = _mm256_sub_epi16(hi, high_u16(gone));
        }
        store16(sums + x, lo);
        store16(sums + x + 16, hi);
        if (centre) emit(lo, hi, centre + x, out + x, rule);
    }
}

static void cross_row(uint8_t *cols, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width) {
    for (int32_t x = 0; x < width; x += 32) {
        __m256i c = _mm256_add_epi8(load8(cols + x), load8(add + x));
        if (sub) c = _mm256_sub_epi8(c, load8(sub + x));
        _mm256_storeu_si256((__m256i *)(cols + x), c);
        if (!centre) continue;
        __m256i row = box(centre, x, r);
        __m256i self = load8(centre + x);
        /* b = box + column - self, which is at most 4r+1: u16. */
        __m256i lo = _mm256_sub_epi16(_mm256_add_epi16(low_u16(row), low_u16(c)), low_u16(self));
        __m256i hi =
            _mm256_sub_epi16(_mm256_add_epi16(high_u16(row), high_u16(c)), high_u16(self));
        emit(lo, hi, centre + x, out + x, rule);
    }
}

static void diagonal_row(uint16_t *q1, const uint16_t *q1_above, uint16_t *q2,
                         const uint16_t *q2_above, const uint8_t *cells, int32_t width) {
    for (int32_t x = 0; x < width; x += 32) {
        __m256i c = load8(cells + x);
        __m256i lo = low_u16(c), hi = high_u16(c);
        store16(q1 + x, _mm256_add_epi16(lo, load16(q1_above + x - 1)));
        store16(q1 + x + 16, _mm256_add_epi16(hi, load16(q1_above + x + 15)));
        store16(q2 + x, _mm256_add_epi16(lo, load16(q2_above + x + 1)));
        store16(q2 + x + 16, _mm256_add_epi16(hi, load16(q2_above + x + 17)));
    }
}

static void diamond_row(uint16_t *diamond, const sliding_diamond_rows *q, int32_t r,
                        const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                        int32_t width) {
    for (int32_t x = 0; x < width; x += 32) {
        __m256i half[2];
        for (int k = 0; k < 2; k++) {
            int32_t i = x + 16 * k;
            __m256i gain = _mm256_add_epi16(
                _mm256_add_epi16(load16(q->q1_low + i), load16(q->q1_top + i)),
                _mm256_add_epi16(load16(q->q2_low + i + 1), load16(q->q2_top + i + 1)));
            __m256i loss = _mm256_add_epi16(
                _mm256_add_epi16(load16(q->q1_mid + i - r - 1), load16(q->q1_mid + i + r)),
                _mm256_add_epi16(load16(q->q2_mid + i + r + 1), load16(q->q2_mid + i - r)));
            half[k] = _mm256_sub_epi16(_mm256_add_epi16(load16(diamond + i), gain), loss);
            store16(diamond + i, half[k]);
        }
        if (centre) emit(half[0], half[1], centre + x, out + x, rule);
    }
}

const sliding_kernels cpu_avx2_kernels = {
    .moore_row = moore_row,
    .cross_row = cross_row,
    .diagonal_row = diagonal_row,
    .diamond_row = diamond_row,
};
