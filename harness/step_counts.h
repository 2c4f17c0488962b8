/* Step counts that tell a wrong count from the right one. An engine that runs k - 1 steps, or k
 * mod 2^16, or k rounded to its blocks, passes wherever the oracle's grid after that many steps
 * equals its grid after k: a grid that died, or settled into a cycle whose period divides the
 * error. The oracle's trajectory of a case, with its cycle found and checked exactly, says for
 * any count which grid it reaches, so a case is kept only where every plausible wrong count
 * leads elsewhere. */
#ifndef CELLCHECK_HARNESS_STEP_COUNTS_H
#define CELLCHECK_HARNESS_STEP_COUNTS_H

#include <stdint.h>

#include "oracle/case.h"
#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The blocks of steps engines commonly run per launch, besides the one an engine states
 * (cc_engine_caps.steps_per_launch). */
#define CC_STEP_BLOCKS_COMMON {8, 16, 32}

/* The wrong counts an engine plausibly runs for k: k - 1, k + 1, k mod 2^8 and 2^16 (counters
 * of 8 and 16 bits), and for each block t of blocks: k rounded down and up to a multiple of t,
 * k - t. Each once, none equal to k, none negative. Returns how many (at most 16). */
int cc_step_counts_wrong(int64_t k, const int32_t *blocks, int nblocks, int64_t wrong[16]);

/* Does the oracle, from c's grid, reach after c->steps steps a grid that no count of wrong[]
 * reaches? *verdict: 1 every wrong count leads elsewhere; 0 one does (*alias says which);
 * -1 the trajectory was not found within visits_budget cell-neighbour visits. Where the verdict
 * is 1 and at_steps is not NULL, *at_steps is the oracle's grid after c->steps (the caller
 * frees it), so the check need not step the oracle again. No state outside its arguments:
 * several may run at once. */
int cc_step_counts_distinct(const cc_case *c, const int64_t *wrong, int nwrong,
                            double visits_budget, int *verdict, int64_t *alias,
                            cc_grid *at_steps, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
