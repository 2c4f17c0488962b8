/* The torus seams against the tiles: the last tile short, full and long on each axis. */
#include "harness/sections/section.h"

#include "harness/extremes.h"

/* The torus seams against the tiles: the grid's last tile short by one cell, full, and one cell
 * long on each axis (sides n*t - 1, n*t, n*t + 1), nine alignments in all, each on
 * CC_SEAM_GRIDS grids of their own seeds, densities, centres and step counts. A one-cell error
 * at a seam whose stale value is right half the time passes one grid half the time, and all
 * CC_SEAM_GRIDS of an alignment with probability 2^-CC_SEAM_GRIDS. */
static void seams(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps all = t->caps;
    const cc_shape shape = section_first_shape(&all);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, shape);
    int32_t rmin = caps.radius_min < 1 ? 1 : caps.radius_min;
    int32_t rmax = caps.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps.radius_max;
    /* Two radii: the smallest, and one a little past it where halos are wider than a cell. */
    int32_t radii[2] = {rmin, rmin + 2 <= rmax ? rmin + 2 : rmax};
    if (shape == CC_SHAPE_HEX) radii[0] = radii[1] = 1;
    /* Two grids an alignment under --quick: both radii still meet every seam. */
    const int grids = tally_quick_count(t, CC_CHECK_SEAMS, CC_SEAM_GRIDS, 2,
                                        "grids of each alignment of the tiles and torus seams");
    int centres[2], nc = 0;
    if (caps.centres & CC_CENTRE_M0) centres[nc++] = 0;
    if (caps.centres & CC_CENTRE_M1) centres[nc++] = 1;
    /* Without a stated tile, the torus seams alone: against warp-wide blocks of 32. */
    int32_t tw = caps.tile_w > 1 ? caps.tile_w : 32, th = caps.tile_h > 1 ? caps.tile_h : 32;
    uint64_t salt = 0x5ea30000;
    for (int ay = -1; ay <= 1; ay++) {
        for (int ax = -1; ax <= 1; ax++) {
            for (int g = 0; g < grids; g++, salt++) {
                int32_t r = radii[g % 2];
                int32_t min = 2 * r + 1;
                /* Two tiles a side (three where one is narrower than the neighbourhood), so a
                 * tile seam sits inside the grid as well as on the torus. */
                int32_t nx = 2 * tw >= min + 1 ? 2 : (min + 1) / tw + 2;
                int32_t ny = 2 * th >= min + 1 ? 2 : (min + 1) / th + 2;
                int32_t w = nx * tw + ax, h = ny * th + ay;
                if ((caps.w_multiple > 1 && w % caps.w_multiple) ||
                    (caps.h_multiple > 1 && h % caps.h_multiple) ||
                    (caps.w_max > 0 && w > caps.w_max) || (caps.h_max > 0 && h > caps.h_max))
                    continue; /* an alignment the engine's side limits rule out */
                cc_rule rule = cc_edge_rule(shape, r, centres[(g / 2) % nc], CC_EDGE_BAND,
                                         caps.count_max);
                cc_case c = cc_edge_case(&rule, w, h, 1 + g % 3, g % 4 < 2 ? 0.5 : 0.35, salt,
                                      master);
                if (!tally_affordable(t, &c)) continue;
                tally_check(t, "seams (the last tile short, full and long)", &c, &t->seams_passed);
                if (t->failed && t->opt->stop_at_first_failure) return;
            }
        }
    }
}

static void run(conformance_tally *t) { seams(t, t->opt->master); }

const conformance_section section_seams = {
    .progress = "seams", .part_of = -1, .run = run};
