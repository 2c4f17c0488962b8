/* Every radius of every shape: one live cell under "born at exactly one neighbour" draws the
 * neighbourhood itself in one step. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"

/* The rule B1 at the shape and radius, surviving only at the largest count: a dead cell with
 * exactly one live neighbour is born, and a lone live cell (count 0, or 1 under M1) dies, so its
 * next generation is its neighbourhood, centre excluded. (S is the largest count, not empty, as
 * the Larger than Life notation of a case holds one non-empty range.) On the torus, else the
 * plane where that is all the engine does; 0 where its caps take neither. */
static int footprint_rule(const conformance_tally *t, cc_shape shape, int32_t r, int32_t w,
                          int32_t h, cc_rule *rule) {
    *rule = (cc_rule){.shape = shape, .radius = r, .topology = CC_TOPOLOGY_TORUS};
    rule->centre = (t->caps.centres & CC_CENTRE_M0) ? 0 : 1;
    rule->birth.n = 1;
    rule->birth.r[0].lo = rule->birth.r[0].hi = 1;
    rule->survive.n = 1;
    rule->survive.r[0].lo = rule->survive.r[0].hi = cc_rule_max_count(rule);
    return tally_rule_fits(t, rule, w, h);
}

/* The cell-neighbour visits the section takes at most: every radius of every shape up to 64
 * (cpu.ref's caps) takes about 7e9. Past it, the largest radii are a gap (footprints:budget). */
#define FOOTPRINT_VISITS_MAX 2e10

/* The drawn sections meet each radius only by chance (the edge cases take the smallest and the
 * largest): an engine with a path of its own for one radius (a kernel unrolled for r = 5) or a
 * table of offsets wrong at one is caught here, at that radius, in one small step. Each grid is
 * a side past the footprint, its one live cell at a word or tile boundary (CC_GRID_CELLS). The
 * radii go up, every shape at each, so that a bound on the work leaves out the largest. */
static void footprints(conformance_tally *t) {
    int left = 0, over = 0;
    int32_t over_from = 0, over_to = 0;
    double visits = 0.0;
    for (int32_t r = 1; r <= CC_RADIUS_MAX && !t->stopped; r++) {
        for (int s = 0; s < CC_SHAPE_COUNT && !t->stopped; s++) {
            if (!(t->caps.shapes & CC_SHAPE_BIT(s))) continue;
            const cc_engine_caps caps = cc_engine_caps_for_shape(&t->caps, (cc_shape)s);
            if (r < caps.radius_min || r > caps.radius_max) continue;
            const int32_t min = 2 * r + 1;
            int32_t w = cc_fit_side(min + 3, min, caps.w_multiple, caps.w_max);
            int32_t h = cc_fit_side(min + 2, min, caps.h_multiple, caps.h_max);
            if (caps.square_only) w = h = w > h ? w : h;
            cc_rule rule;
            if (!w || !h || !footprint_rule(t, (cc_shape)s, r, w, h, &rule)) {
                left++;
                continue;
            }
            const double cost = (double)w * (double)h * (double)(cc_shape_size(rule.shape, r) + 1);
            if (visits + cost > FOOTPRINT_VISITS_MAX) {
                if (!over++) over_from = r;
                over_to = r;
                continue;
            }
            visits += cost;
            /* One cell: CC_GRID_CELLS places at least one, about density * W * H / 64. */
            cc_case c = cc_edge_case(&rule, w, h, 1, 1.0 / ((double)w * (double)h),
                                     0xf0070000ull + (uint64_t)s * 1024 + (uint64_t)r,
                                     t->opt->master);
            c.grid_kind = CC_GRID_CELLS;
            char label[64];
            snprintf(label, sizeof label, "footprint (%s, r = %d)", cc_shape_code((cc_shape)s),
                     (int)r);
            tally_check(t, label, &c, NULL);
            if (t->failed && t->opt->stop_at_first_failure) return;
        }
    }
    if (over && tally_mine(t))
        cc_gap_note(&t->gaps, CC_CHECK_FOOTPRINTS, CC_GAP_BUDGET, over,
                    "%d footprints at r = %d..%d: past the section's bound of %.0e cell-neighbour "
                    "visits",
                    over, (int)over_from, (int)over_to, FOOTPRINT_VISITS_MAX);
    printf("%s: footprints: %d passed, one a shape and radius; %d outside its caps, %d past the "
           "bound\n",
           t->engine->name, t->sections[t->section].passed, left, over);
}

const conformance_section section_footprints = {.progress = "footprints",
                                                .part_of = -1,
                                                .run = footprints};
