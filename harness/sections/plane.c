/* The bounded plane, for engines that state it: its edges and corners, and drawn cases. */
#include "harness/sections/section.h"

#include "harness/extremes.h"

/* The bounded plane, for an engine that states it: its edges and corners at several radii and
 * sizes (the smallest, primes, n*tile +- 1), and drawn cases, every one on the plane. An engine of
 * the plane alone gets every other section on the plane too; one of both gets these besides. */
#define PLANE_DRAWN_CASES 40
static void plane_cases(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps all = t->caps;
    if (!(all.topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE))) return;
    const cc_shape shape = section_first_shape(&all);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, shape);
    int32_t rmin = caps.radius_min < 1 ? 1 : caps.radius_min;
    int32_t rmax = caps.radius_max > 16 ? 16 : caps.radius_max;
    int centre = (caps.centres & CC_CENTRE_M1) ? 1 : 0;
    int32_t tw = caps.tile_w > 1 ? caps.tile_w : 32, th = caps.tile_h > 1 ? caps.tile_h : 32;
    int32_t radii[3] = {rmin, (rmin + rmax) / 2, rmax};
    uint64_t salt = 0x91a4e000;
    for (int ri = 0; ri < 3; ri++) {
        int32_t r = shape == CC_SHAPE_HEX ? 1 : radii[ri];
        if (ri > 0 && (shape == CC_SHAPE_HEX || r == radii[ri - 1])) continue;
        int32_t min = 2 * r + 1;
        int32_t sizes[][2] = {{min, min}, {min + 2, 2 * min + 3}, {37, 61}, {2 * tw + 1, 2 * th - 1},
                              {2 * tw - 1, th + 1}};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int32_t w = cc_fit_side(sizes[i][0], min, caps.w_multiple, caps.w_max);
            int32_t h = cc_fit_side(sizes[i][1], min, caps.h_multiple, caps.h_max);
            if (!w || !h) continue;
            cc_rule rule = cc_edge_rule(shape, r, centre, i % 2 ? CC_EDGE_TOP : CC_EDGE_BAND, caps.count_max);
            rule.topology = CC_TOPOLOGY_PLANE;
            cc_case c = cc_edge_case(&rule, w, h, 1 + (int64_t)(i % 3), i % 2 ? 0.9 : 0.45, salt++,
                                  master);
            if (!tally_affordable(t, &c)) continue;
            tally_check(t, "the bounded plane", &c, &t->plane_passed);
            if (t->failed && t->opt->stop_at_first_failure) return;
        }
    }
    const int drawn = tally_quick_count(t, CC_CHECK_PLANE, PLANE_DRAWN_CASES, 8,
                                        "drawn cases on the bounded plane");
    for (int i = 0; i < drawn && !t->stopped; i++) {
        uint8_t seed[CC_SEED_BYTES];
        cc_case c;
        cc_error err;
        case_seed_derive(master, 0x706c616e65000000ull + (uint64_t)i, seed); /* "plane" */
        if (cc_case_draw_small(t->engine, seed, &c, &err)) break;
        c.rule.topology = CC_TOPOLOGY_PLANE;
        tally_check(t, "the bounded plane", &c, &t->plane_passed);
        if (t->failed && t->opt->stop_at_first_failure) return;
    }
}

static void run(conformance_tally *t) { plane_cases(t, t->opt->master); }

const conformance_section section_plane = {
    .progress = "the bounded plane", .part_of = -1, .run = run};
