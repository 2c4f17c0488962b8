/* The plan of the thin, tall and wide grids: every shape of the caps at its smallest and largest
 * radius (hex r = 1), within each shape's own limits; cases past the work or cell bound are gaps,
 * what the caps rule out is a note; the cases come cheapest first. Counted by hand for each
 * engine's caps below. */
#include "harness/extremes.h"

#include <stdio.h>
#include <string.h>

#include "testing/check.h"

static const uint8_t master[CC_SEED_BYTES] = {1, 2, 3};

/* How many entries of the plan are of kind, and of those, how many of shape at radius r (r 0:
 * any shape and radius). */
static int count(const cc_extreme *p, int n, cc_extreme_kind kind, int shape, int32_t r) {
    int k = 0;
    for (int i = 0; i < n; i++)
        if (p[i].kind == kind && (r == 0 || (p[i].c.rule.shape == (cc_shape)shape &&
                                             p[i].c.rule.radius == r)))
            k++;
    return k;
}

/* The work of the thin, tall or wide grid of case c at radius r, one step. */
static double work_at(const cc_case *c, int32_t r) {
    cc_rule rule = c->rule;
    rule.radius = r;
    int32_t thin = 2 * r + 3, wide = c->w > c->h ? c->w : c->h;
    return (double)thin * (double)wide * (double)cc_rule_max_count(&rule);
}

/* Every gap for the work bound has a case in its place on the same grid and shape: the largest
 * radius whose work fits the bound. Returns how many it found. */
static int in_place(checks *t, const cc_extreme *p, int n) {
    int found = 0;
    for (int i = 0; i < n; i++) {
        if (p[i].kind != CC_EXTREME_GAP || !strstr(p[i].why, "runs in its place")) continue;
        const cc_case *g = &p[i].c;
        int seen = 0;
        for (int j = 0; j < n; j++) {
            const cc_case *c = &p[j].c;
            if (p[j].kind != CC_EXTREME_CASE || c->rule.shape != g->rule.shape ||
                (c->w > c->h) != (g->w > g->h) || (c->w > c->h ? c->w != g->w : c->h != g->h) ||
                c->rule.radius >= g->rule.radius || c->steps != 1)
                continue;
            seen = 1;
            CHECKF(t, work_at(c, c->rule.radius) <= CC_EXTREMES_WORK_MAX &&
                          work_at(c, c->rule.radius + 1) > CC_EXTREMES_WORK_MAX,
                   "in place of '%s': r = %d is not the largest within the bound", p[i].why,
                   (int)c->rule.radius);
            char says[32];
            snprintf(says, sizeof says, "r = %d runs", (int)c->rule.radius);
            CHECKF(t, strstr(p[i].why, says) != NULL, "'%s' does not say %s", p[i].why, says);
        }
        CHECKF(t, seen, "no case in place of '%s'", p[i].why);
        found += seen;
    }
    return found;
}

/* Every case lies within the engine's caps, past 2^16 rows or columns, and one step at a
 * shape's largest radius; the cases come in the order of their work. */
static void well_formed(checks *t, const cc_engine *e, const cc_extreme *p, int n) {
    double last = 0.0;
    for (int i = 0; i < n; i++) {
        if (p[i].kind != CC_EXTREME_CASE) continue;
        const cc_case *c = &p[i].c;
        cc_error err;
        CHECKF(t, cc_engine_check(e, &c->rule, c->w, c->h, &err) == CC_OK, "%s: entry %d: %s",
               e->name, i, err.msg);
        CHECKF(t, c->w > 65536 || c->h > 65536, "%s: entry %d is %dx%d", e->name, i, (int)c->w,
               (int)c->h);
        CHECKF(t, p[i].work >= last, "%s: entry %d (%g) after one of %g", e->name, i, p[i].work,
               last);
        CHECK(t, p[i].label && strncmp(p[i].label, "shapes (", 8) == 0);
        last = p[i].work;
    }
    /* The cases first, then the gaps and notes. */
    for (int i = 1; i < n; i++)
        CHECKF(t, !(p[i].kind == CC_EXTREME_CASE && p[i - 1].kind != CC_EXTREME_CASE),
               "%s: a case after a gap or note at %d", e->name, i);
}

