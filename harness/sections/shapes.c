/* Thin, tall and wide grids past 2^16 rows or columns and 65535 tiles (harness/extremes.h). */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"

/* Thin, tall and wide grids past 2^16 rows and columns and past 65535 tiles, for every shape at
 * its smallest and largest radius (extremes.h); a grid the caps allow but the section's bounds
 * leave out is a gap. With opt->one_shape, the first shape at its smallest radius only, as the
 * section was before it crossed them: a gap too. */
static void shapes(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    if (t->opt->sections_off & CC_SECTION_SHAPES) return;
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
    .progress = "thin and tall grids", .leave_out = CC_SECTION_SHAPES, .part_of = -1, .run = run};
