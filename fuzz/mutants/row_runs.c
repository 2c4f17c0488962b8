/* The test engines' neighbourhood by rows (row_runs.h). */
#include "fuzz/mutants/row_runs.h"

#include <stdlib.h>
#include <string.h>

static int32_t wrap(int32_t v, int32_t n) {
    if (v >= 0 && v < n) return v;
    int32_t m = v % n;
    return m < 0 ? m + n : m;
}

int row_runs_init(row_runs *rr, cc_shape shape, int32_t r, int32_t w, int32_t h) {
    *rr = (row_runs){.w = w, .h = h, .r = r, .span = (size_t)w + 2 * (size_t)r + 1};
    const size_t side = (size_t)(2 * r + 1);
    rr->lo = malloc(side * sizeof *rr->lo);
    rr->hi = malloc(side * sizeof *rr->hi);
    rr->sums = malloc(side * rr->span * sizeof *rr->sums);
    rr->at = malloc(side * sizeof *rr->at);
    rr->total = malloc(rr->span * sizeof *rr->total);
    if (!rr->lo || !rr->hi || !rr->sums || !rr->at || !rr->total) {
        row_runs_free(rr);
        return CC_ERR_NOMEM;
    }
    for (int32_t dy = -r; dy <= r; dy++) {
        int32_t lo = r + 1, hi = -r - 1, members = 0;
        for (int32_t dx = -r; dx <= r; dx++)
            if (cc_shape_contains(shape, r, dx, dy) || (dx == 0 && dy == 0)) {
                if (dx < lo) lo = dx;
                hi = dx;
                members++;
            }
        if (members && members != hi - lo + 1) {
            row_runs_free(rr);
            return CC_ERR_UNSUPPORTED;
        }
        rr->lo[dy + r] = lo;
        rr->hi[dy + r] = hi;
    }
    rr->less_centre = !cc_shape_contains(shape, r, 0, 0);
    return CC_OK;
}

void row_runs_free(row_runs *rr) {
    free(rr->lo);
    free(rr->hi);
    free(rr->sums);
    free(rr->at);
    free(rr->total);
    rr->lo = rr->hi = rr->sums = rr->total = NULL;
    rr->at = NULL;
}

static int32_t *slot(const row_runs *rr, int32_t v) {
    return rr->sums + (size_t)wrap(v, 2 * rr->r + 1) * rr->span;
}

/* Row v (y + dy, unwrapped) of grid into its slot. */
static void sum_row(row_runs *rr, const uint8_t *grid, int32_t v) {
    const int32_t w = rr->w, r = rr->r;
    const uint8_t *row = grid + (size_t)wrap(v, rr->h) * (size_t)w;
    int32_t *sum = slot(rr, v);
    sum[0] = 0;
    for (int32_t i = 0; i < w + 2 * r; i++) sum[i + 1] = sum[i] + (row[wrap(i - r, w)] != 0);
}

/* total +(sign) the sums of row v's slot. */
static void add_slot(row_runs *rr, int32_t v, int sign) {
    const int32_t *sum = slot(rr, v);
    for (size_t i = 0; i < rr->span; i++) rr->total[i] += sign * sum[i];
}

void row_runs_at_row(row_runs *rr, const uint8_t *grid, int32_t y) {
    const int32_t r = rr->r;
    if (y == 0) {
        /* The runs as they are now: a mutant may have changed them since init. */
        rr->same_runs = 1;
        for (int32_t k = 1; k <= 2 * r; k++)
            rr->same_runs &= rr->lo[k] == rr->lo[0] && rr->hi[k] == rr->hi[0];
        for (int32_t dy = -r; dy <= r; dy++) sum_row(rr, grid, dy);
        if (rr->same_runs) {
            memset(rr->total, 0, rr->span * sizeof *rr->total);
            for (int32_t dy = -r; dy <= r; dy++) add_slot(rr, dy, 1);
        }
    } else {
        /* Row y + r takes the slot of row y - r - 1, which leaves the window. */
        if (rr->same_runs) add_slot(rr, y + r, -1);
        sum_row(rr, grid, y + r);
        if (rr->same_runs) add_slot(rr, y + r, 1);
    }
    for (int32_t dy = -r; dy <= r; dy++) rr->at[dy + r] = slot(rr, y + dy);
}

int32_t row_runs_count(const row_runs *rr, int32_t x, int32_t max_dx) {
    const int32_t r = rr->r;
    int32_t count = 0;
    if (rr->same_runs) {
        const int32_t lo = rr->lo[0], hi = rr->hi[0] < max_dx ? rr->hi[0] : max_dx;
        if (lo <= hi) count = rr->total[x + hi + r + 1] - rr->total[x + lo + r];
    } else {
        for (int32_t dy = -r; dy <= r; dy++) {
            const int32_t lo = rr->lo[dy + r];
            const int32_t hi = rr->hi[dy + r] < max_dx ? rr->hi[dy + r] : max_dx;
            if (lo > hi) continue;
            const int32_t *sum = rr->at[dy + r];
            count += sum[x + hi + r + 1] - sum[x + lo + r];
        }
    }
    if (rr->less_centre) count -= rr->at[r][x + r + 1] - rr->at[r][x + r];
    return count;
}
