/* The case past 2^32 cells, where 32-bit cell or fragment offsets wrap. It is drawn with the
 * past-the-tiles cases (its shape, radius and seed follow theirs) and runs at their end, but is
 * tallied, timed and left out as a section of its own. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/check_in_place.h"
#include "harness/extremes.h"
#include "harness/limits.h"
#include "harness/progress.h"

/* The engine time past which certify's default leaves the case past 2^32 cells out, and the
 * side of the square whose load, step and store estimate it (the rate per cell, times the cells
 * of the large case: a lower bound, as a larger grid runs no faster per cell). The bound is far
 * above what any engine here takes (under 3 minutes on 2 cores), so a loaded machine's noisy
 * estimate does not change the verdict; a correct but slow engine past it is INCOMPLETE. */
#define HUGE_CASE_SECONDS_MAX 600.0
#define HUGE_PROBE_SIDE 1024

static void huge_case_run(conformance_tally *t, const cc_case *case_in, int mode);

/* 98309 x 43691 = 4,295,218,519 cells > 2^32: where 32-bit cell or fragment offsets wrap, which
 * only a GPU port is likely to hold in one piece; one step, verified by light cones. Left out,
 * with the reason in the summary, where the engine or this machine cannot hold it. */
void section_huge_case(conformance_tally *t, cc_shape shape, int32_t r, int centre, uint64_t salt) {
    const uint8_t *master = t->opt->master;
    const cc_engine_caps all = t->caps;
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, shape);
    int mode = t->opt->huge_grid;
    /* Left out by --leave-out huge-grid, or not asked for by --huge-grid: a gap either way. */
    const int left_out = (t->opt->sections_off & CC_SECTION_PAST_2_32) != 0;
    if (left_out || mode == CC_HUGE_GRID_OFF ||
        (mode == CC_HUGE_GRID_GPU && t->engine->hardware != CC_HW_GPU)) {
        snprintf(t->huge_note, sizeof t->huge_note, "%s",
                 left_out ? "left out by --leave-out huge-grid"
                          : "not asked for (certify, --huge-grid auto or on runs it)");
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_ASKED, 1, "left out by %s",
                    left_out                     ? "the options"
                    : mode == CC_HUGE_GRID_OFF ? "--huge-grid off"
                                               : "--huge-grid gpu");
        if (left_out)
            printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name,
                   t->huge_note);
        return;
    }
    int32_t min = 2 * r + 1;
    int32_t w = cc_fit_side(98309, min, caps.w_multiple, caps.w_max);
    int32_t h = cc_fit_side(43691, min, caps.h_multiple, caps.h_max);
    if (!w || !h) {
        snprintf(t->huge_note, sizeof t->huge_note, "no grid past 2^32 cells fits its side limits");
        return;
    }
    cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps.count_max);
    cc_case c = cc_edge_case(&rule, w, h, 1, 0.3, salt, master);
    if (!fuzz_fit_port_caps(&caps, 1, &c) || (uint64_t)c.w * (uint64_t)c.h <= (1ull << 32)) {
        snprintf(t->huge_note, sizeof t->huge_note, "its cells_max (%lld) is below 2^32",
                 (long long)caps.cells_max);
        return;
    }
    if (!tally_mine(t)) return;
    /* This user's other cellcheck processes here take their turns (limits.h), so that the memory
     * check below sees what is left when this case runs. */
    char no_turn[320];
    const int turn = cc_limit_large_turn(t->engine->name, stdout, no_turn, sizeof no_turn);
    if (turn < 0) printf("note: %s: %s\n", t->engine->name, no_turn);
    huge_case_run(t, &c, mode);
    cc_limit_large_turn_end(turn);
}

/* The case past 2^32 cells, c, where this machine and the engine can hold it (else a gap). */
static void huge_case_run(conformance_tally *t, const cc_case *case_in, int mode) {
    cc_case c = *case_in;
    const int32_t w = c.w, h = c.h;
    /* auto: every engine whose own estimate and one grid (and an eighth) fit this machine's
     * memory now: the grid is held once, in the worker's shared grid, and packed a bit a cell
     * (harness/check_in_place.c). */
    cc_error mem_err;
    if (mode == CC_HUGE_GRID_AUTO &&
        cc_limit_engine_memory("the case past 2^32 cells", t->engine, &c.rule, c.w, c.h,
                               CC_CHECK_IN_PLACE_GRIDS, &mem_err)) {
        snprintf(t->huge_note, sizeof t->huge_note, "does not fit this machine's memory: %.140s",
                 mem_err.msg);
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_MEMORY, 1,
                    "does not fit this machine's memory: %.360s", mem_err.msg);
        printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name, t->huge_note);
        return;
    }
    /* auto: an engine too slow for it here (a CPU emulation of a GPU kernel) is left out, with
     * the estimate; on runs it whatever it costs. */
    double estimate = 0.0, probe_s = 0.0;
    if (mode == CC_HUGE_GRID_AUTO && t->engine->hardware != CC_HW_GPU &&
        tally_time_estimate(t, &c, HUGE_PROBE_SIDE, HUGE_PROBE_SIDE, &estimate,
                              &probe_s) == CC_OK &&
        estimate > HUGE_CASE_SECONDS_MAX) {
        char est[40];
        cc_format_duration(estimate, est, sizeof est);
        snprintf(t->huge_note, sizeof t->huge_note,
                 "too slow here: about %s for its load, step and store (%dx%d took %.2f s; "
                 "--huge-grid on runs it)",
                 est, HUGE_PROBE_SIDE, HUGE_PROBE_SIDE, probe_s);
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_TIME, 1, "%s", t->huge_note);
        printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name, t->huge_note);
        return;
    }
    /* Whether the engine can hold it here: a create that fails for memory is this machine's
     * limit, not a wrong engine. */
    cc_context *ctx = NULL;
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_call_create(t->engine, &c.rule, c.w, c.h, &ctx, &err);
    cc_call_destroy(ctx, NULL);
    /* An engine that states no memory estimate is held to the generic one (engines/engine.h):
     * holding more in create is its layout, not a wrong engine, and this case cannot be sized
     * for it. One that states an estimate and holds more is wrong, and fails below. */
    int stated = 0;
    (void)cc_engine_memory_need(t->engine, &c.rule, c.w, c.h, &stated);
    if (rc == CC_ERR_MEMORY_LIMIT && !stated) {
        snprintf(t->huge_note, sizeof t->huge_note,
                 "%dx%d: the engine states no memory estimate (cc_engine.memory) and held more "
                 "in create than the generic %.0f bytes a cell allow",
                 (int)w, (int)h, CC_GENERIC_ENGINE_BYTES_PER_CELL);
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_MEMORY, 1, "%s: %.300s", t->huge_note,
                    err.msg);
        printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name,
               t->huge_note);
        return;
    }
    if (rc == CC_ERR_NOMEM) {
        snprintf(t->huge_note, sizeof t->huge_note, "%dx%d does not fit here: %.120s", (int)w,
                 (int)h, err.msg);
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_MEMORY, 1, "%s", t->huge_note);
        printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name, t->huge_note);
        return;
    }
    t->section = CC_CHECK_PAST_2_32;
    t->sections[t->section].run = 1;
    const tally_clock mark = tally_clock_now(t);
    tally_check_case(t, "edge case (past 2^32 cells)", &c, &t->huge_passed);
    tally_clock_add(t, &mark, &t->sections[t->section]);
    t->section = CC_CHECK_PAST_TILES;
}

const conformance_section section_huge_grid = {
    .part_of = CC_CHECK_PAST_TILES,
    .left_out_note = "left out with the past-the-tiles section",
};
