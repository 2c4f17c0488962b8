/* A Life-like engine with paths of its own for Life and HighLife; the mutant's HighLife path
 * lacks the birth at 6 (see life_fast_path.h). */
#include "fuzz/mutants/life_fast_path.h"

#include <stdlib.h>
#include <string.h>

enum { PATH_GENERAL, PATH_LIFE, PATH_HIGHLIFE };

typedef struct life_ctx {
    cc_rule rule;
    int32_t w, h;
    int path;   /* PATH_* the rule runs on */
    int births6; /* the HighLife path's birth at 6: 0 in the mutant */
    uint8_t *buf[2];
    int cur;
} life_ctx;

static void life_destroy(void *p) {
    life_ctx *ctx = p;
    if (!ctx) return;
    free(ctx->buf[0]);
    free(ctx->buf[1]);
    free(ctx);
}

/* Is the set the counts of ranges (n of them, lo..hi each)? */
static int is_set(const cc_set *set, int n, const int32_t ranges[][2]) {
    if (set->n != n) return 0;
    for (int i = 0; i < n; i++)
        if (set->r[i].lo != ranges[i][0] || set->r[i].hi != ranges[i][1]) return 0;
    return 1;
}

static int life_create(int births6, const cc_rule *rule, int32_t w, int32_t h, void **out,
                       cc_error *err) {
    life_ctx *ctx = calloc(1, sizeof *ctx);
    size_t n = (size_t)w * (size_t)h;
    if (ctx) {
        ctx->buf[0] = malloc(n);
        ctx->buf[1] = malloc(n);
    }
    if (!ctx || !ctx->buf[0] || !ctx->buf[1]) {
        life_destroy(ctx);
        return cc_fail(err, CC_ERR_NOMEM, "life: out of memory for %dx%d", (int)w, (int)h);
    }
    ctx->rule = *rule;
    ctx->w = w;
    ctx->h = h;
    static const int32_t s23[][2] = {{2, 3}}, b3[][2] = {{3, 3}}, b36[][2] = {{3, 3}, {6, 6}};
    const int s_23 = !rule->centre && is_set(&rule->survive, 1, s23);
    ctx->path = s_23 && is_set(&rule->birth, 1, b3)    ? PATH_LIFE
                : s_23 && is_set(&rule->birth, 2, b36) ? PATH_HIGHLIFE
                                                       : PATH_GENERAL;
    ctx->births6 = births6;
    *out = ctx;
    return CC_OK;
}

static int mutant_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    return life_create(0, rule, w, h, out, err);
}

static int control_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    return life_create(1, rule, w, h, out, err);
}

static int life_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    life_ctx *ctx = p;
    memcpy(ctx->buf[0], cells, (size_t)ctx->w * (size_t)ctx->h);
    ctx->cur = 0;
    return CC_OK;
}

static int life_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    life_ctx *ctx = p;
    memcpy(cells, ctx->buf[ctx->cur], (size_t)ctx->w * (size_t)ctx->h);
    return CC_OK;
}

static int life_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    life_ctx *ctx = p;
    const int32_t w = ctx->w, h = ctx->h;
    for (int64_t s = 0; s < k; s++) {
        const uint8_t *in = ctx->buf[ctx->cur];
        uint8_t *out = ctx->buf[!ctx->cur];
        for (int32_t y = 0; y < h; y++) {
            const uint8_t *up = in + (size_t)((y + h - 1) % h) * (size_t)w;
            const uint8_t *row = in + (size_t)y * (size_t)w;
            const uint8_t *down = in + (size_t)((y + 1) % h) * (size_t)w;
            for (int32_t x = 0; x < w; x++) {
                const int32_t l = (x + w - 1) % w, r = (x + 1) % w;
                const int32_t count = up[l] + up[x] + up[r] + row[l] + row[r] + down[l] +
                                      down[x] + down[r];
                const int alive = row[x] != 0;
                uint8_t *cell = out + (size_t)y * (size_t)w + (size_t)x;
                if (ctx->path == PATH_LIFE)
                    *cell = count == 3 || (alive && count == 2);
                else if (ctx->path == PATH_HIGHLIFE)
                    *cell = count == 3 || (alive ? count == 2 : ctx->births6 && count == 6);
                else
                    *cell = (uint8_t)cc_set_has(alive ? &ctx->rule.survive : &ctx->rule.birth,
                                                count + (ctx->rule.centre ? alive : 0));
            }
        }
        ctx->cur = !ctx->cur;
    }
    return CC_OK;
}

#define LIFE_ENGINE(engine_name, engine_summary, create_fn)                                   \
    {.name = engine_name, .summary = engine_summary,                                          \
     .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 1},                       \
     .create = create_fn, .load = life_load, .step = life_step, .store = life_store,          \
     .destroy = life_destroy}

static const cc_engine life_engines[] = {
    LIFE_ENGINE("mutant.life-fast-path",
                "Life-like, r = 1; its HighLife path is Life's, without the birth at 6",
                mutant_create),
    LIFE_ENGINE("control.life-fast-path", "Life-like, r = 1, with paths for Life and HighLife",
                control_create),
};

static const cc_engine *const engines[] = {&life_engines[0], &life_engines[1], NULL};

const cc_engine *const *cc_mutants_life_fast_path(void) { return engines; }
