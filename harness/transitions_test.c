/* Transition coverage: the reachable pairs counted by hand, the pairs hand-counted sequences
 * cover, and a tour whose sequences are valid, fit the sequence text and cover every pair. */
#include "harness/transitions.h"

#include <stdio.h>
#include <string.h>

#include "testing/check.h"

/* The pairs a passing sequence covers, from its text. */
static int covered_by(checks *t, const char *text) {
    cc_call_sequence s;
    cc_error err;
    if (!CHECKF(t, cc_sequence_parse(text, &s, &err) == CC_OK, "%s: %s", text, err.msg)) return -1;
    cc_transitions c;
    memset(&c, 0, sizeof c);
    cc_sequence_transitions(&s, &c);
    return cc_transitions_count(&c);
}

/* Whether s could run: loads before steps and stores, B's calls while B lives, load=stored after
 * a store (cc_sequence_run refuses the others). */
static int valid(const cc_call_sequence *s) {
    int loaded = 0, b = 0, stored = 0;
    for (int i = 0; i < s->n; i++) {
        switch (s->op[i].kind) {
        case CC_OP_LOAD_NEW: loaded = 1; break;
        case CC_OP_LOAD_SAME:
        case CC_OP_LOAD_ROWS:
            if (!loaded) return 0;
            break;
        case CC_OP_LOAD_STORED:
            if (!stored) return 0;
            break;
        case CC_OP_STEP:
            if (!loaded) return 0;
            break;
        case CC_OP_STORE:
            if (!loaded) return 0;
            stored = 1;
            break;
        case CC_OP_B_CREATE:
            if (b) return 0;
            b = 1;
            break;
        case CC_OP_B_STEP:
        case CC_OP_B_STORE:
            if (!b) return 0;
            break;
        case CC_OP_B_DESTROY:
            if (!b) return 0;
            b = 0;
            break;
        default: return 0; /* the near-duplicate ops are no part of the tour */
        }
    }
    return 1;
}

int main(void) {
    checks t = {"transitions_test", 0, 0};
    /* 1 pair from create (to load#J); of the 10 x 10 pairs of ops, B.create after B.create,
     * B.step and B.store (B lives), and B.step, B.store and B.destroy after B.destroy are not. */
    CHECK_EQ(&t, cc_transitions_reachable_count(), 1 + 100 - 6);

    /* Every pair compared: create->load, load->step, step->store. */
    CHECK_EQ(&t, covered_by(&t, "load#0 step(1) store"), 3);
    /* The load=same replaces what load#0 and step did before any store saw it: only
     * step->load=same and load=same->store are compared. */
    CHECK_EQ(&t, covered_by(&t, "load#0 step(1) load=same store"), 2);
    /* No B.store sees B.create or B.step: create->load, load->store and B.step->store (a store
     * compares itself) count; store->B.create and B.create->B.step do not. */
    CHECK_EQ(&t, covered_by(&t, "load#0 store B.create B.step(1) store"), 3);
    /* B.destroy is compared by the first context's later store. */
    CHECK_EQ(&t, covered_by(&t, "load#0 B.create B.store B.destroy store"), 5);

    cc_transitions all;
    memset(&all, 0, sizeof all);
    cc_call_sequence s;
    int n = 0;
    for (; cc_transition_tour(n, &s); n++) {
        char text[CC_SEQUENCE_TEXT_MAX];
        CHECKF(&t, s.n <= CC_SEQUENCE_OPS_MAX && valid(&s), "tour %d is not a valid sequence", n);
        CHECKF(&t, cc_sequence_format(&s, text, sizeof text) == CC_OK, "tour %d: too long", n);
        cc_call_sequence back;
        cc_error err;
        CHECKF(&t, cc_sequence_parse(text, &back, &err) == CC_OK && back.n == s.n, "tour %d: %s", n,
               text);
        cc_sequence_transitions(&s, &all);
        if (n < 2) printf("tour %d: %s\n", n, text);
    }
    printf("the tour: %d sequences, %d of %d transitions\n", n, cc_transitions_count(&all),
           cc_transitions_reachable_count());
    CHECK_EQ(&t, cc_transitions_count(&all), cc_transitions_reachable_count());
    for (int a = 0; a < CC_TRANSITION_SYMBOLS; a++)
        for (int b = 0; b < CC_TRANSITION_SYMBOLS; b++) {
            cc_transitions one;
            memset(&one, 0, sizeof one);
            const int bit = a * CC_TRANSITION_SYMBOLS + b;
            if ((all.bits[bit / 32] >> (bit % 32)) & 1u) {
                char name[64];
                cc_transition_name(a, b, name, sizeof name);
                CHECKF(&t, cc_transition_reachable(a, b), "the tour covers %s, not reachable", name);
            }
        }
    CHECK(&t, n > 1 && n < 40);
    return check_summary(&t);
}
