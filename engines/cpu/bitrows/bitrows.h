/* Bit-per-cell rows for the bit-sliced engines (cpu.bitslice1, cpu.bitslice2): the layout, the
 * bitwise adders of seed 001 (Fujita et al.) widened to a full 4-bit count, and the rule stage.
 *
 * Layout: row y is stride = nw + 2 words, nw = ceil(W/64). Cell x sits at bit position x + 64 of
 * the row: word 1 + x/64, bit x%64. Word 0 holds cell W-1 in bit 63 and the bit at position W + 64
 * holds cell 0, so the west and east neighbours of any core word are
 *     west = (p[j] << 1) | (p[j-1] >> 63),  east = (p[j] >> 1) | (p[j+1] << 63)
 * for every j in 1..nw, whatever W is: the torus wrap across a partial last word is two bits
 * written back after each row (bitrows_fix_row), not a case in the inner loop. All bits past
 * position W + 64 are zero.
 *
 * Counts: the 8 Moore neighbours summed bitwise into four words s3 s2 s1 s0 (0..8), with half and
 * full adders of two-bit and three-bit sums as in the paper's Algorithm SINGLE-WORD, but keeping
 * bits 2 and 3 apart so every count can be told from every other.
 *
 * Rule stage (bitrule.h): the two 9-entry truth tables are fixed at create and evaluated as a
 * multiplexer tree over the count bits (s0, then s1, s2, and s3 for the count 8), branch-free: 42
 * operations per word for any rule. */
#ifndef CELLCHECK_ENGINES_CPU_BITROWS_BITROWS_H
#define CELLCHECK_ENGINES_CPU_BITROWS_BITROWS_H

#include <stdint.h>

#include "engines/cpu/bitrows/bitrule.h"
#include "engines/lifenet/lifenet.h"
#include "engines/cpu/common/engine_functions.h"
#include "engines/engine.h"

typedef struct bitrows bitrows;

/* One step of an engine on these rows: writes every row of next from cur. CC_OK, or
 * CC_ERR_NOMEM where its working buffers cannot be had. */
typedef int (*bitrows_step_rows)(const bitrows *b);

struct bitrows {
    int32_t w, h;
    int32_t nw;     /* core words per row */
    size_t stride;  /* words per row: nw + 2 */
    uint64_t *cur, *next;
    bitrows_rule rule;
    lifenet net; /* the rule as a gate network over row sums (engines/lifenet) */
    int hex;     /* a hexagonal rule: only the network applies it */
    bitrows_step_rows step_rows;
};

/* Rows for a Moore or hexagonal radius-1 rule (the contract has checked the rule against the
 * engine's caps: only engines stepping with the network take hexagonal ones),
 * stepped by step_rows; name: the engine's, for messages. An engine's create. */
int bitrows_create(const char *name, const cc_rule *rule, int32_t w, int32_t h,
                   bitrows_step_rows step_rows, bitrows **out, cc_error *err);

/* The other functions of an engine on these rows (ctx: a bitrows), for its table: bitrows_load,
 * bitrows_step (k steps, each step_rows and then the swap of the two grids), bitrows_store and
 * bitrows_destroy. */
CPU_ENGINE_FUNCTIONS_DECLARE(bitrows);
#define BITROWS_FUNCTIONS CPU_ENGINE_FUNCTIONS(bitrows)

/* Defines an engine on these rows, the table symbol, whose steps are step_rows_fn; its caps are
 * the rows': any Moore radius-1 rule, M0 or M1, any W and H. */
/* What bitrows_create allocates: two grids of h rows of nw + 2 words, and the context. */
static inline void bitrows_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    need->host_bytes = 2.0 * sizeof(uint64_t) * ((w + 63) / 64 + 2) * (double)h + sizeof(bitrows);
}

#define BITROWS_ENGINE(symbol, engine_name, engine_summary, step_rows_fn)                          \
    static int symbol##_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,             \
                               cc_error *err) {                                                    \
        return bitrows_create(engine_name, rule, w, h, step_rows_fn, (bitrows **)ctx, err);        \
    }                                                                                              \
    const cc_engine symbol = {                                                                     \
        .name = engine_name,                                                                       \
        .summary = engine_summary,                                                                 \
        .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),                                           \
                 .radius_max = 1,                                                                  \
                 .centres = CC_CENTRE_M0 | CC_CENTRE_M1},                                          \
        .create = symbol##_create,                                                                 \
        .memory = bitrows_memory,                                                                  \
        BITROWS_FUNCTIONS,                                                                         \
    }

/* After a row's core words are written: clears the bits past cell W-1 and writes the two wrap
 * bits (cell W-1 into word 0, cell 0 at position W + 64). */
void bitrows_fix_row(const bitrows *b, uint64_t *row);

static inline uint64_t *bitrows_row(const bitrows *b, uint64_t *grid, int32_t y) {
    int32_t m = y % b->h;
    if (m < 0) m += b->h;
    return grid + (size_t)m * b->stride;
}

