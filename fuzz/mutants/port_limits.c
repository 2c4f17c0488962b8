/* The limits of ports, stated and not stated (port_limits.h). */
#include "fuzz/mutants/port_limits.h"

#include <stdlib.h>
#include <string.h>

#include "engines/cpu/common/byte_grids.h"

#define FIXED_BUFFER_CELLS (1 << 20)

typedef enum limit { LIMIT_THRESHOLD, LIMIT_SQUARE, LIMIT_SKIP_EMPTY, LIMIT_FIXED_BUFFER } limit;

typedef struct port_ctx {
    cpu_byte_grids grids; /* first: load and store are cpu_byte_grids_load and _store */
    limit lim;
    cc_rule rule;
    uint8_t *row;   /* one neighbour row, wrapped: W + 2r cells */
    int32_t *count; /* a row's neighbourhood counts, W of them */
} port_ctx;

static void port_destroy(void *p) {
    port_ctx *ctx = p;
    if (ctx) {
        cpu_byte_grids_free(&ctx->grids);
        free(ctx->row);
        free(ctx->count);
    }
    free(ctx);
}

static int port_create(limit lim, const char *name, const cc_rule *rule, int32_t w, int32_t h,
                       void **out, cc_error *err) {
    port_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx || cpu_byte_grids_alloc(&ctx->grids, w, h) != CC_OK ||
        !(ctx->row = malloc((size_t)w + 2 * (size_t)rule->radius)) ||
        !(ctx->count = malloc((size_t)w * sizeof *ctx->count))) {
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

/* The row the port reads at y + dy: its own wrap, rows of period H, or W where it takes one side
 * for both. */
static int32_t port_row(int32_t y, int32_t rows, int32_t h) {
    int32_t ny = ((y % rows) + rows) % rows;
    return ny >= h ? ny % h : ny;
}

/* The neighbourhood counts of row y into ctx->count: each of the 2r + 1 rows the port reads is
 * laid out wrapped at W and its windows of 2r + 1 summed as they slide; the offset (0, 0) is not
 * counted (read, like the others, through the port's wrap). */
static void row_counts(port_ctx *ctx, int32_t y, int32_t rows) {
    const int32_t w = ctx->grids.w, h = ctx->grids.h, r = ctx->rule.radius;
    const uint8_t *cur = ctx->grids.cur;
    int32_t *count = ctx->count;
    const uint8_t *own = cur + (size_t)port_row(y, rows, h) * (size_t)w;
    for (int32_t x = 0; x < w; x++) count[x] = -own[x];
    for (int32_t dy = -r; dy <= r; dy++) {
        const uint8_t *src = cur + (size_t)port_row(y + dy, rows, h) * (size_t)w;
        memcpy(ctx->row + r, src, (size_t)w);
        for (int32_t j = 0; j < r; j++) {
            ctx->row[j] = src[(((j - r) % w) + w) % w];
            ctx->row[w + r + j] = src[j % w];
        }
        int32_t window = 0;
        for (int32_t j = 0; j < 2 * r + 1; j++) window += ctx->row[j];
        for (int32_t x = 0; x < w; x++) {
            count[x] += window;
            if (x + 1 < w) window += ctx->row[x + 2 * r + 1] - ctx->row[x];
        }
    }
}

static void one_step(port_ctx *ctx) {
    const int32_t w = ctx->grids.w, h = ctx->grids.h;
    const int32_t rows = ctx->lim == LIMIT_SQUARE ? w : h;
    const uint8_t *cur = ctx->grids.cur;
    uint8_t *next = ctx->grids.next;
    size_t cells = (size_t)w * (size_t)h;
    if (ctx->lim == LIMIT_FIXED_BUFFER && cells > FIXED_BUFFER_CELLS) cells = FIXED_BUFFER_CELLS;
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) next[i] = cur[i];
    for (int32_t y = 0; (size_t)y * (size_t)w < cells; y++) {
        row_counts(ctx, y, rows);
        for (int32_t x = 0; x < w && (size_t)y * (size_t)w + (size_t)x < cells; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int alive = cur[i], count = ctx->count[x];
            if (ctx->lim == LIMIT_SKIP_EMPTY && count == 0 && !alive) continue;
            if (ctx->rule.centre) count += alive;
            const cc_set *set = alive ? &ctx->rule.survive : &ctx->rule.birth;
            next[i] = (uint8_t)(ctx->lim == LIMIT_THRESHOLD ? in_hull(set, count)
                                                            : cc_set_has(set, count));
        }
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
