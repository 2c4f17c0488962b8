/* The fragment program of cuda.cat1 and of its portable emulation cpu.cat1-emu: the band-matrix
 * method (cat_common.h) on cells of one bit each. Both are written from this one description; the
 * functions below are what one lane of a warp computes, compiled for the device and the host.
 *
 * Layout. The torus lives in an extended grid of 32-bit words: eww words a row (one halo word on
 * each side of fww interior words, fww a multiple of two) and eh rows (top rows above the fg
 * groups of 8 interior rows, bottom rows below them). Every position outside the W x H cells holds
 * a copy of the cell it mirrors, as in cat_common.h. Inside a word, bit b holds column
 * 8 * (b % 4) + b / 4 of the word's 32 columns (cat1_column_of_bit): the order in which the rule's
 * results come out of a warp's ballots, so the new word of a row is four masks and shifts.
 *
 * The warp. A warp owns a strip of two words (64 columns) and slides down it eight rows (a group)
 * at a time. The strip's columns form four m-groups of 16 (m-group mg: strip columns 16 mg ..
 * 16 mg + 15). In a warp, lane = 4 g + t (g = lane / 4, t = lane % 4).
 *
 * Horizontal pass: mma.m16n8k256 .b1, AND then POPC, s32 sums. Row m of A (16 x 256 bits) is
 * strip column 16 mg + m; its lower 128 bits cover the window of strip words -1 .. 2 (k = 32 wq + i
 * is bit i of window word wq), and A[m][k] = 1 iff the column of k is within r of column m (the
 * band); its upper 128 bits are the same words' band of radius 0 (cat1_band_a). B (256 x 8 bits)
 * holds the group's eight rows as its columns: lane (g, t) loads row g's window word t. With that
 * word in b0 and b1 = 0, D[m][n] is H, the row sum of 2r+1 cells, at strip column 16 mg + m, group
 * row n; with it in b1 and b0 = 0, D is the cells themselves (C). Per lane: c0 = H(g, 2t), c1 =
 * H(g, 2t+1), c2 = H(g+8, 2t), c3 = H(g+8, 2t+1) (column, row). The four bytes c0..c3 are kept as
 * one word G (cat1_pack_h), and C in the same form.
 *
 * Vertical pass: mma.m16n8k32 s8 operands, s32 sums, over a window of 4 kv groups (groups Y - gh
 * .. Y - gh + 4 kv - 1 for output group Y, gh = ceil(r / 8)). A (16 x 32, chunk kappa of the
 * window) is H transposed: row m the column, k slot s holds window group 4 kappa + 2 (s / 16) +
 * (s % 4) / 2, row 2 ((s % 16) / 4) + s % 2; in that order each lane's A registers are two halves
 * of two G words (cat1_vertical_a), with no data moved between lanes. B (32 x 8) is the vertical
 * band in the same slot order: B[s][n] = 1 iff the row of slot s is within r of output row n.
 * D[m][n] = R, the (2r+1)^2 square (Moore) or the column of 2r+1 cells (the cross, on C; then + H
 * of the centre group): c0 = R(g, 2t), c1 = R(g, 2t+1), c2 = R(g+8, 2t), c3 = R(g+8, 2t+1).
 *
 * Moore: the last window group (4 kv - 1, never within r of the output group) carries the output
 * group's own cells instead of H: their G word (the centre band, r = 0) times CAT1_ALIVE_SCALE,
 * met in B by cat1_alive_b(r) on the diagonal (slot row = output row). D is then
 * V = R + cat1_alive_weight(r) * alive, and since that weight exceeds every R, alive = V >= weight
 * and raw = V - weight * alive: the state of the cell comes out of the MMA with its count.
 *
 * The rule per cell (cat_rule_params: the count is raw - self_weight * alive), with alive from V
 * (Moore) or from the centre bit (the cross, cat1_centre_bit), then a ballot per (mg, c
 * register): bit 4 g + t of it is lane (g, t)'s next cell. The eight rows of a strip word are
 * masks and shifts of its four ballots (cat1_row_word).
 *
 * Blocks: CAT1_WARPS warps side by side (a tile of CAT1_TILE_W columns) over CAT1_TILE_GROUPS
 * groups of rows (CAT1_TILE_H rows); each warp's window also covers gh groups above its tile and
 * 4 kv - 1 - gh below it, which the warps of the tiles there compute too.
 * After a step, every position outside the W x H cells is copied again from the cell it mirrors
 * (the refresh, cat1_border_word). */
