/* Drawing a case for an engine from a case seed. Valid cases cover each engine's whole range with
 * extra weight on its edges (smallest and largest radius, the smallest size 2r+1, primes, powers
 * of two, densities 0 and 1, count ranges touching 0 and the largest count); invalid cases break
 * exactly one of its limits. Of the valid cases:
 *
 * - most have sides up to CC_CAMPAIGN_DEFAULT_SIZE_MAX (160) and cost the oracle at most the
 *   budget (fit_budget: fewer steps, then smaller sides, then one step at probability
 *   budget / cost);
 * - CC_CAMPAIGN_DEFAULT_LARGE_PERCENT (15%) are large: sides past every engine's blocks, from
 *   2^k - 1, 2^k, 2^k + 1 (2^k in 64..2048) and n*tile - 1, n*tile, n*tile + 1 (n >= 2, where the
 *   caps state a tile), one side >= 1100 in about half of them, nearly all non-square, 1..4
 *   steps, bounded by the engine-work budget (CC_CAMPAIGN_DEFAULT_LARGE_BUDGET) rather than the
 *   oracle's, since a light-cone check verifies them; where one step would cost more, the
 *   shorter side shrinks (to 2r+1 at worst), and radii too wide for any large case are redrawn
 *   smaller;
 * - of those at r > 16, CC_CAMPAIGN_DEFAULT_RADIUS_STEPS_PERCENT (36%) get 2..4 steps on
 *   non-square grids near the smallest, within CC_CAMPAIGN_RADIUS_STEPS_BUDGET_FACTOR times the
 *   oracle budget in expectation (a dearer radius is kept at probability budget / cost, else a
 *   cheaper radius above 16 is taken).
 *
 * Every case, valid or not, also draws its grid kind: 70% uniform soups, 6% each of patches,
 * bands, cells, holes and checkerboards (oracle/case.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/draw.h"

/* The parameter stream: randombytes_buf_deterministic keyed by BLAKE2b-256(seed || "params"). */
typedef cc_param_stream param_stream;

static uint32_t next_u32(param_stream *ps) { return case_param_u32(ps); }

static uint32_t uniform(param_stream *ps, uint32_t n) { return case_param_uniform(ps, n); }

/* Uniform in lo .. hi (lo <= hi). */
static int32_t between(param_stream *ps, int32_t lo, int32_t hi) {
    if (hi <= lo) return lo;
    return lo + (int32_t)uniform(ps, (uint32_t)(hi - lo) + 1u);
}

/* True with probability percent / 100. */
static int chance(param_stream *ps, uint32_t percent) { return uniform(ps, 100) < percent; }

/* A uniform draw in [0, 1). */
static double unit(param_stream *ps) { return next_u32(ps) / 4294967296.0; }

