/* The sides and steps of a case. Ordinary sides are the smallest, just above it, primes, powers
 * of two or anything, log-uniform, and the oracle's budget bounds a case (fewer steps, then
 * smaller sides, then one step at probability budget / cost). Large sides lie past every
 * engine's blocks (2^k - 1, 2^k, 2^k + 1 and n*tile - 1, n*tile, n*tile + 1), bounded by the
 * engine's work; a case at r > 16 may get 2..4 steps on sides near the smallest. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <string.h>

#include "fuzz/draw_internal.h"

static int is_prime(int32_t n) {
    if (n < 2) return 0;
    for (int32_t d = 2; (int64_t)d * d <= n; d++)
        if (n % d == 0) return 0;
    return 1;
}

/* One side in lo .. hi (lo a valid multiple): the smallest, just above it, a prime, a power of
 * two, or anything, log-uniform. Rounded to the multiple, staying within lo .. hi. */
int32_t fuzz_draw_side(param_stream *ps, int32_t lo, int32_t hi, int32_t multiple) {
    static const uint32_t weights[] = {20, 10, 22, 10, 38};
    int32_t v;
    switch (pick(ps, weights, 5)) {
    case 0: v = lo; break;
    case 1: v = lo + between(ps, 1, 3); break;
    case 2:
        v = log_between(ps, lo, hi);
        while (v <= hi && !is_prime(v)) v++;
        if (v > hi) v = log_between(ps, lo, hi);
        break;
    case 3: {
        int32_t p = 1;
        while (p < lo) p *= 2;
        int n = 0;
        for (int32_t q = p; q <= hi && q > 0; q *= 2) n++;
        if (n == 0) {
            v = log_between(ps, lo, hi);
        } else {
            v = p << between(ps, 0, n - 1);
        }
        break;
    }
    default: v = log_between(ps, lo, hi); break;
    }
    v = round_up(v, multiple);
    if (v > hi) v = round_down(hi, multiple);
    if (v < lo) v = lo;
    return v;
}

int64_t fuzz_draw_steps(param_stream *ps, int64_t steps_max) {
    static const uint32_t weights[] = {8, 25, 20, 15, 20, 12};
    int32_t top = steps_max > INT32_MAX ? INT32_MAX : (int32_t)steps_max;
    int64_t k;
    switch (pick(ps, weights, 6)) {
    case 0: k = 0; break;
    case 1: k = 1; break;
    case 2: k = 2; break;
    case 3: k = 3; break;
    case 4: k = between(ps, 4, 8); break;
    default: k = between(ps, 9, top > 9 ? top : 9); break;
    }
    return k > steps_max ? steps_max : k;
}

/* Fits the case into the budget: fewer steps, then smaller sides, then (when one step at the
 * smallest size still costs more) one step with probability budget / cost, else none. */
void fuzz_fit_budget(param_stream *ps, cc_case *c, double budget, int32_t w_lo, int32_t h_lo,
                     int32_t w_mult, int32_t h_mult) {
    if (c->steps == 0) return;
    double cost = step_cost(c->w, c->h, c->rule.radius);
    if (cost * (double)c->steps <= budget) return;
    if (cost <= budget) {
        c->steps = (int64_t)(budget / cost);
        return;
    }
    while (cost > budget && (c->w > w_lo || c->h > h_lo)) {
        if (c->w >= c->h && c->w > w_lo) {
            int32_t w = round_down(c->w / 2, w_mult);
            c->w = w < w_lo ? w_lo : w;
        } else {
            int32_t h = round_down(c->h / 2, h_mult);
            c->h = h < h_lo ? h_lo : h;
        }
        cost = step_cost(c->w, c->h, c->rule.radius);
    }
    if (cost <= budget) {
        int64_t k = (int64_t)(budget / cost);
        if (k < c->steps) c->steps = k;
        return;
    }
    c->steps = unit(ps) < budget / cost ? 1 : 0;
}

#define LARGE_LONG_SIDE 1100 /* past a second 512-cell block, and past CAT's 1024 */

