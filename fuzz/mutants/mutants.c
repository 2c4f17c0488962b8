/* One per-cell loop, seven ways to get it wrong. */
#include "fuzz/mutants/mutants.h"

#include <stdint.h>
#include <stdlib.h>

#include "engines/cpu/common/byte_grids.h"
#include "fuzz/mutants/row_runs.h"

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

typedef struct loop_ctx {
    cpu_byte_grids grids; /* first: load and store are cpu_byte_grids_load and _store */
    mutation mut;
    cc_rule rule;
    int32_t max_count;
    row_runs runs; /* the neighbourhood, under the radius mutation one ring too wide */
} loop_ctx;

static void loop_destroy(void *p) {
    loop_ctx *ctx = p;
    if (ctx) {
        cpu_byte_grids_free(&ctx->grids);
        row_runs_free(&ctx->runs);
    }
    free(ctx);
}

static int loop_create(mutation mut, const char *name, const cc_rule *rule, int32_t w, int32_t h,
                       void **out, cc_error *err) {
    loop_ctx *ctx = calloc(1, sizeof *ctx);
    /* Under the radius mutation, one ring too wide (hex, defined at r = 1 only, then has no
     * neighbours at all). */
    const int32_t r = rule->radius + (mut == MUT_RADIUS ? 1 : 0);
    if (!ctx || cpu_byte_grids_alloc(&ctx->grids, w, h) != CC_OK ||
        row_runs_init(&ctx->runs, rule->shape, r, w, h) != CC_OK) {
        loop_destroy(ctx);
        return cc_fail(err, CC_ERR_NOMEM, "%s: out of memory for %dx%d", name, (int)w, (int)h);
    }
    ctx->mut = mut;
    ctx->rule = *rule;
    ctx->max_count = cc_rule_max_count(rule);
    *out = ctx;
    return CC_OK;
}

static void one_step(loop_ctx *ctx) {
    const int32_t w = ctx->grids.w, h = ctx->grids.h;
    const uint8_t *cur = ctx->grids.cur;
    uint8_t *next = ctx->grids.next;
    for (int32_t y = 0; y < h; y++) {
        row_runs_at_row(&ctx->runs, cur, y);
        for (int32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int alive = cur[i];
            if (ctx->mut == MUT_ODD_COLUMN && (w & 1) && x == w - 1) {
                next[i] = (uint8_t)alive;
                continue;
            }
            /* The edge mutation leaves out the neighbours past the right edge. */
            int32_t count =
                row_runs_count(&ctx->runs, x, ctx->mut == MUT_EDGE ? w - 1 - x : INT32_MAX);
            if (ctx->rule.centre || ctx->mut == MUT_CENTRE) count += alive;
            if (ctx->mut == MUT_MAX_COUNT && count == ctx->max_count) count--;
            const cc_set *survive = &ctx->rule.survive, *birth = &ctx->rule.birth;
            if (ctx->mut == MUT_SWAP) {
                survive = &ctx->rule.birth;
                birth = &ctx->rule.survive;
            }
            next[i] = (uint8_t)cc_set_has(alive ? survive : birth, count);
        }
    }
    cpu_byte_grids_swap(&ctx->grids);
}

static int loop_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    loop_ctx *ctx = p;
    if (ctx->mut == MUT_SHORT && k > 0) k--;
    for (int64_t s = 0; s < k; s++) one_step(ctx);
    return CC_OK;
}

/* Each engine's create: its mutation, and its name for messages. */
#define LOOP_CREATE(fn, mut, engine_name)                                                  \
    static int fn(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {  \
        return loop_create(mut, engine_name, rule, w, h, ctx, err);                        \
    }

LOOP_CREATE(control_create, MUT_NONE, "mutant.control")
LOOP_CREATE(radius_create, MUT_RADIUS, "mutant.radius")
LOOP_CREATE(edge_create, MUT_EDGE, "mutant.edge")
LOOP_CREATE(centre_create, MUT_CENTRE, "mutant.centre")
LOOP_CREATE(odd_column_create, MUT_ODD_COLUMN, "mutant.odd-column")
LOOP_CREATE(swap_create, MUT_SWAP, "mutant.swap")
LOOP_CREATE(short_create, MUT_SHORT, "mutant.short")
LOOP_CREATE(max_count_create, MUT_MAX_COUNT, "mutant.max-count")

/* Every loop engine has the caps of a general CPU engine (every shape, r 1..16, M0 and M1, any W
 * and H) and the loop's functions, with its own create. The caps name radius_min, centres and
 * every shape although they are the defaults: tests that derive engines from the control read its
 * caps as written. */
#define LOOP_ENGINE(create_fn)                                                                     \
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |         \
                       CC_SHAPE_BIT(CC_SHAPE_CROSS) | CC_SHAPE_BIT(CC_SHAPE_CIRCULAR) |            \
                       CC_SHAPE_BIT(CC_SHAPE_HEX),                                                 \
             .radius_min = 1,                                                                      \
             .radius_max = 16,                                                                     \
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},                                              \
    .create = create_fn, CPU_BYTE_GRIDS_FUNCTIONS(loop)

const cc_engine cc_mutant_control = {
    .name = "mutant.control",
    .summary = "the per-cell loop, correct",
    LOOP_ENGINE(control_create),
};

static const cc_engine loop_mutants[] = {
    {.name = "mutant.radius", .summary = "counts within r+1", LOOP_ENGINE(radius_create)},
    {.name = "mutant.edge", .summary = "right edge not wrapped", LOOP_ENGINE(edge_create)},
    {.name = "mutant.centre", .summary = "centre counted under M0", LOOP_ENGINE(centre_create)},
    {.name = "mutant.odd-column", .summary = "last column unchanged when W is odd",
     LOOP_ENGINE(odd_column_create)},
    {.name = "mutant.swap", .summary = "S and B swapped", LOOP_ENGINE(swap_create)},
    {.name = "mutant.short", .summary = "one step too few", LOOP_ENGINE(short_create)},
    {.name = "mutant.max-count", .summary = "the largest count taken as one less",
     LOOP_ENGINE(max_count_create)},
};

static const cc_engine *const mutants[] = {
    &loop_mutants[0], &loop_mutants[1], &loop_mutants[2], &loop_mutants[3],
    &loop_mutants[4], &loop_mutants[5], &loop_mutants[6], NULL};

const cc_engine *const *cc_mutants_all(void) { return mutants; }
