/* The row kernels of cpu.avx512: 64 cells a chunk, box sums in 64 u8 lanes, counts in two
 * vectors of 32 u16 lanes, the rule's ranges tested into opmasks. The kernels themselves are
 * sliding_rows.h's. This file alone is compiled with -mavx512f -mavx512bw; nothing here runs
 * before available() has seen AVX-512 F and BW. */
#include "engines/cpu/avx512/avx512_kernels.h"

#include <immintrin.h>

typedef __m512i vec;
#define SLIDING_ROWS_BITS 512
#define SLIDING_ROWS_KERNELS cpu_avx512_kernels
#include "engines/cpu/sliding/sliding_rows.h"

static inline vec low_u16(vec v) { return _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)); }
static inline vec high_u16(vec v) {
    return _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1));
}
static inline __mmask32 in_ranges(vec b, const sliding_ranges *s) {
    __mmask32 m = 0;
    for (int i = 0; i < s->n; i++) {
        vec off = sub16(b, _mm512_set1_epi16((short)s->lo[i]));
        m |= _mm512_cmple_epu16_mask(off, _mm512_set1_epi16((short)s->span[i]));
    }
    return m;
}

/* The next state of 64 cells from their centre-inclusive counts (lanes 0-31 in lo). */
static inline void emit(vec lo, vec hi, const uint8_t *centre, uint8_t *out,
                        const sliding_rule *rule) {
    vec cells = load8(centre);
    __mmask64 alive = _mm512_test_epi8_mask(cells, cells);
    __mmask64 born = (__mmask64)in_ranges(lo, &rule->birth) |
                     ((__mmask64)in_ranges(hi, &rule->birth) << 32);
    __mmask64 kept = (__mmask64)in_ranges(lo, &rule->survive) |
                     ((__mmask64)in_ranges(hi, &rule->survive) << 32);
    __mmask64 next = (alive & kept) | (~alive & born);
    store8(out, _mm512_maskz_mov_epi8(next, _mm512_set1_epi8(1)));
}
