/* Transition coverage of the contract's state machine, as call sequences (sequence.h) walk it.
 *
 * A transition is an ordered pair of calls in one sequence: the first context's create, then the
 * ops (load#J, load=same, load=rows#J, load=stored, step, store, B.create, B.step, B.store,
 * B.destroy). A pair counts as covered by a passing sequence only where its second call's effect
 * was compared with the oracle: a load or step of the first context by a later store with no load
 * between, B.create or B.step by a later B.store with B still the same context, B.destroy by a
 * later store of the first context; a store compares itself. Pairs the state machine cannot make
 * (B.step after B.destroy, B.create while B lives) are not reachable; every other pair is, for
 * every engine, since every engine takes every op.
 *
 * The tour is a fixed list of sequences that covers every reachable transition: each pair is
 * set up (B created or destroyed, a store made, as its calls need), called, and compared. */
#ifndef CELLCHECK_HARNESS_TRANSITIONS_H
#define CELLCHECK_HARNESS_TRANSITIONS_H

#include <stdint.h>

#include "harness/sequence.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols: 0 the first context's create, 1 + cc_call_op_kind for the ops. */
#define CC_TRANSITION_SYMBOLS 11
#define CC_TRANSITION_WORDS 4 /* 121 pairs, one bit each */

typedef struct cc_transitions {
    uint32_t bits[CC_TRANSITION_WORDS];
} cc_transitions;

/* 1 where the state machine can make the pair from -> to. */
int cc_transition_reachable(int from, int to);
/* How many pairs are reachable (95). */
int cc_transitions_reachable_count(void);
int cc_transitions_count(const cc_transitions *t);
/* "load=same -> step" for the pair's symbols. */
void cc_transition_name(int from, int to, char *buf, size_t size);

/* ORs into covered the transitions s covers, by the rule above (s passed). */
void cc_sequence_transitions(const cc_call_sequence *s, cc_transitions *covered);

/* Sequence i of the tour into *out: 1, or 0 past its last. */
int cc_transition_tour(int i, cc_call_sequence *out);

#ifdef __cplusplus
}
#endif

#endif
