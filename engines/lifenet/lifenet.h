/* The rule of a Life-like automaton (Moore r = 1, any B and S, M0 or M1) or a hexagonal one (NH)
 * as a network of three-input logic gates (LOP3 on the GPU, vpternlog on AVX-512) over bit-sliced words, built
 * at create. Every engine of the family applies the same network: what the tests prove of it
 * holds for each of them.
 *
 * The count is taken in two stages. Per row, the three cells left, centre and right of each
 * position are added (a full adder: s0 = XOR3, s1 = MAJ3), once per row and shared by the three
 * output rows that see it. The network then takes the pairs (s0, s1) of the rows above, at and
 * below, and the centre cell, and gives the next state: inputs 0..6 are a0 a1 b0 b1 d0 d1 alive.
 * Its gates add the three pairs (the nine-cell sum, centre included, 0..9) and apply the rule;
 * constants and repeated functions are folded, so a rule whose table is simple costs fewer
 * gates. The network is exact on the inputs that real cells give; a well-known rule's shorter
 * stage (lifenet_stages.c) may differ on the others (a live centre in a row that adds to 0, a
 * hexagonal pair of two carries), which no engine of the family feeds it.
 *
 * Hexagonal rules (Moore less the (+1,-1) and (-1,+1) diagonals, y downward) take half adders
 * instead (s0 = XOR, s1 = AND), of different cells in each row: (x-1, x) in the row above, (x-1,
 * x+1) in the row at, (x, x+1) in the row below; the network adds the three pairs (the six
 * neighbours, 0..6) and applies the rule. */
#ifndef CELLCHECK_ENGINES_LIFENET_LIFENET_H
#define CELLCHECK_ENGINES_LIFENET_LIFENET_H

#include <stdint.h>

#include "oracle/error.h"
#include "oracle/rule.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LIFENET_INPUTS 7
#define LIFENET_GATES_MAX 24

/* Signal numbers: 0..6 the inputs, LIFENET_INPUTS + i the output of gate i; two more stand for
 * the constants. */
#define LIFENET_ZERO 254
#define LIFENET_ONE 255

/* out = f(a, b, c) bit by bit, where imm is f's truth table in LOP3's order:
 * imm = f(0xF0, 0xCC, 0xAA). */
typedef struct lifenet_gate {
    uint8_t imm;
    uint8_t a, b, c;
} lifenet_gate;

typedef struct lifenet {
    int gates;
    lifenet_gate gate[LIFENET_GATES_MAX];
    uint8_t out; /* the signal that is the next state: a gate, an input or a constant */
} lifenet;

/* The network of rule. Refuses (CC_ERR_UNSUPPORTED) what is not Moore or hexagonal r = 1. */
int lifenet_build(const cc_rule *rule, lifenet *net, cc_error *err);

/* One gate on 64-bit words: what every implementation computes. */
static inline uint64_t lifenet_lop3(uint8_t imm, uint64_t a, uint64_t b, uint64_t c) {
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        if (imm >> i & 1) {
            /* Minterm i: bit 2 of i is a, bit 1 is b, bit 0 is c. */
            uint64_t m = (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
            r |= m;
        }
    return r;
}

/* The network on 64 positions at once: in[0..6] the inputs. */
uint64_t lifenet_eval(const lifenet *net, const uint64_t in[LIFENET_INPUTS]);

#ifdef __cplusplus
}
#endif

#endif
