/* Fitting a case to an engine's caps: the caps resolved once per engine (cc_draw_caps_of), the
 * radii a shape draws from, and the limits of ports (square_only, s/b_ranges_max, no_b0,
 * cells_max, and each shape's own limits, caps.shape_limits). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <string.h>

#include "fuzz/draw_internal.h"

void cc_draw_caps_of(const cc_engine *engine, cc_draw_caps *out) {
    memset(out, 0, sizeof *out);
    out->name = engine->name;
    out->hardware = engine->hardware;
    out->all = cc_engine_caps_resolved(engine);
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        out->shape[s] = cc_engine_caps_for_shape(&out->all, (cc_shape)s);
        if (cc_engine_caps_shape_narrowed(&out->all, (cc_shape)s)) out->narrowed |= CC_SHAPE_BIT(s);
    }
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

/* The rule's sets within the caps' interval and B0 limits. */
void fuzz_fit_port_sets(const cc_engine_caps *caps, cc_rule *rule) {
    if (caps->s_ranges_max > 0) limit_intervals(&rule->survive, caps->s_ranges_max);
    if (caps->b_ranges_max > 0) limit_intervals(&rule->birth, caps->b_ranges_max);
    if (caps->no_b0) drop_b0(&rule->birth, cc_rule_max_count(rule));
}

/* The sizes within square_only and cells_max: a square keeps the case's cost (its side the
 * geometric mean, so a wide case stays as dear), a grid over cells_max shrinks to fit. The smallest
 * side 2r+1 always fits: fuzz_radius_window keeps such radii out. */
void fuzz_fit_port_sides(const cc_engine_caps *caps, int32_t hi, cc_case *c) {
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
    fuzz_fit_port_sets(caps, &c->rule);
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

/* The radius range valid cases of one shape draw from, given its caps (the engine's as they
 * stand for the shape) and the options; an error naming why when empty. */
int fuzz_radius_window(const char *engine, const cc_engine_caps *caps,
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
                           engine, (int)opt->radius_lo, (int)opt->radius_hi, (int)a, (int)b);
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
                       engine, w_none ? "width" : "height",
                       (int)(opt->size_lo > 1 ? opt->size_lo : 1), (int)(w_none ? w_hi : h_hi),
                       (int)(w_none ? caps->w_multiple : caps->h_multiple),
                       w_none ? "w_multiple" : "h_multiple");
    while (b >= a && (side_min(opt, b, caps->w_multiple, w_hi) < 0 ||
                      side_min(opt, b, caps->h_multiple, h_hi) < 0 || !port_radius_fits(caps, b)))
        b--;
    if (b < a)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: no radius in %d..%d fits sides up to %dx%d (a grid needs 2r+1 a side)",
                       engine, (int)a, (int)(opt->radius_hi > 0 ? opt->radius_hi : caps->radius_max),
                       (int)w_hi, (int)h_hi);
    *lo = a;
    *hi = b;
    return CC_OK;
}
