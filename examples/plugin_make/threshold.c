/* example.threshold: the kind of engine ported from elsewhere, as a cellcheck plugin built with
 * Make (and, in examples/bazel_workspace, as an engine of another Bazel workspace). A threshold kernel (a live cell survives while SMIN <= count <= SMAX, a dead one is born
 * while BMIN <= count <= BMAX) on square grids only, Moore r 1..8, one byte per cell. Its caps
 * say so: cellcheck draws only what it can do, and refuses the rest at create with the limit
 * named. Built with -DEXAMPLE_WRONG_SEAM it forgets that the torus wraps below the last row,
 * the mistake a port with zero halos makes; certify must catch that version. */
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "engines/plugin.h"

typedef struct threshold {
    int32_t n, r, centre;
    int32_t smin, smax, bmin, bmax;
    uint8_t *cur, *next;
    uint16_t *count; /* a row's counts: (2r+1)^2 <= 289 */
} threshold;

static void threshold_destroy(void *p) {
    threshold *t = p;
    if (!t) return;
    free(t->cur);
    free(t->next);
    free(t->count);
    free(t);
}

static int threshold_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                            cc_error *err) {
    (void)h; /* the caps make h == w */
    threshold *t = calloc(1, sizeof *t);
    size_t cells = (size_t)w * (size_t)w;
    if (!t || !(t->cur = calloc(cells, 1)) || !(t->next = calloc(cells, 1)) ||
        !(t->count = calloc((size_t)w, sizeof *t->count))) {
        threshold_destroy(t);
        return cc_fail(err, CC_ERR_NOMEM, "example.threshold: no memory for %dx%d", (int)w, (int)w);
    }
    t->n = w;
    t->r = rule->radius;
    t->centre = rule->centre;
    /* One interval each (caps): an empty set is lo > hi. */
    cc_set_hull(&rule->survive, &t->smin, &t->smax);
    cc_set_hull(&rule->birth, &t->bmin, &t->bmax);
    *ctx = t;
    return CC_OK;
}

static int threshold_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    threshold *t = p;
    memcpy(t->cur, cells, (size_t)t->n * (size_t)t->n);
    return CC_OK;
}

static int threshold_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    threshold *t = p;
    memcpy(cells, t->cur, (size_t)t->n * (size_t)t->n);
    return CC_OK;
}

/* A row at a time, one neighbour's offset after another: each offset adds a row of cells to the
 * row's counts, a loop the compiler vectorises (a modulo a neighbour made the case past 2^32
 * cells take minutes). cellcheck never asks for a side below 2r + 1, so an offset wraps once. */
static void one_step(threshold *t) {
    const int32_t n = t->n, r = t->r;
    uint16_t *count = t->count;
    for (int32_t y = 0; y < n; y++) {
        memset(count, 0, (size_t)n * sizeof *count);
        for (int32_t dy = -r; dy <= r; dy++) {
            int32_t yy = y + dy;
#ifdef EXAMPLE_WRONG_SEAM
            if (yy >= n) continue; /* below the last row reads dead cells */
#endif
            yy = yy < 0 ? yy + n : yy >= n ? yy - n : yy;
            const uint8_t *row = t->cur + (size_t)yy * (size_t)n;
            for (int32_t dx = -r; dx <= r; dx++) {
                /* Cells lo..hi-1 read inside the row; the others wrap to its other end. */
                const int32_t lo = dx < 0 ? -dx : 0, hi = dx > 0 ? n - dx : n;
                for (int32_t x = lo; x < hi; x++) count[x] += row[x + dx];
                for (int32_t x = 0; x < lo; x++) count[x] += row[x + dx + n];
                for (int32_t x = hi; x < n; x++) count[x] += row[x + dx - n];
            }
        }
        const uint8_t *self = t->cur + (size_t)y * (size_t)n;
        uint8_t *out = t->next + (size_t)y * (size_t)n;
        for (int32_t x = 0; x < n; x++) {
            const int alive = self[x], c = count[x] - (t->centre ? 0 : alive);
            out[x] = (uint8_t)(alive ? c >= t->smin && c <= t->smax : c >= t->bmin && c <= t->bmax);
        }
    }
    uint8_t *swap = t->cur;
    t->cur = t->next;
    t->next = swap;
}

static int threshold_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    for (int64_t i = 0; i < k; i++) one_step(p);
    return CC_OK;
}

/* Not static: the Bazel example (examples/bazel_workspace) builds this file with
 * cellcheck_engine, which finds the table by its engine's name. */
const cc_engine cc_engine_example_threshold = {
    .name = "example.threshold",
    .summary = "a threshold kernel from elsewhere: SMIN..SMAX, BMIN..BMAX, square grids",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = 8,
             .square_only = 1,
             .s_ranges_max = 1,
             .b_ranges_max = 1},
    .create = threshold_create,
    .load = threshold_load,
    .step = threshold_step,
    .store = threshold_store,
    .destroy = threshold_destroy,
};

static const cc_engine *const engines[] = {&cc_engine_example_threshold, NULL};
CC_PLUGIN(engines)
/* Certificates record how the plugin was built beside its SHA-256. */
CC_PLUGIN_BUILD("threshold.c, compiler " __VERSION__)