#ifndef CELLCHECK_ENGINES_CUDA_CAT1_CAT1_PROGRAM_H
#define CELLCHECK_ENGINES_CUDA_CAT1_CAT1_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/cat/cat_common.h"
#include "oracle/error.h"
#include "oracle/rule.h"

#define CAT1_WORD 32
#define CAT1_STRIP_WORDS 2 /* a warp's strip: 64 columns */
#define CAT1_MGROUPS 4     /* m-groups of 16 columns in a strip */
#define CAT1_GROUP 8       /* rows a horizontal MMA covers (its n) */
#define CAT1_WARPS 4
#define CAT1_TILE_GROUPS 16
#define CAT1_TILE_W (CAT1_WARPS * CAT1_STRIP_WORDS * CAT1_WORD) /* 256 columns */
#define CAT1_TILE_H (CAT1_TILE_GROUPS * CAT1_GROUP)             /* 128 rows */
/* The window of a horizontal MMA reaches one word left and right of the strip, and the vertical
 * window at most 4 groups above and 7 below the output group: r <= 32. */
#define CAT1_RADIUS_MAX 32
#define CAT1_WINDOW_MAX 12 /* groups in the vertical window: 4 kv, kv <= 3 */

/* The vertical window of radius r: gh = ceil(r / 8) groups of halo above, kv chunks of 32 rows
 * covering the 2 gh + 1 groups an output group needs (kv = 1 for r <= 8, 2 for r <= 24, 3 for
 * r <= 32). */
static inline CAT_HD int32_t cat1_gh(int32_t r) { return (r + CAT1_GROUP - 1) / CAT1_GROUP; }
static inline CAT_HD int32_t cat1_kv(int32_t r) { return (2 * cat1_gh(r) + 1 + 3) / 4; }

typedef struct cat1_geometry {
    int32_t w, h, r;
    int32_t gh, kv;        /* cat1_gh, cat1_kv */
    int64_t fww, fg;       /* interior words a row (2 per strip), interior groups of 8 rows */
    int64_t top, bottom;   /* halo rows: 8 gh above, 8 (4 kv - 1 - gh) below */
    int64_t eww, eh;       /* words a row (fww + 2), rows (top + 8 fg + bottom) */
    int64_t full_words;    /* interior words made only of real cells: W / 32 */
    int64_t strips, tiles_x, tiles_y, tiles;
} cat1_geometry;

/* The geometry of a W x H torus at radius r (1..CAT1_RADIUS_MAX). */
int cat1_geometry_init(cat1_geometry *g, int32_t w, int32_t h, int32_t r, cc_error *err);

/* Words in one extended grid. */
size_t cat1_geometry_words(const cat1_geometry *g);

/* Moore's alive weight: A bytes of CAT1_ALIVE_SCALE (a live cell) meet the B byte cat1_alive_b(r)
 * (at most 67 <= 127 at r = 32), so the weight, at least (2r+1)^2 + 1, is above every R. */
#define CAT1_ALIVE_SCALE 64
static inline CAT_HD int32_t cat1_alive_b(int32_t r) {
    return ((2 * r + 1) * (2 * r + 1) + 1 + CAT1_ALIVE_SCALE - 1) / CAT1_ALIVE_SCALE;
}
static inline CAT_HD int32_t cat1_alive_weight(int32_t r) {
    return CAT1_ALIVE_SCALE * cat1_alive_b(r);
}

