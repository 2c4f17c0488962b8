/* A general per-cell engine over a table of row half-widths; the mutant's circle at r = 11 is
 * one short in rows dy = +-3 (see radius_table.h). */
#include "fuzz/mutants/radius_table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/row_runs.h"

#define RADIUS_TABLE_MAX 16

typedef struct table_ctx {
    cc_rule rule;
    int32_t w, h;
    row_runs runs; /* the dx range of each row dy */
    uint8_t *buf[2];
    int cur;
} table_ctx;

static void table_destroy(void *p) {
    table_ctx *ctx = p;
    if (!ctx) return;
    free(ctx->buf[0]);
    free(ctx->buf[1]);
    row_runs_free(&ctx->runs);
    free(ctx);
}

static int table_create(int wrong, const cc_rule *rule, int32_t w, int32_t h, void **out,
                        cc_error *err) {
    table_ctx *ctx = calloc(1, sizeof *ctx);
    size_t n = (size_t)w * (size_t)h;
    if (ctx) {
        ctx->buf[0] = malloc(n);
        ctx->buf[1] = malloc(n);
    }
    if (!ctx || !ctx->buf[0] || !ctx->buf[1] ||
        row_runs_init(&ctx->runs, rule->shape, rule->radius, w, h) != CC_OK) {
        table_destroy(ctx);
        return cc_fail(err, CC_ERR_NOMEM, "radius-table: out of memory for %dx%d", (int)w, (int)h);
    }
    ctx->rule = *rule;
    ctx->w = w;
    ctx->h = h;
    const int32_t r = rule->radius;
    if (wrong && rule->shape == CC_SHAPE_CIRCULAR && r == 11)
        for (int32_t dy = -3; dy <= 3; dy += 6) {
            ctx->runs.lo[dy + r]++; /* the typo: 10 where the circle reaches 11 */
            ctx->runs.hi[dy + r]--;
        }
    *out = ctx;
    return CC_OK;
}

static int mutant_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    return table_create(1, rule, w, h, out, err);
}

static int control_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    return table_create(0, rule, w, h, out, err);
}

static int table_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    table_ctx *ctx = p;
    memcpy(ctx->buf[0], cells, (size_t)ctx->w * (size_t)ctx->h);
    ctx->cur = 0;
    return CC_OK;
}

static int table_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    table_ctx *ctx = p;
    memcpy(cells, ctx->buf[ctx->cur], (size_t)ctx->w * (size_t)ctx->h);
    return CC_OK;
}

static int table_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    table_ctx *ctx = p;
    const int32_t w = ctx->w, h = ctx->h;
    for (int64_t s = 0; s < k; s++) {
        const uint8_t *in = ctx->buf[ctx->cur];
        uint8_t *out = ctx->buf[!ctx->cur];
        for (int32_t y = 0; y < h; y++) {
            row_runs_at_row(&ctx->runs, in, y);
            for (int32_t x = 0; x < w; x++) {
                const int alive = in[(size_t)y * (size_t)w + (size_t)x] != 0;
                const int32_t count = row_runs_count(&ctx->runs, x, INT32_MAX);
                out[(size_t)y * (size_t)w + (size_t)x] = (uint8_t)cc_set_has(
                    alive ? &ctx->rule.survive : &ctx->rule.birth,
                    count + (ctx->rule.centre ? alive : 0));
            }
        }
        ctx->cur = !ctx->cur;
    }
    return CC_OK;
}

#define TABLE_ENGINE(engine_name, engine_summary, create_fn)                                  \
    {.name = engine_name, .summary = engine_summary,                                          \
     .caps = {.radius_max = RADIUS_TABLE_MAX},                                                \
     .create = create_fn, .load = table_load, .step = table_step, .store = table_store,       \
     .destroy = table_destroy}

static const cc_engine table_engines[] = {
    TABLE_ENGINE("mutant.radius-table",
                 "every shape, r 1..16, rows of a half-width table; the circle at r = 11 is one "
                 "short in rows dy = +-3",
                 mutant_create),
    TABLE_ENGINE("control.radius-table", "every shape, r 1..16, rows of a half-width table",
                 control_create),
};

static const cc_engine *const engines[] = {&table_engines[0], &table_engines[1], NULL};

const cc_engine *const *cc_mutants_radius_table(void) { return engines; }
