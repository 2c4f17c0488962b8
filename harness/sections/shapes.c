/* Thin, tall and wide grids past 2^16 rows or columns and 65535 tiles (harness/extremes.h). */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"
#include "harness/limits.h"

/* Where checks are judged by their time here (--huge-grid auto, certify's default; on runs them
 * whatever they cost), a thin grid past the work bound at a shape's largest radius runs when a
 * probe of the same rule on the same thin side and a long side of CC_EXTREMES_PROBE_SIDE says it
 * takes at most CC_EXTREMES_SECONDS_MAX: a plain per-cell loop takes minutes there, and a
 * correct but slow engine is certified for it or INCOMPLETE, never CERTIFIED without it. */
static void extreme_by_time(conformance_tally *t, const cc_extreme *e) {
    const int wide = e->c.w > e->c.h;
    double estimate = 0.0, probe_s = 0.0;
    int rc = t->opt->huge_grid == CC_HUGE_GRID_ON
                 ? CC_ERR_UNSUPPORTED
                 : tally_time_estimate(t, &e->c,
                                       wide ? CC_EXTREMES_PROBE_SIDE : e->c.w,
                                       wide ? e->c.h : CC_EXTREMES_PROBE_SIDE, &estimate, &probe_s);
    if (rc == CC_OK && estimate > CC_EXTREMES_SECONDS_MAX) {
        char est[40];
        cc_format_duration(estimate, est, sizeof est);
        printf("note: %s: left out: %s: too slow here, about %s\n", t->engine->name, e->why, est);
        cc_gap_note(&t->gaps, CC_CHECK_SHAPES, CC_GAP_TIME, 1,
                    "%s: too slow here, about %s (a probe of a %d-cell long side took %.2f s)",
                    e->why, est, CC_EXTREMES_PROBE_SIDE, probe_s);
        return;
    }
    /* A probe that failed says nothing of the time: the case itself shows what is wrong. */
    tally_check(t, e->label, &e->c, &t->shapes_passed);
}

/* Thin, tall and wide grids past 2^16 rows and columns and past 65535 tiles, for every shape at
 * its smallest and largest radius (extremes.h); a grid the caps allow but the section's bounds
 * leave out is a gap. With opt->one_shape, the first shape at its smallest radius only, as the
 * section was before it crossed them: a gap too. */
static void shapes(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    cc_extreme plan[CC_EXTREMES_MAX];
    int n = cc_extremes_plan(t->engine, t->opt->one_shape, master, plan);
    if (t->opt->one_shape)
        cc_gap_note(&t->gaps, CC_CHECK_SHAPES, CC_GAP_ASKED, 1,
                    "the thin, tall and wide grids on one shape at its smallest radius only, not "
                    "on every shape at its smallest and largest");
    for (int i = 0; i < n && !t->stopped; i++) {
        const cc_extreme *e = &plan[i];
        if (e->kind == CC_EXTREME_NOTE) {
            printf("note: %s: %s\n", t->engine->name, e->why);
        } else if (e->kind == CC_EXTREME_GAP && cc_extreme_over_work(e) &&
                   (t->opt->huge_grid == CC_HUGE_GRID_AUTO ||
                    t->opt->huge_grid == CC_HUGE_GRID_ON)) {
            if (!tally_mine(t)) continue;
            extreme_by_time(t, e);
            if (t->failed && t->opt->stop_at_first_failure) return;
        } else if (e->kind == CC_EXTREME_GAP) {
            printf("note: %s: left out: %s\n", t->engine->name, e->why);
            if (tally_mine(t)) cc_gap_note(&t->gaps, CC_CHECK_SHAPES, CC_GAP_BUDGET, 1, "%s", e->why);
        } else {
            tally_check(t, e->label, &e->c, &t->shapes_passed);
            if (t->failed && t->opt->stop_at_first_failure) return;
        }
    }
}

static void run(conformance_tally *t) { shapes(t, t->opt->master); }

const conformance_section section_shapes = {
    .progress = "thin and tall grids", .part_of = -1, .run = run};
