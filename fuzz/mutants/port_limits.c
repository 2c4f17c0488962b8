/* The limits of ports, stated and not stated (port_limits.h). */
#include "fuzz/mutants/port_limits.h"

#include <stdlib.h>

#include "engines/cpu/common/byte_grids.h"

#define FIXED_BUFFER_CELLS (1 << 20)

typedef enum limit { LIMIT_THRESHOLD, LIMIT_SQUARE, LIMIT_SKIP_EMPTY, LIMIT_FIXED_BUFFER } limit;

typedef struct port_ctx {
    cpu_byte_grids grids; /* first: load and store are cpu_byte_grids_load and _store */
    limit lim;
    cc_rule rule;
} port_ctx;

static void port_destroy(void *p) {
    port_ctx *ctx = p;
    if (ctx) cpu_byte_grids_free(&ctx->grids);
    free(ctx);
}

static int port_create(limit lim, const char *name, const cc_rule *rule, int32_t w, int32_t h,
                       void **out, cc_error *err) {
    port_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx || cpu_byte_grids_alloc(&ctx->grids, w, h) != CC_OK) {
        port_destroy(ctx);
        return cc_fail(err, CC_ERR_NOMEM, "%s: out of memory for %dx%d", name, (int)w, (int)h);
    }
    ctx->lim = lim;
    ctx->rule = *rule;
    *out = ctx;
    return CC_OK;
}

/* The set as a threshold kernel sees it: lowest to highest count. */
static int in_hull(const cc_set *set, int32_t count) {
    int32_t lo, hi;
    cc_set_hull(set, &lo, &hi);
    return count >= lo && count <= hi;
}

static void one_step(port_ctx *ctx) {
    const int32_t w = ctx->grids.w, h = ctx->grids.h, r = ctx->rule.radius;
    /* The rows' period: H, or W where the port takes one side for both. */
    const int32_t rows = ctx->lim == LIMIT_SQUARE ? w : h;
    const uint8_t *cur = ctx->grids.cur;
    uint8_t *next = ctx->grids.next;
    size_t cells = (size_t)w * (size_t)h;
    if (ctx->lim == LIMIT_FIXED_BUFFER && cells > FIXED_BUFFER_CELLS) cells = FIXED_BUFFER_CELLS;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) next[i] = cur[i];
    for (size_t i = 0; i < cells; i++) {
        int32_t x = (int32_t)(i % (size_t)w), y = (int32_t)(i / (size_t)w);
        int alive = cur[i], count = 0;
        for (int32_t dy = -r; dy <= r; dy++) {
            int32_t ny = (((y + dy) % rows) + rows) % rows;
            if (ny >= h) ny %= h;
            for (int32_t dx = -r; dx <= r; dx++) {
                if (dx == 0 && dy == 0) continue;
                int32_t nx = (((x + dx) % w) + w) % w;
                count += cur[(size_t)ny * (size_t)w + (size_t)nx];
            }
        }
        if (ctx->lim == LIMIT_SKIP_EMPTY && count == 0 && !alive) continue;
        if (ctx->rule.centre) count += alive;
        const cc_set *set = alive ? &ctx->rule.survive : &ctx->rule.birth;
        next[i] = (uint8_t)(ctx->lim == LIMIT_THRESHOLD ? in_hull(set, count)
                                                        : cc_set_has(set, count));
    }
    cpu_byte_grids_swap(&ctx->grids);
}

static int port_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    for (int64_t s = 0; s < k; s++) one_step(p);
    return CC_OK;
}

#define PORT_CREATE(fn, lim, engine_name)                                                  \
    static int fn(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {  \
        return port_create(lim, engine_name, rule, w, h, ctx, err);                        \
    }

PORT_CREATE(threshold_create, LIMIT_THRESHOLD, "port.threshold")
PORT_CREATE(square_create, LIMIT_SQUARE, "port.square")
PORT_CREATE(skip_empty_create, LIMIT_SKIP_EMPTY, "port.skip-empty")
PORT_CREATE(fixed_buffer_create, LIMIT_FIXED_BUFFER, "port.fixed-buffer")

#define PORT_FUNCTIONS(create_fn)                                                               \
    .create = create_fn, .load = cpu_byte_grids_load, .step = port_step,                        \
    .store = cpu_byte_grids_store, .destroy = port_destroy

#define PORT_CAPS .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 8

static const cc_engine ports[] = {
    {.name = "port.threshold", .summary = "S and B as one interval each, caps silent",
     .caps = {PORT_CAPS}, PORT_FUNCTIONS(threshold_create)},
    {.name = "port.threshold-declared", .summary = "S and B as one interval each, stated",
     .caps = {PORT_CAPS, .s_ranges_max = 1, .b_ranges_max = 1}, PORT_FUNCTIONS(threshold_create)},
    {.name = "port.square", .summary = "rows wrap at W, caps silent", .caps = {PORT_CAPS},
     PORT_FUNCTIONS(square_create)},
    {.name = "port.square-declared", .summary = "rows wrap at W, square grids stated",
     .caps = {PORT_CAPS, .square_only = 1}, PORT_FUNCTIONS(square_create)},
    {.name = "port.skip-empty", .summary = "empty neighbourhoods skipped, caps silent",
     .caps = {PORT_CAPS}, PORT_FUNCTIONS(skip_empty_create)},
    {.name = "port.skip-empty-declared", .summary = "empty neighbourhoods skipped, no B0 stated",
     .caps = {PORT_CAPS, .no_b0 = 1}, PORT_FUNCTIONS(skip_empty_create)},
    {.name = "port.fixed-buffer", .summary = "2^20 cells updated, caps silent",
     .caps = {PORT_CAPS}, PORT_FUNCTIONS(fixed_buffer_create)},
    {.name = "port.fixed-buffer-declared", .summary = "2^20 cells updated, cells_max stated",
     .caps = {PORT_CAPS, .cells_max = FIXED_BUFFER_CELLS}, PORT_FUNCTIONS(fixed_buffer_create)},
};

static const cc_engine *const all[] = {&ports[0], &ports[1], &ports[2], &ports[3], &ports[4],
                                       &ports[5], &ports[6], &ports[7], NULL};

const cc_engine *const *cc_mutants_port_limits(void) { return all; }
