/* One per-cell loop, seven ways to get it wrong. */
#include "fuzz/mutants/mutants.h"

#include <stdlib.h>
#include <string.h>

typedef enum mutation {
    MUT_NONE,
    MUT_RADIUS,
    MUT_EDGE,
    MUT_CENTRE,
    MUT_ODD_COLUMN,
    MUT_SWAP,
    MUT_SHORT,
    MUT_MAX_COUNT
} mutation;

typedef struct offset {
    int32_t dx, dy;
} offset;

typedef struct loop_ctx {
    mutation mut;
    cc_rule rule;
    int32_t w, h;
    int32_t max_count;
    int32_t n_offsets;
    offset *offsets;
    uint8_t *cur, *next;
} loop_ctx;

static int always_available(cc_error *err) {
    (void)err;
    return CC_OK;
}

static void loop_destroy(void *p) {
    loop_ctx *ctx = p;
    if (!ctx) return;
    free(ctx->offsets);
    free(ctx->cur);
    free(ctx->next);
    free(ctx);
}

static int loop_create(mutation mut, const cc_engine *self, const cc_rule *rule, int32_t w,
                       int32_t h, void **out, cc_error *err) {
    int rc = cc_engine_check(self, rule, w, h, err);
    if (rc) return rc;
    loop_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return cc_fail(err, CC_ERR_NOMEM, "%s: out of memory", self->name);
    ctx->mut = mut;
    ctx->rule = *rule;
    ctx->w = w;
    ctx->h = h;
    ctx->max_count = cc_rule_max_count(rule);
    int32_t r = rule->radius + (mut == MUT_RADIUS ? 1 : 0);
    size_t side = (size_t)(2 * r + 1);
    ctx->offsets = malloc(side * side * sizeof *ctx->offsets);
    ctx->cur = malloc((size_t)w * (size_t)h);
    ctx->next = malloc((size_t)w * (size_t)h);
    if (!ctx->offsets || !ctx->cur || !ctx->next) {
        loop_destroy(ctx);
        return cc_fail(err, CC_ERR_NOMEM, "%s: out of memory for %dx%d", self->name, (int)w,
                       (int)h);
    }
    /* The neighbourhood as a list of offsets; under the radius mutation, one ring too wide
     * (hex, defined at r = 1 only, then has no neighbours at all). */
    for (int32_t dy = -r; dy <= r; dy++)
        for (int32_t dx = -r; dx <= r; dx++)
            if (cc_shape_contains(rule->shape, r, dx, dy))
                ctx->offsets[ctx->n_offsets++] = (offset){dx, dy};
    *out = ctx;
    return CC_OK;
}

static int loop_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    loop_ctx *ctx = p;
    memcpy(ctx->cur, cells, (size_t)ctx->w * (size_t)ctx->h);
    return CC_OK;
}

static int loop_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    loop_ctx *ctx = p;
    memcpy(cells, ctx->cur, (size_t)ctx->w * (size_t)ctx->h);
    return CC_OK;
}

static void one_step(loop_ctx *ctx) {
    int32_t w = ctx->w, h = ctx->h;
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int alive = ctx->cur[i];
            if (ctx->mut == MUT_ODD_COLUMN && (w & 1) && x == w - 1) {
                ctx->next[i] = (uint8_t)alive;
                continue;
            }
            int32_t count = 0;
            for (int32_t k = 0; k < ctx->n_offsets; k++) {
                int32_t nx = x + ctx->offsets[k].dx, ny = y + ctx->offsets[k].dy;
                if (nx >= w && ctx->mut == MUT_EDGE) continue;
                nx = ((nx % w) + w) % w;
                ny = ((ny % h) + h) % h;
                count += ctx->cur[(size_t)ny * (size_t)w + (size_t)nx];
            }
            if (ctx->rule.centre || ctx->mut == MUT_CENTRE) count += alive;
            if (ctx->mut == MUT_MAX_COUNT && count == ctx->max_count) count--;
            const cc_set *survive = &ctx->rule.survive, *birth = &ctx->rule.birth;
            if (ctx->mut == MUT_SWAP) {
                survive = &ctx->rule.birth;
                birth = &ctx->rule.survive;
            }
            ctx->next[i] = (uint8_t)cc_set_has(alive ? survive : birth, count);
        }
    }
    uint8_t *t = ctx->cur;
    ctx->cur = ctx->next;
    ctx->next = t;
}

static int loop_step(void *p, int64_t k, cc_error *err) {
    loop_ctx *ctx = p;
    if (k < 0) return cc_fail(err, CC_ERR_ARG, "negative step count %lld", (long long)k);
    if (ctx->mut == MUT_SHORT && k > 0) k--;
    for (int64_t s = 0; s < k; s++) one_step(ctx);
    return CC_OK;
}

#define GENERAL_CAPS                                                                       \
    {                                                                                      \
        .shapes = 0x1fu, .radius_min = 1, .radius_max = 16,                                \
        .centres = CC_CENTRE_M0 | CC_CENTRE_M1, .w_multiple = 1, .h_multiple = 1,          \
        .w_max = 0, .h_max = 0, .count_max = 0, .limits = NULL                             \
    }

#define DEFINE_LOOP_ENGINE(sym, engine_name, mut, what)                                    \
    extern const cc_engine sym;                                                            \
    static int sym##_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,         \
                            cc_error *err) {                                               \
        return loop_create(mut, &sym, rule, w, h, ctx, err);                               \
    }                                                                                      \
    const cc_engine sym = {                                                                \
        .name = engine_name,                                                               \
        .summary = what,                                                                   \
        .hardware = CC_HW_CPU,                                                             \
        .caps = GENERAL_CAPS,                                                              \
        .available = always_available,                                                     \
        .create = sym##_create,                                                            \
        .load = loop_load,                                                                 \
        .step = loop_step,                                                                 \
        .store = loop_store,                                                               \
        .destroy = loop_destroy,                                                           \
        .timed_step = NULL,                                                                \
    };

DEFINE_LOOP_ENGINE(cc_mutant_control, "mutant.control", MUT_NONE, "the per-cell loop, correct")
DEFINE_LOOP_ENGINE(cc_mutant_radius, "mutant.radius", MUT_RADIUS, "counts within r+1")
DEFINE_LOOP_ENGINE(cc_mutant_edge, "mutant.edge", MUT_EDGE, "right edge not wrapped")
DEFINE_LOOP_ENGINE(cc_mutant_centre, "mutant.centre", MUT_CENTRE, "centre counted under M0")
DEFINE_LOOP_ENGINE(cc_mutant_odd_column, "mutant.odd-column", MUT_ODD_COLUMN,
                   "last column unchanged when W is odd")
DEFINE_LOOP_ENGINE(cc_mutant_swap, "mutant.swap", MUT_SWAP, "S and B swapped")
DEFINE_LOOP_ENGINE(cc_mutant_short, "mutant.short", MUT_SHORT, "one step too few")
DEFINE_LOOP_ENGINE(cc_mutant_max_count, "mutant.max-count", MUT_MAX_COUNT,
                   "the largest count taken as one less")

static const cc_engine *const mutants[] = {
    &cc_mutant_radius, &cc_mutant_edge,  &cc_mutant_centre,    &cc_mutant_odd_column,
    &cc_mutant_swap,   &cc_mutant_short, &cc_mutant_max_count, NULL};

const cc_engine *const *cc_mutants_all(void) { return mutants; }
