/* Deliberately plain: every cell, every offset of the shape's membership test, a wrap for the
 * torus and a bounds test for the plane (oracle_count with a modulo, cell by cell; oracle_step
 * row by row, oracle_test holding the two to the same cells). Nothing here is shared with any
 * engine beyond the rule and grid types. */
#include "oracle/oracle.h"

#include <stdlib.h>
#include <string.h>

static int32_t wrap(int32_t v, int32_t n) {
    int32_t m = v % n;
    return m < 0 ? m + n : m;
}

int32_t oracle_count(const cc_rule *rule, const cc_grid *g, int32_t x, int32_t y) {
    int32_t r = rule->radius, count = 0;
    for (int32_t dy = -r; dy <= r; dy++) {
        for (int32_t dx = -r; dx <= r; dx++) {
            if (!cc_shape_contains(rule->shape, r, dx, dy)) continue;
            int32_t nx = x + dx, ny = y + dy;
            if (rule->topology == CC_TOPOLOGY_PLANE) {
                if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h) continue; /* dead outside */
            } else {
                nx = wrap(nx, g->w);
                ny = wrap(ny, g->h);
            }
            count += g->cells[(size_t)ny * (size_t)g->w + (size_t)nx] != 0;
        }
    }
    if (rule->centre) count += g->cells[(size_t)y * (size_t)g->w + (size_t)x] != 0;
    return count;
}

static int check_size(const cc_rule *rule, int32_t w, int32_t h, cc_error *err) {
    int32_t min = 2 * rule->radius + 1;
    if (w < min || h < min)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "grid %dx%d is smaller than 2r+1 = %d on a side (radius %d)", (int)w,
                       (int)h, (int)min, (int)rule->radius);
    return CC_OK;
}

/* Cell-neighbour visits a step takes from which its rows are shared among threads. */
#define ORACLE_PARALLEL_VISITS 1e6

/* Row y of a step. The row's counts are summed offset by offset: each offset adds, for every
 * cell of the row, whether its neighbour at that offset is alive; the same visits as cell by
 * cell, in another order. x + dx leaves the row for x < -dx and for x >= w - dx; there the torus
 * takes the cell w further or nearer (one wrap is enough, as |dx| <= r < w: check_size), and the
 * plane counts nothing. Rows wrap the same way. */
static void step_row(const cc_rule *rule, const cc_grid *in, cc_grid *out, const int32_t *offsets,
                     size_t n, int32_t y, int32_t *count) {
    const int32_t w = in->w, h = in->h;
    const int plane = rule->topology == CC_TOPOLOGY_PLANE;
    const uint8_t *row = in->cells + (size_t)y * (size_t)w;
    for (int32_t x = 0; x < w; x++) count[x] = rule->centre ? row[x] != 0 : 0;
    for (size_t k = 0; k < n; k++) {
        const int32_t dx = offsets[2 * k];
        int32_t ny = y + offsets[2 * k + 1];
        if (ny < 0 || ny >= h) {
            if (plane) continue;
            ny = ny < 0 ? ny + h : ny - h;
        }
        const uint8_t *src = in->cells + (size_t)ny * (size_t)w;
        const int32_t inside_lo = dx < 0 ? -dx : 0, inside_hi = dx > 0 ? w - dx : w;
        for (int32_t x = inside_lo; x < inside_hi; x++) count[x] += src[x + dx] != 0;
        if (plane) continue;
        for (int32_t x = 0; x < inside_lo; x++) count[x] += src[x + dx + w] != 0;
        for (int32_t x = inside_hi; x < w; x++) count[x] += src[x + dx - w] != 0;
    }
    uint8_t *next = out->cells + (size_t)y * (size_t)w;
    for (int32_t x = 0; x < w; x++)
        next[x] = (uint8_t)(row[x] ? cc_set_has(&rule->survive, count[x])
                                   : cc_set_has(&rule->birth, count[x]));
}

int oracle_step(const cc_rule *rule, const cc_grid *in, cc_grid *out, cc_error *err) {
    if (!rule || !in || !out || !in->cells || !out->cells)
        return cc_fail(err, CC_ERR_ARG, "oracle_step: NULL rule or grid");
    int rc = cc_rule_validate(rule, err);
    if (rc) return rc;
    if ((rc = check_size(rule, in->w, in->h, err))) return rc;
    if (out->w != in->w || out->h != in->h || out->cells == in->cells)
        return cc_fail(err, CC_ERR_ARG, "oracle_step needs a separate output grid of the same size");
    /* The neighbourhood as a list of offsets, built once per step from the shape's definition. */
    int32_t r = rule->radius;
    size_t side = (size_t)(2 * r + 1);
    int32_t *offsets = malloc(side * side * 2 * sizeof *offsets);
    if (!offsets)
        return cc_fail(err, CC_ERR_NOMEM, "oracle_step: cannot allocate the offsets of radius %d",
                       (int)r);
    size_t n = 0;
    for (int32_t dy = -r; dy <= r; dy++) {
        for (int32_t dx = -r; dx <= r; dx++) {
            if (!cc_shape_contains(rule->shape, r, dx, dy)) continue;
            offsets[2 * n] = dx;
            offsets[2 * n + 1] = dy;
            n++;
        }
    }
    /* Rows are independent: large grids take every core, with the same cells as one. */
    const int parallel = (double)in->w * (double)in->h * (double)(n + 1) >= ORACLE_PARALLEL_VISITS;
    int no_memory = 0;
#pragma omp parallel if (parallel)
    {
        int32_t *count = malloc((size_t)in->w * sizeof *count); /* one row's, per thread */
        if (!count) {
#pragma omp atomic write
            no_memory = 1;
        }
#pragma omp for schedule(static)
        for (int32_t y = 0; y < in->h; y++)
            if (count) step_row(rule, in, out, offsets, n, y, count);
        free(count);
    }
    free(offsets);
    if (no_memory)
        return cc_fail(err, CC_ERR_NOMEM, "oracle_step: cannot allocate a row of %d counts",
                       (int)in->w);
    return CC_OK;
}

int oracle_run(const cc_rule *rule, cc_grid *g, int64_t steps, cc_error *err) {
    if (steps < 0) return cc_fail(err, CC_ERR_ARG, "negative step count %lld", (long long)steps);
    int rc = cc_rule_validate(rule, err);
    if (rc) return rc;
    if ((rc = check_size(rule, g->w, g->h, err))) return rc;
    cc_grid next;
    if ((rc = cc_grid_alloc(&next, g->w, g->h, err))) return rc;
    for (int64_t s = 0; s < steps; s++) {
        if ((rc = oracle_step(rule, g, &next, err))) break;
        uint8_t *t = g->cells;
        g->cells = next.cells;
        next.cells = t;
    }
    cc_grid_free(&next);
    return rc;
}
