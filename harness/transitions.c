/* Transition coverage of the contract's state machine (see transitions.h). */
#include "harness/transitions.h"

#include <stdio.h>
#include <string.h>

#define SYM_CREATE 0
#define SYM(kind) (1 + (int)(kind))

static int is_b_live_needing(int sym) {
    return sym == SYM(CC_OP_B_STEP) || sym == SYM(CC_OP_B_STORE) || sym == SYM(CC_OP_B_DESTROY);
}

int cc_transition_reachable(int from, int to) {
    if (from < 0 || from >= CC_TRANSITION_SYMBOLS || to <= SYM_CREATE || to >= CC_TRANSITION_SYMBOLS)
        return 0;
    /* The first op loads: nothing else has a grid to work on. */
    if (from == SYM_CREATE) return to == SYM(CC_OP_LOAD_NEW);
    const int b_live_after = from == SYM(CC_OP_B_CREATE) || from == SYM(CC_OP_B_STEP) ||
                             from == SYM(CC_OP_B_STORE);
    if (to == SYM(CC_OP_B_CREATE)) return !b_live_after;
    if (is_b_live_needing(to)) return from != SYM(CC_OP_B_DESTROY);
    return 1;
}

int cc_transitions_reachable_count(void) {
    int n = 0;
    for (int a = 0; a < CC_TRANSITION_SYMBOLS; a++)
        for (int b = 0; b < CC_TRANSITION_SYMBOLS; b++) n += cc_transition_reachable(a, b);
    return n;
}

int cc_transitions_count(const cc_transitions *t) {
    int n = 0;
    for (int w = 0; w < CC_TRANSITION_WORDS; w++) n += __builtin_popcount(t->bits[w]);
    return n;
}

static const char *const symbol_names[CC_TRANSITION_SYMBOLS] = {
    "create", "load#J", "load=same", "load=rows#J", "load=stored", "step", "store",
    "B.create", "B.step", "B.store", "B.destroy"};

void cc_transition_name(int from, int to, char *buf, size_t size) {
    snprintf(buf, size, "%s -> %s", symbol_names[from], symbol_names[to]);
}

/* The ops of the contract's plain state machine; the near-duplicate ops (sequence.h) are not
 * counted as transitions. */
static int symbol_of(const cc_call_op *op) {
    return op->kind <= CC_OP_B_DESTROY ? SYM(op->kind) : -1;
}

/* Was op i's effect compared with the oracle later in s? */
static int observed(const cc_call_sequence *s, int i) {
    const cc_call_op_kind k = s->op[i].kind;
    if (k == CC_OP_STORE || k == CC_OP_B_STORE) return 1;
    for (int j = i + 1; j < s->n; j++) {
        const cc_call_op_kind n = s->op[j].kind;
        const int b_replaced = n == CC_OP_B_DESTROY || n == CC_OP_B_CREATE ||
                               n == CC_OP_B_TWIN_LASTROW || n == CC_OP_B_TWIN_MIDDLE;
        const int a_replaced = n <= CC_OP_LOAD_STORED || n == CC_OP_LOAD_LASTROW ||
                               n == CC_OP_LOAD_MIDDLE || n == CC_OP_RECREATE;
        if (k == CC_OP_B_CREATE || k == CC_OP_B_STEP) {
            if (n == CC_OP_B_STORE) return 1;
            if (b_replaced) return 0;
        } else if (k == CC_OP_B_DESTROY) {
            if (n == CC_OP_STORE) return 1;
        } else {
            if (n == CC_OP_STORE) return 1;
            if (a_replaced) return 0; /* a load replaces the state */
        }
    }
    return 0;
}

static void set_pair(cc_transitions *t, int from, int to) {
    const int bit = from * CC_TRANSITION_SYMBOLS + to;
    t->bits[bit / 32] |= 1u << (bit % 32);
}

static int has_pair(const cc_transitions *t, int from, int to) {
    const int bit = from * CC_TRANSITION_SYMBOLS + to;
    return (t->bits[bit / 32] >> (bit % 32)) & 1u;
}

