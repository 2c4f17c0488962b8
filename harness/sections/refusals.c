/* Every parameter outside the caps refused at create, with a message that names the limit. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"

static void set_one(cc_set *set, int32_t lo, int32_t hi) {
    cc_set_clear(set);
    set->n = 1;
    set->r[0].lo = lo;
    set->r[0].hi = hi;
}

static void expect_refusal(conformance_tally *t, const char *what, const cc_rule *rule, int32_t w, int32_t h) {
    if (!tally_mine(t)) return;
    cc_error caps_err;
    if (cc_engine_check(t->engine, rule, w, h, &caps_err) == CC_OK) {
        /* The case meant to break a limit does not: a harness bug, reported as such. */
        printf("ERROR: %s: refusal check '%s' is within the caps\n", t->engine->name, what);
        t->infra_error++;
        return;
    }
    cc_context *ctx = NULL;
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_call_create(t->engine, rule, w, h, &ctx, &err);
    if (rc == CC_OK) {
        cc_call_destroy(ctx, NULL);
        printf("FAILED: %s: create accepted %s (%dx%d): %s\n", t->engine->name, what, (int)w,
               (int)h, caps_err.msg);
        char detail[400];
        snprintf(detail, sizeof detail, "create accepted %.160s (%dx%d)", what, (int)w, (int)h);
        tally_note_failure(t, CC_FAILURE_NONE, "refusals", detail, NULL, NULL);
    } else if (!err.msg[0]) {
        printf("FAILED: %s: create refused %s with code %d but no message\n", t->engine->name,
               what, rc);
        char detail[400];
        snprintf(detail, sizeof detail, "create refused %.160s with code %d but no message", what,
                 rc);
        tally_note_failure(t, CC_FAILURE_NONE, "refusals", detail, NULL, NULL);
    } else {
        printf("refused %s: %s\n", what, err.msg);
        t->refusals++;
        t->sections[t->section].passed++;
    }
}