/* Picks a category by weight: weights sum to anything positive. */
static int pick(param_stream *ps, const uint32_t *weights, int n) {
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
static int32_t log_between(param_stream *ps, int32_t lo, int32_t hi) {
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

static int is_prime(int32_t n) {
    if (n < 2) return 0;
    for (int32_t d = 2; (int64_t)d * d <= n; d++)
        if (n % d == 0) return 0;
    return 1;
}

static int32_t round_up(int32_t v, int32_t m) { return m > 1 ? (v + m - 1) / m * m : v; }
static int32_t round_down(int32_t v, int32_t m) { return m > 1 ? v / m * m : v; }

/* The largest side the draw may use for one axis. */
static int32_t side_limit(const cc_campaign_options *opt, int32_t axis_max) {
    int32_t hi = opt->size_hi > 0 ? opt->size_hi : CC_CAMPAIGN_DEFAULT_SIZE_MAX;
    if (axis_max > 0 && axis_max < hi) hi = axis_max;
    if (hi > CC_GRID_SIDE_MAX) hi = CC_GRID_SIDE_MAX;
    return hi;
}

/* The smallest valid side at radius r, or -1 when none fits below hi. */
static int32_t side_min(const cc_campaign_options *opt, int32_t r, int32_t multiple, int32_t hi) {
    int32_t lo = 2 * r + 1;
    if (opt->size_lo > lo) lo = opt->size_lo;
    lo = round_up(lo, multiple);
    return lo <= hi ? lo : -1;
}

/* One side in lo .. hi (lo a valid multiple): the smallest, just above it, a prime, a power of
 * two, or anything, log-uniform. Rounded to the multiple, staying within lo .. hi. */
static int32_t draw_side(param_stream *ps, int32_t lo, int32_t hi, int32_t multiple) {
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

static void set_range(cc_set *set, int32_t lo, int32_t hi) {
    cc_set_clear(set);
    set->n = 1;
    set->r[0].lo = lo;
    set->r[0].hi = hi;
}

/* One count range within 0 .. max: touching the largest count, ending just below it, touching
 * 0, a single count, everything, Table VI-like (a band around a third of the neighbourhood, as
 * Bosco's rule R5,C2,M1,S34..58,B34..45 is at 28%..48% and 28%..37%), or anything. */
static void draw_range(param_stream *ps, int32_t max, int survive, cc_set *set) {
    static const uint32_t weights[] = {16, 10, 10, 10, 4, 20, 30};
    int32_t lo, hi;
    switch (pick(ps, weights, 7)) {
    case 0:
        hi = max;
        lo = chance(ps, 40) ? max - between(ps, 0, 2) : between(ps, 0, max);
        break;
    case 1:
        hi = max - 1;
        lo = chance(ps, 40) ? hi - between(ps, 0, 2) : between(ps, 0, hi);
        break;
    case 2:
        lo = 0;
        hi = chance(ps, 40) ? between(ps, 0, 2) : between(ps, 0, max);
        break;
    case 3: lo = hi = between(ps, 0, max); break;
    case 4: lo = 0, hi = max; break;
    case 5: {
        double a = 0.28, b = survive ? 0.48 : 0.37;
        lo = (int32_t)floor(a * max + 0.5) + between(ps, -2, 2);
        hi = (int32_t)floor(b * max + 0.5) + between(ps, -2, 2);
        break;
    }
    default:
        lo = between(ps, 0, max);
        hi = between(ps, 0, max);
        if (lo > hi) {
            int32_t t = lo;
            lo = hi;
            hi = t;
        }
        break;
    }
    if (lo < 0) lo = 0;
    if (hi > max) hi = max;
    if (hi < 0) hi = 0;
    if (lo > hi) lo = hi;
    set_range(set, lo, hi);
}

/* A random subset of 0 .. max (Life-like notation), each count in with one probability. */
static void draw_subset(param_stream *ps, int32_t max, cc_set *set) {
    static const uint32_t percents[] = {15, 30, 50, 70};
    uint32_t p = percents[uniform(ps, 4)];
    cc_set_clear(set);
    for (int32_t k = 0; k <= max; k++)
        if (chance(ps, p)) cc_set_add(set, k, k, NULL); /* at most 5 ranges in 0..8 */
}

void fuzz_set_clamp(cc_set *set, int32_t max) {
    cc_set clamped;
    cc_set_clear(&clamped);
    for (int i = 0; i < set->n; i++) {
        int32_t lo = set->r[i].lo > max ? max : set->r[i].lo;
        int32_t hi = set->r[i].hi > max ? max : set->r[i].hi;
        cc_set_add(&clamped, lo, hi, NULL); /* merging never adds ranges */
    }
    *set = clamped;
}

static void draw_sets(param_stream *ps, cc_rule *rule, int32_t count_max) {
    int32_t max = cc_rule_max_count(rule);
    int life_like = rule->radius == 1 && rule->centre == 0 &&
                    (rule->shape == CC_SHAPE_MOORE || rule->shape == CC_SHAPE_HEX);
    if (life_like && chance(ps, 60)) {
        draw_subset(ps, max, &rule->survive);
        draw_subset(ps, max, &rule->birth);
    } else {
        draw_range(ps, max, 1, &rule->survive);
        draw_range(ps, max, 0, &rule->birth);
    }
    if (count_max > 0 && max > count_max) {
        /* Clamp into what the engine takes, so the case stays valid. */
        fuzz_set_clamp(&rule->survive, count_max);
        fuzz_set_clamp(&rule->birth, count_max);
    }
}

static double draw_density(param_stream *ps) {
    static const uint32_t weights[] = {6, 6, 12, 12, 64};
    switch (pick(ps, weights, 5)) {
    case 0: return 0.0;
    case 1: return 1.0;
    case 2: return between(ps, 1, 500) / 10000.0;
    case 3: return (10000 - between(ps, 1, 500)) / 10000.0;
    default: return between(ps, 1, 9999) / 10000.0;
    }
}

/* 70% uniform soups, 6% each of the structured kinds. */
static cc_grid_kind draw_grid_kind(param_stream *ps) {
    static const uint32_t weights[CC_GRID_KIND_COUNT] = {70, 6, 6, 6, 6, 6};
    return (cc_grid_kind)pick(ps, weights, CC_GRID_KIND_COUNT);
}

static int64_t draw_steps(param_stream *ps, int64_t steps_max) {
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

static double step_cost(int32_t w, int32_t h, int32_t r) {
    double side = 2.0 * r + 1.0;
    return (double)w * (double)h * side * side;
}

/* ---- The limits of ports (caps.square_only, s/b_ranges_max, no_b0, cells_max) ---------------
 * Applied after a valid case is drawn, without drawing anything more, so that an engine without
 * these limits draws exactly the cases it always did. */

/* Bridges the set's narrowest gaps until at most n intervals remain. */
static void limit_intervals(cc_set *set, int32_t n) {
    cc_set merged;
    cc_set_clear(&merged);
    for (int i = 0; i < set->n; i++) cc_set_add(&merged, set->r[i].lo, set->r[i].hi, NULL);
    while (n > 0 && merged.n > n) {
        int best = 0;
        for (int i = 1; i + 1 < merged.n; i++)
            if (merged.r[i + 1].lo - merged.r[i].hi < merged.r[best + 1].lo - merged.r[best].hi)
                best = i;
        merged.r[best].hi = merged.r[best + 1].hi;
        memmove(&merged.r[best + 1], &merged.r[best + 2],
                sizeof(cc_range) * (size_t)(merged.n - best - 2));
        merged.n--;
    }
    *set = merged;
}

/* B without 0; B = {0} becomes {max}, since Larger than Life notation has no empty set. */
static void drop_b0(cc_set *set, int32_t max) {
    cc_set kept;
    cc_set_clear(&kept);
    for (int i = 0; i < set->n; i++) {
        int32_t lo = set->r[i].lo < 1 ? 1 : set->r[i].lo;
        if (lo <= set->r[i].hi) cc_set_add(&kept, lo, set->r[i].hi, NULL);
    }
    if (kept.n == 0 && set->n > 0) cc_set_add(&kept, max, max, NULL);
    *set = kept;
}

static int32_t gcd32(int32_t a, int32_t b) { return b ? gcd32(b, a % b) : a; }

/* The side both axes accept when W must equal H. */
static int32_t square_multiple(const cc_engine_caps *caps) {
    int32_t a = caps->w_multiple > 1 ? caps->w_multiple : 1;
    int32_t b = caps->h_multiple > 1 ? caps->h_multiple : 1;
    return a / gcd32(a, b) * b;
}

/* The rule's sets within the caps' interval and B0 limits. */
static void fit_port_sets(const cc_engine_caps *caps, cc_rule *rule) {
    if (caps->s_ranges_max > 0) limit_intervals(&rule->survive, caps->s_ranges_max);
    if (caps->b_ranges_max > 0) limit_intervals(&rule->birth, caps->b_ranges_max);
    if (caps->no_b0) drop_b0(&rule->birth, cc_rule_max_count(rule));
}

/* The sizes within square_only and cells_max: a square keeps the case's cost (its side the
 * geometric mean, so a wide case stays as dear), a grid over cells_max shrinks to fit. The smallest
 * side 2r+1 always fits: radius_window keeps such radii out. */
static void fit_port_sides(const cc_engine_caps *caps, int32_t hi, cc_case *c) {
    int32_t r = c->rule.radius;
    if (caps->square_only) {
        int32_t m = square_multiple(caps);
        int32_t s = round_up((int32_t)ceil(sqrt((double)c->w * (double)c->h)), m);
        int32_t lo = round_up(2 * r + 1, m);
        if (s > hi) s = round_down(hi, m);
        c->w = c->h = s < lo ? lo : s;
    }
    if (caps->cells_max > 0 && (int64_t)c->w * c->h > caps->cells_max) {
        double scale = sqrt((double)caps->cells_max / ((double)c->w * (double)c->h));
        if (caps->square_only) {
            int32_t m = square_multiple(caps);
            c->w = c->h = round_down((int32_t)(c->w * scale), m);
        } else {
            c->w = round_down((int32_t)(c->w * scale), caps->w_multiple);
            c->h = round_down((int32_t)(c->h * scale), caps->h_multiple);
        }
        int32_t wm = caps->square_only ? square_multiple(caps) : caps->w_multiple;
        int32_t hm = caps->square_only ? square_multiple(caps) : caps->h_multiple;
        if (c->w < 2 * r + 1) c->w = round_up(2 * r + 1, wm);
        if (c->h < 2 * r + 1) c->h = round_up(2 * r + 1, hm);
        /* One side held at its smallest: the other takes what is left. */
        if ((int64_t)c->w * c->h > caps->cells_max && !caps->square_only) {
            if (c->w >= c->h) c->w = round_down((int32_t)(caps->cells_max / c->h), wm);
            else c->h = round_down((int32_t)(caps->cells_max / c->w), hm);
        }
    }
}

int fuzz_fit_port_caps(const cc_engine_caps *all, int keep_cells, cc_case *c) {
    /* The limits of the case's shape (caps.shape_limits), its cells_max among them. */
    const cc_engine_caps shaped = cc_engine_caps_for_shape(all, c->rule.shape);
    const cc_engine_caps *caps = &shaped;
    fit_port_sets(caps, &c->rule);
    /* A plane-only engine's checks are all on the plane (the caps resolved: never 0). */
    if (caps->topologies && !(caps->topologies & CC_TOPOLOGY_BIT(c->rule.topology)))
        c->rule.topology = CC_TOPOLOGY_PLANE;
    if (caps->square_only && c->w != c->h) {
        int32_t m = square_multiple(caps);
        int32_t s = keep_cells ? (int32_t)ceil(sqrt((double)c->w * (double)c->h))
                               : (c->w > c->h ? c->w : c->h);
        c->w = c->h = round_up(s, m);
    }
    return caps->cells_max <= 0 || (int64_t)c->w * c->h <= caps->cells_max;
}

/* Whether the smallest grid at radius r fits square_only and cells_max. */
static int port_radius_fits(const cc_engine_caps *caps, int32_t r) {
    int32_t wm = caps->square_only ? square_multiple(caps) : caps->w_multiple;
    int32_t hm = caps->square_only ? square_multiple(caps) : caps->h_multiple;
    int64_t w = round_up(2 * r + 1, wm), h = round_up(2 * r + 1, hm);
    return caps->cells_max <= 0 || w * h <= caps->cells_max;
}

/* Fits the case into the budget: fewer steps, then smaller sides, then (when one step at the
 * smallest size still costs more) one step with probability budget / cost, else none. */
static void fit_budget(param_stream *ps, cc_case *c, double budget, int32_t w_lo, int32_t h_lo,
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

/* ---- Large cases: sides past every block, bounded by the engine's work ------------------- */

#define LARGE_SIDES_MAX 512
#define LARGE_LONG_SIDE 1100 /* past a second 512-cell block, and past CAT's 1024 */

/* The largest side a large case may use for one axis: the caps' maximum, or the options' when
 * given. */
static int32_t large_limit(const cc_campaign_options *opt, int32_t axis_max) {
    int32_t hi = CC_GRID_SIDE_MAX;
    if (opt->size_hi > 0 && opt->size_hi < hi) hi = opt->size_hi;
    if (axis_max > 0 && axis_max < hi) hi = axis_max;
    return hi;
}

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

typedef struct large_axes {
    int32_t lo[2];                   /* the smallest side of W and of H at the radius */
    int32_t sides[2][LARGE_SIDES_MAX];
    int n[2], n_pow[2];
} large_axes;

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
static int large_fits(const cc_engine_caps *caps, const cc_campaign_options *opt, int32_t r,
                      double budget, large_axes *ax) {
    if (!large_axes_at(caps, opt, r, ax)) return 0;
    double per = step_cost(1, 1, r);
    for (int a = 0; a < 2; a++)
        if (largest_within(ax->sides[a], ax->n[a], budget / (per * ax->lo[1 - a])) > 0) return 1;
    return 0;
}

/* Sides and steps of a large case at the rule's radius (which large_fits accepted): one axis
 * long (>= LARGE_LONG_SIDE) in 55% of them, then, where one step costs more than the budget, the
 * shorter side down to the largest that fits (or the smallest side), else the longer one too. */
static void draw_large(param_stream *ps, const large_axes *ax, double budget, int64_t steps_max,
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
            /* Only the other axis has a large side that fits (large_fits found one). */
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
static int64_t radius_steps(param_stream *ps, const cc_engine_caps *caps,
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
static void draw_radius_sides(param_stream *ps, cc_case *c, int32_t w_lo, int32_t w_hi,
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

typedef enum invalid_kind {
    INVALID_RADIUS_HIGH,
    INVALID_RADIUS_LOW,
    INVALID_SHAPE,
    INVALID_CENTRE,
    INVALID_W_MULTIPLE,
    INVALID_H_MULTIPLE,
    INVALID_W_MAX,
    INVALID_H_MAX,
    INVALID_COUNT,
    INVALID_NOT_SQUARE,
    INVALID_S_RANGES,
    INVALID_B_RANGES,
    INVALID_B0,
    INVALID_CELLS,
    INVALID_SHAPE_LIMIT, /* one limit of one shape (caps.shape_limits), within the engine's */
    INVALID_KINDS
} invalid_kind;

/* The limits of single shapes a case can break alone: a radius past the shape's own, W or H
 * above its own, a grid over its own cells. */
typedef enum shape_break { BREAK_RADIUS_HIGH, BREAK_RADIUS_LOW, BREAK_W, BREAK_H, BREAK_CELLS } shape_break;

typedef struct shape_limit_break {
    cc_shape shape;
    shape_break what;
} shape_limit_break;

/* Every (shape, limit) of caps that narrows the engine-wide one; returns how many. */
static int shape_limit_breaks(const cc_engine_caps *caps, shape_limit_break *out) {
    int n = 0;
    const int32_t rmax = caps->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps->radius_max;
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(caps->shapes & CC_SHAPE_BIT(s)) || !cc_engine_caps_shape_narrowed(caps, (cc_shape)s))
            continue;
        const cc_engine_caps sc = cc_engine_caps_for_shape(caps, (cc_shape)s);
        int32_t w, h;
        if (s != CC_SHAPE_HEX && sc.radius_max < rmax)
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_RADIUS_HIGH};
        if (s != CC_SHAPE_HEX && sc.radius_min > caps->radius_min)
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_RADIUS_LOW};
        if (sc.w_max > 0 && sc.w_max != caps->w_max && sc.w_max < CC_GRID_SIDE_MAX)
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_W};
        if (sc.h_max > 0 && sc.h_max != caps->h_max && sc.h_max < CC_GRID_SIDE_MAX)
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_H};
        if (sc.cells_max != caps->cells_max && fuzz_over_cells(&sc, &w, &h))
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_CELLS};
    }
    return n;
}

/* The rule on which n + 1 intervals 1..1, 3..3, ..., 2n+1..2n+1 break a limit of n: only the
 * Life-like notations (Moore or hex, r = 1, M0) print a set of several intervals in a case line. */
int fuzz_ranges_breakable(const cc_engine_caps *caps, int32_t n, cc_rule *rule) {
    if (n <= 0 || n >= CC_SET_MAX_RANGES || caps->radius_min > 1 || !(caps->centres & CC_CENTRE_M0))
        return 0;
    memset(rule, 0, sizeof *rule);
    rule->radius = 1;
    rule->shape = (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_MOORE)) ? CC_SHAPE_MOORE : CC_SHAPE_HEX;
    if (!(caps->shapes & CC_SHAPE_BIT(rule->shape))) return 0;
    int32_t top = cc_rule_max_count(rule);
    if (caps->count_max > 0 && caps->count_max < top) top = caps->count_max;
    if (top < 2 * n + 1) return 0;
    set_range(&rule->survive, 2, 3 < top ? 3 : top);
    set_range(&rule->birth, 3 < top ? 3 : top, 3 < top ? 3 : top);
    return 1;
}

