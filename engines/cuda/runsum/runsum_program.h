/* The program of cuda.runsum and of its CPU counterpart cpu.runsum-emu: Larger than Life counts as
 * running sums on bit-sliced counters, so that a count costs a few word operations a cell at any
 * radius. Both are written from this one description; the functions below are what one lane of a
 * warp computes, compiled for the device and the host.
 *
 * Bit-sliced numbers. A lane holds the numbers of the 32 cells of one word as planes: plane q is a
 * word whose bit i is bit q of cell i's number (two's complement where signed). Adding two such
 * numbers is a ripple of full adders, one a plane, for all 32 cells at once.
 *
 * Layout. Rows of 32-bit words, eww = nw + 2 a row: word e holds columns 32 (e - 1) .. 32 e - 1,
 * column 32 (e - 1) + i at bit i; words 1 .. nw are the row's W cells (the last with padding past
 * W when W is not a multiple of 32), word 0 and word nw + 1 the halo. Every position outside
 * 0 .. W - 1 holds a copy of the cell at its column mod W (the refresh, after every load and
 * step). No rows of halo: row indices wrap mod H.
 *
 * The horizontal box. Box(x) = sum of the 2r+1 cells x - r .. x + r of a row, r <= 32, so a word's
 * window reaches one word either side. Doubling: S_1 = the cells, S_{2^k}(x) = S_{2^(k-1)}(x) +
 * S_{2^(k-1)}(x + 2^(k-1)), for k up to L = floor(log2(2r+1)) (a shift by 2^(k-1) <= 32 bits is
 * a funnel shift of a lane's plane and its right neighbour's); then the window is the sum of the
 * S_{2^k} for the bits k of 2r+1, from the highest, each read at the offset where the pieces
 * before it end (runsum_piece_offset), the left neighbour's planes for offsets below 0.
 *
 * The vertical running sum. Moore: count(y) = count(y - 1) + Box(row y + r) - Box(row y - r - 1),
 * and as Box is linear that difference is the box of one signed row, new - old in -1..1 (two
 * planes): one doubling a row, not two. The cross: the column arm V(y) = V(y - 1) + cell(y + r) -
 * cell(y - r - 1) needs no box; its row arm is Box of row y, unsigned, and the raw count H + V
 * holds the centre twice.
 *
 * Exactness (runsum_check). With L = floor(log2(2r+1)), 2r+1 < 2^(L+1): a signed box difference
 * |D| <= 2r+1 fits L + 2 planes, as does every S_{2^k} (|S| <= 2^k, k <= L); the Moore count, at
 * most (2r+1)^2 < 2^(2L+2), fits 2L + 2 planes (2L + 1 where (2r+1)^2 + 2 <= 2^(2L+1):
 * runsum_state_planes); the cross's V <= 2r+1 and raw H + V <= 4r + 2 <
 * 2^(L+2) fit L + 2. Sums are formed mod 2^planes, so whatever the order of the additions, a result
 * in range is exact.
 *
 * The rule. A cell's next state is whether its raw count lies in one of the ranges of B (dead) or
 * of S shifted by the centre's weight (alive) (cat_rule_params). count >= K for a constant K is a
 * pass over the planes from the lowest: t = all ones, then t = plane & t where K has a one, plane |
 * t where it has a zero (runsum_ge); a range is ge(lo) & ~ge(hi + 1), thresholds clamped to
 * 0 .. raw max + 1 so that they fit the planes.
 *
 * The warp. A warp's 32 lanes load 32 consecutive words of a row, e = 30 s + lane for strip s:
 * lanes 1..30 write their word, lanes 0 and 31 only load (a value a lane reads from its neighbour
 * past the warp is the lane's own; every value lanes 1..30 use lies within their windows, which
 * end inside lanes 0 and 31). A warp walks a band of rows y0 .. y1 - 1 of its strip: iteration i
 * brings in row y0 - r + i (and takes out row y0 - r + i - (2r+1) from i = 2r+1 on); from i = 2r
 * on the count is that of row y0 + i - 2r, which it writes. Bands are at least `windows` x (2r+1)
 * rows (8 by default), so the 2r rows of run-in cost at most an eighth, and as short as that
 * allows to give every multiprocessor `warps_per_sm` warps (16 by default). */
