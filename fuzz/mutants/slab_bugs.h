/* An emulation of an engine over several devices (slab_bugs.c), right and with the seam bugs
 * such engines have: the torus cut into row slabs over 3 emulated devices (CELLCHECK_DEVICES=N:
 * N, up to 16; each engine's devices() says so) by engines/slabs, each
 * slab stepped by the oracle between halos of r x 4 rows, exchanged before every launch of 4
 * steps (1 for what is left); listed with cc_mutants_engine_bugs():
 *   control.slabs          right: must pass
 *   mutant.slab-late       each halo comes from the exchange before, one exchange late
 *   mutant.slab-neighbour  the last slab's bottom halo comes from the slab above it (over two
 *                          devices: its own top rows), not from the first slab across the torus
 *   mutant.slab-round      slab heights rounded down (H / D each): the last rows are never
 *                          stepped
 *   mutant.slab-shallow    halos exchanged every other launch, but only a launch deep (an engine
 *                          that runs several launches an exchange with the halo of one) */
#ifndef CELLCHECK_FUZZ_MUTANTS_SLAB_BUGS_H
#define CELLCHECK_FUZZ_MUTANTS_SLAB_BUGS_H

#include "engines/engine.h"

extern const cc_engine cc_slabs_control;
extern const cc_engine cc_mutant_slab_late;
extern const cc_engine cc_mutant_slab_neighbour;
extern const cc_engine cc_mutant_slab_round;
extern const cc_engine cc_mutant_slab_shallow;

#endif