/* rule with the set broken into n + 1 single counts 1, 3, 5, ... */
void fuzz_set_intervals_over(cc_set *set, int32_t n) {
    cc_set_clear(set);
    for (int32_t i = 0; i <= n; i++) cc_set_add(set, 2 * i + 1, 2 * i + 1, NULL);
}

/* Sides of a grid just over cells_max within the side limits; 0 when none. */
int fuzz_over_cells(const cc_engine_caps *caps, int32_t *w, int32_t *h) {
    int32_t wm = caps->square_only ? square_multiple(caps) : caps->w_multiple;
    int32_t hm = caps->square_only ? square_multiple(caps) : caps->h_multiple;
    int32_t w_hi = caps->w_max > 0 && caps->w_max < CC_GRID_SIDE_MAX ? caps->w_max : CC_GRID_SIDE_MAX;
    int32_t h_hi = caps->h_max > 0 && caps->h_max < CC_GRID_SIDE_MAX ? caps->h_max : CC_GRID_SIDE_MAX;
    if (caps->cells_max <= 0 || caps->cells_max >= (int64_t)w_hi * h_hi) return 0;
    int64_t side = (int64_t)ceil(sqrt((double)caps->cells_max + 1.0));
    *w = side > w_hi ? round_down(w_hi, wm) : round_up((int32_t)side, wm);
    *h = caps->square_only ? *w : round_up((int32_t)(caps->cells_max / *w + 1), hm);
    return *w <= w_hi && *h <= h_hi && (int64_t)*w * *h > caps->cells_max;
}

