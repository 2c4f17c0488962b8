/* The cases a runsum engine's own test runs besides certify's: the largest counts at every radius
 * (cat_extremes.h), and soups where the program has its seams and a random case seldom looks:
 * widths around one and two strips of 30 words (the lanes that only load, the last strip's
 * clamped lanes) at heights of two bands (the second shorter than the run-in), Moore and the
 * cross, M0 and M1, a third of the cells alive and the rule's ranges around the mean count. Each
 * is checked against the oracle; a failure is printed with its reproducer. */
#ifndef CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_CASES_H
#define CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_CASES_H

#include "engines/engine.h"

typedef struct runsum_soups_result {
    int cases, passed;
} runsum_soups_result;

void runsum_soups_run(const cc_engine *engine, runsum_soups_result *res);

/* A test's main for one engine: the largest-count cases at every radius (cat_extremes.h), then the
 * soups; skips without the engine's hardware (cc_harness_skip); prints the tallies and
 * "<test>: PASSED" or "FAILED"; returns the exit status. */
int runsum_cases_test_main(const cc_engine *engine, const char *test, int argc, char **argv);

#endif
