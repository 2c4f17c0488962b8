/* Deliberately wrong engines, to prove the campaign catches what it must. Each is a plain
 * per-cell CPU loop (its own, not the oracle's) with one mistake; the control is the same loop
 * without one. All declare the caps of a general CPU engine: every shape, r 1..16, M0 and M1,
 * any W and H. */
#ifndef CELLCHECK_FUZZ_MUTANTS_MUTANTS_H
#define CELLCHECK_FUZZ_MUTANTS_MUTANTS_H

#include "engines/engine.h"

/* The loop without a mistake. */
extern const cc_engine cc_mutant_control;

/* Every mutant, NULL-terminated:
 *   mutant.radius      counts neighbours within r+1 instead of r
 *   mutant.edge        the right edge is not wrapped: beyond column W-1 reads dead
 *   mutant.centre      counts the centre under M0 too
 *   mutant.odd-column  leaves the last column unchanged when W is odd
 *   mutant.swap        uses B for live cells and S for dead ones
 *   mutant.short       step(k) runs k-1 steps when k > 0
 *   mutant.max-count   a count equal to the largest possible is taken as one less */
const cc_engine *const *cc_mutants_all(void);

#endif