/* A shape the engine has other than hex (which needs r = 1), or Moore. */
static cc_shape some_wide_shape(param_stream *ps, uint32_t shapes) {
    cc_shape options[CC_SHAPE_COUNT];
    int n = 0;
    for (int s = 0; s < CC_SHAPE_COUNT; s++)
        if (s != CC_SHAPE_HEX && (shapes & CC_SHAPE_BIT(s))) options[n++] = (cc_shape)s;
    return n ? options[uniform(ps, (uint32_t)n)] : CC_SHAPE_MOORE;
}

/* Which limits of caps a case can break while staying valid for the oracle. */
static int invalid_kinds(const cc_engine_caps *caps, invalid_kind *kinds) {
    int n = 0;
    if (caps->radius_max < CC_RADIUS_MAX) kinds[n++] = INVALID_RADIUS_HIGH;
    if (caps->radius_min > 1) kinds[n++] = INVALID_RADIUS_LOW;
    if ((caps->shapes & 0x1fu) != 0x1fu) kinds[n++] = INVALID_SHAPE;
    if ((caps->centres & (CC_CENTRE_M0 | CC_CENTRE_M1)) != (CC_CENTRE_M0 | CC_CENTRE_M1))
        kinds[n++] = INVALID_CENTRE;
    if (caps->w_multiple > 1) kinds[n++] = INVALID_W_MULTIPLE;
    if (caps->h_multiple > 1) kinds[n++] = INVALID_H_MULTIPLE;
    if (caps->w_max > 0 && caps->w_max < CC_GRID_SIDE_MAX) kinds[n++] = INVALID_W_MAX;
    if (caps->h_max > 0 && caps->h_max < CC_GRID_SIDE_MAX) kinds[n++] = INVALID_H_MAX;
    if (caps->count_max > 0) {
        cc_rule widest = {.shape = CC_SHAPE_MOORE,
                          .radius = cc_engine_caps_for_shape(caps, CC_SHAPE_MOORE).radius_max,
                          .centre = 1};
        if (widest.radius > CC_RADIUS_MAX) widest.radius = CC_RADIUS_MAX;
        if (cc_rule_max_count(&widest) > caps->count_max) kinds[n++] = INVALID_COUNT;
    }
    if (caps->square_only) kinds[n++] = INVALID_NOT_SQUARE;
    cc_rule breaking;
    if (fuzz_ranges_breakable(caps, caps->s_ranges_max, &breaking)) kinds[n++] = INVALID_S_RANGES;
    if (fuzz_ranges_breakable(caps, caps->b_ranges_max, &breaking)) kinds[n++] = INVALID_B_RANGES;
    if (caps->no_b0) kinds[n++] = INVALID_B0;
    int32_t w, h;
    if (fuzz_over_cells(caps, &w, &h)) kinds[n++] = INVALID_CELLS;
    shape_limit_break breaks[CC_SHAPE_COUNT * 5];
    if (shape_limit_breaks(caps, breaks) > 0) kinds[n++] = INVALID_SHAPE_LIMIT;
    return n;
}

