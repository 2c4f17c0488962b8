/* Zero steps: what is stored right after load (and after step(0)) is what was loaded. */
#include "harness/sections/section.h"

#include "harness/extremes.h"

/* Zero steps: what is stored right after load (and after step(0)) is what was loaded. */
static void round_trips(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps all = t->caps;
    const cc_shape shape = section_first_shape(&all);
    const cc_engine_caps resolved = cc_engine_caps_for_shape(&all, shape);
    const cc_engine_caps *caps = &resolved;
    int32_t r = caps->radius_min < 1 ? 1 : caps->radius_min;
    if (shape == CC_SHAPE_HEX) r = 1;
    int centre = (caps->centres & CC_CENTRE_M0) ? 0 : 1;
    static const int32_t sizes[][2] = {{0, 0}, {61, 37}, {256, 192}, {17, 250}, {1000, 24}};
    static const double densities[] = {0.5, 0.01, 0.99, 1.0};
    uint64_t salt = 0x100;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int32_t min = 2 * r + 1;
        int32_t w = cc_fit_side(sizes[i][0], min, caps->w_multiple, caps->w_max);
        int32_t h = cc_fit_side(sizes[i][1], min, caps->h_multiple, caps->h_max);
        if (!w || !h) continue;
        cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
        cc_case c = cc_edge_case(&rule, w, h, 0, densities[i % 4], salt++, master);
        tally_check(t, "zero-step round trip", &c, &t->round_trips);
    }
}

static void run(conformance_tally *t) { round_trips(t, t->opt->master); }

const conformance_section section_round_trips = {.progress = "zero-step round trips",
                                                 .part_of = -1,
                                                 .run = run};
