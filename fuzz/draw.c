/* Drawing a case for an engine from a case seed. Valid cases cover each engine's whole range with
 * extra weight on its edges (smallest and largest radius, the smallest size 2r+1, primes, powers
 * of two, densities 0 and 1, count ranges touching 0 and the largest count); invalid cases break
 * exactly one of its limits. */
#include <math.h>
#include <stdio.h>
#include <string.h>


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
    INVALID_KINDS
} invalid_kind;

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
        cc_rule widest = {.shape = CC_SHAPE_MOORE, .radius = caps->radius_max, .centre = 1};
        if (widest.radius > CC_RADIUS_MAX) widest.radius = CC_RADIUS_MAX;
        if (cc_rule_max_count(&widest) > caps->count_max) kinds[n++] = INVALID_COUNT;
    }
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
    default: break;
    }
    int32_t max = cc_rule_max_count(rule);
    draw_range(ps, max, 1, &rule->survive);
    draw_range(ps, max, 0, &rule->birth);
    if (caps->count_max > 0 && kind != INVALID_COUNT) {
        fuzz_set_clamp(&rule->survive, caps->count_max);
        fuzz_set_clamp(&rule->birth, caps->count_max);
    }
    c->w = fuzz_side_min(rule->radius, caps->w_multiple) + caps->w_multiple * between(ps, 0, 2);
    c->h = fuzz_side_min(rule->radius, caps->h_multiple) + caps->h_multiple * between(ps, 0, 2);
    if (caps->w_max > 0 && c->w > caps->w_max) c->w = round_down(caps->w_max, caps->w_multiple);
    if (caps->h_max > 0 && c->h > caps->h_max) c->h = round_down(caps->h_max, caps->h_multiple);
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
        rule->radius = rmax;
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
    default: break;
    }
    return CC_OK;
}

/* The radius range valid cases draw from, given caps and options; -1 when empty. */
static int radius_window(const cc_engine *engine, const cc_campaign_options *opt, int32_t *lo,
                         int32_t *hi, cc_error *err) {
    const cc_engine_caps resolved = cc_engine_caps_resolved(engine);
    const cc_engine_caps *caps = &resolved;
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
    /* Radii whose smallest grid does not fit the size limits cannot be drawn. */
    int32_t w_hi = side_limit(opt, caps->w_max), h_hi = side_limit(opt, caps->h_max);
    while (b >= a && (side_min(opt, b, caps->w_multiple, w_hi) < 0 ||
                      side_min(opt, b, caps->h_multiple, h_hi) < 0))
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
    const cc_engine_caps resolved = cc_engine_caps_resolved(engine);
    const cc_engine_caps *caps = &resolved;
    int32_t rlo = 1, rhi = 1;
    int rc = radius_window(engine, opt, &rlo, &rhi, err);
    if (rc) return rc;
    cc_shape shapes[CC_SHAPE_COUNT];
    int n = 0;
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(caps->shapes & CC_SHAPE_BIT(s))) continue;
        if (s == CC_SHAPE_HEX && rlo != 1) continue;
        shapes[n++] = (cc_shape)s;
    }
    if (n == 0)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: no shape of the engine fits radii %d..%d",
                       engine->name, (int)rlo, (int)rhi);
    uint32_t centres[2];
    int nc = 0;
    if (caps->centres & CC_CENTRE_M0) centres[nc++] = 0;
    if (caps->centres & CC_CENTRE_M1) centres[nc++] = 1;
    if (nc == 0) return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: caps allow neither M0 nor M1", engine->name);

    cc_case *c = &out->c;
    cc_rule *rule = &c->rule;
    memset(rule, 0, sizeof *rule);
    rule->shape = shapes[uniform(ps, (uint32_t)n)];
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
    rule->centre = (int)centres[uniform(ps, (uint32_t)nc)];
    draw_sets(ps, rule, caps->count_max);

    int32_t w_hi = side_limit(opt, caps->w_max), h_hi = side_limit(opt, caps->h_max);
    int32_t w_lo = side_min(opt, rule->radius, caps->w_multiple, w_hi);
    int32_t h_lo = side_min(opt, rule->radius, caps->h_multiple, h_hi);
    c->w = draw_side(ps, w_lo, w_hi, caps->w_multiple);
    c->h = draw_side(ps, h_lo, h_hi, caps->h_multiple);
    c->steps = draw_steps(ps, opt->steps_max > 0 ? opt->steps_max : CC_CAMPAIGN_DEFAULT_STEPS_MAX);
    c->density = draw_density(ps);
    fit_budget(ps, c, opt->cost_budget > 0 ? opt->cost_budget : CC_CAMPAIGN_DEFAULT_BUDGET, w_lo,
               h_lo, caps->w_multiple, caps->h_multiple);
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
    int nk = invalid_kinds(&engine->caps, kinds);
    int percent = opt->invalid_percent < 0 ? 0 : opt->invalid_percent > 100 ? 100 : opt->invalid_percent;
    if (nk > 0 && chance(&ps, (uint32_t)percent)) {
        out->expect_refusal = 1;
        draw_invalid(&ps, engine, kinds[uniform(&ps, (uint32_t)nk)], out);
        out->c.steps = between(&ps, 0, 3);
        out->c.density = draw_density(&ps);
    } else {
        if ((rc = draw_valid(&ps, engine, opt, out, err))) return rc;
    }
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
    return cc_case_draw(engine, opt, seed, out, err);
}
