/* A general engine (every shape, r 1..16, the torus) whose neighbourhoods come from a table of
 * row half-widths, one row of offsets per dy, as hand-tabled ports have them:
 *   mutant.radius-table   the circle's table at r = 11 is one cell short in rows dy = +-3
 *   control.radius-table  the table as the definition gives it: right
 * Every other shape and radius is right in both. */
#ifndef CELLCHECK_FUZZ_MUTANTS_RADIUS_TABLE_H
#define CELLCHECK_FUZZ_MUTANTS_RADIUS_TABLE_H

#include "engines/engine.h"

/* The mutant, then the control; NULL-terminated. */
const cc_engine *const *cc_mutants_radius_table(void);

#endif
