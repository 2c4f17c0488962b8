/* example.plane: an engine of the bounded plane, as the fastest public Life kernels and PACK as
 * shipped simulate it: every cell outside the grid is dead. Life-like rules (Moore, r = 1, M0), one
 * byte per cell, the grid kept inside a frame of dead cells one cell wide so the inner loop has no
 * bounds test. Its caps state the plane alone, so every check runs on the plane. Built with
 * -DEXAMPLE_TORUS_WRAP it copies the opposite edges into the frame before each step, the torus
 * wrap a port keeps when it is moved to the plane: certify must catch that version. */
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"

typedef struct plane {
    int32_t w, h;
    size_t pitch;      /* w + 2: the frame on both sides */
    uint8_t *cur, *next; /* (w + 2) x (h + 2), the grid at (1, 1) */
    uint8_t next_state[2][9];
} plane;

static void plane_destroy(void *p) {
    plane *e = p;
    if (!e) return;
    free(e->cur);
    free(e->next);
    free(e);
}

static int plane_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    plane *e = calloc(1, sizeof *e);
    size_t framed = ((size_t)w + 2) * ((size_t)h + 2);
    if (!e || !(e->cur = calloc(framed, 1)) || !(e->next = calloc(framed, 1))) {
        plane_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM, "example.plane: no memory for %dx%d", (int)w, (int)h);
    }
    e->w = w;
    e->h = h;
    e->pitch = (size_t)w + 2;
    for (int32_t c = 0; c <= 8; c++) {
        e->next_state[0][c] = (uint8_t)cc_set_has(&rule->birth, c);
        e->next_state[1][c] = (uint8_t)cc_set_has(&rule->survive, c);
    }
    *ctx = e;
    return CC_OK;
}

static uint8_t *cell(const plane *e, uint8_t *g, int32_t x, int32_t y) {
    return g + ((size_t)y + 1) * e->pitch + (size_t)x + 1;
}

static int plane_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    plane *e = p;
    for (int32_t y = 0; y < e->h; y++) memcpy(cell(e, e->cur, 0, y), cells + (size_t)y * e->w, e->w);
    return CC_OK;
}

static int plane_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    plane *e = p;
    for (int32_t y = 0; y < e->h; y++) memcpy(cells + (size_t)y * e->w, cell(e, e->cur, 0, y), e->w);
    return CC_OK;
}

#ifdef EXAMPLE_TORUS_WRAP
/* The wrong version's frame: the opposite edges, as on a torus. */
static void wrap_frame(plane *e) {
    for (int32_t y = 0; y < e->h; y++) {
        *cell(e, e->cur, -1, y) = *cell(e, e->cur, e->w - 1, y);
        *cell(e, e->cur, e->w, y) = *cell(e, e->cur, 0, y);
    }
    memcpy(cell(e, e->cur, -1, -1), cell(e, e->cur, -1, e->h - 1), e->pitch);
    memcpy(cell(e, e->cur, -1, e->h), cell(e, e->cur, -1, 0), e->pitch);
}
#endif

static int plane_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    plane *e = p;
    for (int64_t s = 0; s < k; s++) {
#ifdef EXAMPLE_TORUS_WRAP
        wrap_frame(e);
#endif
        for (int32_t y = 0; y < e->h; y++)
            for (int32_t x = 0; x < e->w; x++) {
                const uint8_t *c = cell(e, e->cur, x, y);
                int count = c[-1] + c[1] + c[-(long)e->pitch - 1] + c[-(long)e->pitch] +
                            c[-(long)e->pitch + 1] + c[e->pitch - 1] + c[e->pitch] + c[e->pitch + 1];
                *cell(e, e->next, x, y) = e->next_state[*c][count];
            }
        uint8_t *t = e->cur;
        e->cur = e->next;
        e->next = t;
    }
    return CC_OK;
}

const cc_engine cc_engine_example_plane = {
    .name = "example.plane",
    .summary = "Life-like rules on the bounded plane, one byte a cell inside a dead frame",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
             .radius_max = 1,
             .centres = CC_CENTRE_M0,
             .topologies = CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE)},
    .create = plane_create,
    .load = plane_load,
    .step = plane_step,
    .store = plane_store,
    .destroy = plane_destroy,
};