/* The exactness argument of cat1 (cat_common.h's, for these formats), checked at create: the
 * horizontal MMA's AND/POPC sums are counts of at most 2r+1 ones of the band row (k = 256 bits, s32
 * accumulators, never past 256); H <= 2r+1 must fit the vertical pass's s8 operand (<= 127, so
 * r <= 63); the vertical s32 sums reach (2r+1)^2 (Moore) or 2r+1 (the cross, whose H + V is added
 * in INT32); and the geometry holds r <= CAT1_RADIUS_MAX. Moore's alive slot adds at most
 * 64 * cat1_alive_b(r) <= 4288 to an s32 sum, and cat1_alive_b(r) <= 67 fits its s8 byte for every
 * r the geometry holds (cat1_program_test checks both). CC_ERR_UNSUPPORTED names the limit. */
int cat1_check(const char *engine, cc_shape shape, int32_t r, cc_error *err);

/* The column (0..31) that bit b of a word holds, and the bit that holds column c. */
static inline CAT_HD int32_t cat1_column_of_bit(int32_t b) { return 8 * (b & 3) + (b >> 2); }
static inline CAT_HD int32_t cat1_bit_of_column(int32_t c) { return 4 * (c & 7) + (c >> 3); }

/* Word and bit of extended position (x, y), -32 <= x < 32 (fww + 1), -top <= y < 8 fg + bottom. */
static inline CAT_HD size_t cat1_word_index(const cat1_geometry *g, int64_t x, int64_t y) {
    return (size_t)(y + g->top) * (size_t)g->eww + (size_t)((x + CAT1_WORD) / CAT1_WORD);
}
static inline CAT_HD int32_t cat1_bit_index(int64_t x) {
    return cat1_bit_of_column((int32_t)((x + CAT1_WORD) % CAT1_WORD));
}

/* Register q (0..3) of the horizontal band (A operand) of lane for m-group mg at radius r (0: the
 * cross's centre band): row m = g + 8 (q % 2), window word t + 4 (q / 2). */
static inline CAT_HD uint32_t cat1_band_h(int32_t r, int32_t mg, int32_t lane, int32_t q) {
    const int32_t g = lane >> 2, t = lane & 3;
    const int32_t col_out = 16 * mg + g + 8 * (q & 1);
    const int32_t wq = t + 4 * (q >> 1);
    uint32_t v = 0;
    for (int32_t i = 0; i < 32; i++) {
        const int32_t col_in = CAT1_WORD * (wq - 1) + cat1_column_of_bit(i);
        const int32_t d = col_in - col_out;
        if ((d < 0 ? -d : d) <= r) v |= 1u << i;
    }
    return v;
}

/* Register q (0..3) of a lane's A operand of the horizontal MMA for m-group mg: the band of
 * radius r in a0, a1 (window words -1 .. 2) and of radius 0 in a2, a3 (the same words, met by b1). */
static inline CAT_HD uint32_t cat1_band_a(int32_t r, int32_t mg, int32_t lane, int32_t q) {
    return q < 2 ? cat1_band_h(r, mg, lane, q) : cat1_band_h(0, mg, lane, q - 2);
}

/* Register q (0..1) of the vertical band (B operand) of lane for chunk kappa of the window at
 * radius r: column n = g (output row), slots 16 q + 4 t + e in byte e. alive_b: the diagonal of
 * the last window group (Moore: cat1_alive_b(r); the cross: 0). */
static inline CAT_HD uint32_t cat1_band_v(int32_t r, int32_t kappa, int32_t lane, int32_t q,
                                          int32_t alive_b) {
    const int32_t g = lane >> 2, t = lane & 3, gh = cat1_gh(r);
    uint32_t v = 0;
    for (int32_t e = 0; e < 4; e++) {
        const int32_t wg = 4 * kappa + 2 * q + (e >> 1), row = 2 * t + (e & 1);
        const int32_t d = CAT1_GROUP * (wg - gh) + row - g;
        if (wg == 4 * cat1_kv(r) - 1) {
            if (row == g) v |= (uint32_t)alive_b << (8 * e);
        } else if ((d < 0 ? -d : d) <= r) {
            v |= 1u << (8 * e);
        }
    }
    return v;
}

/* Shifts as multipliers: 2^8 and 2^16 (sums into bytes, cat1_pack_h) and 2, 4, 8 (the parts of a
 * row word, cat1_row_word_parts). The kernel holds them in its parameters, unknown to its
 * compiler, so that they stay multiply-adds instead of becoming shift-and-add instructions on
 * the integer ALU, the pipe it is bound by; both sides take them from cat1_mults_of. */
