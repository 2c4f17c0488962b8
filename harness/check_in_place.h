/* A uniform case past 2^30 cells checked with one copy of its grid, in the worker's shared
 * grid, verified by light cones (check_in_place.c). */
#ifndef CELLCHECK_HARNESS_CHECK_IN_PLACE_H
#define CELLCHECK_HARNESS_CHECK_IN_PLACE_H

#include "engines/engine.h"
#include "harness/check_result.h"
#include "oracle/case.h"

/* Above this many cells a uniform case is checked in place. */
#define CC_CHECK_IN_PLACE_CELLS 1073741824.0
/* The grids' worth of cells the harness holds for it: the worker's shared grid and the seed's
 * grid packed a bit a cell. */
#define CC_CHECK_IN_PLACE_GRIDS 1.125
/* The case checked with one copy of its grid: ctx is created for it (and destroyed here). */
int harness_check_in_place(const cc_engine *engine, const cc_case *c, const cc_check_options *opt,
                           struct cc_context *ctx, cc_check_result *res, cc_error *err);

#endif
