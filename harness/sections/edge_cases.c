/* Edge cases where engines break: the largest counts of every shape at its smallest, largest
 * and a middle radius, all-dead and all-alive grids, a large radius over several steps, the
 * smallest size 2r+1, prime non-square sizes; over several devices, slabs around the halo. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"

/* The rows between exchanges of an engine over several devices: r x the steps between them. */
static int32_t slab_halo(const cc_engine_caps *caps, int32_t r) {
    return r * (caps->steps_per_launch > 1 ? caps->steps_per_launch : 1);
}

/* An engine over D devices: slabs of one or two rows, slabs just thinner and just thicker than
 * the halo (so a halo reaches across several slabs, or all but one row of one), and heights D
 * does not divide, at the smallest radius and the next, each over several exchanges with steps
 * left over and over one exchange cut short. */
static void device_slabs(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    if (!t->devices) return;
    const cc_engine_caps all = t->caps;
    const cc_shape shape = section_first_shape(&all);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, shape);
    const int32_t rmin = caps.radius_min < 1 ? 1 : caps.radius_min;
    const int32_t rmax = caps.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps.radius_max;
    const int32_t d = t->devices, every = caps.steps_per_launch > 1 ? caps.steps_per_launch : 1;
    const int centre = (caps.centres & CC_CENTRE_M1) ? 1 : 0;
    uint64_t salt = 0xde71ce5000000000ull;
    for (int ri = 0; ri < 2; ri++) {
        const int32_t r = shape == CC_SHAPE_HEX ? 1 : (ri == 0 ? rmin : rmin + 1);
        if (r > rmax || (ri > 0 && shape == CC_SHAPE_HEX)) continue;
        const int32_t halo = slab_halo(&caps, r), min = 2 * r + 1;
        const struct {
            int32_t h;
            const char *label;
        } heights[] = {
            {d, "edge case (device slabs of one row)"},
            {2 * d + 1, "edge case (device slabs of two rows and one)"},
            {d * halo - 1, "edge case (device slabs thinner than the halo)"},
            {d * halo + 1, "edge case (device slabs thicker than the halo, H not divisible)"},
            {d * (2 * halo + 1) + d - 1, "edge case (device slabs, the largest remainder)"},
        };
        for (size_t i = 0; i < sizeof heights / sizeof heights[0]; i++) {
            const int32_t h = cc_fit_side(heights[i].h, min, caps.h_multiple, caps.h_max);
            const int32_t w = cc_fit_side(67, min, caps.w_multiple, caps.w_max);
            if (!w || !h) continue;
            const int64_t steps[2] = {2 * (int64_t)every + 1, every > 1 ? every - 1 : 3};
            for (int s = 0; s < 2; s++) {
                cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps.count_max);
                cc_case c = cc_edge_case(&rule, w, h, steps[s], s ? 0.5 : 0.35, salt++, master);
                if (!tally_affordable(t, &c)) continue;
                tally_check(t, heights[i].label, &c, &t->edge_passed);
                if (t->failed && t->opt->stop_at_first_failure) return;
            }
        }
    }
}

/* A shape's radii within its limits (caps.shape_limits), hex r = 1; 0 when it has none. */
static int shape_radii(const cc_engine_caps *shaped, cc_shape shape, int32_t *lo, int32_t *hi) {
    *lo = shaped->radius_min < 1 ? 1 : shaped->radius_min;
    *hi = shaped->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : shaped->radius_max;
    if (shape == CC_SHAPE_HEX) {
        if (*lo > 1 || *hi < 1) return 0;
        *lo = *hi = 1;
    }
    return *lo <= *hi;
}

