/* Checking one case against the oracle (check_case.c), with what a check's verdicts, call
 * patterns and options are (check_result.h). Below the campaign, the failure reports and the
 * shrinker, which all call it; it calls none of them. */
#ifndef CELLCHECK_HARNESS_CHECK_H
#define CELLCHECK_HARNESS_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "oracle/case.h"
#include "oracle/error.h"
#include "oracle/grid.h"
#include "harness/check_result.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* A small case within the engine's caps (none drawn large or outside them) from seed: the
 * second context of the call patterns and sequences, and the cases of the step-count and
 * call-sequence checks. */
int cc_case_draw_small(const cc_engine *engine, const uint8_t seed[CC_SEED_BYTES], cc_case *out,
                       cc_error *err);

/* Names the case in flight in the in-flight lines of the engine's supervisor ("WHERE: <case
 * line>"); nothing for an engine no supervisor runs. */
void cc_case_label(const cc_engine *engine, const char *where, const cc_case *c);

/* Runs one case: create (the contract refuses what is outside the caps, with the limit named),
 * load, store at once (the zero-step round trip), step(steps) in one call, store, and the
 * comparison with the oracle, on the whole grid or on light-cone windows; then each call pattern
 * of opt, compared with the one-call grid. Cases past the pattern budget, and light-cone cases,
 * run only the split pattern (each pattern is a whole run more). Returns CC_OK when the check ran, whatever its outcome;
 * non-zero only when it could not (the oracle or memory failed). opt NULL: the defaults. */
int cc_case_check_with(const cc_engine *engine, const cc_case *c, const cc_check_options *opt,
                       cc_check_result *res, cc_error *err);
int cc_case_check(const cc_engine *engine, const cc_case *c, cc_check_result *res, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
