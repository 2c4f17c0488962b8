/* What the CAT engines share (cuda.cat, cuda.cat-f32, cuda.cat8 and the portable emulation
 * cpu.cat-emu): the band fragments, the exactness argument, the rule as ranges over the sums the
 * MMAs form, and the fragment-contiguous layout with its out-halo.
 *
 * The CAT formulation (Navarro et al., "Cellular automata on tensor cores"). The grid Lambda is cut
 * into square fragments of side F. A band matrix Pi with ones where |i - j| <= r sums a row of
 * 2r+1 cells: H = Lambda x Pi (the horizontal pass) and R = Pi x H (the vertical pass) give every
 * cell the sum of its (2r+1)^2 square, centre included (Moore); R = Pi x Lambda + H gives the cross
 * (the paper's simplified von Neumann, Eq. 3), centre included twice. Per fragment only the band
 * fragments next to the diagonal are non-zero: for the neighbour fragment at offset d (-halo..halo)
 * the band fragment holds a one at (out, in) iff |F*d + in - out| <= r. With halo = ceil(r / F)
 * fragments on each side (the out-halo: the effective area is always the whole fragment), a pass
 * is 2*halo+1 MMAs per fragment: three for r <= F, five for r <= 2F (the paper's Section VI).
 *
 * The torus lives in an extended buffer of (fw + 2 halo) x (fh + 2 halo) fragments, fw =
 * ceil(W / F), fh = ceil(H / F); every position (x, y) of it, -halo*F <= x < (fw+halo)*F, holds a
 * copy of cell (x mod W, y mod H). The extended buffer is then periodic, so the sums computed at
 * any interior position are those of the cell it copies, padding included; after each step the
 * positions outside the W x H cells are copied again from the cells they mirror. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT_CAT_COMMON_H
#define CELLCHECK_ENGINES_CUDA_CAT_CAT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* The small functions below are compiled for the device too when nvcc includes this header. */
#ifdef __CUDACC__
#define CAT_HD __host__ __device__
#else
#define CAT_HD
#endif

/* The number formats the MMAs use, for operands and accumulators. */
typedef enum cat_number {
    CAT_NUM_F16 = 0, /* IEEE binary16: 11 significant bits */
    CAT_NUM_F32 = 1, /* IEEE binary32: 24 significant bits */
    CAT_NUM_S8 = 2,  /* signed 8-bit integer */
    CAT_NUM_S32 = 3  /* signed 32-bit integer */
} cat_number;

const char *cat_number_name(cat_number n); /* "FP16", "FP32", "INT8", "INT32" */

/* The largest N such that every integer 0..N is exactly representable in the format: 2^11 = 2048
 * for FP16 (2049 is the first integer it cannot hold), 2^24 for FP32, 127 for INT8, 2^31 - 1 for
 * INT32. */
int64_t cat_number_exact_max(cat_number n);

/* ---- The exactness argument -------------------------------------------------------------- *
 *
 * Every operand of every MMA is a non-negative integer: cells are 0 or 1, band entries are 0 or 1,
 * and the horizontal sums H that the Moore vertical pass multiplies are counts. So every product
 * is a non-negative integer, and every partial sum an MMA forms, in whatever order the hardware
 * adds, is a non-negative integer no larger than the complete sum it is part of. The complete
 * sums are bounded:
 *   horizontal pass:          H <= 2r+1 (a row of the neighbourhood, centre included)
 *   vertical pass, Moore:     R <= (2r+1)^2 (the square, centre included)
 *   vertical pass, cross:     V <= 2r+1 (a column), and H + V is added in INT32
 * If the largest of these is at most cat_number_exact_max(accumulator), every partial sum is
 * representable, so each rounding step returns its exact input (whatever the rounding mode), and
 * by induction over the additions the MMA's result is the exact integer. The operand that the
 * vertical pass reads back (H, Moore only) must likewise be exact in the operand format, and the
 * final conversion of an exactly represented integer to INT32 is exact. For FP16 accumulators this
 * holds while (2r+1)^2 <= 2048, that is r <= 22 (45^2 = 2025; at r = 23, 47^2 = 2209 is not);
 * r = 16, the paper's range, reaches 33^2 = 1089. FP32 accumulators hold every radius up to 32
 * (65^2 = 4225). INT8 operands hold H up to 127, so r <= 63; INT32 accumulators any count here. */
