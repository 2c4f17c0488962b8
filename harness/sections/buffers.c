/* The caller's buffers: load's input and store's output at every alignment from 1 to 64 bytes
 * inside a larger allocation, and ending right before an unmapped page (a case's buffers=). */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"

/* The grids the placements turn through: three with a cell count that is not a multiple of 16,
 * so a load or store that moves 16 bytes at a time runs past the last cell, one a multiple of
 * 64. None is whole tiles of 32 on both axes: this section's cases are for the buffers, and a
 * bug at whole-tile seams is the seams section's to catch. */
static const int32_t buffer_sizes[][2] = {{61, 37}, {33, 17}, {100, 23}, {48, 40}};
#define BUFFER_SIZES (sizeof buffer_sizes / sizeof buffer_sizes[0])

/* One case at placement `buffers` on size i of buffer_sizes, two steps (so the call patterns that
 * split them run: every check loads and stores several times). */
static void placed_check(conformance_tally *t, const uint8_t master[CC_SEED_BYTES],
                         int32_t buffers, size_t i) {
    const cc_shape shape = section_first_shape(&t->caps);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&t->caps, shape);
    int32_t r = caps.radius_min < 1 ? 1 : caps.radius_min;
    if (shape == CC_SHAPE_HEX) r = 1;
    const int centre = (caps.centres & CC_CENTRE_M0) ? 0 : 1;
    const int32_t min = 2 * r + 1;
    const int32_t w = cc_fit_side(buffer_sizes[i][0], min, caps.w_multiple, caps.w_max);
    const int32_t h = cc_fit_side(buffer_sizes[i][1], min, caps.h_multiple, caps.h_max);
    if (!w || !h) {
        if (tally_mine(t)) t->over_cells++;
        return;
    }
    static const double densities[] = {0.5, 0.3, 0.7, 0.05};
    cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps.count_max);
    cc_case c = cc_edge_case(&rule, w, h, 2, densities[(size_t)buffers % 4],
                             0xb0ffe5000ull + (uint64_t)buffers * 8u + i, master);
    c.buffers = buffers;
    char label[160], where[CC_BUFFERS_TEXT_MAX];
    case_buffers_describe(buffers, where, sizeof where);
    snprintf(label, sizeof label, "caller buffers (%s)", where);
    tally_check(t, label, &c, NULL);
}

/* Every alignment 1..64 (the sizes in turn), then the guard page on every size. */
static void caller_buffers(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    for (int32_t a = 1; a <= CC_BUFFERS_ALIGN && !t->stopped; a++) {
        placed_check(t, master, a, (size_t)a % BUFFER_SIZES);
        if (t->failed && t->opt->stop_at_first_failure) return;
    }
    for (size_t i = 0; i < BUFFER_SIZES && !t->stopped; i++) {
        placed_check(t, master, CC_BUFFERS_GUARD, i);
        if (t->failed && t->opt->stop_at_first_failure) return;
    }
}

static void run(conformance_tally *t) { caller_buffers(t, t->opt->master); }

const conformance_section section_buffers = {.progress = "caller buffers",
                                             .part_of = -1,
                                             .run = run};