typedef struct cat1_mults {
    uint32_t byte, half, bit[3];
} cat1_mults;

static inline CAT_HD cat1_mults cat1_mults_of(void) {
    const cat1_mults m = {1u << 8, 1u << 16, {2u, 4u, 8u}};
    return m;
}

/* The four s32 results of a lane's horizontal MMA (each 0..2r+1 <= 65) as one word, a byte each:
 * three multiply-adds, no byte carrying into the next. */
static inline CAT_HD uint32_t cat1_pack_h(int32_t c0, int32_t c1, int32_t c2, int32_t c3,
                                          const cat1_mults *m) {
    const uint32_t lo = (uint32_t)c1 * m->byte + (uint32_t)c0;
    const uint32_t hi = (uint32_t)c3 * m->byte + (uint32_t)c2;
    return hi * m->half + lo;
}

/* The A registers of the vertical pass for one chunk, from the G words of its four groups. */
static inline CAT_HD void cat1_vertical_a(uint32_t g0, uint32_t g1, uint32_t g2, uint32_t g3,
                                          uint32_t a[4]) {
#ifdef __CUDA_ARCH__
    /* one byte permute each: the low halves, then the high halves, of two words */
    a[0] = __byte_perm(g0, g1, 0x5410);
    a[1] = __byte_perm(g0, g1, 0x7632);
    a[2] = __byte_perm(g2, g3, 0x5410);
    a[3] = __byte_perm(g2, g3, 0x7632);
#else
    a[0] = (g0 & 0xffffu) | (g1 << 16);
    a[1] = (g0 >> 16) | (g1 & 0xffff0000u);
    a[2] = (g2 & 0xffffu) | (g3 << 16);
    a[3] = (g2 >> 16) | (g3 & 0xffff0000u);
#endif
}

/* Byte q of a G word (the cross's H at the centre group). */
static inline CAT_HD int32_t cat1_g_byte(uint32_t gw, int32_t q) {
    return (int32_t)((gw >> (8 * q)) & 0xffu);
}

/* For lane (g, t), m-group mg and accumulator register q: the output row inside the group, the
 * strip word, and the bit of that word holding the cell. */
static inline CAT_HD int32_t cat1_out_row(int32_t lane, int32_t q) {
    return 2 * (lane & 3) + (q & 1);
}
static inline CAT_HD int32_t cat1_centre_bit(int32_t lane, int32_t mg, int32_t q) {
    return 4 * (lane >> 2) + 2 * (mg & 1) + (q >> 1);
}

/* A row word from the four ballots that hold it, bits 8 sp .. 8 sp + 7 of its columns in part sp
 * (columns 8 sp + g at ballot bits 4 g + y / 2): each part masked where it stands, moved left by
 * sp with a multiply-add into 64 bits (part 3 reaches bit 34), then one shift right by y / 2. */
static inline CAT_HD uint32_t cat1_row_word_parts(uint32_t p0, uint32_t p1, uint32_t p2,
                                                  uint32_t p3, int32_t y, const cat1_mults *m) {
    const int32_t t = y >> 1;
    const uint32_t mask = 0x11111111u << t;
    uint64_t word = (uint64_t)(p3 & mask) * m->bit[2] + (uint64_t)(p0 & mask);
    word += (uint64_t)(p2 & mask) * m->bit[1];
    word += (uint64_t)(p1 & mask) * m->bit[0];
    return (uint32_t)(word >> t);
}

/* Row y (0..7) of the group, strip word s, from the ballots of the two m-groups 2s and 2s+1:
 * ballot[j][q], j = mg - 2s. Part sp is ballot[sp / 2][2 (sp % 2) + y % 2]. */
static inline CAT_HD uint32_t cat1_row_word(const uint32_t ballot[2][4], int32_t y,
                                            const cat1_mults *m) {
    const int32_t h = y & 1;
    return cat1_row_word_parts(ballot[0][h], ballot[0][2 + h], ballot[1][h], ballot[1][2 + h], y,
                               m);
}