int main(void) {
    checks t = {"extremes_test", 0, 0};
    cc_extreme p[CC_EXTREMES_MAX];

    /* Every shape, r 1..64, no tile: two grids (65551 rows, 65551 columns) for NM, NN, N+, NC at
     * r = 1 and 64, and NH at r = 1. At r = 64 only the cross (65551 * 131 * 257 = 2.2e9 visits)
     * is within the bound: Moore (65551 * 131 * 129^2 = 1.43e11), circular and von Neumann
     * (65551 * 131 * 8321 = 7.1e10) are gaps, each with the largest radius within the bound in
     * its place; for Moore r = 20 (65551 * 43 * 41^2 = 4.7e9; r = 21 costs 5.5e9). */
    const cc_engine all = {.name = "t.all", .caps = {.radius_max = 64}};
    int n = cc_extremes_plan(&all, 0, master, p);
    CHECK_EQ(&t, n, 24);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, 0, 0), 18);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_GAP, 0, 0), 6);
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, s, 1), 2);
        CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, s, 64), s == CC_SHAPE_CROSS ? 2 : 0);
        CHECK_EQ(&t, count(p, n, CC_EXTREME_GAP, s, 64),
                 s == CC_SHAPE_CROSS || s == CC_SHAPE_HEX ? 0 : 2);
    }
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_MOORE, 20), 2);
    CHECK_EQ(&t, in_place(&t, p, n), 6);
    well_formed(&t, &all, p, n);
    for (int i = 0; i < n; i++) {
        const cc_case *c = &p[i].c;
        CHECK_EQ(&t, c->steps, c->rule.radius == 1 ? 2 : 1);
        int32_t thin = c->w < c->h ? c->w : c->h, wide = c->w < c->h ? c->h : c->w;
        CHECK_EQ(&t, thin, 2 * c->rule.radius + 3);
        CHECK_EQ(&t, wide, 65551);
        if (c->rule.shape == CC_SHAPE_MOORE && c->rule.radius == 64)
            CHECKF(&t, p[i].work == 65551.0 * 131 * 129 * 129, "Moore r = 64: %g", p[i].work);
        if (p[i].kind == CC_EXTREME_CASE)
            CHECKF(&t, p[i].work <= CC_EXTREMES_WORK_MAX, "case %d: %g", i, p[i].work);
    }
    /* The cheapest first: r = 1 von Neumann (4 neighbours and the centre, two steps; the cross
     * costs as much and comes after it); the gaps after the 18 cases. */
    CHECK_EQ(&t, p[0].c.rule.shape, CC_SHAPE_VON_NEUMANN);
    CHECK(&t, p[17].kind == CC_EXTREME_CASE && p[18].kind == CC_EXTREME_GAP);

    /* As the section was: Moore at r = 1 alone, on the two grids. */
    n = cc_extremes_plan(&all, 1, master, p);
    CHECK_EQ(&t, n, 2);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_MOORE, 1), 2);
    CHECK_EQ(&t, p[0].c.steps, 2);

    /* r up to 100: every shape is past the bound at r = 100, a gap each grid with a case in its
     * place: Moore 65551 * 203 * 201^2 = 5.4e11, von Neumann 65551 * 203 * 20201 = 2.7e11, and
     * even the cross, 65551 * 203 * 401 = 5.3e9, with r = 96 in its place
     * (65551 * 195 * 385 = 4.92e9; r = 97 costs 5.02e9). */
    const cc_engine wide = {.name = "t.wide",
                            .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) |
                                               CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |
                                               CC_SHAPE_BIT(CC_SHAPE_CROSS) |
                                               CC_SHAPE_BIT(CC_SHAPE_CIRCULAR),
                                     .radius_max = 100}};
    n = cc_extremes_plan(&wide, 0, master, p);
    CHECK_EQ(&t, n, 24);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, 0, 0), 16);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_GAP, 0, 0), 8);
    CHECK_EQ(&t, in_place(&t, p, n), 8);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_CROSS, 96), 2);
    for (int s = 0; s < 4; s++) {
        CHECK_EQ(&t, count(p, n, CC_EXTREME_GAP, s, 100), 2);
        CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, s, 1), 2);
    }
    for (int i = 0; i < n; i++)
        if (p[i].kind == CC_EXTREME_GAP)
            CHECKF(&t, strstr(p[i].why, "r = 100") && strstr(p[i].why, "past the bound"), "%s",
                   p[i].why);
    well_formed(&t, &wide, p, n);

    /* A shape's own limits: von Neumann up to r = 4 and W up to 65536 (no wide grid for it, a
     * note, not a gap); Moore past r = 1 .. 8 alone. */
    const cc_engine vn4 = {.name = "t.vn4",
                           .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) |
                                              CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN),
                                    .radius_max = 8,
                                    .shape_limits[CC_SHAPE_VON_NEUMANN] = {.radius_max = 4,
                                                                           .w_max = 65536}}};
    n = cc_extremes_plan(&vn4, 0, master, p);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_MOORE, 1), 2);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_MOORE, 8), 2);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_VON_NEUMANN, 1), 1);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_VON_NEUMANN, 4), 1);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_VON_NEUMANN, 8), 0);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_NOTE, 0, 0), 2); /* the wide grid at r = 1 and 4 */
    CHECK_EQ(&t, count(p, n, CC_EXTREME_GAP, 0, 0), 0);
    for (int i = 0; i < n; i++) {
        if (p[i].kind == CC_EXTREME_CASE && p[i].c.rule.shape == CC_SHAPE_VON_NEUMANN)
            CHECK(&t, p[i].c.w <= 65536 && p[i].c.h == 65551);
        if (p[i].kind == CC_EXTREME_NOTE)
            CHECKF(&t, strstr(p[i].why, "columns") && strstr(p[i].why, "NN"), "%s", p[i].why);
    }
    well_formed(&t, &vn4, p, n);

    /* Tiles of 32 x 8: 65535 * 32 + 1 columns pass the largest side (one note for both radii),
     * 65535 * 8 + 1 = 524281 rows do not: a case at r = 1 (5 x 524281); at r = 32 every grid is
     * past the bound (65551 * 67 * 65^2 = 1.9e10; 524281 * 67 * 65^2 = 1.5e11), with r = 20 in
     * place on the grids past 2^16 and r = 9 past the tiles (524281 * 21 * 19^2 = 4.0e9; r = 10
     * costs 5.3e9). */
    const cc_engine tiled = {.name = "t.tiled",
                             .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 32,
                                      .tile_w = 32, .tile_h = 8}};
    n = cc_extremes_plan(&tiled, 0, master, p);
    CHECK_EQ(&t, n, 10);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, 0, 0), 6);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_GAP, 0, 0), 3);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_NOTE, 0, 0), 1);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_MOORE, 20), 2);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, CC_SHAPE_MOORE, 9), 1);
    CHECK_EQ(&t, in_place(&t, p, n), 3);
    int tall_tiles = 0;
    for (int i = 0; i < n; i++)
        if (p[i].kind == CC_EXTREME_CASE && p[i].c.h == 524281) {
            tall_tiles++;
            CHECK(&t, strcmp(p[i].label, "shapes (past 65535 tiles)") == 0);
        }
    CHECK_EQ(&t, tall_tiles, 2);
    well_formed(&t, &tiled, p, n);

    /* Square grids only: no thin grid at all, notes and nothing left out. */
    const cc_engine square = {.name = "t.square", .caps = {.radius_max = 4, .square_only = 1}};
    n = cc_extremes_plan(&square, 0, master, p);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_CASE, 0, 0), 0);
    CHECK_EQ(&t, count(p, n, CC_EXTREME_GAP, 0, 0), 0);
    CHECK_EQ(&t, n, 1);
    return check_summary(&t);
}
