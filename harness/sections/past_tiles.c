/* Past the engine's blocks: sides past 1100, n*tile +- 1, device seams, past 2^24 cells. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"

/* Past the engine's blocks: sides at 2^k - 1 and 2^k + 1 up to past 1100, n*tile +- 1 for the
 * tile the engine declares, the torus seam inside a tile, several steps; and one grid past 2^24
 * cells, where index arithmetic kept in too few bits wraps (verified by light cones). */
static void scale_cases(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps all = t->caps;
    const cc_shape shape = section_first_shape(&all);
    const cc_engine_caps resolved = cc_engine_caps_for_shape(&all, shape);
    const cc_engine_caps *caps = &resolved;
    int32_t r = caps->radius_min;
    if (shape == CC_SHAPE_HEX) r = 1;
    int centre = (caps->centres & CC_CENTRE_M1) ? 1 : 0;
    int32_t min = 2 * r + 1;
    int32_t tw = caps->tile_w > 1 ? caps->tile_w : 64, th = caps->tile_h > 1 ? caps->tile_h : 64;
    /* {W, H}: the first four go past 1100 one way and stay narrow the other, so the oracle
     * steps them whole; the tile sizes put the seam one cell inside and one cell past a tile. */
    int32_t sizes[][2] = {{1023, 67},        {1025, 131},       {67, 1025},
                          {1103, 37},        {2 * tw + 1, 3 * th - 1},
                          {3 * tw - 1, 2 * th + 1}, {(1100 / tw + 1) * tw + 1, th + 1}};
    uint64_t salt = 0x5ca1e;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int32_t w = cc_fit_side(sizes[i][0], min, caps->w_multiple, caps->w_max);
        int32_t h = cc_fit_side(sizes[i][1], min, caps->h_multiple, caps->h_max);
        if (!w || !h) continue;
        cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
        cc_case c = cc_edge_case(&rule, w, h, 2 + (int64_t)(i % 2), 0.4, salt++, master);
        tally_check(t, "edge case (past the tiles)", &c, &t->scale_passed);
    }
    /* Over several devices: every slab n tiles tall, one row short or long, so each device seam
     * lies one row inside or past a tile; and past 1100 rows, a remainder on the last slab. */
    if (t->devices) {
        const int32_t d = t->devices;
        const int32_t slab_sizes[][2] = {{2 * tw + 1, d * 2 * th - 1},
                                         {tw + 1, d * 2 * th + 1},
                                         {67, d * ((1100 + d - 1) / d) + d - 1}};
        for (size_t i = 0; i < sizeof slab_sizes / sizeof slab_sizes[0]; i++) {
            int32_t w = cc_fit_side(slab_sizes[i][0], min, caps->w_multiple, caps->w_max);
            int32_t h = cc_fit_side(slab_sizes[i][1], min, caps->h_multiple, caps->h_max);
            if (!w || !h) continue;
            cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
            int64_t steps = caps->steps_per_launch > 1 ? caps->steps_per_launch + 1 : 3;
            cc_case c = cc_edge_case(&rule, w, h, steps, 0.4, salt++, master);
            tally_check(t, "edge case (past the tiles, device seams)", &c, &t->scale_passed);
        }
    }
    /* 4099 x 4097 = 16,793,603 cells > 2^24 = 16,777,216. */
    int32_t w = cc_fit_side(4099, min, caps->w_multiple, caps->w_max);
    int32_t h = cc_fit_side(4097, min, caps->h_multiple, caps->h_max);
    if (w && h && (uint64_t)w * (uint64_t)h > (1ull << 24)) {
        cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
        cc_case c = cc_edge_case(&rule, w, h, 2, 0.3, salt++, master);
        tally_check(t, "edge case (past 2^24 cells)", &c, &t->scale_passed);
    } else {
        printf("note: %s: no grid past 2^24 cells fits its side limits\n", t->engine->name);
    }
    section_huge_case(t, shape, r, centre, salt++);
}

static void run(conformance_tally *t) { scale_cases(t, t->opt->master); }

const conformance_section section_past_tiles = {.progress = "past the tiles, 2^24 and 2^32 cells",
                                                .part_of = -1,
                                                .run = run};
