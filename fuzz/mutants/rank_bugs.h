/* An emulation of an engine that runs as one process per device (rank_bugs.c), right and with the
 * faults and seam bugs of such engines: the torus cut into row slabs over 3 ranks (CELLCHECK_DEVICES
 * =N: N, up to 16) by engines/slabs, each rank a worker process of its own holding its slab and
 * halos of r x 4 rows, stepped by the oracle, the halos sent between the processes over TCP on
 * the loopback before every launch of 4 steps (1 for what is left), from the address in rank 0's
 * id, as ranks on several hosts would reach one another over their network:
 *   control.ranks        right: must pass
 *   mutant.rank-stale    every other launch goes without its exchange: halos a launch old
 *   mutant.rank-crash    the last rank dies of SIGSEGV in its second launch
 *   mutant.rank-exit     the last rank calls _exit(3) in store
 *   mutant.rank-absent   the last rank never joins: it waits forever in rank_create
 * Listed by cc_mutants_rank_bugs(), NULL-terminated. */
#ifndef CELLCHECK_FUZZ_MUTANTS_RANK_BUGS_H
#define CELLCHECK_FUZZ_MUTANTS_RANK_BUGS_H

#include "engines/engine.h"

const cc_engine *const *cc_mutants_rank_bugs(void);

#endif
