/* What a check of one case is: its verdicts, failure kinds, call patterns, options and budgets,
 * and the helpers that fill a verdict (check_result.c). Below the check itself (check.h) and the
 * in-place check (check_in_place.h), which both use them. */
#ifndef CELLCHECK_HARNESS_CHECK_RESULT_H
#define CELLCHECK_HARNESS_CHECK_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include "oracle/case.h"
#include "oracle/error.h"
#include "oracle/grid.h"
#include "harness/oracle_cache.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cc_outcome {
    CC_OUTCOME_PASS = 0,    /* within the caps, and the engine agreed with the oracle */
    CC_OUTCOME_REFUSED = 1, /* outside the caps, and create refused it with a message */
    CC_OUTCOME_FAIL = 2,
    CC_OUTCOME_RUNNING = 3  /* step(k) still ran at cc_check_options.step_wait_s: its worker
                             * was ended, nothing of its grid seen (neither pass nor fail) */
} cc_outcome;

typedef enum cc_failure_kind {
    CC_FAILURE_NONE = 0,
    CC_FAILURE_REFUSED_VALID,    /* create refused a case within the engine's caps */
    CC_FAILURE_ENGINE_ERROR,     /* load, step or store returned an error */
    CC_FAILURE_ROUND_TRIP,       /* store right after load differs from what was loaded */
    CC_FAILURE_MISMATCH,         /* the grid after step(k) differs from the oracle's */
    CC_FAILURE_CALL_PATTERN,     /* step(k) in one call agreed with the oracle; another way of
                                  * calling the engine for the same case gave another grid */
    /* Faults of the worker that ran the engine (supervise/supervisor.h): */
    CC_FAILURE_CRASHED,          /* it died by a signal */
    CC_FAILURE_EXITED,           /* it exited (status 0 too) without answering */
    CC_FAILURE_TIMED_OUT,        /* a call overran its time limit */
    CC_FAILURE_OUT_OF_MEMORY,    /* it held more than its memory limit, or leaked across cases */
    CC_FAILURE_DEVICE_ERROR,     /* a device error (CUDA's poison the context: a fresh worker
                                  * takes the rest) */
    CC_FAILURE_CONTRACT,         /* wrote into load's input, outside store's grid, left a cell
                                  * unwritten, or two stores in a row differ */
    CC_FAILURE_CALL_SEQUENCE,    /* a store along a drawn call sequence differs from the oracle's
                                  * state of that context (harness/sequence.h) */
    CC_FAILURE_SANDBOX           /* it tried what the sandbox forbids: a fork, an exec, a signal
                                  * to another process, ptrace (supervise/sandbox.h) */
} cc_failure_kind;

/* The failure kind of an engine call's error code: a fault class, or an engine error. */
cc_failure_kind cc_failure_kind_of_code(int code);

/* Is it a fault of the worker (crashed, exited, timed out, out of memory, device error)? */
int cc_failure_kind_is_fault(cc_failure_kind kind);

/* The ways a case is run besides step(k) in one call on a fresh context, as real callers do. */
typedef enum cc_pattern {
    CC_PATTERN_ONE_CALL = 0, /* create, load, step(k), store: the check against the oracle */
    CC_PATTERN_SPLIT,        /* step(a) then step(k-a) on one context */
    CC_PATTERN_SINGLES,      /* step(1) k times on one context */
    CC_PATTERN_RELOAD,       /* load another grid and step it, then load the case's: the second
                              * load must replace the first whole */
    CC_PATTERN_TWO_LIVE,     /* a second live context, another rule and size, stepped in turns */
    CC_PATTERN_RECREATE,     /* another context created, stepped and destroyed first */
    CC_PATTERN_COUNT
} cc_pattern;
#define CC_PATTERN_BIT(p) (1u << (unsigned)(p))
#define CC_PATTERNS_ALL 0x3eu /* every pattern but the one-call check itself */

/* "step(3) then step(2)" and the like, for a case of k steps. */
void cc_pattern_describe(cc_pattern p, const cc_case *c, char *buf, size_t size);

