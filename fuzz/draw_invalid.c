/* Cases outside an engine's caps: each breaks exactly one limit (a radius, a shape, a centre, a
 * multiple, a side, the counts, squareness, the intervals of S or B, B0, the cells, or one limit
 * of one shape) and stays valid for the oracle (W, H >= 2r+1), so create must refuse it. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fuzz/draw_internal.h"

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
static int shape_limit_breaks(const cc_draw_caps *dc, shape_limit_break *out) {
    const cc_engine_caps *caps = &dc->all;
    int n = 0;
    const int32_t rmax = caps->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps->radius_max;
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(caps->shapes & CC_SHAPE_BIT(s)) || !(dc->narrowed & CC_SHAPE_BIT(s))) continue;
        const cc_engine_caps *sc = &dc->shape[s];
        int32_t w, h;
        if (s != CC_SHAPE_HEX && sc->radius_max < rmax)
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_RADIUS_HIGH};
        if (s != CC_SHAPE_HEX && sc->radius_min > caps->radius_min)
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_RADIUS_LOW};
        if (sc->w_max > 0 && sc->w_max != caps->w_max && sc->w_max < CC_GRID_SIDE_MAX)
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_W};
        if (sc->h_max > 0 && sc->h_max != caps->h_max && sc->h_max < CC_GRID_SIDE_MAX)
            out[n++] = (shape_limit_break){(cc_shape)s, BREAK_H};
        if (sc->cells_max != caps->cells_max && fuzz_over_cells(sc, &w, &h))
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
static int invalid_kinds(const cc_draw_caps *dc, invalid_kind *kinds) {
    const cc_engine_caps *caps = &dc->all;
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
                          .radius = dc->shape[CC_SHAPE_MOORE].radius_max,
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
    if (shape_limit_breaks(dc, breaks) > 0) kinds[n++] = INVALID_SHAPE_LIMIT;
    return n;
}

int32_t fuzz_side_min(int32_t r, int32_t multiple) { return round_up(2 * r + 1, multiple); }

static void draw_invalid(param_stream *ps, const cc_draw_caps *dc, invalid_kind kind,
                         cc_drawn_case *out) {
    const cc_engine_caps *caps = &dc->all;
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
        int nb = shape_limit_breaks(dc, breaks);
        broken = breaks[uniform(ps, (uint32_t)nb)];
        rule->shape = broken.shape;
        if (rule->shape == CC_SHAPE_HEX) rule->radius = 1;
    }
    /* Within the shape's own limits (caps.shape_limits): the sides below are its. */
    const cc_engine_caps *shaped = &dc->shape[rule->shape];
    if (rule->shape != CC_SHAPE_HEX) {
        if (rule->radius > shaped->radius_max) rule->radius = shaped->radius_max;
        if (rule->radius < shaped->radius_min) rule->radius = shaped->radius_min;
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
            rule->radius = shaped->radius_max + between(ps, 1, 3);
            if (rule->radius > rmax) rule->radius = rmax;
        } else if (broken.what == BREAK_RADIUS_LOW) {
            rule->radius = between(ps, caps->radius_min, shaped->radius_min - 1);
        }
        if (broken.what == BREAK_RADIUS_HIGH || broken.what == BREAK_RADIUS_LOW)
            snprintf(out->why, sizeof out->why, "radius %d outside %s's own %d..%d",
                     (int)rule->radius, cc_shape_code(rule->shape), (int)shaped->radius_min,
                     (int)shaped->radius_max);
        break;
    default: break;
    }
    int32_t max = cc_rule_max_count(rule);
    fuzz_draw_range(ps, max, 1, &rule->survive);
    fuzz_draw_range(ps, max, 0, &rule->birth);
    if (caps->count_max > 0 && kind != INVALID_COUNT) {
        fuzz_set_clamp(&rule->survive, caps->count_max);
        fuzz_set_clamp(&rule->birth, caps->count_max);
    }
    fuzz_fit_port_sets(caps, rule);
    c->w = fuzz_side_min(rule->radius, caps->w_multiple) + caps->w_multiple * between(ps, 0, 2);
    c->h = fuzz_side_min(rule->radius, caps->h_multiple) + caps->h_multiple * between(ps, 0, 2);
    if (shaped->w_max > 0 && c->w > shaped->w_max) c->w = round_down(shaped->w_max, caps->w_multiple);
    if (shaped->h_max > 0 && c->h > shaped->h_max) c->h = round_down(shaped->h_max, caps->h_multiple);
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
        rule->radius = dc->shape[rule->shape].radius_max;
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
            c->w = round_up(shaped->w_max + 1, caps->w_multiple);
            if (caps->square_only) c->h = c->w;
            snprintf(out->why, sizeof out->why, "W %d above %s's own %d", (int)c->w, code,
                     (int)shaped->w_max);
        } else if (broken.what == BREAK_H) {
            c->h = round_up(shaped->h_max + 1, caps->h_multiple);
            if (caps->square_only) c->w = c->h;
            snprintf(out->why, sizeof out->why, "H %d above %s's own %d", (int)c->h, code,
                     (int)shaped->h_max);
        } else if (broken.what == BREAK_CELLS) {
            fuzz_over_cells(shaped, &c->w, &c->h);
            snprintf(out->why, sizeof out->why, "grid %dx%d above %s's own %lld cells",
                     (int)c->w, (int)c->h, code, (long long)shaped->cells_max);
        }
        break;
    }
    default: break;
    }
}

int fuzz_draw_invalid(param_stream *ps, const cc_draw_caps *dc, uint32_t percent,
                      cc_drawn_case *out) {
    invalid_kind kinds[INVALID_KINDS];
    int nk = invalid_kinds(dc, kinds);
    if (nk == 0 || !chance(ps, percent)) return 0;
    out->expect_refusal = 1;
    draw_invalid(ps, dc, kinds[uniform(ps, (uint32_t)nk)], out);
    out->c.steps = between(ps, 0, 3);
    out->c.density = fuzz_draw_density(ps);
    return 1;
}