int32_t fuzz_side_min(int32_t r, int32_t multiple) { return round_up(2 * r + 1, multiple); }

static int draw_invalid(param_stream *ps, const cc_engine *engine, invalid_kind kind,
                        cc_drawn_case *out) {
    const cc_engine_caps resolved = cc_engine_caps_resolved(engine);
    const cc_engine_caps *caps = &resolved;
    cc_case *c = &out->c;
    cc_rule *rule = &c->rule;
    memset(rule, 0, sizeof *rule);
    /* Start from something the engine takes, then break one thing. */
    rule->shape = some_wide_shape(ps, caps->shapes);
    int32_t rmax = caps->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps->radius_max;
    rule->radius = rule->shape == CC_SHAPE_HEX ? 1 : between(ps, caps->radius_min, rmax);
    if (rule->radius > 8 && chance(ps, 70)) rule->radius = between(ps, caps->radius_min, 8);
    if (rule->radius < caps->radius_min) rule->radius = caps->radius_min;
    rule->centre = (caps->centres & CC_CENTRE_M1) ? ((caps->centres & CC_CENTRE_M0) ? (int)uniform(ps, 2) : 1) : 0;
    shape_limit_break broken = {CC_SHAPE_MOORE, BREAK_RADIUS_HIGH};
    if (kind == INVALID_SHAPE_LIMIT) {
        shape_limit_break breaks[CC_SHAPE_COUNT * 5];
        int nb = shape_limit_breaks(caps, breaks);
        broken = breaks[uniform(ps, (uint32_t)nb)];
        rule->shape = broken.shape;
        if (rule->shape == CC_SHAPE_HEX) rule->radius = 1;
    }
    /* Within the shape's own limits (caps.shape_limits): the sides below are its. */
    const cc_engine_caps shaped = cc_engine_caps_for_shape(caps, rule->shape);
    if (rule->shape != CC_SHAPE_HEX) {
        if (rule->radius > shaped.radius_max) rule->radius = shaped.radius_max;
        if (rule->radius < shaped.radius_min) rule->radius = shaped.radius_min;
    }
    switch (kind) {
    case INVALID_RADIUS_HIGH:
        rule->radius = rmax + between(ps, 1, 3);
        if (rule->radius > CC_RADIUS_MAX) rule->radius = CC_RADIUS_MAX;
        snprintf(out->why, sizeof out->why, "radius %d above the engine's %d", (int)rule->radius,
                 (int)caps->radius_max);
        break;
    case INVALID_RADIUS_LOW:
        rule->radius = between(ps, 1, caps->radius_min - 1);
        snprintf(out->why, sizeof out->why, "radius %d below the engine's %d", (int)rule->radius,
                 (int)caps->radius_min);
        break;
    case INVALID_SHAPE: {
        cc_shape missing[CC_SHAPE_COUNT];
        int n = 0;
        for (int s = 0; s < CC_SHAPE_COUNT; s++)
            if (!(caps->shapes & CC_SHAPE_BIT(s))) missing[n++] = (cc_shape)s;
        rule->shape = missing[uniform(ps, (uint32_t)n)];
        if (rule->shape == CC_SHAPE_HEX) rule->radius = 1;
        snprintf(out->why, sizeof out->why, "shape %s the engine lacks", cc_shape_code(rule->shape));
        break;
    }
    case INVALID_CENTRE:
        rule->centre = (caps->centres & CC_CENTRE_M1) ? 0 : 1;
        snprintf(out->why, sizeof out->why, "centre M%d the engine lacks", rule->centre);
        break;
    case INVALID_SHAPE_LIMIT:
        if (broken.what == BREAK_RADIUS_HIGH) {
            rule->radius = shaped.radius_max + between(ps, 1, 3);
            if (rule->radius > rmax) rule->radius = rmax;
        } else if (broken.what == BREAK_RADIUS_LOW) {
            rule->radius = between(ps, caps->radius_min, shaped.radius_min - 1);
        }
        if (broken.what == BREAK_RADIUS_HIGH || broken.what == BREAK_RADIUS_LOW)
            snprintf(out->why, sizeof out->why, "radius %d outside %s's own %d..%d",
                     (int)rule->radius, cc_shape_code(rule->shape), (int)shaped.radius_min,
                     (int)shaped.radius_max);
        break;
    default: break;
    }
    int32_t max = cc_rule_max_count(rule);
    draw_range(ps, max, 1, &rule->survive);
    draw_range(ps, max, 0, &rule->birth);
    if (caps->count_max > 0 && kind != INVALID_COUNT) {
        fuzz_set_clamp(&rule->survive, caps->count_max);
        fuzz_set_clamp(&rule->birth, caps->count_max);
    }
    fit_port_sets(caps, rule);
    c->w = fuzz_side_min(rule->radius, caps->w_multiple) + caps->w_multiple * between(ps, 0, 2);
    c->h = fuzz_side_min(rule->radius, caps->h_multiple) + caps->h_multiple * between(ps, 0, 2);
    if (shaped.w_max > 0 && c->w > shaped.w_max) c->w = round_down(shaped.w_max, caps->w_multiple);
    if (shaped.h_max > 0 && c->h > shaped.h_max) c->h = round_down(shaped.h_max, caps->h_multiple);
    if (caps->square_only) c->w = c->h = fuzz_side_min(rule->radius, square_multiple(caps));
    switch (kind) {
    case INVALID_W_MULTIPLE:
        c->w += between(ps, 1, caps->w_multiple - 1);
        snprintf(out->why, sizeof out->why, "W %d not a multiple of %d", (int)c->w,
                 (int)caps->w_multiple);
        break;
    case INVALID_H_MULTIPLE:
        c->h += between(ps, 1, caps->h_multiple - 1);
        snprintf(out->why, sizeof out->why, "H %d not a multiple of %d", (int)c->h,
                 (int)caps->h_multiple);
        break;
    case INVALID_W_MAX:
        c->w = round_up(caps->w_max + 1, caps->w_multiple);
        snprintf(out->why, sizeof out->why, "W %d above the engine's %d", (int)c->w,
                 (int)caps->w_max);
        break;
    case INVALID_H_MAX:
        c->h = round_up(caps->h_max + 1, caps->h_multiple);
        snprintf(out->why, sizeof out->why, "H %d above the engine's %d", (int)c->h,
                 (int)caps->h_max);
        break;
    case INVALID_COUNT: {
        rule->shape = (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_MOORE)) ? CC_SHAPE_MOORE : rule->shape;
        /* The widest neighbourhood the engine has, so its counts pass count_max. */
        rule->radius = cc_engine_caps_for_shape(caps, rule->shape).radius_max;
        if (rule->radius > rmax) rule->radius = rmax;
        rule->centre = (caps->centres & CC_CENTRE_M1) ? 1 : 0;
        max = cc_rule_max_count(rule);
        if (max <= caps->count_max) {
            /* The engine's own shape cannot pass count_max at this radius: try Moore, which is
             * the widest, even if it means a second broken limit. */
            rule->shape = CC_SHAPE_MOORE;
            max = cc_rule_max_count(rule);
        }
        int32_t hi = between(ps, caps->count_max + 1, max);
        set_range(chance(ps, 50) ? &rule->survive : &rule->birth, between(ps, 0, hi), hi);
        c->w = fuzz_side_min(rule->radius, caps->w_multiple);
        c->h = fuzz_side_min(rule->radius, caps->h_multiple);
        snprintf(out->why, sizeof out->why, "counts up to %d above the engine's %d", (int)hi,
                 (int)caps->count_max);
        break;
    }
    case INVALID_NOT_SQUARE:
        c->h = c->w + (caps->h_multiple > 1 ? caps->h_multiple : between(ps, 1, 3));
        if (caps->h_max > 0 && c->h > caps->h_max) {
            c->h = c->w;
            c->w = round_up(c->h + 1, caps->w_multiple);
        }
        snprintf(out->why, sizeof out->why, "grid %dx%d not square", (int)c->w, (int)c->h);
        break;
    case INVALID_S_RANGES:
    case INVALID_B_RANGES: {
        int survive = kind == INVALID_S_RANGES;
        int32_t n = (survive ? caps->s_ranges_max : caps->b_ranges_max) + 1;
        fuzz_ranges_breakable(caps, n - 1, rule);
        fuzz_set_intervals_over(survive ? &rule->survive : &rule->birth, n - 1);
        c->w = fuzz_side_min(rule->radius, caps->square_only ? square_multiple(caps) : caps->w_multiple);
        c->h = fuzz_side_min(rule->radius, caps->square_only ? square_multiple(caps) : caps->h_multiple);
        snprintf(out->why, sizeof out->why, "%s in %d intervals, above the engine's %d",
                 survive ? "S" : "B", (int)n, (int)(n - 1));
        break;
    }
    case INVALID_B0: /* B from 0 to its top: one interval, as Larger than Life notation needs */
        cc_set_add(&rule->birth, 0, rule->birth.n > 0 ? rule->birth.r[0].lo : 0, NULL);
        snprintf(out->why, sizeof out->why, "B containing 0");
        break;
    case INVALID_CELLS:
        fuzz_over_cells(caps, &c->w, &c->h);
        snprintf(out->why, sizeof out->why, "grid %dx%d above the engine's %lld cells", (int)c->w,
                 (int)c->h, (long long)caps->cells_max);
        break;
    case INVALID_SHAPE_LIMIT: {
        const char *code = cc_shape_code(rule->shape);
        if (broken.what == BREAK_W) {
            c->w = round_up(shaped.w_max + 1, caps->w_multiple);
            if (caps->square_only) c->h = c->w;
            snprintf(out->why, sizeof out->why, "W %d above %s's own %d", (int)c->w, code,
                     (int)shaped.w_max);
        } else if (broken.what == BREAK_H) {
            c->h = round_up(shaped.h_max + 1, caps->h_multiple);
            if (caps->square_only) c->w = c->h;
            snprintf(out->why, sizeof out->why, "H %d above %s's own %d", (int)c->h, code,
                     (int)shaped.h_max);
        } else if (broken.what == BREAK_CELLS) {
            fuzz_over_cells(&shaped, &c->w, &c->h);
            snprintf(out->why, sizeof out->why, "grid %dx%d above %s's own %lld cells",
                     (int)c->w, (int)c->h, code, (long long)shaped.cells_max);
        }
        break;
    }
    default: break;
    }
    return CC_OK;
}

