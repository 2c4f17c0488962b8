/* What the draw's files share (not an interface: callers include fuzz/draw.h): the parameter
 * stream's draws, side arithmetic, and the functions each file draws with for the others.
 * draw_case.c draws a case from them: draw_rule.c the rule, draw_size.c sides and steps,
 * draw_grid.c the grid's density and kind, draw_fit.c fits a case to the caps, draw_invalid.c
 * breaks them (with the rule's, the grid's and the fit's functions); no call runs back up. */
#ifndef CELLCHECK_FUZZ_DRAW_INTERNAL_H
#define CELLCHECK_FUZZ_DRAW_INTERNAL_H

#include <stdint.h>

#include "fuzz/draw.h"

/* The parameter stream: randombytes_buf_deterministic keyed by BLAKE2b-256(seed || "params"). */
typedef cc_param_stream param_stream;

static inline uint32_t next_u32(param_stream *ps) { return case_param_u32(ps); }

static inline uint32_t uniform(param_stream *ps, uint32_t n) { return case_param_uniform(ps, n); }

/* Uniform in lo .. hi (lo <= hi). */
static inline int32_t between(param_stream *ps, int32_t lo, int32_t hi) {
    if (hi <= lo) return lo;
    return lo + (int32_t)uniform(ps, (uint32_t)(hi - lo) + 1u);
}

/* True with probability percent / 100. */
static inline int chance(param_stream *ps, uint32_t percent) { return uniform(ps, 100) < percent; }

/* A uniform draw in [0, 1). */
static inline double unit(param_stream *ps) { return next_u32(ps) / 4294967296.0; }

/* Picks a category by weight: weights sum to anything positive. */
static inline int pick(param_stream *ps, const uint32_t *weights, int n) {
    uint32_t total = 0;
    for (int i = 0; i < n; i++) total += weights[i];
    uint32_t v = uniform(ps, total);
    for (int i = 0; i < n; i++) {
        if (v < weights[i]) return i;
        v -= weights[i];
    }
    return n - 1;
}

/* Log-uniform in lo .. hi: offsets in buckets [2^b - 1, 2^(b+1) - 2], each bucket as likely as
 * the next, so small values are as common per doubling as large ones. */
static inline int32_t log_between(param_stream *ps, int32_t lo, int32_t hi) {
    if (hi <= lo) return lo;
    int64_t span = (int64_t)hi - lo;
    int buckets = 0;
    while (buckets < 30 && ((int64_t)1 << (buckets + 1)) - 1 < span) buckets++;
    int b = between(ps, 0, buckets);
    int64_t start = ((int64_t)1 << b) - 1;
    /* The last bucket runs to span: between half and a whole bucket wide. */
    int64_t width = b == buckets ? span - start : start;
    return (int32_t)(lo + start + between(ps, 0, (int32_t)width));
}

static inline int32_t round_up(int32_t v, int32_t m) { return m > 1 ? (v + m - 1) / m * m : v; }
static inline int32_t round_down(int32_t v, int32_t m) { return m > 1 ? v / m * m : v; }

/* The largest side the draw may use for one axis. */
static inline int32_t side_limit(const cc_campaign_options *opt, int32_t axis_max) {
    int32_t hi = opt->size_hi > 0 ? opt->size_hi : CC_CAMPAIGN_DEFAULT_SIZE_MAX;
    if (axis_max > 0 && axis_max < hi) hi = axis_max;
    if (hi > CC_GRID_SIDE_MAX) hi = CC_GRID_SIDE_MAX;
    return hi;
}

/* The smallest valid side at radius r, or -1 when none fits below hi. */
static inline int32_t side_min(const cc_campaign_options *opt, int32_t r, int32_t multiple,
                               int32_t hi) {
    int32_t lo = 2 * r + 1;
    if (opt->size_lo > lo) lo = opt->size_lo;
    lo = round_up(lo, multiple);
    return lo <= hi ? lo : -1;
}

/* The oracle's work of one step: W * H * (2r+1)^2 cell-neighbour visits. */
static inline double step_cost(int32_t w, int32_t h, int32_t r) {
    double side = 2.0 * r + 1.0;
    return (double)w * (double)h * side * side;
}

static inline int32_t gcd32(int32_t a, int32_t b) { return b ? gcd32(b, a % b) : a; }

