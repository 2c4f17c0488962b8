/* cuda.hexlut's layout and word arithmetic: plain C that its kernels run on the device and its
 * CPU test runs on the host, so the test checks the very index arithmetic the GPU executes.
 *
 * Layout: one bit per cell. Row y is `pitch` 64-bit words; cell x is bit x % 64 of word x / 64
 * (least significant first), and the bits past cell W-1 in a row's last word are not cells (they
 * are masked where read and where written, so whatever they hold is harmless).
 *
 * One step of a word: its 64 cells x0 .. x0+63 take sixteen lookups in a 2^16-entry table (seed
 * 002's method), one per group of 4 cells x0+j .. x0+j+3. With DESIGN.md's neighbourhood
 * (-1,-1) (0,-1) (-1,0) (1,0) (0,1) (1,1), y downward, a group depends on exactly 16 cells:
 *     the row above: x0+j-1 .. x0+j+3   index bits  0-4
 *     its own row:   x0+j-1 .. x0+j+4   index bits  5-10 (its four cells are bits 6-9)
 *     the row below: x0+j   .. x0+j+4   index bits 11-15
 * and the entry's bits 0-3 are the next states of its four cells.
 *
 * The torus: a row's word is widened to 66 bits, cell x0-1 as the lowest and cell x0+64 as the
 * highest, each taken modulo W. Where the word is a row's last and holds fewer than 64 cells, the cell after
 * W-1 (that is, cell 0) goes into the word at the first position past the cells instead. Which
 * word and bit these come from depends only on the word's column, so a thread works them out
 * once (hexlut_column_of) and its row loop has no branches for the seam. */
#ifndef CELLCHECK_ENGINES_CUDA_HEXLUT_HEXLUT_BITS_H
#define CELLCHECK_ENGINES_CUDA_HEXLUT_HEXLUT_BITS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/rule.h"

#ifdef __CUDACC__
#define HEXLUT_FN static __host__ __device__ __forceinline__
#else
#define HEXLUT_FN static inline
#endif
/* Only the device pass unrolls by pragma; the host compilers would warn of an unknown one. */
#ifdef __CUDA_ARCH__
#define HEXLUT_UNROLL _Pragma("unroll")
#else
#define HEXLUT_UNROLL
#endif

/* The device reads the grid through the read-only data cache. */
#ifdef __CUDA_ARCH__
#define HEXLUT_READ(p) __ldg(p)
#else
#define HEXLUT_READ(p) (*(p))
#endif

#define HEXLUT_WORD_CELLS 64
#define HEXLUT_TABLE_ENTRIES (1u << 16)
/* A row's words, padded to whole 128-byte lines. */
#define HEXLUT_PITCH_WORDS 16
/* A thread computes one word column over a strip of this many rows, keeping the rows above and
 * below in registers as it goes down; a block is 32 x 8 threads. */
#define HEXLUT_STRIP_ROWS 16
#define HEXLUT_THREADS_X 32
#define HEXLUT_THREADS_Y 8

typedef uint64_t hexlut_word;

/* Words holding a w-cell row's cells, and the words a row takes in memory. */
HEXLUT_FN int32_t hexlut_words(int32_t w) {
    return (w + HEXLUT_WORD_CELLS - 1) / HEXLUT_WORD_CELLS;
}
HEXLUT_FN size_t hexlut_pitch(int32_t w) {
    return ((size_t)hexlut_words(w) + HEXLUT_PITCH_WORDS - 1) / HEXLUT_PITCH_WORDS *
           HEXLUT_PITCH_WORDS;
}

/* What a thread needs about word k of a w-cell row, the same on every row. */
typedef struct hexlut_column {
    int32_t k;
    int32_t left_word, left_bit; /* where cell (x0 - 1) mod W is */
    int32_t right_word;          /* cell (x0 + 64) mod W is bit 0 of this word */
    uint32_t wrap0, wrap1;       /* last word with < 64 cells: the bit past its cells, in its low
                                  * or high half, that takes the right cell; 0 otherwise */
    uint32_t wrap_out;           /* 1: the word holds 64 cells and the right cell follows them */
    uint32_t keep0, keep1;       /* the bits of the word's low and high half that are cells */
} hexlut_column;

