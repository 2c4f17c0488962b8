/* example.rowsums: a CPU engine ported from elsewhere, as a cellcheck plugin built with CMake
 * (CMakeLists.txt beside it). Moore neighbourhoods of radius 1..4 on any W x H torus, any S and B
 * sets: each step sums every row's window of 2r+1 cells once, then adds 2r+1 of those sums for a
 * cell, instead of visiting its (2r+1)^2 neighbours. Its caps say what it does: cellcheck draws
 * only within them, and refuses the rest at create with the limit named. Built with
 * EXAMPLE_WRONG_EAST_SEAM defined, the row sums forget that the torus wraps past the last column,
 * the mistake of a port whose rows have no halo; certify must catch that version. */
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "engines/plugin.h"

typedef struct rowsums {
    int32_t w, h;
    cc_rule rule;
    uint8_t *cur, *next;
    int32_t *sums; /* sums[y * w + x]: the live cells of row y from x - r to x + r */
} rowsums;

static void rowsums_destroy(void *p) {
    rowsums *t = p;
    if (!t) return;
    free(t->cur);
    free(t->next);
    free(t->sums);
    free(t);
}

static int rowsums_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    rowsums *t = calloc(1, sizeof *t);
    size_t cells = (size_t)w * (size_t)h;
    if (!t || !(t->cur = calloc(cells, 1)) || !(t->next = calloc(cells, 1)) ||
        !(t->sums = calloc(cells, sizeof *t->sums))) {
        rowsums_destroy(t);
        return cc_fail(err, CC_ERR_NOMEM, "example.rowsums: no memory for %dx%d", (int)w, (int)h);
    }
    t->w = w;
    t->h = h;
    t->rule = *rule;
    *ctx = t;
    return CC_OK;
}

static int rowsums_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    rowsums *t = p;
    memcpy(t->cur, cells, (size_t)t->w * (size_t)t->h);
    return CC_OK;
}

static int rowsums_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    rowsums *t = p;
    memcpy(cells, t->cur, (size_t)t->w * (size_t)t->h);
    return CC_OK;
}

static void one_step(rowsums *t) {
    const int32_t w = t->w, h = t->h, r = t->rule.radius;
    for (int32_t y = 0; y < h; y++) {
        const uint8_t *row = t->cur + (size_t)y * (size_t)w;
        for (int32_t x = 0; x < w; x++) {
            int32_t sum = 0;
            for (int32_t dx = -r; dx <= r; dx++) {
#ifdef EXAMPLE_WRONG_EAST_SEAM
                if (x + dx >= w) continue; /* past the last column reads dead cells */
#endif
                sum += row[(x + dx + w) % w];
            }
            t->sums[(size_t)y * (size_t)w + (size_t)x] = sum;
        }
    }
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            int32_t count = 0;
            for (int32_t dy = -r; dy <= r; dy++)
                count += t->sums[(size_t)((y + dy + h) % h) * (size_t)w + (size_t)x];
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int alive = t->cur[i];
            if (!t->rule.centre) count -= alive; /* M0: the centre is not its own neighbour */
            t->next[i] = (uint8_t)cc_set_has(alive ? &t->rule.survive : &t->rule.birth, count);
        }
    uint8_t *swap = t->cur;
    t->cur = t->next;
    t->next = swap;
}

static int rowsums_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    for (int64_t i = 0; i < k; i++) one_step(p);
    return CC_OK;
}

static const cc_engine example_rowsums = {
    .name = "example.rowsums",
    .summary = "row sums from elsewhere: Moore r 1..4, any W x H, any S and B",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 4},
    .create = rowsums_create,
    .load = rowsums_load,
    .step = rowsums_step,
    .store = rowsums_store,
    .destroy = rowsums_destroy,
};

static const cc_engine *const engines[] = {&example_rowsums, NULL};
CC_PLUGIN(engines)
