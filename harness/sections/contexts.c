/* State across contexts: near-duplicate grids (one cell flipped in the last row or at the centre;
 * same rule, size and step count) in one worker, one context after another and two alive at
 * once, so that results kept process-wide and keyed on part of the input are caught. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"
#include "harness/shrink.h"

/* Drawn cases, each under every template, on grids of these sides (fitted to the caps). */
#define CONTEXT_CASES 6
static const int32_t CONTEXT_SIDES[2][2] = {{128, 96}, {75, 160}};

/* The templates, each step run at the case's step count: the original first, then its
 * near-duplicate. */
static const char *const templates[] = {
    "load#0 step(1) store recreate load=lastrow step(1) store",
    "load#0 step(1) store recreate load=middle step(1) store",
    "load#0 B.twin=lastrow step(1) B.step(1) store B.store",
    "load#0 B.twin=middle B.step(1) step(1) B.store store",
};
#define NTEMPLATES ((int)(sizeof templates / sizeof templates[0]))

/* Template i with its steps set to k. */
static int sequence_of(int i, int64_t k, cc_call_sequence *s, cc_error *err) {
    int rc = cc_sequence_parse(templates[i], s, err);
    for (int j = 0; !rc && j < s->n; j++)
        if (s->op[j].kind == CC_OP_STEP || s->op[j].kind == CC_OP_B_STEP) s->op[j].k = k;
    return rc;
}

static void across_contexts(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const int cases = tally_quick_count(t, CC_CHECK_CONTEXTS, CONTEXT_CASES, 1,
                                        "drawn cases across contexts");
    for (int i = 0; i < cases * NTEMPLATES && !t->stopped; i++) {
        if (!tally_mine(t)) continue;
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x74776f6374780000ull + (uint64_t)(i / NTEMPLATES),
                         seed); /* "twoctx" */
        cc_case c;
        cc_call_sequence s;
        cc_error err;
        if (tally_draw_sequence_case(t, "state across contexts", i, seed, &c)) continue;
        /* Past a few thousand cells, so that a key on a fixed-size prefix of the input (a hash
         * of its first pages) misses the flipped cell. */
        const cc_engine_caps shaped = cc_engine_caps_for_shape(&t->caps, c.rule.shape);
        /* At the shape's smallest radius: the section is about what outlives a context, and a
         * large neighbourhood on these grids costs a slow engine minutes. */
        if (c.rule.shape != CC_SHAPE_HEX)
            c.rule = cc_rule_at_radius(&c.rule, shaped.radius_min > 1 ? shaped.radius_min : 1);
        const int32_t min = 2 * c.rule.radius + 1;
        c.w = cc_fit_side(CONTEXT_SIDES[i / NTEMPLATES % 2][0], min, shaped.w_multiple, shaped.w_max);
        c.h = cc_fit_side(CONTEXT_SIDES[i / NTEMPLATES % 2][1], min, shaped.h_multiple, shaped.h_max);
        if (c.steps > 2) c.steps = 2;
        if (!c.w || !c.h) continue;
        if (sequence_of(i % NTEMPLATES, c.steps < 1 ? 1 : c.steps, &s, &err)) {
            printf("ERROR: %s: state across contexts %d: %s\n", t->engine->name, i, err.msg);
            t->infra_error++;
            continue;
        }
        if (!tally_fit_sequence_case(t, i, cases * NTEMPLATES, &c)) continue;
        if (tally_run_sequence_given(t, "state across contexts", i, &c, &s, &t->contexts_passed))
            return;
    }
}

static void run(conformance_tally *t) { across_contexts(t, t->opt->master); }

const conformance_section section_contexts = {
    .progress = "state across contexts", .part_of = -1, .run = run};