HEXLUT_FN hexlut_column hexlut_column_of(int32_t w, int32_t k) {
    hexlut_column c;
    const int32_t nw = hexlut_words(w);
    const int32_t last = k == nw - 1;
    const int32_t cells = last ? w - HEXLUT_WORD_CELLS * (nw - 1) : HEXLUT_WORD_CELLS; /* 1..64 */
    const int32_t left = k > 0 ? HEXLUT_WORD_CELLS * k - 1 : w - 1;
    c.k = k;
    c.left_word = left / HEXLUT_WORD_CELLS;
    c.left_bit = left % HEXLUT_WORD_CELLS;
    c.right_word = last ? 0 : k + 1;
    c.wrap0 = cells < 32 ? 1u << cells : 0u;
    c.wrap1 = cells >= 32 && cells < 64 ? 1u << (cells - 32) : 0u;
    c.wrap_out = cells == 64;
    c.keep0 = cells >= 32 ? 0xffffffffu : (1u << cells) - 1u;
    c.keep1 = cells >= 64 ? 0xffffffffu : cells <= 32 ? 0u : (1u << (cells - 32)) - 1u;
    return c;
}

/* One row's words as loaded: the word itself and the two it borrows a bit from. */
typedef struct hexlut_raw {
    hexlut_word word, left, right;
} hexlut_raw;

HEXLUT_FN hexlut_raw hexlut_load(const hexlut_word *row, const hexlut_column *c) {
    hexlut_raw r;
    r.word = HEXLUT_READ(row + c->k);
    r.left = HEXLUT_READ(row + c->left_word);
    r.right = HEXLUT_READ(row + c->right_word);
    return r;
}

/* The 66-bit row around a word: bit p of e2:e1:e0 is cell x0 - 1 + p (modulo W, as above). */
typedef struct hexlut_window {
    uint32_t e0, e1, e2;
} hexlut_window;

HEXLUT_FN hexlut_window hexlut_window_of(const hexlut_raw *r, const hexlut_column *c) {
    const uint32_t left = (uint32_t)(r->left >> c->left_bit) & 1u;
    const uint32_t right = (uint32_t)r->right & 1u;
    const uint32_t right_all = 0u - right;
    const uint32_t c0 = ((uint32_t)r->word & c->keep0) | (right_all & c->wrap0);
    const uint32_t c1 = ((uint32_t)(r->word >> 32) & c->keep1) | (right_all & c->wrap1);
    hexlut_window x;
    x.e0 = c0 << 1 | left;
    x.e1 = c1 << 1 | c0 >> 31;
    x.e2 = c1 >> 31 | (right & c->wrap_out) << 1;
    return x;
}

/* Bits p .. p+31 of the window (p <= 61; p is a constant once the loops are unrolled). */
HEXLUT_FN uint32_t hexlut_bits_at(const hexlut_window *x, int p) {
    return p < 32 ? (uint32_t)((((uint64_t)x->e1 << 32) | x->e0) >> p)
                  : (uint32_t)((((uint64_t)x->e2 << 32) | x->e1) >> (p - 32));
}

/* The table index of the group of cells x0+j .. x0+j+3. */
HEXLUT_FN uint32_t hexlut_index(const hexlut_window *above, const hexlut_window *own,
                                const hexlut_window *below, int j) {
    return (hexlut_bits_at(above, j) & 31u) | (hexlut_bits_at(own, j) & 63u) << 5 |
           (hexlut_bits_at(below, j + 1) & 31u) << 11;
}