#ifndef CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_PROGRAM_H
#define CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/cat/cat_common.h"
#include "oracle/error.h"
#include "oracle/rule.h"

#ifdef __CUDACC__
#define RUNSUM_HD __host__ __device__
#else
#define RUNSUM_HD
#endif
/* Only the device pass knows the pragma; the host compiler would warn. */
#ifdef __CUDA_ARCH__
#define RUNSUM_UNROLL _Pragma("unroll")
#else
#define RUNSUM_UNROLL
#endif

#define RUNSUM_WORD 32
#define RUNSUM_LANES 32
#define RUNSUM_STRIP_WORDS 30 /* the words a warp writes */
#define RUNSUM_STRIP_W (RUNSUM_STRIP_WORDS * RUNSUM_WORD)
#define RUNSUM_RADIUS_MAX 32 /* the window reaches one word either side */
#define RUNSUM_LEVELS_MAX 6  /* floor(log2(65)) */
#define RUNSUM_PLANES_MAX (2 * RUNSUM_LEVELS_MAX + 2)
#define RUNSUM_WARPS_PER_SM 16 /* the banding of the CPU twin and of the tests */
/* Bands of at least 4 windows: 8 was up to 1.5x slower at 16384^2 for r >= 8 (H200: bands too
 * few to fill the device), and as fast at 32768^2 and 65600^2. */
#define RUNSUM_BAND_WINDOWS 4

/* L = floor(log2(2r+1)): the highest doubling level. */
static inline RUNSUM_HD int32_t runsum_levels(int32_t r) {
    int32_t l = 0;
    while ((2 * r + 1) >> (l + 1)) l++;
    return l;
}

/* Planes of the signed box sums, and of the counter a lane carries down its band (Moore: the
 * count; the cross: the column arm), which is also the raw count the rule reads: the fewest that
 * hold every count and the threshold one above the largest (2^planes >= raw max + 2). Moore:
 * 2L + 1 or 2L + 2, as (2r+1)^2 + 2 lies between 2^(2L) and 2^(2L+2); the cross: L + 2. */
static inline RUNSUM_HD int32_t runsum_box_planes(int32_t levels) { return levels + 2; }
static inline RUNSUM_HD int32_t runsum_state_planes(int32_t r, int cross) {
    const int32_t levels = runsum_levels(r);
    if (cross) return levels + 2;
    const int64_t need = (2 * (int64_t)r + 1) * (2 * (int64_t)r + 1) + 2;
    return need <= ((int64_t)1 << (2 * levels + 1)) ? 2 * levels + 1 : 2 * levels + 2;
}

/* Where S_{2^k} is read for the window of radius r: after the pieces of the higher bits of 2r+1. */
static inline RUNSUM_HD int32_t runsum_piece_offset(int32_t r, int32_t k) {
    const int32_t w = 2 * r + 1;
    return -r + ((w >> (k + 1)) << (k + 1));
}

typedef struct runsum_geometry {
    int32_t w, h, r;
    int cross;
    int32_t levels;       /* runsum_levels(r) */
    int32_t state_planes; /* runsum_state_planes */
    int32_t raw_max;      /* the largest raw count: (2r+1)^2, or 4r + 2 for the cross */
    int64_t nw, eww;      /* words of cells a row; words a row with the halo (nw + 2) */
    int64_t strips;       /* ceil(nw / RUNSUM_STRIP_WORDS) */
    int64_t band_h, bands; /* runsum_geometry_bands */
} runsum_geometry;

/* The exactness argument above and the window's one word of reach, for shape (Moore or the
 * cross) at radius r: CC_OK, or CC_ERR_UNSUPPORTED naming the limit. */
int runsum_check(const char *engine, cc_shape shape, int32_t r, cc_error *err);

/* The geometry of a W x H torus (W, H >= 2r+1) at radius r; one band of H rows until
 * runsum_geometry_bands. */
int runsum_geometry_init(runsum_geometry *g, const char *engine, cc_shape shape, int32_t w,
                         int32_t h, int32_t r, cc_error *err);

/* Cuts the rows into bands for a device of `multiprocessors`: band_h at least windows x (2r+1)
 * (or H), short enough for strips x bands to reach warps_per_sm warps a multiprocessor. */