/* The side both axes accept when W must equal H. */
static inline int32_t square_multiple(const cc_engine_caps *caps) {
    int32_t a = caps->w_multiple > 1 ? caps->w_multiple : 1;
    int32_t b = caps->h_multiple > 1 ? caps->h_multiple : 1;
    return a / gcd32(a, b) * b;
}

/* The set as the single interval lo..hi. */
static inline void set_range(cc_set *set, int32_t lo, int32_t hi) {
    cc_set_clear(set);
    set->n = 1;
    set->r[0].lo = lo;
    set->r[0].hi = hi;
}

/* ---- Large cases (draw_size.c): sides past every block, bounded by the engine's work ----- */

#define LARGE_SIDES_MAX 512

/* The largest side a large case may use for one axis: the caps' maximum, or the options' when
 * given. */
static inline int32_t large_limit(const cc_campaign_options *opt, int32_t axis_max) {
    int32_t hi = CC_GRID_SIDE_MAX;
    if (opt->size_hi > 0 && opt->size_hi < hi) hi = opt->size_hi;
    if (axis_max > 0 && axis_max < hi) hi = axis_max;
    return hi;
}

/* The large sides of both axes at one radius. */
typedef struct large_axes {
    int32_t lo[2];                   /* the smallest side of W and of H at the radius */
    int32_t sides[2][LARGE_SIDES_MAX];
    int n[2], n_pow[2];
} large_axes;

/* ---- Rules (draw_rule.c) ---- */

/* A radius in rlo .. rhi: the smallest, the largest, just above the smallest, or log-uniform. */
int32_t fuzz_draw_radius(param_stream *ps, int32_t rlo, int32_t rhi);
/* The rule's S and B for its shape, radius and centre, within count_max (0: no limit). */
void fuzz_draw_sets(param_stream *ps, cc_rule *rule, int32_t count_max);
/* One count range within 0 .. max; survive: S's shape of band, else B's. */
void fuzz_draw_range(param_stream *ps, int32_t max, int survive, cc_set *set);

/* ---- Sides and steps (draw_size.c) ---- */

int32_t fuzz_draw_side(param_stream *ps, int32_t lo, int32_t hi, int32_t multiple);
int64_t fuzz_draw_steps(param_stream *ps, int64_t steps_max);
void fuzz_fit_budget(param_stream *ps, cc_case *c, double budget, int32_t w_lo, int32_t h_lo,
                     int32_t w_mult, int32_t h_mult);
int fuzz_large_fits(const cc_engine_caps *caps, const cc_campaign_options *opt, int32_t r,
                    double budget, large_axes *ax);
void fuzz_draw_large(param_stream *ps, const large_axes *ax, double budget, int64_t steps_max,
                     cc_case *c);
int64_t fuzz_radius_steps(param_stream *ps, const cc_engine_caps *caps,
                          const cc_campaign_options *opt, int32_t rlo, int64_t steps_max,
                          double budget, cc_rule *rule);
void fuzz_draw_radius_sides(param_stream *ps, cc_case *c, int32_t w_lo, int32_t w_hi,
                            int32_t h_lo, int32_t h_hi, int32_t w_mult, int32_t h_mult);

/* ---- The grid (draw_grid.c) ---- */

double fuzz_draw_density(param_stream *ps);
cc_grid_kind fuzz_draw_grid_kind(param_stream *ps);

/* ---- Fitting a case to the caps (draw_fit.c) ---- */

void fuzz_fit_port_sets(const cc_engine_caps *caps, cc_rule *rule);
void fuzz_fit_port_sides(const cc_engine_caps *caps, int32_t hi, cc_case *c);
int fuzz_radius_window(const char *engine, const cc_engine_caps *caps,
                       const cc_campaign_options *opt, int32_t *lo, int32_t *hi, cc_error *err);

/* ---- Cases outside the caps (draw_invalid.c) ---- */

/* Where the caps leave a limit to break, with probability percent / 100: a case that breaks one
 * (out->expect_refusal, out->why), its steps and density drawn; returns 1. Else draws nothing
 * more and returns 0. */
int fuzz_draw_invalid(param_stream *ps, const cc_draw_caps *dc, uint32_t percent,
                      cc_drawn_case *out);

#endif