static inline uint64_t bitrows_west(const uint64_t *p, int32_t j) {
    return (p[j] << 1) | (p[j - 1] >> 63);
}

static inline uint64_t bitrows_east(const uint64_t *p, int32_t j) {
    return (p[j] >> 1) | (p[j + 1] << 63);
}

/* A two-bit sum (<= 2) plus another: a three-bit sum (<= 4). Both inputs below 3, so the top
 * bit is just the carry of the top bits. 5 operations. */
static inline void bitrows_add22(uint64_t a1, uint64_t a0, uint64_t b1, uint64_t b0,
                                 uint64_t *s2, uint64_t *s1, uint64_t *s0) {
    *s0 = a0 ^ b0;
    *s1 = a1 ^ b1 ^ (a0 & b0);
    *s2 = a1 & b1;
}

/* Two three-bit sums (<= 4 each) into a four-bit count (<= 8). A 4 has its low bits clear, so no
 * carry reaches bit 2 alongside one, and bit 3 is set only by 4 + 4. 10 operations. */
static inline void bitrows_add33(uint64_t a2, uint64_t a1, uint64_t a0, uint64_t b2, uint64_t b1,
                                 uint64_t b0, uint64_t *s3, uint64_t *s2, uint64_t *s1,
                                 uint64_t *s0) {
    uint64_t x = a0 & b0, y = a1 ^ b1;
    *s0 = a0 ^ b0;
    *s1 = x ^ y;
    uint64_t carry = (a1 & b1) | (x & y);
    *s2 = a2 ^ b2 ^ carry;
    *s3 = a2 & b2;
}

/* The 8 neighbours a..h into s3 s2 s1 s0: 4 half adders, two add22, one add33, 28 operations. */
static inline void bitrows_count8(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
                                  uint64_t f, uint64_t g, uint64_t h, uint64_t *s3, uint64_t *s2,
                                  uint64_t *s1, uint64_t *s0) {
    uint64_t ab2, ab1, ab0, ef2, ef1, ef0;
    bitrows_add22(a & b, a ^ b, c & d, c ^ d, &ab2, &ab1, &ab0);
    bitrows_add22(e & f, e ^ f, g & h, g ^ h, &ef2, &ef1, &ef0);
    bitrows_add33(ab2, ab1, ab0, ef2, ef1, ef0, s3, s2, s1, s0);
}

static inline uint64_t bitrows_mux_tree(const bitrows_rule *r, int t, uint64_t s3, uint64_t s2,
                                        uint64_t s1, uint64_t s0) {
    uint64_t m0 = r->base[t][0] ^ (s0 & r->flip[t][0]);
    uint64_t m1 = r->base[t][1] ^ (s0 & r->flip[t][1]);
    uint64_t m2 = r->base[t][2] ^ (s0 & r->flip[t][2]);
    uint64_t m3 = r->base[t][3] ^ (s0 & r->flip[t][3]);
    uint64_t n0 = m0 ^ (s1 & (m0 ^ m1));
    uint64_t n1 = m2 ^ (s1 & (m2 ^ m3));
    uint64_t g = n0 ^ (s2 & (n0 ^ n1));
    /* A count of 8 has s2 s1 s0 clear, so g is entry 0 there. */
    return g ^ (s3 & (g ^ r->eight[t]));
}

/* The next state of 64 cells from their alive bits and their neighbour counts. */
static inline uint64_t bitrows_next(const bitrows_rule *r, uint64_t alive, uint64_t s3,
                                    uint64_t s2, uint64_t s1, uint64_t s0) {
    return bitrows_mux_tree(r, 0, s3, s2, s1, s0) ^
           (alive & bitrows_mux_tree(r, 1, s3, s2, s1, s0));
}

/* Algorithm SINGLE-WORD over one row: every core word of out from the rows up, mid and down. */
static inline void bitrows_single_row(const bitrows_rule *rule, int32_t nw, const uint64_t *up,
                                      const uint64_t *mid, const uint64_t *down, uint64_t *out) {
    for (int32_t j = 1; j <= nw; j++) {
        uint64_t s3, s2, s1, s0;
        bitrows_count8(bitrows_west(up, j), up[j], bitrows_east(up, j), bitrows_west(mid, j),
                       bitrows_east(mid, j), bitrows_west(down, j), down[j], bitrows_east(down, j),
                       &s3, &s2, &s1, &s0);
        out[j] = bitrows_next(rule, mid[j], s3, s2, s1, s0);
    }
}

/* Row y of next from rows y-1, y and y+1 of cur by SINGLE-WORD, its wrap bits written. */
static inline void bitrows_single_row_at(const bitrows *b, int32_t y) {
    uint64_t *out = bitrows_row(b, b->next, y);
    bitrows_single_row(&b->rule, b->nw, bitrows_row(b, b->cur, y - 1), bitrows_row(b, b->cur, y),
                       bitrows_row(b, b->cur, y + 1), out);
    bitrows_fix_row(b, out);
}

#endif
