/* A Life-like engine (Moore, r = 1, any B/S rule) with hand-written paths for the two rules it
 * runs most, Conway's Life (B3/S23) and HighLife (B36/S23), as such engines have:
 *   mutant.life-fast-path   its HighLife path is Life's, copied, with the birth at 6 never added
 *   control.life-fast-path  its HighLife path has it: right
 * Both step every other rule with the general per-cell loop. */
#ifndef CELLCHECK_FUZZ_MUTANTS_LIFE_FAST_PATH_H
#define CELLCHECK_FUZZ_MUTANTS_LIFE_FAST_PATH_H

#include "engines/engine.h"

/* The mutant, then the control; NULL-terminated. */
const cc_engine *const *cc_mutants_life_fast_path(void);

#endif
