/* Call sequences drawn from the contract's state machine: a context created for a case, then
 * loads (new grids, the same grid again, grids sharing rows with the last, the grid last stored),
 * step(k), stores (several, between steps), a second live context created, used and destroyed
 * in between; every store is compared with the oracle's state of that context at that call.
 *
 * A sequence's text is its reproducer: ops separated by spaces,
 *   load#J        a new grid, the J-th drawn from the case's seed
 *   load=same     the grid this context last loaded, again
 *   load=rows#J   that grid's even rows with grid J's odd rows (shares every other row)
 *   load=stored   the grid this context last stored
 *   step(K)  store
 *   B.create  B.step(K)  B.store  B.destroy   (the second context: another rule and size, loaded
 *                                             with its own grid at create)
 * and, for state shared across contexts (a process-wide cache keyed on part of the input):
 *   load=lastrow  load=middle   the grid this context last loaded, one cell flipped: in the
 *                               middle of its last row, or at the grid's centre
 *   recreate                    the first context destroyed and created again for the case
 *                               (it must load before it steps or stores)
 *   B.twin=lastrow  B.twin=middle   B created for the first context's case (its rule, size) and
 *                               loaded with the first context's last grid, one cell flipped
 * The first context is created before the first op and destroyed after the last. */
#ifndef CELLCHECK_HARNESS_SEQUENCE_H
#define CELLCHECK_HARNESS_SEQUENCE_H

#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "harness/check.h"
#include "harness/report.h"
#include "oracle/case.h"
#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CC_SEQUENCE_OPS_MAX 32
#define CC_SEQUENCE_TEXT_MAX 512

typedef enum cc_call_op_kind {
    CC_OP_LOAD_NEW = 0,
    CC_OP_LOAD_SAME,
    CC_OP_LOAD_ROWS,
    CC_OP_LOAD_STORED,
    CC_OP_STEP,
    CC_OP_STORE,
    CC_OP_B_CREATE,
    CC_OP_B_STEP,
    CC_OP_B_STORE,
    CC_OP_B_DESTROY,
    CC_OP_LOAD_LASTROW,
    CC_OP_LOAD_MIDDLE,
    CC_OP_RECREATE,
    CC_OP_B_TWIN_LASTROW,
    CC_OP_B_TWIN_MIDDLE
} cc_call_op_kind;

typedef struct cc_call_op {
    cc_call_op_kind kind;
    int64_t k;     /* steps of a step */
    uint32_t grid; /* J of load#J and load=rows#J */
} cc_call_op;

typedef struct cc_call_sequence {
    int n;
    cc_call_op op[CC_SEQUENCE_OPS_MAX];
} cc_call_sequence;

/* A sequence of 6..16 ops for case c, from its seed; step counts up to max_k. */
void cc_sequence_draw(const cc_case *c, int64_t max_k, cc_call_sequence *out);

/* The caller's buffers a sequence on case c runs with (its buffers=), from c's seed: a quarter
 * the shared grid (0), a quarter ending at a guard page, half 1..64 bytes past a 64-byte
 * boundary, each alignment alike. */
int32_t cc_sequence_draw_buffers(const cc_case *c);

int cc_sequence_format(const cc_call_sequence *s, char *buf, size_t size);
/* Refuses, by name, an unknown op, a malformed count or a sequence past CC_SEQUENCE_OPS_MAX. */
int cc_sequence_parse(const char *text, cc_call_sequence *out, cc_error *err);

typedef struct cc_sequence_result {
    int failed;           /* 1: a store differed, or a call failed */
    cc_failure_kind kind; /* CC_FAILURE_CALL_SEQUENCE, or the call's fault or error */
    int at;               /* the op that failed (0-based) */
    uint64_t differing;
    char detail[512];
} cc_sequence_result;

/* Runs s on engine for case c (its rule, size and seed) and checks every store against the
 * oracle. CC_OK when it ran, whatever its verdict; another code when the oracle or memory
 * failed, or the sequence is malformed (a B op with no B, a step before any load). */
int cc_sequence_run(const cc_engine *engine, const cc_case *c, const cc_call_sequence *s,
                    cc_sequence_result *res, cc_error *err);

/* The shortest sequence found that fails the same way (the same kind; for a differing store,
 * a store that differs): ops removed one at a time, then step counts lowered, at most
 * max_tries runs. */
int cc_sequence_shrink(const cc_engine *engine, const cc_case *c, const cc_call_sequence *s,
                       const cc_sequence_result *res, int max_tries, cc_call_sequence *out,
                       int *tries, cc_error *err);

/* Prints a failing sequence's report: the verdict, the case, the sequence and the shortest one,
 * and the reproducer `cellcheck check --engine E --case 'LINE' --calls 'SEQUENCE'`. */
void cc_sequence_report(FILE *out, const char *command, const char *engine, const cc_case *c,
                        const cc_call_sequence *s, const cc_sequence_result *res,
                        const cc_call_sequence *shortest, int tries);

/* `cellcheck check --case LINE --calls SEQUENCE`: runs it, prints the verdict (and the report on
 * failure) to out. CC_OK when it passed, CC_ERR_MISMATCH when it failed, CC_ERR_ARG for a
 * malformed line or sequence, or a case outside the engine's caps. */
int cc_sequence_check_line(const cc_engine *engine, const char *case_line, const char *calls,
                           const char *command, FILE *out, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