/* Adds v (or, when it is not a multiple, the multiples either side of it) if within lo .. hi. */
static int add_side(int32_t *sides, int n, int64_t v, int32_t lo, int32_t hi, int32_t multiple) {
    int64_t c[2] = {v, v};
    if (multiple > 1 && v % multiple != 0) {
        c[0] = v / multiple * multiple;
        c[1] = c[0] + multiple;
    }
    for (int i = 0; i < 2; i++) {
        if (c[i] < lo || c[i] > hi || n >= LARGE_SIDES_MAX) continue;
        int dup = 0;
        for (int k = 0; k < n && !dup; k++) dup = sides[k] == c[i];
        if (!dup) sides[n++] = (int32_t)c[i];
    }
    return n;
}

/* Sides of one axis past its blocks: 2^k - 1, 2^k, 2^k + 1 for 2^k in 64..2048 (the first *n_pow
 * entries), then n*tile - 1, n*tile, n*tile + 1 for n = 2.. up to 2200 (at most 64 of them),
 * where the caps state a tile. Only sides in lo .. hi that are multiples of the axis's. */
static int large_sides(int32_t lo, int32_t hi, int32_t multiple, int32_t tile, int32_t *sides,
                       int *n_pow) {
    int n = 0;
    for (int k = 6; k <= 11; k++)
        for (int d = -1; d <= 1; d++) n = add_side(sides, n, (1 << k) + d, lo, hi, multiple);
    *n_pow = n;
    for (int64_t i = 2; tile > 0 && i <= 64 && (i == 2 || i * tile <= 2200); i++)
        for (int d = -1; d <= 1; d++) n = add_side(sides, n, i * tile + d, lo, hi, multiple);
    return n;
}

/* One of the sides: at least LARGE_LONG_SIDE when asked and there is one; else the power or the
 * tile family, as likely as each other. */
static int32_t pick_side(param_stream *ps, const int32_t *sides, int n, int n_pow, int want_long) {
    int n_long = 0;
    for (int i = 0; i < n; i++) n_long += sides[i] >= LARGE_LONG_SIDE;
    if (want_long && n_long > 0) {
        uint32_t k = uniform(ps, (uint32_t)n_long);
        for (int i = 0; i < n; i++)
            if (sides[i] >= LARGE_LONG_SIDE && k-- == 0) return sides[i];
    }
    if (n_pow < n && (n_pow == 0 || chance(ps, 50)))
        return sides[n_pow + (int)uniform(ps, (uint32_t)(n - n_pow))];
    return sides[uniform(ps, (uint32_t)n_pow)];
}

/* The largest of the sides at most limit, or -1. */
static int32_t largest_within(const int32_t *sides, int n, double limit) {
    int32_t best = -1;
    for (int i = 0; i < n; i++)
        if (sides[i] <= limit && sides[i] > best) best = sides[i];
    return best;
}


/* The large sides of both axes at radius r; 0 when an axis has none. */
static int large_axes_at(const cc_engine_caps *caps, const cc_campaign_options *opt, int32_t r,
                         large_axes *ax) {
    const int32_t hi[2] = {large_limit(opt, caps->w_max), large_limit(opt, caps->h_max)};
    const int32_t mult[2] = {caps->w_multiple, caps->h_multiple};
    const int32_t tile[2] = {caps->tile_w, caps->tile_h};
    for (int a = 0; a < 2; a++) {
        ax->lo[a] = side_min(opt, r, mult[a], hi[a]);
        if (ax->lo[a] < 0) return 0;
        ax->n[a] = large_sides(ax->lo[a], hi[a], mult[a], tile[a], ax->sides[a], &ax->n_pow[a]);
        if (ax->n[a] == 0) return 0;
    }
    return 1;
}

/* Whether some large case at radius r fits the budget: a large side on one axis, the smallest
 * on the other. */
int fuzz_large_fits(const cc_engine_caps *caps, const cc_campaign_options *opt, int32_t r,
                    double budget, large_axes *ax) {
    if (!large_axes_at(caps, opt, r, ax)) return 0;
    double per = step_cost(1, 1, r);
    for (int a = 0; a < 2; a++)
        if (largest_within(ax->sides[a], ax->n[a], budget / (per * ax->lo[1 - a])) > 0) return 1;
    return 0;
}

/* Sides and steps of a large case at the rule's radius (which fuzz_large_fits accepted): one axis
 * long (>= LARGE_LONG_SIDE) in 55% of them, then, where one step costs more than the budget, the
 * shorter side down to the largest that fits (or the smallest side), else the longer one too. */
