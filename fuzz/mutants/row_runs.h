/* A neighbourhood counted a row at a time, for the test engines' per-cell loops: its offsets as
 * one run of dx per row dy (every shape's rows are runs, row 0 with the centre put in and its
 * cell taken off again), and the grid's rows as running sums of
 * live cells over the row extended r cells each side by the torus's wrap, so a cell's count in
 * one row is one difference. A cell costs 2r+1 differences instead of (2r+1)^2 reads, with the
 * same count: a neighbourhood wider than the grid reaches a cell as many times as the offsets do.
 * Only the 2r+1 rows around the row being stepped are held. Where every row's run is the same
 * (a Moore box), the held rows' sums are also kept added up, one row in and one out a step, so
 * a cell costs one difference. */
#ifndef CELLCHECK_FUZZ_MUTANTS_ROW_RUNS_H
#define CELLCHECK_FUZZ_MUTANTS_ROW_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/rule.h"

typedef struct row_runs {
    int32_t w, h, r;
    int32_t *lo, *hi; /* row dy's run is dx in [lo[dy + r], hi[dy + r]]; lo > hi: none */
    int less_centre;  /* the runs hold the centre, which the shape does not */
    int32_t *sums;    /* 2r+1 rows of w + 2r + 1 running sums; row y + dy in slot (y + dy) mod
                       * (2r+1), so the next row replaces only the one left behind */
    const int32_t **at; /* at[dy + r]: the sums of row y + dy for the row y being stepped */
    size_t span;
    int same_runs;  /* every row's run is [lo[0], hi[0]], as found at row 0 */
    int32_t *total; /* with same_runs: the held rows' sums added up */
} row_runs;

/* The runs of shape at radius r over a w x h torus (a mutant may then change lo and hi): CC_OK; CC_ERR_UNSUPPORTED where a row of the
 * shape is not one run (the caller keeps its per-offset loop); CC_ERR_NOMEM. */
int row_runs_init(row_runs *rr, cc_shape shape, int32_t r, int32_t w, int32_t h);
void row_runs_free(row_runs *rr);

/* Before counting the cells of row y of grid: y = 0 first, then each next row in turn. */
void row_runs_at_row(row_runs *rr, const uint8_t *grid, int32_t y);

/* The live cells at the offsets from (x, y) of the row y last readied whose dx is at most max_dx
 * (INT32_MAX: all). */
int32_t row_runs_count(const row_runs *rr, int32_t x, int32_t max_dx);

#endif
