/* The row kernels of the sliding driver (sliding.h), written once for every vector instruction
 * set. A kernel file (avx2_kernels.c, avx512_kernels.c), compiled with its instruction set's flags,
 * defines what differs and then includes this file, once:
 *
 *   vec                    the vector type (__m256i, __m512i)
 *   SLIDING_ROWS_BITS      its width in bits (256, 512): the intrinsics used here are named
 *                          _mm<bits>_<op>, and a chunk is bits/8 cells in u8 lanes
 *   SLIDING_ROWS_KERNELS   the name of the sliding_kernels table to define
 *
 * and, after the include, the operations declared below that are its own: low_u16, high_u16 and
 * emit.
 *
 * Each vector operation below is a static inline wrapper of one intrinsic, so the code compiled is
 * what the same kernels written out with the intrinsics give. */
#ifndef CELLCHECK_ENGINES_CPU_SLIDING_SLIDING_ROWS_H
#define CELLCHECK_ENGINES_CPU_SLIDING_SLIDING_ROWS_H

#include "engines/cpu/sliding/sliding.h"

#define SLIDING_ROWS_PASTE(a, b, c, d, e) a##b##c##d##e
#define SLIDING_ROWS_NAME(a, b, c, d, e) SLIDING_ROWS_PASTE(a, b, c, d, e)
/* _mm<bits>_<op> and _mm<bits>_<op><bits>: for 256 bits, add_epi8 is _mm256_add_epi8 and
 * loadu_si is _mm256_loadu_si256. */
#define SLIDING_ROWS_OP(op) SLIDING_ROWS_NAME(_mm, SLIDING_ROWS_BITS, _, op, )
#define SLIDING_ROWS_OP_BITS(op) SLIDING_ROWS_NAME(_mm, SLIDING_ROWS_BITS, _, op, SLIDING_ROWS_BITS)

#define SLIDING_ROWS_LANES (SLIDING_ROWS_BITS / 8)
#define SLIDING_ROWS_HALF (SLIDING_ROWS_LANES / 2)

static inline vec zero(void) { return SLIDING_ROWS_OP_BITS(setzero_si)(); }
static inline vec load8(const uint8_t *p) {
    return SLIDING_ROWS_OP_BITS(loadu_si)((const void *)p);
}
static inline vec load16(const uint16_t *p) {
    return SLIDING_ROWS_OP_BITS(loadu_si)((const void *)p);
}
static inline void store8(uint8_t *p, vec v) { SLIDING_ROWS_OP_BITS(storeu_si)((void *)p, v); }
static inline void store16(uint16_t *p, vec v) { SLIDING_ROWS_OP_BITS(storeu_si)((void *)p, v); }
static inline vec add8(vec a, vec b) { return SLIDING_ROWS_OP(add_epi8)(a, b); }
static inline vec sub8(vec a, vec b) { return SLIDING_ROWS_OP(sub_epi8)(a, b); }
static inline vec add16(vec a, vec b) { return SLIDING_ROWS_OP(add_epi16)(a, b); }
static inline vec sub16(vec a, vec b) { return SLIDING_ROWS_OP(sub_epi16)(a, b); }

/* The low / high half of the u8 lanes, widened to u16 lanes. */
static inline vec low_u16(vec v);
static inline vec high_u16(vec v);
/* The next state of the chunk of cells at centre from their centre-inclusive counts (the first
 * half of the lanes in lo), written to out as 0/1 bytes. */
static inline void emit(vec lo, vec hi, const uint8_t *centre, uint8_t *out,
                        const sliding_rule *rule);

/* The 2r+1 cells centred on each cell of the chunk at x, in u8 lanes (2r+1 <= 129). Two
 * accumulators: the loads are independent, the adds need not be a chain. */
static inline vec box(const uint8_t *row, int32_t x, int32_t r) {
    vec a = load8(row + x - r), b = zero();
    int32_t d = -r + 1;
    for (; d + 1 <= r; d += 2) {
        a = add8(a, load8(row + x + d));
        b = add8(b, load8(row + x + d + 1));
    }
    if (d <= r) a = add8(a, load8(row + x + d));
    return add8(a, b);
}

static void moore_row(uint16_t *sums, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width) {
    for (int32_t x = 0; x < width; x += SLIDING_ROWS_LANES) {
        vec in = box(add, x, r);
        vec lo = add16(load16(sums + x), low_u16(in));
        vec hi = add16(load16(sums + x + SLIDING_ROWS_HALF), high_u16(in));
        if (sub) {
            vec gone = box(sub, x, r);
            lo = sub16(lo, low_u16(gone));
            hi = sub16(hi, high_u16(gone));
        }
        store16(sums + x, lo);
        store16(sums + x + SLIDING_ROWS_HALF, hi);
        if (centre) emit(lo, hi, centre + x, out + x, rule);
    }
}

static void cross_row(uint8_t *cols, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width) {
    for (int32_t x = 0; x < width; x += SLIDING_ROWS_LANES) {
        vec c = add8(load8(cols + x), load8(add + x));
        if (sub) c = sub8(c, load8(sub + x));
        store8(cols + x, c);
        if (!centre) continue;
        vec row = box(centre, x, r);
        vec self = load8(centre + x);
        /* b = box + column - self, which is at most 4r+1: u16. */
        vec lo = sub16(add16(low_u16(row), low_u16(c)), low_u16(self));
        vec hi = sub16(add16(high_u16(row), high_u16(c)), high_u16(self));
        emit(lo, hi, centre + x, out + x, rule);
    }
}

static void diagonal_row(uint16_t *q1, const uint16_t *q1_above, uint16_t *q2,
                         const uint16_t *q2_above, const uint8_t *cells, int32_t width) {
    for (int32_t x = 0; x < width; x += SLIDING_ROWS_LANES) {
        vec c = load8(cells + x);
        vec lo = low_u16(c), hi = high_u16(c);
        store16(q1 + x, add16(lo, load16(q1_above + x - 1)));
        store16(q1 + x + SLIDING_ROWS_HALF,
                add16(hi, load16(q1_above + x + SLIDING_ROWS_HALF - 1)));
        store16(q2 + x, add16(lo, load16(q2_above + x + 1)));
        store16(q2 + x + SLIDING_ROWS_HALF,
                add16(hi, load16(q2_above + x + SLIDING_ROWS_HALF + 1)));
    }
}

static void diamond_row(uint16_t *diamond, const sliding_diamond_rows *q, int32_t r,
                        const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                        int32_t width) {
    for (int32_t x = 0; x < width; x += SLIDING_ROWS_LANES) {
        vec half[2];
        for (int k = 0; k < 2; k++) {
            int32_t i = x + SLIDING_ROWS_HALF * k;
            vec gain = add16(add16(load16(q->q1_low + i), load16(q->q1_top + i)),
                             add16(load16(q->q2_low + i + 1), load16(q->q2_top + i + 1)));
            vec loss = add16(add16(load16(q->q1_mid + i - r - 1), load16(q->q1_mid + i + r)),
                             add16(load16(q->q2_mid + i + r + 1), load16(q->q2_mid + i - r)));
            half[k] = sub16(add16(load16(diamond + i), gain), loss);
            store16(diamond + i, half[k]);
        }
        if (centre) emit(half[0], half[1], centre + x, out + x, rule);
    }
}

const sliding_kernels SLIDING_ROWS_KERNELS = {
    .moore_row = moore_row,
    .cross_row = cross_row,
    .diagonal_row = diagonal_row,
    .diamond_row = diamond_row,
};

#endif
