/* Call sequences drawn from the contract's state machine. */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/transitions.h"

/* Sequences drawn from the contract's state machine on small cases within the caps. */
#define CONFORMANCE_SEQUENCES 40

static void call_sequences(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const int n = tally_quick_count(t, CC_CHECK_SEQUENCES, CONFORMANCE_SEQUENCES, 8,
                                    "drawn call sequences");
    for (int i = 0; i < n && !t->stopped; i++) {
        if (!tally_mine(t)) continue;
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x63616c6c73000000ull + (uint64_t)i, seed); /* "calls" */
        cc_case c;
        if (tally_draw_sequence_case(t, "call sequence", i, seed, &c) ||
            !tally_fit_sequence_case(t, i, n, &c))
            continue;
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
    cc_call_sequence s;
    int n = 0;
    while (cc_transition_tour(n, &s)) n++;
    for (int i = 0; cc_transition_tour(i, &s) && !t->stopped; i++) {
        if (!tally_mine(t)) continue;
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x746f757200000000ull + (uint64_t)i, seed); /* "tour" */
        cc_case c;
        if (tally_draw_sequence_case(t, "transition tour", i, seed, &c) ||
            !tally_fit_sequence_case(t, i, n, &c))
            continue;
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