void cc_sequence_transitions(const cc_call_sequence *s, cc_transitions *covered) {
    for (int i = 0; i < s->n; i++) {
        const int from = i == 0 ? SYM_CREATE : symbol_of(&s->op[i - 1]), to = symbol_of(&s->op[i]);
        if (from >= 0 && cc_transition_reachable(from, to) && observed(s, i))
            set_pair(covered, from, to);
    }
}

/* ---- The tour ------------------------------------------------------------------------------ */

#define TOUR_OPS_MAX (CC_SEQUENCE_OPS_MAX - 6) /* room for one pair's set-up, calls and store */

typedef struct walk {
    cc_call_sequence *out;
    int b_live, stored;
    uint32_t grids;
} walk;

static void emit(walk *w, int sym) {
    cc_call_op op = {.kind = (cc_call_op_kind)(sym - 1)};
    if (op.kind == CC_OP_STEP || op.kind == CC_OP_B_STEP) op.k = 1 + (w->out->n % 2);
    if (op.kind == CC_OP_LOAD_NEW || op.kind == CC_OP_LOAD_ROWS) op.grid = w->grids++;
    if (op.kind == CC_OP_B_CREATE || op.kind == CC_OP_B_STEP || op.kind == CC_OP_B_STORE)
        w->b_live = 1;
    if (op.kind == CC_OP_B_DESTROY) w->b_live = 0;
    if (op.kind == CC_OP_STORE) w->stored = 1;
    w->out->op[w->out->n++] = op;
}

/* Makes pair (from, to) possible from w's state, calls it and compares what it did. */
static void emit_pair(walk *w, int from, int to) {
    const int needs_b = is_b_live_needing(from) || (is_b_live_needing(to) && from != SYM(CC_OP_B_CREATE));
    const int needs_no_b = from == SYM(CC_OP_B_CREATE) ||
                           (to == SYM(CC_OP_B_CREATE) && from != SYM(CC_OP_B_DESTROY));
    if (needs_b && !w->b_live) emit(w, SYM(CC_OP_B_CREATE));
    if (needs_no_b && w->b_live) emit(w, SYM(CC_OP_B_DESTROY));
    if ((from == SYM(CC_OP_LOAD_STORED) || (to == SYM(CC_OP_LOAD_STORED) && from != SYM(CC_OP_STORE))) &&
        !w->stored)
        emit(w, SYM(CC_OP_STORE));
    if (from != SYM_CREATE) emit(w, from);
    emit(w, to);
    if (to == SYM(CC_OP_B_CREATE) || to == SYM(CC_OP_B_STEP)) emit(w, SYM(CC_OP_B_STORE));
    else if (to != SYM(CC_OP_STORE) && to != SYM(CC_OP_B_STORE)) emit(w, SYM(CC_OP_STORE));
}

int cc_transition_tour(int index, cc_call_sequence *out) {
    cc_call_sequence s;
    cc_transitions done;
    memset(&done, 0, sizeof done);
    int made = 0;
    walk w = {.out = &s};
    memset(&s, 0, sizeof s);
    for (int from = 0; from < CC_TRANSITION_SYMBOLS; from++)
        for (int to = 0; to < CC_TRANSITION_SYMBOLS; to++) {
            if (!cc_transition_reachable(from, to) || has_pair(&done, from, to)) continue;
            if (s.n == 0 || s.n > TOUR_OPS_MAX) {
                if (s.n) {
                    if (made++ == index) {
                        *out = s;
                        return 1;
                    }
                    cc_sequence_transitions(&s, &done);
                }
                memset(&s, 0, sizeof s);
                w = (walk){.out = &s};
                emit(&w, SYM(CC_OP_LOAD_NEW));
                if (from == SYM_CREATE) continue; /* create -> load#J: every sequence's start */
            }
            emit_pair(&w, from, to);
            cc_sequence_transitions(&s, &done);
        }
    if (s.n && made == index) {
        *out = s;
        return 1;
    }
    return 0;
}