void runsum_geometry_bands(runsum_geometry *g, int multiprocessors, int warps_per_sm, int windows);

/* Words of one grid: eww x H. */
size_t runsum_geometry_words(const runsum_geometry *g);

/* The word of cell (x, y): row y's eww words start with the left halo word; the cell is bit
 * x % RUNSUM_WORD of it. */
static inline RUNSUM_HD size_t runsum_word_index(const runsum_geometry *g, int64_t x, int64_t y) {
    return (size_t)y * (size_t)g->eww + (size_t)(1 + x / RUNSUM_WORD);
}

/* The rule as thresholds on the raw count, less a bias: the counters start at -bias (mod
 * 2^planes, bias_masks), so they hold raw - bias, and a cell's next state is whether that lies in
 * [lo, hi1) of a range of B (dead, index 0) or S (alive, index 1). The bias is the lowest lo of
 * every range, so a range that starts there needs no lower test: raw - bias is then >= 0 exactly
 * when raw >= bias (a raw count below the bias wraps to 2^planes - bias or more, above every
 * threshold). Thresholds (before the bias) are clamped to 0 .. raw_max + 1; an empty set is one
 * empty range (raw_max + 1 twice), so every set has at least one. Each threshold is also kept as
 * its planes' masks (runsum_threshold_masks), which a kernel reads as operands. Plain data, passed
 * to kernels. */
typedef struct runsum_rule {
    int32_t ranges[2];
    int32_t bias;
    int32_t lo[2][CC_SET_MAX_RANGES];
    int32_t hi1[2][CC_SET_MAX_RANGES];
    uint32_t bias_masks[RUNSUM_PLANES_MAX]; /* -bias */
    uint32_t lo_masks[2][CC_SET_MAX_RANGES][RUNSUM_PLANES_MAX];
    uint32_t hi1_masks[2][CC_SET_MAX_RANGES][RUNSUM_PLANES_MAX];
} runsum_rule;

/* Whether B and S are one range each (the kernels that test range 0 alone). */
static inline RUNSUM_HD int runsum_rule_single(const runsum_rule *p) {
    return p->ranges[0] == 1 && p->ranges[1] == 1;
}

/* Refuses shapes other than Moore and the cross. */
int runsum_rule_build(const char *engine, const cc_rule *rule, const runsum_geometry *g,
                      runsum_rule *out, cc_error *err);

/* ---- What one lane computes ---------------------------------------------------------------- */

/* The 32 bits from bit s (0 .. 32) of the 64-bit word hi:lo. */
static inline RUNSUM_HD uint32_t runsum_funnel(uint32_t lo, uint32_t hi, int32_t s) {
#ifdef __CUDA_ARCH__
    return __funnelshift_rc(lo, hi, (unsigned)s);
#else
    return s <= 0 ? lo : s >= 32 ? hi : (lo >> s) | (hi << (32 - s));
#endif
}

/* The same by two multiplies, for a device whose logic pipe is the busy one (the multiply-add
 * pipe takes them): with m = 2^(32 - s), lo >> s is the high word of lo * m and hi << (32 - s)
 * the low word of hi * m; their bits do not overlap, so the sum is the funnel. 0 < s < 32. */
static inline RUNSUM_HD uint32_t runsum_funnel_by_multiply(uint32_t lo, uint32_t hi, int32_t s) {
    const uint32_t m = 1u << (32 - s);
#ifdef __CUDA_ARCH__
    return __umulhi(lo, m) + hi * m;
#else
    return (uint32_t)(((uint64_t)lo * m) >> 32) + hi * m;
#endif
}

/* out = a + b mod 2^n, a of na planes and b of nb planes, both sign-extended (n >= na, nb); out
 * may be a or b. */
static inline RUNSUM_HD void runsum_add(uint32_t *out, int n, const uint32_t *a, int na,
                                        const uint32_t *b, int nb) {
    const uint32_t sa = a[na - 1], sb = b[nb - 1];
    uint32_t carry = 0;
    RUNSUM_UNROLL
    for (int q = 0; q < n; q++) {
        const uint32_t x = q < na ? a[q] : sa, y = q < nb ? b[q] : sb;
        out[q] = x ^ y ^ carry;
        carry = (x & y) | (carry & (x ^ y));
    }
}