static void edge_cases(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps resolved = t->caps;
    const cc_engine_caps *caps = &resolved;
    uint64_t salt = 0;
    int centres[2], nc = 0;
    if (caps->centres & CC_CENTRE_M0) centres[nc++] = 0;
    if (caps->centres & CC_CENTRE_M1) centres[nc++] = 1;
    int skipped = 0;
    /* The cases the largest radius gained for shapes other than Moore take seeds of their own,
     * so every other case keeps the seed it always had. */
    uint64_t added_salt = 0x1a7e000;
    const int32_t all_lo = caps->radius_min < 1 ? 1 : caps->radius_min;
    const int32_t all_hi = caps->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps->radius_max;
    const int32_t all_radii[3] = {all_hi, all_lo, (all_lo + all_hi) / 2};

    /* The largest counts, for every shape at its own largest and smallest radius and one
     * between (its shape_limits narrowing the engine's), every density and rule; hex where the
     * engine's radii reach r = 1. */
    for (int ri = 0; ri < 3; ri++) {
        for (int s = 0; s < CC_SHAPE_COUNT; s++) {
            if (!(caps->shapes & CC_SHAPE_BIT(s))) continue;
            const cc_engine_caps sc = cc_engine_caps_for_shape(caps, (cc_shape)s);
            int32_t lo, hi;
            if (!shape_radii(&sc, (cc_shape)s, &lo, &hi)) continue;
            if (s == CC_SHAPE_HEX) { /* r = 1: where the engine's own radii put it */
                lo = all_lo;
                hi = all_hi;
            }
            const int32_t radii[3] = {hi, lo, (lo + hi) / 2};
            if (ri >= (hi == lo ? 1 : hi - lo > 1 ? 3 : 2)) continue;
            const int32_t r = radii[ri];
            if (s == CC_SHAPE_HEX && all_radii[ri] != 1) continue;
            int32_t w = section_smallest_side(r, sc.w_multiple, sc.w_max);
            int32_t h = section_smallest_side(r, sc.h_multiple, sc.h_max);
            if (!w || !h) continue;
            for (int ci = 0; ci < nc; ci++) {
                struct {
                    cc_edge_rule_kind rule;
                    double density;
                    int64_t steps;
                } variants[] = {
                    {CC_EDGE_TOP, 1.0, 1},   /* all alive: every count is the largest */
                    {CC_EDGE_TOP, 0.999, 2}, /* near all alive: the largest and next counts */
                    {CC_EDGE_B0, 0.0, 2},    /* all dead: born at 0, then the largest count */
                    {CC_EDGE_BAND, 0.5, 3},  /* an ordinary soup */
                };
                /* The oracle's cost grows as r^4 on the smallest grid: one step where two or
                 * three are not needed to reach the largest counts. */
                if (ri == 0 && r > 16) variants[1].steps = variants[3].steps = 1;
                for (int v = 0; v < 4; v++) {
                    cc_rule rule = cc_edge_rule((cc_shape)s, r, centres[ci], variants[v].rule,
                                             caps->count_max);
                    int added = ri == 0 && v > 0 && s != CC_SHAPE_MOORE && s != CC_SHAPE_HEX;
                    cc_case c = cc_edge_case(&rule, w, h, variants[v].steps, variants[v].density,
                                             added ? added_salt++ : salt++, master);
                    if (!tally_affordable(t, &c)) {
                        skipped++;
                        continue;
                    }
                    tally_check(t, "edge case (largest counts)", &c, &t->edge_passed);
                }
            }
        }
    }

    /* Large radius over several steps in one call, on a non-square soup: temporal blocking and
     * halos past r = 16 show only there. */
    const cc_shape big = (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_MOORE)) ? CC_SHAPE_MOORE
                         : (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_CROSS)) ? CC_SHAPE_CROSS
                                                                         : CC_SHAPE_VON_NEUMANN;
    const cc_engine_caps big_caps = cc_engine_caps_for_shape(caps, big);
    int32_t big_lo, big_hi;
    if (shape_radii(&big_caps, big, &big_lo, &big_hi) && big_hi > 16) {
        int32_t r = big_hi < 32 ? big_hi : 32;
        if (r < big_lo) r = big_lo;
        int32_t w = section_smallest_side(r, big_caps.w_multiple, big_caps.w_max);
        int32_t h = cc_fit_side(2 * r + 1 + 6, 2 * r + 1, big_caps.h_multiple, big_caps.h_max);
        if (w && h && (caps->shapes & CC_SHAPE_BIT(big))) {
            cc_rule rule = cc_edge_rule(big, r, centres[nc - 1], CC_EDGE_BAND, caps->count_max);
            cc_case c = cc_edge_case(&rule, w, h, 3, 0.5, salt++, master);
            tally_check(t, "edge case (large radius, several steps)", &c, &t->edge_passed);
        }
    }

    /* The smallest size 2r+1 at several radii, square and not. */
    static const int32_t some_radii[] = {1, 2, 3, 5, 8, 16, 32, 64};
    cc_shape shape = (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_MOORE)) ? CC_SHAPE_MOORE
                     : (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_CIRCULAR)) ? CC_SHAPE_CIRCULAR
                     : (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN)) ? CC_SHAPE_VON_NEUMANN
                     : (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_CROSS)) ? CC_SHAPE_CROSS
                                                                      : CC_SHAPE_HEX;
    const cc_engine_caps sc = cc_engine_caps_for_shape(caps, shape);
    int32_t rmin, rmax;
    if (!shape_radii(&sc, shape, &rmin, &rmax)) rmin = 1, rmax = 0;
    int centre = centres[nc - 1];
    for (size_t i = 0; i < sizeof some_radii / sizeof some_radii[0]; i++) {
        int32_t r = some_radii[i];
        if (r < rmin || r > rmax) continue;
        int32_t w = section_smallest_side(r, sc.w_multiple, sc.w_max);
        int32_t h = section_smallest_side(r, sc.h_multiple, sc.h_max);
        if (!w || !h) continue;
        cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
        cc_case c = cc_edge_case(&rule, w, h, r > 16 ? 1 : 3, 0.5, salt++, master);
        if (tally_affordable(t, &c)) tally_check(t, "edge case (smallest size)", &c, &t->edge_passed);
        int32_t h2 = cc_fit_side(h + 2 * r + 3, h, sc.h_multiple, sc.h_max);
        if (r <= 16 && h2 && h2 != h) {
            c = cc_edge_case(&rule, w, h2, 2, 0.4, salt++, master);
            if (tally_affordable(t, &c)) tally_check(t, "edge case (smallest width)", &c, &t->edge_passed);
        }
    }

    /* Prime, non-square sizes (rounded up where the engine needs multiples). */
    static const int32_t primes[][2] = {{37, 61}, {101, 67}, {127, 3}, {5, 131}, {251, 241}};
    for (size_t i = 0; i < sizeof primes / sizeof primes[0] && rmin <= rmax; i++) {
        int32_t r = rmin;
        int32_t min = 2 * r + 1;
        int32_t w = cc_fit_side(primes[i][0], min, sc.w_multiple, sc.w_max);
        int32_t h = cc_fit_side(primes[i][1], min, sc.h_multiple, sc.h_max);
        if (!w || !h) continue;
        for (int ci = 0; ci < nc; ci++) {
            cc_rule rule = cc_edge_rule(shape, r, centres[ci], CC_EDGE_BAND, caps->count_max);
            cc_case c = cc_edge_case(&rule, w, h, 2, 0.35, salt++, master);
            if (tally_affordable(t, &c)) tally_check(t, "edge case (prime sizes)", &c, &t->edge_passed);
        }
    }
    if (skipped)
        printf("note: %s: %d largest-radius edge cases left out (one step costs more than %.0e "
               "oracle visits)\n",
               t->engine->name, skipped, EDGE_STEP_COST_MAX);
    device_slabs(t, master);
}

static void run(conformance_tally *t) { edge_cases(t, t->opt->master); }

const conformance_section section_edge_cases = {
    .progress = "edge cases", .part_of = -1, .run = run};
