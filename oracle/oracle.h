/* The oracle: the one definition of truth. Plain loops over every cell and every neighbour. */
#ifndef CELLCHECK_ORACLE_ORACLE_H
#define CELLCHECK_ORACLE_ORACLE_H

#include <stdint.h>

#include "oracle/grid.h"
#include "oracle/rule.h"

/* One step of rule from in to out (distinct grids of the same size). Refuses grids smaller than
 * 2r+1 on either side and invalid rules. */
int oracle_step(const cc_rule *rule, const cc_grid *in, cc_grid *out, cc_error *err);

/* steps steps in place (steps >= 0). */
int oracle_run(const cc_rule *rule, cc_grid *g, int64_t steps, cc_error *err);

/* The count of cell (x, y) under rule: its live neighbours, plus itself under M1. */
int32_t oracle_count(const cc_rule *rule, const cc_grid *g, int32_t x, int32_t y);

#endif
