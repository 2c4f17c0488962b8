/* Engines wrong only under what callers do, built on the control loop (mutants.h):
 *   mutant.reload-rows   load skips the rows equal to those of the grid loaded before, keeping
 *                        what the context holds there: wrong when a step came between the loads
 *   mutant.prefix-cache  a process-wide cache of results keyed on the rule, the size, the step
 *                        count and the first 4096 cells of the loaded grid: a larger grid that
 *                        differs from an earlier one only past them gets the earlier one's result
 *   control.callers      the loop with neither: right
 * Each is right on every grid stepped once in one context. */
#ifndef CELLCHECK_FUZZ_MUTANTS_CALLERS_H
#define CELLCHECK_FUZZ_MUTANTS_CALLERS_H

#include "engines/engine.h"

/* The two mutants, then the control; NULL-terminated. */
const cc_engine *const *cc_mutants_callers(void);

#endif
