/* The extreme grids crossed with every shape and its smallest and largest radius (extremes.h). */
#include "harness/extremes.h"

#include <stdio.h>
#include <string.h>

#include "fuzz/draw.h"

static int32_t round_up(int32_t v, int32_t m) { return m > 1 ? (v + m - 1) / m * m : v; }

int32_t cc_fit_side(int32_t want, int32_t min, int32_t multiple, int32_t side_max) {
    int32_t m = multiple > 1 ? multiple : 1;
    int32_t s = round_up(want < min ? min : want, m);
    if (side_max > 0 && s > side_max) s = side_max / m * m;
    return s < min ? 0 : s;
}

static void set_one(cc_set *set, int32_t lo, int32_t hi) {
    cc_set_clear(set);
    set->n = 1;
    set->r[0].lo = lo;
    set->r[0].hi = hi;
}

static int32_t clamp_count(int32_t v, int32_t max) { return v < 0 ? 0 : v > max ? max : v; }

cc_rule cc_edge_rule(cc_shape shape, int32_t r, int centre, cc_edge_rule_kind kind,
                     int32_t count_max) {
    cc_rule rule;
    memset(&rule, 0, sizeof rule);
    rule.shape = shape;
    rule.radius = r;
    rule.centre = centre;
    int32_t m = cc_rule_max_count(&rule);
    int32_t top = count_max > 0 && count_max < m ? count_max : m;
    switch (kind) {
    case CC_EDGE_TOP:
        /* A live cell survives only at the very top; a dead one is born at the top two counts
         * (under M1 a dead cell reaches m-1 at most). */
        set_one(&rule.survive, top, top);
        set_one(&rule.birth, clamp_count(top - 1, top), top);
        break;
    case CC_EDGE_B0:
        /* Birth at zero, survival below the top: all-dead turns all-alive and back. */
        set_one(&rule.survive, 0, clamp_count(top - 1, top));
        set_one(&rule.birth, 0, 0);
        break;
    case CC_EDGE_BAND: {
        /* Table VI-like: a band around a third of the neighbourhood. */
        int32_t lo = clamp_count((int32_t)(0.28 * m + 0.5), top);
        set_one(&rule.survive, lo, clamp_count((int32_t)(0.48 * m + 0.5), top));
        set_one(&rule.birth, lo, clamp_count((int32_t)(0.37 * m + 0.5), top));
        break;
    }
    }
    return rule;
}

cc_case cc_edge_case(const cc_rule *rule, int32_t w, int32_t h, int64_t steps, double density,
                     uint64_t salt, const uint8_t master[CC_SEED_BYTES]) {
    cc_case c;
    memset(&c, 0, sizeof c);
    c.rule = *rule;
    c.w = w;
    c.h = h;
    c.steps = steps;
    c.density = density;
    /* Edge cases take seeds from the master seed too, far from the campaign's indices. */
    case_seed_derive(master, 0xedce000000000000ULL + salt, c.seed);
    return c;
}

/* The grids, as {W, H} wanted: 0 is the thin side, a few cells past the smallest the shape's
 * radius takes. 65535 * t + 1 cells take a 65536th block of t: the first side whose last block
 * is one past the launch limit; only where the tile makes it another grid than the first two. */
#define PAST_2_16 65551

typedef struct plan {
    cc_extreme *out;
    int n;
} plan;

