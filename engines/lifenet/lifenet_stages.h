/* The table of shorter rule stages (lifenet_stages.c) that lifenet_build takes for the rules it
 * names. A stage is up to LIFENET_STAGE_GATES gates after the adder, over five of its signals:
 * set 0 = t0 k0 t1 k1 alive (the full adders' outputs, lifenet.c), set 1 = t0 u1 cc k1 alive; an
 * operand 0..4 is the set's signal, 5 + g the stage's gate g; the last gate is the output. */
#ifndef CELLCHECK_ENGINES_LIFENET_LIFENET_STAGES_H
#define CELLCHECK_ENGINES_LIFENET_LIFENET_STAGES_H

#include <stdint.h>

#define LIFENET_STAGE_GATES 4

typedef struct lifenet_stage {
    int shape, centre;      /* the rule: cc_shape, M0 (0) or M1 (1) */
    uint16_t birth, survive; /* bit c: count c is in B, in S */
    int set;                 /* the signals: 0 or 1 */
    int gates;                          /* 1..LIFENET_STAGE_GATES */
    uint8_t op[LIFENET_STAGE_GATES][4]; /* each gate's a, b, c and truth table */
} lifenet_stage;

extern const lifenet_stage lifenet_stages[];
extern const int lifenet_stages_count;

#endif