/* The masks of threshold k: plane q all ones where bit q of k is one. */
static inline RUNSUM_HD void runsum_threshold_masks(int32_t k, uint32_t masks[RUNSUM_PLANES_MAX]) {
    for (int q = 0; q < RUNSUM_PLANES_MAX; q++) masks[q] = 0u - (((uint32_t)k >> q) & 1u);
}

/* Bit i: whether cell i's unsigned number of n planes is >= the threshold k whose masks are m
 * (0 <= k < 2^n). From the lowest plane: t = plane & t where k has a one, plane | t where a zero. */
static inline RUNSUM_HD uint32_t runsum_ge(const uint32_t *c, int n, const uint32_t *m) {
    uint32_t t = ~0u;
    RUNSUM_UNROLL
    for (int q = 0; q < n; q++) t = (m[q] & c[q] & t) | (~m[q] & (c[q] | t));
    return t;
}

/* The counter's value before the first row: -bias. */
static inline RUNSUM_HD void runsum_counter_start(const runsum_rule *p, uint32_t *c, int n) {
    RUNSUM_UNROLL
    for (int q = 0; q < n; q++) c[q] = p->bias_masks[q];
}

/* Whether the numbers c (raw - bias) lie in range q of set `which`. */
static inline RUNSUM_HD uint32_t runsum_in_range(const runsum_rule *p, int which, int32_t q,
                                                 const uint32_t *c, int n) {
    const uint32_t above = p->lo[which][q] ? runsum_ge(c, n, p->lo_masks[which][q]) : ~0u;
    return above & ~runsum_ge(c, n, p->hi1_masks[which][q]);
}

/* The next word of 32 cells: counters (raw - bias) of n planes, alive their current states. */
static inline RUNSUM_HD uint32_t runsum_next(const runsum_rule *p, const uint32_t *raw, int n,
                                             uint32_t alive) {
    uint32_t born = 0, stays = 0;
    for (int32_t q = 0; q < p->ranges[0]; q++) born |= runsum_in_range(p, 0, q, raw, n);
    for (int32_t q = 0; q < p->ranges[1]; q++) stays |= runsum_in_range(p, 1, q, raw, n);
    return (alive & stays) | (~alive & born);
}

/* The same for a rule of one range a set (runsum_rule_single): every index a constant. */
static inline RUNSUM_HD uint32_t runsum_next_single(const runsum_rule *p, const uint32_t *raw,
                                                    int n, uint32_t alive) {
    return (alive & runsum_in_range(p, 1, 0, raw, n)) | (~alive & runsum_in_range(p, 0, 0, raw, n));
}

/* The word of extended column e of a row whose columns 0 .. W - 1 (words 1 .. nw, word k at
 * row[k * stride]) are its cells: bit i the cell at column (32 (e - 1) + i) mod W. One division a
 * word: the column then wraps. */
static inline RUNSUM_HD uint32_t runsum_refreshed_word_strided(const runsum_geometry *g,
                                                               const uint32_t *row, size_t stride,
                                                               int64_t e) {
    uint32_t v = 0;
    uint64_t x = (uint64_t)cat_mod(RUNSUM_WORD * (e - 1), g->w); /* unsigned: shifts, not divisions */
    for (int i = 0; i < RUNSUM_WORD; i++) {
        v |= ((row[(1 + x / RUNSUM_WORD) * stride] >> (x % RUNSUM_WORD)) & 1u) << i;
        if (++x == (uint64_t)g->w) x = 0;
    }
    return v;
}

/* The same for the rows of runsum_program's layout, words side by side. */
static inline RUNSUM_HD uint32_t runsum_refreshed_word(const runsum_geometry *g, const uint32_t *row,
                                                       int64_t e) {
    return runsum_refreshed_word_strided(g, row, 1, e);
}

/* The words of a row the refresh rewrites: the left halo, the last word of cells (its padding),
 * the right halo. */
static inline RUNSUM_HD int64_t runsum_refresh_column(const runsum_geometry *g, int which) {
    return which == 0 ? 0 : which == 1 ? g->nw : g->nw + 1;
}

#ifdef __cplusplus
}
#endif

#endif
