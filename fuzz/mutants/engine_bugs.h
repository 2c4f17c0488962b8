/* Wrong engines with the bugs fast engines really have (engine_bugs.c): each is right on small
 * grids stepped once in one call, and wrong only where its bug shows. */
#ifndef CELLCHECK_FUZZ_MUTANTS_ENGINE_BUGS_H
#define CELLCHECK_FUZZ_MUTANTS_ENGINE_BUGS_H

#include "engines/engine.h"

/* Every one, NULL-terminated:
 *   mutant.past-tile      256-column tiles; past the first, the west halo comes from two tiles back
 *   mutant.split-calls    every step() call starts from the first buffer
 *   mutant.static-rule    the rule in a static, set by the last create
 *   mutant.large-r-steps  r > 16: after a call's first step the bottom rows clamp, not wrap
 *   mutant.word-skip      skips 64-cell words dead with the words above and below
 *   mutant.index-wrap     cell indices kept in 24 bits: wrong past 2^24 cells
 *   mutant.history        wrong once 40 contexts were created in the process
 *   mutant.vn-wide        von Neumann past r = 4 on grids past 65536 columns: wrong columns
 * the slab engines of slab_bugs.h (control.slabs and four seam mutants), mutant.vn-wide's loop
 * with its limit stated in its caps (control.vn-r4: von Neumann up to r = 4;
 * control.vn-w65536: von Neumann on W up to 65536), and three right engines: the loop alone
 * (control.loop), and the loop slow where the step counts' time estimate looks
 * (control.slow-create, control.slow-steps). */
const cc_engine *const *cc_mutants_engine_bugs(void);

#endif