const char *cc_failure_kind_name(cc_failure_kind kind);

typedef struct cc_check_result {
    cc_outcome outcome;
    cc_failure_kind kind;
    cc_pattern pattern;  /* the call pattern that failed (CC_FAILURE_CALL_PATTERN) */
    uint64_t differing;  /* cells that differ (round trip or final grid) */
    uint64_t verified;   /* cells compared with the oracle */
    int lightcone;       /* 1: verified on light-cone windows, not the whole grid */
    uint32_t seam_classes; /* CC_SEAM_* the light cones covered */
    uint32_t patterns_run; /* CC_PATTERN_BIT of each call pattern that ran and agreed */
    double step_seconds;   /* wall time of the one call of step(k), without create, load, store */
    double oracle_seconds; /* wall time of the oracle's part: its grid or its light cones */
    double draw_seconds;   /* wall time of drawing the case's grid from its seed */
    char detail[512];    /* create's refusal, the engine's error, or what differed */
    int detail_cell;     /* where detail goes on to name a cell of the final grid (", among
                          * them (x,y): ..."), which a report that found the first diverging
                          * step leaves out; 0: detail names no such cell */
} cc_check_result;

/* How a case is checked. */
typedef struct cc_check_options {
    uint32_t patterns;          /* CC_PATTERN_BIT(...) to run besides the one-call check */
    double oracle_budget;       /* cell-neighbour visits (W*H*count*k) up to which the oracle
                                 * steps the whole grid; above, light cones verify it */
    double pattern_budget;      /* the same measure up to which every pattern runs; above, the
                                 * split alone */
    uint64_t lightcone_cells;   /* cells light cones verify (0: CC_LIGHTCONE_DEFAULT_CELLS) */
    double lightcone_budget;    /* oracle visits light cones may spend past the seams (0: any) */
    const cc_grid *expected;    /* the oracle's grid after c->steps where the caller has it
                                 * already (NULL: the check steps the oracle itself) */
    double in_place_cells;      /* past this many cells a uniform case's grid is held once, in
                                 * the worker's shared grid, and verified by light cones
                                 * (0: CC_CHECK_IN_PLACE_CELLS, 2^30) */
    cc_oracle_cache *oracle_cache; /* where the oracle's results are kept and reused (NULL: none) */
    double step_wait_s;         /* > 0: step(k) is waited for this long at most, then ended
                                 * (CC_OUTCOME_RUNNING); 0: for its time limit */
} cc_check_options;

/* Past this many steps the oracle's grid comes from its trajectory's cycle (step_counts.h),
 * found within CC_ORACLE_CYCLE_VISITS cell-neighbour visits, not from stepping k times. */
#define CC_ORACLE_CYCLE_STEPS (1ll << 24)
#define CC_ORACLE_CYCLE_VISITS 1e9

#define CC_CHECK_DEFAULT_ORACLE_BUDGET 2e7
#define CC_CHECK_DEFAULT_PATTERN_BUDGET 1e7

/* Every pattern; the whole grid up to CC_CHECK_DEFAULT_ORACLE_BUDGET, light cones above. */
void cc_check_options_init(cc_check_options *opt);

/* How a passing case was verified: "verified by light cones: N cells (classes)" or on the whole
 * grid, and the call patterns that agreed. */
void cc_check_result_describe(const cc_check_result *res, FILE *out);

/* For the harness's checks (check.c): a failing verdict, */
void harness_fail_result(cc_check_result *res, cc_failure_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* a call that failed: a fault or a broken contract in the supervisor's words, which name the
 * call; an engine's own error after what was called; */
void harness_call_failed(cc_check_result *res, int rc, const char *what, const cc_error *e);
/* a mismatch's cell of the final grid, after its detail: not called the first, since a report's
 * first difference is the first diverging step's first cell; */
void harness_result_cell(cc_check_result *res, int x, int y, int engine, int oracle);
/* and a of the split pattern step(a) then step(k-a): 1..k-1, from the case seed. */
int64_t harness_split_point(const cc_case *c);

#ifdef __cplusplus
}
#endif

#endif