typedef struct cat_bounds {
    int64_t operand_max;     /* the largest operand value: 1, or 2r+1 where H is multiplied */
    int64_t accumulator_max; /* the largest sum any MMA forms */
    int64_t raw_max;         /* the largest raw sum the rule reads (R, or H + V for the cross) */
} cat_bounds;

/* The bounds above for shape (Moore or cross) at radius r. */
void cat_mma_bounds(cc_shape shape, int32_t r, cat_bounds *out);

/* The radii the FP16-operand engines' caps claim (cuda.cat, cpu.cat-emu: FP16 accumulators;
 * cuda.cat-f32: FP32 accumulators, bounded by the halo of two fragments, not by exactness).
 * cat_common_test checks them against cat_radius_exact_max. */
#define CAT_RADIUS_MAX_F16 22
#define CAT_RADIUS_MAX_F32 32

/* The largest radius whose sums are exact with the given formats (for the caps). */
int32_t cat_radius_exact_max(cc_shape shape, cat_number operand, cat_number accumulator);

/* Checks the argument for one engine's formats at radius r: CC_OK when every value the MMAs form
 * is exact, otherwise CC_ERR_UNSUPPORTED with the value that is not and the format's limit. */
int cat_check_exact(const char *engine, cc_shape shape, int32_t r, cat_number operand,
                    cat_number accumulator, cc_error *err);

/* ---- Band fragments ---------------------------------------------------------------------- */

/* ceil(r / frag): the fragments of halo a radius needs on each side. */
int32_t cat_halo_fragments(int32_t r, int32_t frag);

/* The band fragment of neighbour offset d at (out, in): 1 iff |frag*d + in - out| <= r. For the
 * horizontal pass (H = Lambda x pi) it is read as pi[in][out] (row: the input column inside the
 * neighbour fragment; column: the output column); for the vertical pass (R = pi x H) as
 * pi[out][in] (row: the output row; column: the input row inside the neighbour fragment). */
static inline CAT_HD int cat_band(int32_t d, int32_t out, int32_t in, int32_t r, int32_t frag) {
    int32_t off = frag * d + in - out;
    return (off < 0 ? -off : off) <= r;
}

/* ---- The rule over raw sums -------------------------------------------------------------- */

/* The rule as the kernels apply it: the count is raw - self_weight * alive, where raw is what the
 * MMAs summed (the centre once in the Moore square, twice in the cross), and the next state is
 * whether the count lies in one of the ranges of B (dead, index 0) or S (alive, index 1). Plain
 * data, passed to kernels by value. */
typedef struct cat_rule_params {
    int32_t ranges[2];
    int32_t ranges_max; /* max(ranges[0], ranges[1]) */
    int32_t self_weight;
    int32_t lo[2][CC_SET_MAX_RANGES];
    int32_t hi[2][CC_SET_MAX_RANGES];
} cat_rule_params;

/* Builds the parameters; refuses shapes other than Moore and cross. */
int cat_rule_params_build(const char *engine, const cc_rule *rule, cat_rule_params *out,
                          cc_error *err);

/* The next state of a cell whose MMAs summed raw. */
static inline CAT_HD int cat_rule_next(const cat_rule_params *p, int alive, int32_t raw) {
    int32_t count = raw - p->self_weight * alive;
    int which = alive ? 1 : 0;
    for (int32_t q = 0; q < p->ranges[which]; q++)
        if (count >= p->lo[which][q] && count <= p->hi[which][q]) return 1;
    return 0;
}

