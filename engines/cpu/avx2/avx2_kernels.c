/* The row kernels of cpu.avx2: 32 cells a chunk, box sums in 32 u8 lanes, counts in two vectors
 * of 16 u16 lanes, the rule's ranges tested lane-wise with an unsigned minimum (AVX2 has no
 * unsigned 16-bit compare). The kernels themselves are sliding_rows.h's. This file alone is
 * compiled with -mavx2; nothing here runs before available() has seen AVX2. */
#include "engines/cpu/avx2/avx2_kernels.h"

#include <immintrin.h>

typedef __m256i vec;
#define SLIDING_ROWS_BITS 256
#define SLIDING_ROWS_KERNELS cpu_avx2_kernels
#include "engines/cpu/sliding/sliding_rows.h"

static inline vec low_u16(vec v) { return _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v)); }
static inline vec high_u16(vec v) { return _mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1)); }

/* All-ones in the lanes whose count is in the set. */
static inline vec in_ranges(vec b, const sliding_ranges *s) {
    vec m = zero();
    for (int i = 0; i < s->n; i++) {
        vec off = sub16(b, _mm256_set1_epi16((short)s->lo[i]));
        vec clipped = _mm256_min_epu16(off, _mm256_set1_epi16((short)s->span[i]));
        m = _mm256_or_si256(m, _mm256_cmpeq_epi16(clipped, off));
    }
    return m;
}

/* The next state of 16 cells (u16 lanes, all-ones where alive next) from their counts and the
 * current cells widened to u16. */
static inline vec next16(vec b, vec cells16, const sliding_rule *rule) {
    vec alive = sub16(zero(), cells16); /* 0/1 -> 0/all-ones */
    vec born = in_ranges(b, &rule->birth), kept = in_ranges(b, &rule->survive);
    return _mm256_or_si256(_mm256_and_si256(alive, kept), _mm256_andnot_si256(alive, born));
}

/* The next state of 32 cells from their centre-inclusive counts (lanes 0-15 in lo). */
static inline void emit(vec lo, vec hi, const uint8_t *centre, uint8_t *out,
                        const sliding_rule *rule) {
    vec cells = load8(centre);
    vec n_lo = next16(lo, low_u16(cells), rule);
    vec n_hi = next16(hi, high_u16(cells), rule);
    /* packs interleaves the 128-bit halves: quadwords lo0 hi0 lo1 hi1 -> lo0 lo1 hi0 hi1. */
    vec packed = _mm256_permute4x64_epi64(_mm256_packs_epi16(n_lo, n_hi), 0xd8);
    store8(out, _mm256_and_si256(packed, _mm256_set1_epi8(1)));
}
