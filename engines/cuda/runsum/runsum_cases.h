/* The cases a runsum engine's own test runs besides certify's: the largest counts at every radius
 * (cat_extremes.h), and soups where the program has its seams and a random case seldom looks:
 * widths around one and two strips of 30 words (the lanes that only load, the last strip's
 * clamped lanes) at heights of two bands (the second shorter than the run-in), Moore and the
 * cross (where the engine has it), M0 and M1, a third of the cells alive and the rule's ranges around the mean count. Each
 * is checked against the oracle; a failure is printed with its reproducer. */
#ifndef CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_CASES_H
#define CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_CASES_H

#include "engines/engine.h"

/* The soups (a cat_extremes_more): prints their tally; 1 when every one ran and passed. */
int runsum_soups(const cc_engine *engine);

/* A runsum engine's test: cat_extremes_test_main_more with the soups. */
int runsum_cases_test_main(const cc_engine *engine, const char *test, int argc, char **argv);

#endif