void fuzz_draw_large(param_stream *ps, const large_axes *ax, double budget, int64_t steps_max,
                     cc_case *c) {
    int long_axis = chance(ps, 55) ? (int)uniform(ps, 2) : -1;
    int32_t side[2];
    for (int a = 0; a < 2; a++)
        side[a] = pick_side(ps, ax->sides[a], ax->n[a], ax->n_pow[a], long_axis == a);
    for (int tries = 0; tries < 2 && side[0] == side[1]; tries++)
        side[1] = pick_side(ps, ax->sides[1], ax->n[1], ax->n_pow[1], long_axis == 1);
    double per = step_cost(1, 1, c->rule.radius);
    if (per * side[0] * side[1] > budget) {
        int keep = long_axis >= 0 ? long_axis : side[0] >= side[1] ? 0 : 1, cut = 1 - keep;
        int32_t v = largest_within(ax->sides[cut], ax->n[cut], budget / (per * side[keep]));
        if (v < 0 && per * side[keep] * ax->lo[cut] <= budget) v = ax->lo[cut];
        if (v < 0) {
            v = ax->lo[cut];
            side[keep] = largest_within(ax->sides[keep], ax->n[keep], budget / (per * v));
        }
        side[cut] = v;
        if (side[keep] < 0) {
            /* Only the other axis has a large side that fits (fuzz_large_fits found one). */
            side[keep] = ax->lo[keep];
            side[cut] = largest_within(ax->sides[cut], ax->n[cut], budget / (per * side[keep]));
        }
    }
    c->w = side[0];
    c->h = side[1];
    int64_t k = between(ps, 1, 4), fit = (int64_t)(budget / (per * side[0] * side[1]));
    if (k > fit) k = fit;
    c->steps = k > steps_max ? steps_max : k;
}

/* The work of k steps of a case at radius r on the smallest non-square grid the axes allow. */
static double radius_steps_cost(const cc_engine_caps *caps, const cc_campaign_options *opt,
                                int32_t r, int64_t k) {
    int32_t w_hi = side_limit(opt, caps->w_max), h_hi = side_limit(opt, caps->h_max);
    int32_t w = side_min(opt, r, caps->w_multiple, w_hi), h = side_min(opt, r, caps->h_multiple, h_hi);
    if (w < 0 || h < 0) return INFINITY;
    return step_cost(w, h + caps->h_multiple, r) * (double)k;
}

/* Steps (2..4) for a case at r > CC_CAMPAIGN_LARGE_RADIUS that gets several, or 0. Where they
 * cost more than the budget on the smallest grid, the case keeps its radius with probability
 * budget / cost (so its expected work stays within the budget), else takes a radius above
 * CC_CAMPAIGN_LARGE_RADIUS that fits, else gets no extra steps. */
int64_t fuzz_radius_steps(param_stream *ps, const cc_engine_caps *caps,
                          const cc_campaign_options *opt, int32_t rlo, int64_t steps_max,
                          double budget, cc_rule *rule) {
    if (steps_max < 2) return 0;
    int64_t k = between(ps, 2, steps_max < 4 ? (int32_t)steps_max : 4);
    double cost = radius_steps_cost(caps, opt, rule->radius, k);
    if (cost <= budget || unit(ps) < budget / cost) return k;
    int32_t floor_r = rlo > CC_CAMPAIGN_LARGE_RADIUS ? rlo : CC_CAMPAIGN_LARGE_RADIUS + 1;
    int32_t rcap = rule->radius - 1;
    while (rcap >= floor_r && radius_steps_cost(caps, opt, rcap, k) > budget) rcap--;
    if (rcap < floor_r) return 0;
    rule->radius = between(ps, floor_r, rcap);
    return k;
}

/* Sides of such a case: near the smallest, not square where the axes allow. */
void fuzz_draw_radius_sides(param_stream *ps, cc_case *c, int32_t w_lo, int32_t w_hi,
                            int32_t h_lo, int32_t h_hi, int32_t w_mult, int32_t h_mult) {
    c->w = w_lo + w_mult * between(ps, 0, 1);
    c->h = h_lo + h_mult * between(ps, 0, 1);
    if (c->w > w_hi) c->w = w_lo;
    if (c->h > h_hi) c->h = h_lo;
    if (c->w == c->h) {
        if (c->h + h_mult <= h_hi)
            c->h += h_mult;
        else if (c->w + w_mult <= w_hi)
            c->w += w_mult;
    }
}