/* The radius range valid cases of one shape draw from, given its caps (the engine's as they
 * stand for the shape) and the options; an error naming why when empty. */
static int radius_window(const cc_engine *engine, const cc_engine_caps *caps,
                         const cc_campaign_options *opt, int32_t *lo, int32_t *hi, cc_error *err) {
    int32_t a = caps->radius_min < 1 ? 1 : caps->radius_min;
    int32_t b = caps->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps->radius_max;
    if (opt->radius_lo > 0 || opt->radius_hi > 0) {
        if (opt->radius_hi < opt->radius_lo || opt->radius_lo < 1)
            return cc_fail(err, CC_ERR_ARG, "radius range %d..%d is empty", (int)opt->radius_lo,
                           (int)opt->radius_hi);
        if (opt->radius_hi < a || opt->radius_lo > b)
            return cc_fail(err, CC_ERR_UNSUPPORTED,
                           "%s: radius range %d..%d lies outside the engine's %d..%d",
                           engine->name, (int)opt->radius_lo, (int)opt->radius_hi, (int)a, (int)b);
        if (opt->radius_lo > a) a = opt->radius_lo;
        if (opt->radius_hi < b) b = opt->radius_hi;
    }
    /* Radii whose smallest grid does not fit the size limits cannot be drawn. A side range with
     * no multiple of the engine's in it fits no radius at all: that is the multiple's doing. */
    int32_t w_hi = side_limit(opt, caps->w_max), h_hi = side_limit(opt, caps->h_max);
    int w_none = side_min(opt, 0, caps->w_multiple, w_hi) < 0;
    if (w_none || side_min(opt, 0, caps->h_multiple, h_hi) < 0)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: no %s in %d..%d is a multiple of %d, as the engine's %s needs",
                       engine->name, w_none ? "width" : "height",
                       (int)(opt->size_lo > 1 ? opt->size_lo : 1), (int)(w_none ? w_hi : h_hi),
                       (int)(w_none ? caps->w_multiple : caps->h_multiple),
                       w_none ? "w_multiple" : "h_multiple");
    while (b >= a && (side_min(opt, b, caps->w_multiple, w_hi) < 0 ||
                      side_min(opt, b, caps->h_multiple, h_hi) < 0 || !port_radius_fits(caps, b)))
        b--;
    if (b < a)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: no radius in %d..%d fits sides up to %dx%d (a grid needs 2r+1 a side)",
                       engine->name, (int)a, (int)(opt->radius_hi > 0 ? opt->radius_hi : caps->radius_max),
                       (int)w_hi, (int)h_hi);
    *lo = a;
    *hi = b;
    return CC_OK;
}

