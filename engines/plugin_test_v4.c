/* A plugin built against plugin ABI version 4, frozen (plugin_v4.h): what a port compiled before
 * version 5 hands over, to show that it still loads, runs and is checked. Two engines, plain
 * per-cell loops on Moore, von Neumann and cross up to r = 3: v4.loop is right; v4.edge forgets
 * that the torus wraps past the last column (beyond column W-1 reads dead), which its checks
 * must catch. Caps and functions after caps (available, memory) are set, so a conversion that
 * misplaced a field would show. */
#include <stdlib.h>
#include <string.h>

#include "engines/plugin_v4.h"

typedef struct loop {
    cc_rule rule;
    int32_t w, h;
    int wrap_edge;
    uint8_t *cur, *next;
} loop;

static int loop_available(cc_error *err) {
    (void)err;
    return CC_OK;
}

static void loop_destroy(void *p) {
    loop *l = p;
    if (!l) return;
    free(l->cur);
    free(l->next);
    free(l);
}

static int loop_create_as(int wrap_edge, const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                          cc_error *err) {
    loop *l = calloc(1, sizeof *l);
    size_t n = (size_t)w * (size_t)h;
    if (!l || !(l->cur = calloc(n, 1)) || !(l->next = calloc(n, 1))) {
        loop_destroy(l);
        return cc_fail(err, CC_ERR_NOMEM, "v4 plugin: no memory for %dx%d", (int)w, (int)h);
    }
    l->rule = *rule;
    l->w = w;
    l->h = h;
    l->wrap_edge = wrap_edge;
    *ctx = l;
    return CC_OK;
}

static int right_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return loop_create_as(1, rule, w, h, ctx, err);
}

static int edge_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return loop_create_as(0, rule, w, h, ctx, err);
}

static int loop_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    loop *l = p;
    memcpy(l->cur, cells, (size_t)l->w * (size_t)l->h);
    return CC_OK;
}

static int loop_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    loop *l = p;
    memcpy(cells, l->cur, (size_t)l->w * (size_t)l->h);
    return CC_OK;
}

static int loop_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    loop *l = p;
    const int32_t w = l->w, h = l->h, r = l->rule.radius;
    for (int64_t s = 0; s < k; s++) {
        for (int32_t y = 0; y < h; y++)
            for (int32_t x = 0; x < w; x++) {
                int alive = l->cur[(size_t)y * (size_t)w + (size_t)x];
                int32_t count = l->rule.centre ? alive : 0;
                for (int32_t dy = -r; dy <= r; dy++)
                    for (int32_t dx = -r; dx <= r; dx++) {
                        if (!cc_shape_contains(l->rule.shape, r, dx, dy)) continue;
                        int32_t nx = x + dx, ny = (y + dy + h) % h;
                        if (nx >= w && !l->wrap_edge) continue; /* read as dead */
                        nx = (nx + w) % w;
                        count += l->cur[(size_t)ny * (size_t)w + (size_t)nx];
                    }
                l->next[(size_t)y * (size_t)w + (size_t)x] =
                    (uint8_t)cc_set_has(alive ? &l->rule.survive : &l->rule.birth, count);
            }
        uint8_t *t = l->cur;
        l->cur = l->next;
        l->next = t;
    }
    return CC_OK;
}

static void loop_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    need->host_bytes = 2.0 * (double)w * (double)h + sizeof(loop);
    need->device_bytes = 0.0;
}

#define V4_ENGINE(engine_name, engine_summary, create_fn)                                        \
    {.name = engine_name,                                                                        \
     .summary = engine_summary,                                                                  \
     .hardware = CC_HW_CPU,                                                                      \
     .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |     \
                        CC_SHAPE_BIT(CC_SHAPE_CROSS),                                            \
              .radius_max = 3,                                                                   \
              .tile_w = 16,                                                                      \
              .cells_max = 1 << 24,                                                              \
              .limits = "built against plugin ABI 4"},                                           \
     .available = loop_available,                                                                \
     .create = create_fn,                                                                        \
     .load = loop_load,                                                                          \
     .step = loop_step,                                                                          \
     .store = loop_store,                                                                        \
     .destroy = loop_destroy,                                                                    \
     .memory = loop_memory}

static const cc_engine_v4 right = V4_ENGINE("v4.loop", "a per-cell loop, built for ABI 4",
                                            right_create);
static const cc_engine_v4 edge = V4_ENGINE(
    "v4.edge", "a per-cell loop, built for ABI 4; beyond column W-1 reads dead", edge_create);

static const cc_engine_v4 *const engines[] = {&right, &edge, NULL};

CC_PLUGIN_V4(engines)
