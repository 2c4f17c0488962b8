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

/* How long a check waits for step(k) with k past 2^31 - 2 before it ends the engine's worker:
 * no engine runs that many steps in a check's time, and one that keeps the count in 32 bits
 * answers at once. */
#define CC_LONG_COUNT_WAIT_S 0.5

/* The most wrong counts cc_step_counts_wrong gives. */
#define CC_STEP_COUNTS_WRONG_MAX 24

/* The wrong counts an engine plausibly runs for k: k - 1, k + 1, k mod 2^8 and 2^16 (counters
 * of 8 and 16 bits), and for each block t of blocks: k rounded down and up to a multiple of t,
 * k - t. Each once, none equal to k, none negative. Returns how many (at most
 * CC_STEP_COUNTS_WRONG_MAX). */
int cc_step_counts_wrong(int64_t k, const int32_t *blocks, int nblocks,
                         int64_t wrong[CC_STEP_COUNTS_WRONG_MAX]);

/* The same for a count past 2^31 - 2 that is waited for (CC_LONG_COUNT_WAIT_S): only the wrong
 * counts an engine could answer with in that time besides k +- 1 (an engine that jumps through
 * time may be off by one): k mod 2^32 (a count in a uint32_t, or an int32_t where it stays
 * positive), 2^16 and 2^8, and 0 (an int32_t gone negative, run as none). A count clamped to 2^31 - 1, or rounded to a block, runs on past the wait like
 * the right one, so telling it apart would buy nothing. */
int cc_step_counts_wrong_waited(int64_t k, int64_t wrong[CC_STEP_COUNTS_WRONG_MAX]);

/* Does the oracle, from c's grid, reach after c->steps steps a grid that no count of wrong[]
 * reaches? *verdict: 1 every wrong count leads elsewhere; 0 one does (*alias says which);
 * -1 the trajectory was not found within visits_budget cell-neighbour visits. Where the verdict
 * is 1 and at_steps is not NULL, *at_steps is the oracle's grid after c->steps (the caller
 * frees it), so the check need not step the oracle again. Any count up to INT64_MAX: past the
 * trajectory's cycle a count is its place in the cycle. No state outside its arguments: several
 * may run at once. */
int cc_step_counts_distinct(const cc_case *c, const int64_t *wrong, int nwrong,
                            double visits_budget, int *verdict, int64_t *alias,
                            cc_grid *at_steps, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
