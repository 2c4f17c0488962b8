/* The cases where a CAT engine's sums are largest, for its precision tests: at every radius of a
 * range, each of Moore and cross the engine takes, M1 and M0, grids all alive and near all alive,
 * with rules that flip a cell when its count is off by one at the top. Sizes are 2r+1 and sizes
 * that are not multiples of a fragment. Each case is checked against the oracle. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT_CAT_EXTREMES_H
#define CELLCHECK_ENGINES_CUDA_CAT_CAT_EXTREMES_H

#include <stdint.h>

#include "engines/engine.h"
#include "oracle/case.h"

typedef struct cat_extremes_result {
    int cases;
    int passed;
    int mismatched;     /* the engine's grid differed from the oracle's */
    int other_failures; /* refusals, engine errors, round trips */
    int infra_errors;   /* checks that could not run */
} cat_extremes_result;

/* Runs the cases for radii r_lo..r_hi. Each failure is printed with its one-line case, unless
 * quiet (for a test that expects mismatches and counts them). */
void cat_extremes_run(const cc_engine *engine, int32_t r_lo, int32_t r_hi, int quiet,
                      cat_extremes_result *res);

/* Checks one case against the oracle and counts it in res; a failure is printed with its one-line
 * case and its reproducer, unless quiet. */
void cat_extremes_check(const cc_engine *engine, const cc_case *c, int quiet,
                        cat_extremes_result *res);

/* A precision test's main for one engine: skips without its hardware (cc_harness_skip), runs
 * the cases at every radius of the engine's caps, prints the tally and "<test>: PASSED" or
 * "FAILED", and returns the exit status. */
int cat_extremes_test_main(const cc_engine *engine, const char *test, int argc, char **argv);

/* An engine's own further cases: checks them (cat_extremes_check), prints their tally, and returns
 * 1 when every one ran and passed. */
typedef int (*cat_extremes_more)(const cc_engine *engine);

/* cat_extremes_test_main with more (NULL: none) run after the largest counts; the test passes
 * only if they pass too. */
int cat_extremes_test_main_more(const cc_engine *engine, const char *test, cat_extremes_more more,
                                int argc, char **argv);

#endif