/* The next states of the word's cells, its bits past the row's last cell zero. */
HEXLUT_FN hexlut_word hexlut_next(const uint8_t *table, const hexlut_window *above,
                                  const hexlut_window *own, const hexlut_window *below,
                                  const hexlut_column *c) {
    uint32_t lo = 0, hi = 0;
    HEXLUT_UNROLL
    for (int j = 0; j < 32; j += 4) lo |= (uint32_t)table[hexlut_index(above, own, below, j)] << j;
    HEXLUT_UNROLL
    for (int j = 32; j < 64; j += 4)
        hi |= (uint32_t)table[hexlut_index(above, own, below, j)] << (j - 32);
    return (hexlut_word)(hi & c->keep1) << 32 | (lo & c->keep0);
}

/* One thread's work in a step: word column k of rows y0 .. y0 + rows - 1 (those below h) of a
 * w x h grid whose rows are pitch words apart, from in into out. Rows are loaded two ahead of the
 * row being computed, so their latency overlaps two rows of lookups. */
HEXLUT_FN void hexlut_strip(const hexlut_word *in, hexlut_word *out, const uint8_t *table,
                            int32_t w, int32_t h, size_t pitch, int32_t k, int32_t y0,
                            int32_t rows) {
    const hexlut_column c = hexlut_column_of(w, k);
    const int32_t y_end = y0 + rows < h ? y0 + rows : h;
    const int32_t y_above = y0 == 0 ? h - 1 : y0 - 1;
    const int32_t y_below = y0 + 1 == h ? 0 : y0 + 1;
    int32_t y_ahead = y_below + 1 == h ? 0 : y_below + 1; /* the row r_ahead holds */
    hexlut_raw r = hexlut_load(in + (size_t)y_above * pitch, &c);
    hexlut_window above = hexlut_window_of(&r, &c);
    r = hexlut_load(in + (size_t)y0 * pitch, &c);
    hexlut_window own = hexlut_window_of(&r, &c);
    hexlut_raw r_next = hexlut_load(in + (size_t)y_below * pitch, &c); /* row y + 1 */
    hexlut_raw r_ahead = r_next;                                       /* row y + 2 */
    if (y0 + 1 < y_end) r_ahead = hexlut_load(in + (size_t)y_ahead * pitch, &c);
    for (int32_t y = y0;;) {
        const hexlut_window below = hexlut_window_of(&r_next, &c);
        r_next = r_ahead;
        if (y + 2 < y_end) { /* row y + 2 will be computed: it needs row y + 3 */
            y_ahead = y_ahead + 1 == h ? 0 : y_ahead + 1;
            r_ahead = hexlut_load(in + (size_t)y_ahead * pitch, &c);
        }
        out[(size_t)y * pitch + (size_t)k] = hexlut_next(table, &above, &own, &below, &c);
        if (++y >= y_end) break;
        above = own;
        own = below;
    }
}

/* The step's tiles: HEXLUT_THREADS_X word columns by HEXLUT_THREADS_Y strips each, row-major. */
HEXLUT_FN int32_t hexlut_tiles_x(int32_t w) {
    return (hexlut_words(w) + HEXLUT_THREADS_X - 1) / HEXLUT_THREADS_X;
}
HEXLUT_FN int64_t hexlut_tiles(int32_t w, int32_t h) {
    const int64_t strips = ((int64_t)h + HEXLUT_STRIP_ROWS - 1) / HEXLUT_STRIP_ROWS;
    return (int64_t)hexlut_tiles_x(w) * ((strips + HEXLUT_THREADS_Y - 1) / HEXLUT_THREADS_Y);
}

/* The word column *k and first row *y0 of thread (tx, ty) of the block working on tile t. */
HEXLUT_FN void hexlut_tile_thread(int32_t tiles_x, int64_t t, int32_t tx, int32_t ty, int32_t *k,
                                  int64_t *y0) {
    *k = (int32_t)(t % tiles_x) * HEXLUT_THREADS_X + tx;
    *y0 = ((t / tiles_x) * HEXLUT_THREADS_Y + ty) * HEXLUT_STRIP_ROWS;
}

/* Fills table (HEXLUT_TABLE_ENTRIES bytes) for rule, a hexagonal rule, M0 or M1. */
void hexlut_build_table(const cc_rule *rule, uint8_t *table);

#ifdef __cplusplus
}
#endif

#endif
