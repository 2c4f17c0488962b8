/* Engines with the limits real ports have, each in two versions: one whose caps state the limit
 * (certify must pass it: the campaign and the edge cases stay within the limit, and the contract
 * refuses what lies outside) and one whose caps do not (certify must catch it). Moore only,
 * r 1..8, a per-cell loop of their own:
 *   port.threshold    S and B taken as one interval each (their lowest to their highest count),
 *                     as threshold kernels SMIN..SMAX, BMIN..BMAX do
 *   port.square       rows wrap at W instead of H: right only when W = H
 *   port.skip-empty   cells with no live neighbour and dead stay dead: right only without B0
 *   port.fixed-buffer a buffer of 2^20 cells: the cells past it are never updated
 * The declared versions are named with "-declared". */
#ifndef CELLCHECK_FUZZ_MUTANTS_PORT_LIMITS_H
#define CELLCHECK_FUZZ_MUTANTS_PORT_LIMITS_H

#include "engines/engine.h"

/* NULL-terminated pairs: the undeclared version, then the declared one. */
const cc_engine *const *cc_mutants_port_limits(void);

#endif