/* The rule when B and S are each at most one range: every Larger than Life rule, Life itself
 * (B3/S23) and the Table VI rules. The test is then one unsigned comparison, with no loop over
 * ranges: count in lo..hi iff (unsigned)(raw - self_weight * alive - lo) < hi - lo + 1, where a
 * count below lo wraps to at least 2^31, above any span. raw is at most cat_bounds.raw_max
 * (4225 at r = 32), so raw - base never overflows. An empty set has span 0: nothing is in it. */
typedef struct cat_rule_single {
    int32_t base[2]; /* B: lo; S: lo + self_weight (index as in cat_rule_params) */
    int32_t span[2]; /* hi - lo + 1; 0 for an empty set */
} cat_rule_single;

/* Whether both sets of p are at most one range each (cat_rule_single applies). */
int cat_rule_is_single(const cat_rule_params *p);

/* Builds the single-range form of p; CC_ERR_ARG when a set has more than one range. */
int cat_rule_single_build(const char *engine, const cat_rule_params *p, cat_rule_single *out,
                          cc_error *err);

/* The next state of a cell whose MMAs summed raw, as cat_rule_next for single-range rules. The
 * selects, rather than an index by alive, keep device code from copying s to local memory. */
static inline CAT_HD int cat_rule_single_next(const cat_rule_single *s, int alive, int32_t raw) {
    int32_t base = alive ? s->base[1] : s->base[0];
    uint32_t span = (uint32_t)(alive ? s->span[1] : s->span[0]);
    return (uint32_t)(raw - base) < span;
}

/* ---- The extended buffer ----------------------------------------------------------------- */

typedef struct cat_geometry {
    int32_t w, h;     /* the torus */
    int32_t frag;     /* fragment side */
    int32_t halo;     /* halo on each side, in fragments */
    int64_t fw, fh;   /* interior fragments: ceil(w / frag), ceil(h / frag) */
    int64_t ew, eh;   /* with the halo: fw + 2 halo, fh + 2 halo */
    int64_t fwr, fhr; /* fragments made only of real cells: floor(w / frag), floor(h / frag) */
} cat_geometry;

int cat_geometry_init(cat_geometry *g, int32_t w, int32_t h, int32_t frag, int32_t halo,
                      cc_error *err);

/* Positions in the extended buffer: ew * eh * frag^2. */
size_t cat_geometry_positions(const cat_geometry *g);

/* Fragments outside the block of real fragments, whose positions are refreshed after each step:
 * the top and bottom halo rows whole, then the left and right halo (with the padded column) of
 * the other rows. */
int64_t cat_geometry_border_fragments(const cat_geometry *g);

/* The ext fragment (row, column) of border fragment b, 0 <= b < cat_geometry_border_fragments. */
static inline CAT_HD void cat_border_fragment(const cat_geometry *g, int64_t b, int64_t *ey,
                                              int64_t *ex) {
    int64_t full_rows = g->eh - g->fhr; /* rows that are border from end to end */
    if (b < full_rows * g->ew) {
        int64_t row = b / g->ew;
        *ey = row < g->halo ? row : row + g->fhr;
        *ex = b % g->ew;
        return;
    }
    b -= full_rows * g->ew;
    int64_t per_row = g->ew - g->fwr;
    int64_t col = b % per_row;
    *ey = g->halo + b / per_row;
    *ex = col < g->halo ? col : col + g->fwr;
}

/* a mod m in 0..m-1 for any a (m > 0). */
static inline CAT_HD int64_t cat_mod(int64_t a, int64_t m) {
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}

/* Element index of extended position (x, y) in the layout of square fragments stored one after
 * another in row-major order of fragments, row-major inside each (the paper's fragment-contiguous
 * layout). x, y may be negative down to -halo*frag. */
static inline CAT_HD size_t cat_ext_index(const cat_geometry *g, int64_t x, int64_t y) {
    int64_t f = g->frag;
    int64_t fx = (x + g->halo * f) / f, fy = (y + g->halo * f) / f;
    int64_t ix = (x + g->halo * f) % f, iy = (y + g->halo * f) % f;
    return (size_t)((fy * g->ew + fx) * f * f + iy * f + ix);
}

#ifdef __cplusplus
}
#endif

#endif