static void refusals(conformance_tally *t) {
    const cc_engine_caps resolved = t->caps;
    const cc_engine_caps *caps = &resolved;
    char what[160];
    int32_t rmin = caps->radius_min < 1 ? 1 : caps->radius_min;
    int32_t rmax = caps->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps->radius_max;
    cc_shape shape = CC_SHAPE_MOORE;
    for (int s = 0; s < CC_SHAPE_COUNT; s++)
        if ((caps->shapes & CC_SHAPE_BIT(s)) && s != CC_SHAPE_HEX) {
            shape = (cc_shape)s;
            break;
        }
    int centre = (caps->centres & CC_CENTRE_M1) ? 1 : 0;
    /* The base case within the shape's own limits too, so that each refusal breaks one limit. */
    const cc_engine_caps base_caps = cc_engine_caps_for_shape(caps, shape);
    const int32_t base_rmax = base_caps.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX
                                                                   : base_caps.radius_max;
    int32_t r = shape == CC_SHAPE_HEX ? 1 : base_caps.radius_min;
    int32_t w = section_smallest_side(r, caps->w_multiple, 0), h = section_smallest_side(r, caps->h_multiple, 0);
    if (caps->square_only) w = h = w > h ? w : h; /* so that each refusal breaks one limit */
    cc_rule base = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);

    if (rmin > 1) {
        cc_rule rule = cc_edge_rule(shape, rmin - 1, centre, CC_EDGE_BAND, 0);
        snprintf(what, sizeof what, "radius %d (below %d)", (int)(rmin - 1), (int)rmin);
        expect_refusal(t, what, &rule, w, h);
    }
    if (rmax < CC_RADIUS_MAX) {
        cc_rule rule = cc_edge_rule(shape, rmax + 1, centre, CC_EDGE_BAND, 0);
        snprintf(what, sizeof what, "radius %d (above %d)", (int)(rmax + 1), (int)rmax);
        expect_refusal(t, what, &rule, section_smallest_side(rmax + 1, caps->w_multiple, 0),
                       section_smallest_side(rmax + 1, caps->h_multiple, 0));
    }
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (caps->shapes & CC_SHAPE_BIT(s)) continue;
        int32_t rs = s == CC_SHAPE_HEX ? 1 : r;
        cc_rule rule = cc_edge_rule((cc_shape)s, rs, centre, CC_EDGE_BAND, 0);
        snprintf(what, sizeof what, "shape %s", cc_shape_code((cc_shape)s));
        expect_refusal(t, what, &rule, section_smallest_side(rs, caps->w_multiple, 0),
                       section_smallest_side(rs, caps->h_multiple, 0));
    }
    for (int m = 0; m < 2; m++) {
        if (caps->centres & (m ? CC_CENTRE_M1 : CC_CENTRE_M0)) continue;
        cc_rule rule = cc_edge_rule(shape, r, m, CC_EDGE_BAND, caps->count_max);
        snprintf(what, sizeof what, "centre M%d", m);
        expect_refusal(t, what, &rule, w, h);
    }
    if (caps->w_multiple > 1) {
        snprintf(what, sizeof what, "W %d (not a multiple of %d)", (int)(w + 1),
                 (int)caps->w_multiple);
        expect_refusal(t, what, &base, w + 1, h);
    }
    if (caps->h_multiple > 1) {
        snprintf(what, sizeof what, "H %d (not a multiple of %d)", (int)(h + 1),
                 (int)caps->h_multiple);
        expect_refusal(t, what, &base, w, h + 1);
    }
    if (caps->w_max > 0 && caps->w_max < CC_GRID_SIDE_MAX) {
        int32_t big = section_round_up(caps->w_max + 1, caps->w_multiple);
        snprintf(what, sizeof what, "W %d (above %d)", (int)big, (int)caps->w_max);
        expect_refusal(t, what, &base, big, h);
    }
    if (caps->h_max > 0 && caps->h_max < CC_GRID_SIDE_MAX) {
        int32_t big = section_round_up(caps->h_max + 1, caps->h_multiple);
        snprintf(what, sizeof what, "H %d (above %d)", (int)big, (int)caps->h_max);
        expect_refusal(t, what, &base, w, big);
    }
    if (caps->square_only) {
        int32_t h2 = cc_fit_side(w + 1, h + 1, caps->h_multiple, caps->h_max);
        snprintf(what, sizeof what, "grid %dx%d (not square)", (int)w, (int)(h2 ? h2 : h + 1));
        expect_refusal(t, what, &base, w, h2 ? h2 : h + 1);
    }
    int32_t sq_w = w, sq_h = h;
    if (caps->square_only) sq_w = sq_h = w > h ? w : h;
    for (int which = 0; which < 2; which++) {
        int32_t n = which ? caps->b_ranges_max : caps->s_ranges_max;
        cc_rule rule;
        if (!fuzz_ranges_breakable(caps, n, &rule)) continue;
        fuzz_set_intervals_over(which ? &rule.birth : &rule.survive, n);
        int32_t side = section_smallest_side(1, caps->w_multiple, 0);
        int32_t side_h = caps->square_only ? side : section_smallest_side(1, caps->h_multiple, 0);
        snprintf(what, sizeof what, "%s in %d intervals (at most %d)", which ? "B" : "S",
                 (int)(n + 1), (int)n);
        expect_refusal(t, what, &rule, side, side_h);
    }
    if (caps->no_b0) {
        cc_rule rule = base; /* B from 0 to its top: one interval */
        cc_set_add(&rule.birth, 0, rule.birth.r[0].lo, NULL);
        expect_refusal(t, "B containing 0", &rule, sq_w, sq_h);
    }
    int32_t over_w, over_h;
    if (fuzz_over_cells(caps, &over_w, &over_h)) {
        snprintf(what, sizeof what, "grid %dx%d (over %lld cells)", (int)over_w, (int)over_h,
                 (long long)caps->cells_max);
        expect_refusal(t, what, &base, over_w, over_h);
    }
    snprintf(what, sizeof what, "W %d (above the largest side %d)", CC_GRID_SIDE_MAX + 1,
             CC_GRID_SIDE_MAX);
    expect_refusal(t, what, &base, CC_GRID_SIDE_MAX + 1, h);
    if (caps->count_max > 0) {
        /* The widest neighbourhood the engine has, with a set naming a count above the limit. */
        for (int32_t rr = base_rmax; rr >= r; rr--) {
            cc_rule rule = cc_edge_rule(shape, rr, centre, CC_EDGE_BAND, 0);
            int32_t m = cc_rule_max_count(&rule);
            if (m <= caps->count_max) continue;
            set_one(&rule.survive, caps->count_max + 1, m);
            snprintf(what, sizeof what, "S %d..%d (above the count limit %d, radius %d)",
                     (int)(caps->count_max + 1), (int)m, (int)caps->count_max, (int)rr);
            expect_refusal(t, what, &rule, section_smallest_side(rr, caps->w_multiple, 0),
                           section_smallest_side(rr, caps->h_multiple, 0));
            break;
        }
    }
    /* The limits of single shapes (caps.shape_limits), each broken alone within the engine's. */
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(caps->shapes & CC_SHAPE_BIT(s)) || !cc_engine_caps_shape_narrowed(caps, (cc_shape)s))
            continue;
        const cc_engine_caps sc = cc_engine_caps_for_shape(caps, (cc_shape)s);
        const char *code = cc_shape_code((cc_shape)s);
        const int32_t rs = s == CC_SHAPE_HEX ? 1 : sc.radius_min;
        const int32_t rs_max = sc.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : sc.radius_max;
        int32_t sw = section_smallest_side(rs, caps->w_multiple, 0), sh = section_smallest_side(rs, caps->h_multiple, 0);
        if (caps->square_only) sw = sh = sw > sh ? sw : sh;
        cc_rule in_shape = cc_edge_rule((cc_shape)s, rs, centre, CC_EDGE_BAND, caps->count_max);
        int32_t breaks[2] = {s == CC_SHAPE_HEX ? 0 : rs_max + 1, s == CC_SHAPE_HEX ? 0 : rs - 1};
        for (int b = 0; b < 2; b++) {
            const int32_t rr = breaks[b];
            if (rr < rmin || rr > rmax || (b == 0 && rs_max >= rmax) || (b == 1 && rs <= rmin))
                continue;
            cc_rule rule = cc_edge_rule((cc_shape)s, rr, centre, CC_EDGE_BAND, caps->count_max);
            int32_t rw = section_smallest_side(rr, caps->w_multiple, 0), rh = section_smallest_side(rr, caps->h_multiple, 0);
            if (caps->square_only) rw = rh = rw > rh ? rw : rh;
            snprintf(what, sizeof what, "%s radius %d (%s %d, %s's own limit)", code, (int)rr,
                     b ? "below" : "above", (int)(b ? rs : rs_max), code);
            expect_refusal(t, what, &rule, rw, rh);
        }
        if (sc.w_max > 0 && sc.w_max != caps->w_max) {
            int32_t big = section_round_up(sc.w_max + 1, caps->w_multiple);
            snprintf(what, sizeof what, "%s with W %d (above %d, %s's own limit)", code, (int)big,
                     (int)sc.w_max, code);
            expect_refusal(t, what, &in_shape, big, caps->square_only ? big : sh);
        }
        if (sc.h_max > 0 && sc.h_max != caps->h_max) {
            int32_t big = section_round_up(sc.h_max + 1, caps->h_multiple);
            snprintf(what, sizeof what, "%s with H %d (above %d, %s's own limit)", code, (int)big,
                     (int)sc.h_max, code);
            expect_refusal(t, what, &in_shape, caps->square_only ? big : sw, big);
        }
        int32_t ow, oh;
        if (sc.cells_max != caps->cells_max && fuzz_over_cells(&sc, &ow, &oh)) {
            snprintf(what, sizeof what, "%s on %dx%d (over %lld cells, %s's own limit)", code,
                     (int)ow, (int)oh, (long long)sc.cells_max, code);
            expect_refusal(t, what, &in_shape, ow, oh);
        }
    }
    /* Below 2r+1 on either side, at the smallest and the largest radius. */
    int32_t below[2] = {r, shape == CC_SHAPE_HEX ? 1 : base_rmax};
    for (int i = 0; i < (below[0] == below[1] ? 1 : 2); i++) {
        int32_t rr = below[i];
        cc_rule rule = cc_edge_rule(shape, rr, centre, CC_EDGE_BAND, caps->count_max);
        int32_t ok_w = section_smallest_side(rr, caps->w_multiple, 0);
        int32_t ok_h = section_smallest_side(rr, caps->h_multiple, 0);
        snprintf(what, sizeof what, "W %d (below 2r+1 = %d)", (int)(2 * rr), (int)(2 * rr + 1));
        expect_refusal(t, what, &rule, 2 * rr, ok_h);
        snprintf(what, sizeof what, "H %d (below 2r+1 = %d)", (int)(2 * rr), (int)(2 * rr + 1));
        expect_refusal(t, what, &rule, ok_w, 2 * rr);
    }
}

const conformance_section section_refusals = {.progress = "refusals", .part_of = -1, .run = refusals};
