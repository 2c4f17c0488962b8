/* Call sequences drawn from the contract's state machine. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/transitions.h"

/* Sequences drawn from the contract's state machine on small cases within the caps. */
#define CONFORMANCE_SEQUENCES 40

static void call_sequences(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps caps = t->caps;
    for (int i = 0; i < CONFORMANCE_SEQUENCES && !t->stopped; i++) {
        if (!tally_mine(t)) continue;
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x63616c6c73000000ull + (uint64_t)i, seed); /* "calls" */
        cc_case c;
        cc_error err;
        if (cc_case_draw_small(t->engine, seed, &c, &err)) {
            printf("ERROR: %s: call sequence %d: cannot draw its case: %s\n", t->engine->name, i,
                   err.msg);
            t->infra_error++;
            continue;
        }
        if (!fuzz_fit_port_caps(&caps, 0, &c)) {
            t->over_cells++;
            continue;
        }
        /* The OpenMP team turns with each sequence: 1, 2, 3, every core. */
        c.threads = cc_team_size(t->engine, t->opt, (uint64_t)i * CC_TEAM_TURN);
        /* The caller's buffers are drawn too, unless their dimension is left out (--leave-out
         * buffers leaves it out here as well as in its own section). */
        char label[160] = "call sequences";
        if (!(t->opt->sections_off & CC_SECTION_BUFFERS) &&
            (c.buffers = cc_sequence_draw_buffers(&c)) != 0) {
            char where[CC_BUFFERS_TEXT_MAX];
            case_buffers_describe(c.buffers, where, sizeof where);
            snprintf(label, sizeof label, "call sequences (%s)", where);
        }
        if (tally_run_sequence(t, label, i, &c, &t->sequences)) return;
    }
}

/* The transition tour (transitions.h): every pair of calls the contract allows, each compared,
 * on small cases within the caps, so that no pair is left to the draws' luck. */
static void transition_tour(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps caps = t->caps;
    cc_call_sequence s;
    for (int i = 0; cc_transition_tour(i, &s) && !t->stopped; i++) {
        if (!tally_mine(t)) continue;
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x746f757200000000ull + (uint64_t)i, seed); /* "tour" */
        cc_case c;
        cc_error err;
        if (cc_case_draw_small(t->engine, seed, &c, &err)) {
            printf("ERROR: %s: transition tour %d: cannot draw its case: %s\n", t->engine->name, i,
                   err.msg);
            t->infra_error++;
            continue;
        }
        if (!fuzz_fit_port_caps(&caps, 0, &c)) {
            t->over_cells++;
            continue;
        }
        c.threads = cc_team_size(t->engine, t->opt, (uint64_t)i * CC_TEAM_TURN);
        if (tally_run_sequence_given(t, "call sequences (transition tour)", i, &c, &s,
                                     &t->sequences))
            return;
    }
}

static void run(conformance_tally *t) {
    call_sequences(t, t->opt->master);
    if (!t->stopped) transition_tour(t, t->opt->master);
}

const conformance_section section_sequences = {
    .progress = "call sequences", .part_of = -1, .run = run};