static int draw_valid(param_stream *ps, const cc_engine *engine, const cc_campaign_options *opt,
                      cc_drawn_case *out, cc_error *err) {
    const cc_engine_caps all = cc_engine_caps_resolved(engine);
    /* Each shape draws within its own radii and sides (caps.shape_limits); a shape whose
     * window the options leave empty is not drawn. */
    cc_shape shapes[CC_SHAPE_COUNT];
    int32_t los[CC_SHAPE_COUNT], his[CC_SHAPE_COUNT];
    int n = 0, rc = CC_OK;
    cc_error first_err;
    cc_error_clear(&first_err);
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(all.shapes & CC_SHAPE_BIT(s))) continue;
        const cc_engine_caps sc = cc_engine_caps_for_shape(&all, (cc_shape)s);
        int32_t lo = 1, hi = 1;
        int src = radius_window(engine, &sc, opt, &lo, &hi, &first_err);
        if (src) {
            if (!rc) rc = src, *err = first_err;
            continue;
        }
        if (s == CC_SHAPE_HEX && lo != 1) continue;
        los[n] = lo;
        his[n] = hi;
        shapes[n++] = (cc_shape)s;
    }
    if (n == 0 && rc) return rc;
    if (n == 0)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: no shape of the engine fits radii %d..%d",
                       engine->name, (int)(opt->radius_lo > 0 ? opt->radius_lo : all.radius_min),
                       (int)(opt->radius_hi > 0 ? opt->radius_hi : all.radius_max));
    uint32_t centres[2];
    int nc = 0;
    if (all.centres & CC_CENTRE_M0) centres[nc++] = 0;
    if (all.centres & CC_CENTRE_M1) centres[nc++] = 1;
    if (nc == 0) return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: caps allow neither M0 nor M1", engine->name);

    cc_case *c = &out->c;
    cc_rule *rule = &c->rule;
    memset(rule, 0, sizeof *rule);
    const int pick_shape = (int)uniform(ps, (uint32_t)n);
    rule->shape = shapes[pick_shape];
    const int32_t rlo = los[pick_shape], rhi = his[pick_shape];
    const cc_engine_caps resolved = cc_engine_caps_for_shape(&all, rule->shape);
    const cc_engine_caps *caps = &resolved;
    if (rule->shape == CC_SHAPE_HEX) {
        rule->radius = 1;
    } else {
        static const uint32_t weights[] = {10, 15, 15, 60};
        switch (pick(ps, weights, 4)) {
        case 0: rule->radius = rlo; break;
        case 1: rule->radius = rhi; break;
        case 2: rule->radius = between(ps, rlo, rhi < rlo + 2 ? rhi : rlo + 2); break;
        default: rule->radius = log_between(ps, rlo, rhi); break;
        }
    }
    /* A large case takes the drawn radius where one fits the budget, else a smaller one. */
    int large_percent = opt->large_percent == 0 ? CC_CAMPAIGN_DEFAULT_LARGE_PERCENT
                                                : opt->large_percent;
    double large_budget = opt->large_budget > 0 ? opt->large_budget
                                                : CC_CAMPAIGN_DEFAULT_LARGE_BUDGET;
    large_axes ax;
    int large = large_percent > 0 && chance(ps, large_percent > 100 ? 100u : (uint32_t)large_percent);
    if (large && !large_fits(caps, opt, rule->radius, large_budget, &ax)) {
        int32_t rcap = rule->radius - 1;
        while (rcap >= rlo && !large_fits(caps, opt, rcap, large_budget, &ax)) rcap--;
        large = rcap >= rlo;
        if (large) {
            rule->radius = log_between(ps, rlo, rcap);
            large_fits(caps, opt, rule->radius, large_budget, &ax);
        }
    }
    int64_t steps_max = opt->steps_max > 0 ? opt->steps_max : CC_CAMPAIGN_DEFAULT_STEPS_MAX;
    double budget = opt->cost_budget > 0 ? opt->cost_budget : CC_CAMPAIGN_DEFAULT_BUDGET;
    int64_t big_r_steps = 0;
    if (!large && rule->radius > CC_CAMPAIGN_LARGE_RADIUS &&
        chance(ps, CC_CAMPAIGN_DEFAULT_RADIUS_STEPS_PERCENT))
        big_r_steps = radius_steps(ps, caps, opt, rlo, steps_max,
                                   CC_CAMPAIGN_RADIUS_STEPS_BUDGET_FACTOR * budget, rule);
    rule->centre = (int)centres[uniform(ps, (uint32_t)nc)];
    draw_sets(ps, rule, caps->count_max);
    /* The bounded plane in a third of the cases of an engine that does both, in all of a
     * plane-only engine's; an engine of the torus alone draws what it always drew. */
    if (caps->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE)) {
        int torus = (caps->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS)) != 0;
        rule->topology = !torus || chance(ps, 33) ? CC_TOPOLOGY_PLANE : CC_TOPOLOGY_TORUS;
    }

    out->large = large;
    fit_port_sets(caps, rule);
    if (large) {
        draw_large(ps, &ax, large_budget, steps_max, c);
        c->density = draw_density(ps);
        int32_t w_hi = large_limit(opt, caps->w_max), h_hi = large_limit(opt, caps->h_max);
        fit_port_sides(caps, w_hi < h_hi ? w_hi : h_hi, c);
    } else {
        int32_t w_hi = side_limit(opt, caps->w_max), h_hi = side_limit(opt, caps->h_max);
        int32_t w_lo = side_min(opt, rule->radius, caps->w_multiple, w_hi);
        int32_t h_lo = side_min(opt, rule->radius, caps->h_multiple, h_hi);
        c->w = draw_side(ps, w_lo, w_hi, caps->w_multiple);
        c->h = draw_side(ps, h_lo, h_hi, caps->h_multiple);
        c->steps = draw_steps(ps, steps_max);
        c->density = draw_density(ps);
        if (big_r_steps > 0) {
            draw_radius_sides(ps, c, w_lo, w_hi, h_lo, h_hi, caps->w_multiple, caps->h_multiple);
            c->steps = big_r_steps;
        } else {
            fit_budget(ps, c, budget, w_lo, h_lo, caps->w_multiple, caps->h_multiple);
        }
        fit_port_sides(caps, w_hi < h_hi ? w_hi : h_hi, c);
    }
    out->expect_refusal = 0;
    out->why[0] = '\0';
    return CC_OK;
}