/* Moore: whether a cell is alive, from the V its vertical MMA left (V = R + weight * alive, weight
 * = cat1_alive_weight(r) above every R), and its raw sum R. */
static inline CAT_HD int cat1_split_alive(int32_t v, int32_t weight, int32_t *raw) {
    const int alive = v >= weight;
    *raw = v - (alive ? weight : 0);
    return alive;
}

/* The two MMAs as the PTX ISA lays out their fragments, on the host, for a warp's 32 lanes
 * (lane = 4 g + t); d += A x B:
 *   m16n8k256 .b1 AND/POPC: a0 row g, k 32t .. 32t+31 (bit i: k = 32t + i); a1 row g+8; a2, a3 the
 *     same rows at k + 128; b0 column g, k 32t ..; b1 k + 128;
 *   m16n8k32 .s8: a0 row g, k 4t .. 4t+3 (byte e: k = 4t + e); a1 row g+8; a2, a3 k + 16; b0
 *     column g, k 4t ..; b1 k + 16;
 *   both: d0 (row g, column 2t), d1 (g, 2t+1), d2 (g+8, 2t), d3 (g+8, 2t+1), s32.
 * cpu.cat1-emu runs on these; cat1_mma_test holds them against the tensor cores. */
void cat1_emulate_mma_b1(int32_t d[32][4], const uint32_t a[32][4], const uint32_t b[32][2]);
void cat1_emulate_mma_s8(int32_t d[32][4], const uint32_t a[32][4], const uint32_t b[32][2]);

/* Words of the extended grid outside the block of real words, refreshed after each step: the rows
 * outside the H real rows whole, then in each real row its left halo word and the words from the
 * first that holds a position past W. */
int64_t cat1_border_words(const cat1_geometry *g);

static inline CAT_HD void cat1_border_word(const cat1_geometry *g, int64_t b, int64_t *row,
                                           int64_t *word) {
    const int64_t full_rows = g->eh - g->h;
    if (b < full_rows * g->eww) {
        const int64_t k = b / g->eww;
        *row = k < g->top ? k : k + g->h;
        *word = b % g->eww;
        return;
    }
    b -= full_rows * g->eww;
    const int64_t per_row = g->eww - g->full_words;
    const int64_t k = b % per_row;
    *row = g->top + b / per_row;
    *word = k == 0 ? 0 : k + g->full_words;
}

/* a mod m in 0..m-1 in 32 bits (|a| < 2^31, m > 0): positions of the extended grid fit. */
static inline CAT_HD int32_t cat1_mod32(int32_t a, int32_t m) {
    const int32_t r = a % m;
    return r < 0 ? r + m : r;
}

/* The new value of border word (row, word) of buf: its real cells kept, every other position the
 * cell it mirrors. Sides are at most 2^20 and the halo 32 columns and 56 rows, so 32-bit positions
 * hold every one. */
static inline CAT_HD uint32_t cat1_refreshed_word(const cat1_geometry *g, const uint32_t *buf,
                                                  int64_t row, int64_t word) {
    const int32_t y = (int32_t)(row - g->top);
    const int32_t my = cat1_mod32(y, g->h);
    const int real_row = y >= 0 && y < g->h;
    const uint32_t old = buf[(size_t)row * (size_t)g->eww + (size_t)word];
    const uint32_t *mirror_row = buf + (size_t)(my + g->top) * (size_t)g->eww;
    const int32_t x0 = (int32_t)(word - 1) * CAT1_WORD;
    uint32_t v = 0;
    for (int32_t b = 0; b < 32; b++) {
        const int32_t x = x0 + cat1_column_of_bit(b);
        uint32_t bit;
        if (real_row && x >= 0 && x < g->w) {
            bit = (old >> b) & 1u;
        } else {
            const int32_t mx = cat1_mod32(x, g->w);
            bit = (mirror_row[(mx + CAT1_WORD) / CAT1_WORD] >> cat1_bit_of_column(mx % CAT1_WORD)) &
                  1u;
        }
        v |= bit << b;
    }
    return v;
}

#ifdef __cplusplus
}
#endif

#endif