static cc_extreme *add(plan *p, cc_extreme_kind kind) {
    cc_extreme *e = &p->out[p->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    return e;
}

/* A note, once. */
static void note(plan *p, const char *why) {
    for (int i = 0; i < p->n; i++)
        if (p->out[i].kind == CC_EXTREME_NOTE && strcmp(p->out[i].why, why) == 0) return;
    snprintf(add(p, CC_EXTREME_NOTE)->why, sizeof p->out[0].why, "%s", why);
}

/* Does an axis of the caps take a side past 2^16 near want (at radius r)? */
static int past_2_16(const cc_engine_caps *caps, int32_t r, int64_t want_w, int64_t want_h) {
    int32_t min = 2 * r + 1;
    int32_t w = cc_fit_side((int32_t)want_w, min, caps->w_multiple, caps->w_max);
    int32_t h = cc_fit_side((int32_t)want_h, min, caps->h_multiple, caps->h_max);
    return w && h && (w > 65536 || h > 65536);
}

/* One grid (want_w x want_h, 0 for the thin side) for one shape at radius r, as an entry of
 * the plan (not yet added); caps are the engine's as they stand for the shape, all the
 * engine-wide ones. */
static void build_grid(cc_extreme *e, const cc_engine_caps *all, const cc_engine_caps *caps,
                       cc_shape shape, int32_t r, int64_t steps, int64_t want_w, int64_t want_h,
                       int tiles, uint64_t salt, const uint8_t master[CC_SEED_BYTES]) {
    const char *code = cc_shape_code(shape);
    const int32_t min = 2 * r + 1;
    const int wide = want_w != 0; /* past 2^16 (or the tiles) in columns, else in rows */
    memset(e, 0, sizeof *e);
    e->kind = CC_EXTREME_NOTE;
    if (!want_w) want_w = min + 2;
    if (!want_h) want_h = min + 2;
    if (want_w > CC_GRID_SIDE_MAX || want_h > CC_GRID_SIDE_MAX) {
        snprintf(e->why, sizeof e->why,
                 "65535 tiles of %dx%d and one more pass the largest side a grid may have (%d)",
                 (int)caps->tile_w, (int)caps->tile_h, CC_GRID_SIDE_MAX);
        return;
    }
    int32_t w = cc_fit_side((int32_t)want_w, min, caps->w_multiple, caps->w_max);
    int32_t h = cc_fit_side((int32_t)want_h, min, caps->h_multiple, caps->h_max);
    if (!w || !h || (w <= 65536 && h <= 65536)) {
        if (!past_2_16(all, r, want_w, want_h))
            snprintf(e->why, sizeof e->why, "no grid past 2^16 %s fits its side limits",
                     wide ? "columns" : "rows");
        else
            snprintf(e->why, sizeof e->why,
                     "no grid past 2^16 %s fits %s's own side limits at r = %d",
                     wide ? "columns" : "rows", code, (int)r);
        return;
    }
    int centre = (caps->centres & CC_CENTRE_M1) ? 1 : 0;
    cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
    e->c = cc_edge_case(&rule, w, h, steps, 0.4, salt, master);
    /* A port's limits first: a square-only engine has no thin grid. */
    int fits = fuzz_fit_port_caps(caps, 0, &e->c);
    e->work = (double)e->c.w * (double)e->c.h * (double)cc_rule_max_count(&e->c.rule) *
              (double)steps;
    if (!fits || (e->c.w <= 65536 && e->c.h <= 65536)) {
        snprintf(e->why, sizeof e->why,
                 "no grid near %dx%d (past 2^16 %s) fits %s's cells at r = %d", (int)w, (int)h,
                 wide ? "columns" : "rows", code, (int)r);
        return;
    }
    e->label = tiles ? "shapes (past 65535 tiles)" : "shapes (past 2^16 rows or columns)";
    if ((int64_t)e->c.w * e->c.h > CC_EXTREMES_CELLS_MAX) {
        e->kind = CC_EXTREME_GAP;
        snprintf(e->why, sizeof e->why,
                 "%s r = %d on %dx%d: past the harness's bound of 2^28 cells for a thin grid", code,
                 (int)r, (int)e->c.w, (int)e->c.h);
    } else if (e->work > CC_EXTREMES_WORK_MAX) {
        e->kind = CC_EXTREME_GAP;
        snprintf(e->why, sizeof e->why,
                 "%s r = %d on %dx%d: %.3g cell-neighbour visits, past the bound of %.0e for one "
                 "thin, tall or wide grid",
                 code, (int)r, (int)e->c.w, (int)e->c.h, e->work, CC_EXTREMES_WORK_MAX);
    } else {
        e->kind = CC_EXTREME_CASE;
    }
}

/* Adds an entry: a note once (what the engine-wide caps rule out is said once for all shapes
 * and radii), anything else as it is. */
static void add_entry(plan *p, const cc_extreme *e) {
    if (e->kind == CC_EXTREME_NOTE) note(p, e->why);
    else *add(p, e->kind) = *e;
}

/* One grid for one shape at its smallest radius (two steps) or its largest (one). Where the
 * largest costs past the work bound, it is a gap, and the largest radius between that fits the
 * bound runs in its place, so the shape is still seen far past its smallest. */
static void plan_grid(plan *p, const cc_engine_caps *all, const cc_engine_caps *caps,
                      cc_shape shape, int32_t rmin, int32_t rmax, int largest, int64_t want_w,
                      int64_t want_h, int tiles, uint64_t salt,
                      const uint8_t master[CC_SEED_BYTES]) {
    cc_extreme e;
    const int32_t r = largest ? rmax : rmin;
    build_grid(&e, all, caps, shape, r, largest ? 1 : 2, want_w, want_h, tiles, salt, master);
    if (!largest || e.kind != CC_EXTREME_GAP || e.work <= CC_EXTREMES_WORK_MAX ||
        (int64_t)e.c.w * e.c.h > CC_EXTREMES_CELLS_MAX) {
        add_entry(p, &e);
        return;
    }
    cc_extreme in_place;
    int32_t r2 = r - 1;
    for (; r2 > rmin; r2--) {
        build_grid(&in_place, all, caps, shape, r2, 1, want_w, want_h, tiles, salt + 8, master);
        if (in_place.kind != CC_EXTREME_GAP) break;
    }
    if (r2 > rmin && in_place.kind == CC_EXTREME_CASE) {
        size_t used = strlen(e.why);
        snprintf(e.why + used, sizeof e.why - used, " (r = %d runs in its place)", (int)r2);
        add_entry(p, &e);
        add_entry(p, &in_place);
    } else {
        add_entry(p, &e);
    }
}

int cc_extreme_over_work(const cc_extreme *e) {
    return e->kind == CC_EXTREME_GAP && e->work > CC_EXTREMES_WORK_MAX &&
           (int64_t)e->c.w * e->c.h <= CC_EXTREMES_CELLS_MAX;
}

/* The shape the section used alone before: Moore where the engine does it, else the first. */
static cc_shape first_shape(const cc_engine_caps *caps) {
    for (int s = 0; s < CC_SHAPE_COUNT; s++)
        if (caps->shapes & CC_SHAPE_BIT(s)) return (cc_shape)s;
    return CC_SHAPE_MOORE;
}

int cc_extremes_plan(const cc_engine *engine, int one_shape, const uint8_t master[CC_SEED_BYTES],
                     cc_extreme *out) {
    const cc_engine_caps all = cc_engine_caps_resolved(engine);
    const int64_t tw = all.tile_w > 1 ? all.tile_w : 1, th = all.tile_h > 1 ? all.tile_h : 1;
    const int64_t sizes[4][2] = {{0, PAST_2_16}, {PAST_2_16, 0}, {0, 65535 * th + 1},
                                 {65535 * tw + 1, 0}};
    plan p = {out, 0};
    if (all.square_only) {
        note(&p, "square grids only: no thin, tall or wide grid");
        return p.n;
    }
    for (int i = 0; i < 4; i++) {
        if (i >= 2 && sizes[i][0] + sizes[i][1] <= PAST_2_16 + 1) continue; /* as the first two */
        for (int s = 0; s < CC_SHAPE_COUNT; s++) {
            if (!(all.shapes & CC_SHAPE_BIT(s))) continue;
            if (one_shape && s != (int)first_shape(&all)) continue;
            const cc_engine_caps caps = cc_engine_caps_for_shape(&all, (cc_shape)s);
            int32_t rmin = caps.radius_min < 1 ? 1 : caps.radius_min;
            int32_t rmax = caps.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps.radius_max;
            if (s == CC_SHAPE_HEX) {
                if (rmin > 1 || rmax < 1) continue;
                rmin = rmax = 1;
            }
            if (one_shape) rmax = rmin;
            /* Two steps at the smallest radius, one at the largest: a light cone r wide a step
             * costs the oracle (2rk)^2 neighbourhoods a window. */
            for (int ri = 0; ri < (rmax > rmin ? 2 : 1); ri++) {
                const uint64_t salt = 0x5a17e000ull + ((uint64_t)i << 8) + ((uint64_t)s << 4) +
                                      (uint64_t)ri;
                plan_grid(&p, &all, &caps, (cc_shape)s, rmin, rmax, ri, sizes[i][0],
                          sizes[i][1], i >= 2, salt, master);
            }
        }
    }
    /* The cases cheapest first (a stable insertion sort), so a bug any of them shows is caught
     * at the least cost; gaps and notes keep their places among themselves after them. */
    for (int i = 1; i < p.n; i++) {
        cc_extreme e = out[i];
        int rank = e.kind == CC_EXTREME_CASE ? 0 : 1;
        int j = i;
        for (; j > 0; j--) {
            const cc_extreme *q = &out[j - 1];
            int qrank = q->kind == CC_EXTREME_CASE ? 0 : 1;
            if (qrank < rank || (qrank == rank && (rank == 1 || q->work <= e.work))) break;
            out[j] = out[j - 1];
        }
        out[j] = e;
    }
    return p.n;
}