int cc_case_draw(const cc_engine *engine, const cc_campaign_options *opt,
                 const uint8_t seed[CC_SEED_BYTES], cc_drawn_case *out, cc_error *err) {
    param_stream ps;
    int rc = case_param_init(&ps, seed, "params", err);
    if (rc) return rc;
    memset(out, 0, sizeof *out);
    memcpy(out->c.seed, seed, CC_SEED_BYTES);
    invalid_kind kinds[INVALID_KINDS];
    const cc_engine_caps caps = cc_engine_caps_resolved(engine);
    int nk = invalid_kinds(&caps, kinds);
    int percent = opt->invalid_percent < 0 ? 0 : opt->invalid_percent > 100 ? 100 : opt->invalid_percent;
    if (nk > 0 && chance(&ps, (uint32_t)percent)) {
        out->expect_refusal = 1;
        draw_invalid(&ps, engine, kinds[uniform(&ps, (uint32_t)nk)], out);
        out->c.steps = between(&ps, 0, 3);
        out->c.density = draw_density(&ps);
    } else {
        if ((rc = draw_valid(&ps, engine, opt, out, err))) return rc;
    }
    out->c.grid_kind = draw_grid_kind(&ps);
    /* The draw must agree with the contract's own check, and print as a case line. */
    cc_error check;
    int refused = cc_engine_check(engine, &out->c.rule, out->c.w, out->c.h, &check) != CC_OK;
    if (refused != out->expect_refusal)
        return cc_fail(err, CC_ERR_ARG,
                       "%s: drew a case meant to be %s but the caps %s it%s%s (a generator bug)",
                       engine->name, out->expect_refusal ? "refused" : "valid",
                       refused ? "refuse" : "accept", refused ? ": " : "",
                       refused ? check.msg : "");
    char line[CC_CASE_TEXT_MAX];
    if ((rc = case_format(&out->c, line, sizeof line, err))) return rc;
    return CC_OK;
}

int cc_campaign_case(const cc_engine *engine, const cc_campaign_options *opt, uint64_t index,
                     cc_drawn_case *out, cc_error *err) {
    uint8_t seed[CC_SEED_BYTES];
    case_seed_derive(opt->master, index, seed);
    int rc = cc_case_draw(engine, opt, seed, out, err);
    if (!rc) out->c.threads = cc_team_size(engine, opt, index);
    return rc;
}

int32_t cc_team_size(const cc_engine *engine, const cc_campaign_options *opt, uint64_t index) {
    if (!engine || engine->hardware == CC_HW_GPU || opt->same_team) return 0;
    /* "Every core": the team this machine gives (OMP_NUM_THREADS where set, as a runner of
     * many jobs sets it, else the cores this process may use), at least 4. */
    const char *omp = getenv("OMP_NUM_THREADS");
    long given = omp && atoi(omp) > 0 ? atoi(omp) : cc_cores_available();
    const int32_t sizes[4] = {1, 2, 3, given > 4 ? (int32_t)(given < 1024 ? given : 1024) : 4};
    return sizes[(index / CC_TEAM_TURN) % 4];
}
