/* Moore engines that cost the same at every radius (box_sums.c), NULL-terminated:
 *   control.box-sums  right: counts from a summed-area table of the torus
 *   mutant.box-wide   the same; past r = 48 on grids past 65536 columns the box's east edge in
 *                     16 bits
 * The thin, tall and wide grids at r = 64 cost a plain loop minutes, and were left out as a gap
 * of work; an engine as fast as these is checked there by its measured time. */
#ifndef CELLCHECK_FUZZ_MUTANTS_BOX_SUMS_H
#define CELLCHECK_FUZZ_MUTANTS_BOX_SUMS_H

#include "engines/engine.h"

const cc_engine *const *cc_mutants_box_sums(void);

#endif
