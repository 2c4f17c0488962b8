/* Engines wrong only under what callers do (see callers.h). The prefix cache is process-wide on
 * purpose: it is the bug. */
#include "fuzz/mutants/callers.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz/mutants/mutants.h"

#define BASE (&cc_mutant_control)

typedef enum bug { BUG_NONE, BUG_RELOAD_ROWS, BUG_PREFIX_CACHE } bug;

typedef struct caller_ctx {
    bug bug;
    void *base;
    cc_rule rule;
    int32_t w, h;
    uint8_t *last_input; /* the grid last loaded (NULL before the first load) */
    int64_t steps_since_load;
    uint8_t *scratch;
} caller_ctx;

/* The cache: a few results, each with the grid it was computed from. */
#define CACHE_SLOTS 8
typedef struct cache_slot {
    cc_rule rule;
    int32_t w, h;
    int64_t k;
    uint8_t *grid, *result;
} cache_slot;
static cache_slot cache[CACHE_SLOTS];
static unsigned cache_next;

static void caller_destroy(void *p) {
    caller_ctx *c = p;
    if (!c) return;
    BASE->destroy(c->base);
    free(c->last_input);
    free(c->scratch);
    free(c);
}

static int caller_create(bug b, const cc_rule *rule, int32_t w, int32_t h, void **out,
                         cc_error *err) {
    caller_ctx *c = calloc(1, sizeof *c);
    const size_t n = (size_t)w * (size_t)h;
    if (c) {
        c->last_input = malloc(n);
        c->scratch = malloc(n);
    }
    if (!c || !c->last_input || !c->scratch) {
        if (c) free(c->last_input), free(c->scratch), free(c);
        return cc_fail(err, CC_ERR_NOMEM, "callers: out of memory for %dx%d", (int)w, (int)h);
    }
    int rc = BASE->create(rule, w, h, &c->base, err);
    if (rc) {
        free(c->last_input), free(c->scratch), free(c);
        return rc;
    }
    c->bug = b;
    c->rule = *rule;
    c->w = w;
    c->h = h;
    c->steps_since_load = -1;
    *out = c;
    return CC_OK;
}

static int create_control(const cc_rule *r, int32_t w, int32_t h, void **o, cc_error *e) {
    return caller_create(BUG_NONE, r, w, h, o, e);
}
static int create_reload_rows(const cc_rule *r, int32_t w, int32_t h, void **o, cc_error *e) {
    return caller_create(BUG_RELOAD_ROWS, r, w, h, o, e);
}
static int create_prefix_cache(const cc_rule *r, int32_t w, int32_t h, void **o, cc_error *e) {
    return caller_create(BUG_PREFIX_CACHE, r, w, h, o, e);
}

static int caller_load(void *p, const uint8_t *cells, cc_error *err) {
    caller_ctx *c = p;
    const size_t n = (size_t)c->w * (size_t)c->h, row = (size_t)c->w;
    const uint8_t *in = cells;
    if (c->bug == BUG_RELOAD_ROWS && c->steps_since_load >= 0) {
        /* The rows that did not change since the last load are taken as still loaded. */
        int rc = BASE->store(c->base, c->scratch, err);
        if (rc) return rc;
        for (size_t y = 0; y < (size_t)c->h; y++)
            if (memcmp(cells + y * row, c->last_input + y * row, row) != 0)
                memcpy(c->scratch + y * row, cells + y * row, row);
        in = c->scratch;
    }
    int rc = BASE->load(c->base, in, err);
    if (rc) return rc;
    memcpy(c->last_input, cells, n);
    c->steps_since_load = 0;
    return CC_OK;
}

/* The key's cells: the first 4096, as a hash of a fixed-size prefix of the input would see. */
#define KEY_CELLS 4096

static int same_key(const uint8_t *a, const uint8_t *b, size_t n) {
    return memcmp(a, b, n < KEY_CELLS ? n : KEY_CELLS) == 0;
}

static cache_slot *cache_find(const caller_ctx *c, int64_t k) {
    const size_t n = (size_t)c->w * (size_t)c->h;
    for (int i = 0; i < CACHE_SLOTS; i++) {
        const cache_slot *s = &cache[i];
        if (s->grid && s->w == c->w && s->h == c->h && s->k == k &&
            cc_rule_equal(&s->rule, &c->rule) && same_key(s->grid, c->last_input, n))
            return &cache[i];
    }
    return NULL;
}

static int caller_step(void *p, int64_t k, cc_error *err) {
    caller_ctx *c = p;
    const size_t n = (size_t)c->w * (size_t)c->h;
    const int fresh = c->bug == BUG_PREFIX_CACHE && c->steps_since_load == 0 && k > 0;
    cache_slot *hit = fresh ? cache_find(c, k) : NULL;
    int rc = hit ? BASE->load(c->base, hit->result, err) : BASE->step(c->base, k, err);
    if (rc) return rc;
    if (fresh && !hit) {
        cache_slot *s = &cache[cache_next++ % CACHE_SLOTS];
        free(s->grid);
        free(s->result);
        memset(s, 0, sizeof *s);
        s->grid = malloc(n);
        s->result = malloc(n);
        if (s->grid && s->result && BASE->store(c->base, s->result, err) == CC_OK) {
            memcpy(s->grid, c->last_input, n);
            s->rule = c->rule, s->w = c->w, s->h = c->h, s->k = k;
        } else {
            free(s->grid), free(s->result);
            memset(s, 0, sizeof *s);
        }
    }
    c->steps_since_load += k;
    return CC_OK;
}

static int caller_store(void *p, uint8_t *cells, cc_error *err) {
    return BASE->store(((caller_ctx *)p)->base, cells, err);
}

#define CALLER_ENGINE(name_, summary_, create_)                                                  \
    {.name = name_, .summary = summary_, .caps = {.radius_min = 1, .radius_max = 16,            \
                                                  .centres = CC_CENTRE_M0 | CC_CENTRE_M1},      \
     .create = create_, .load = caller_load, .step = caller_step, .store = caller_store,        \
     .destroy = caller_destroy}

static const cc_engine callers[] = {
    CALLER_ENGINE("mutant.reload-rows", "load keeps the rows equal to the last load's",
                  create_reload_rows),
    CALLER_ENGINE("mutant.prefix-cache", "results cached process-wide, keyed on the first 4096 cells",
                  create_prefix_cache),
    CALLER_ENGINE("control.callers", "the loop through the same wrapper: right", create_control),
};

static const cc_engine *const caller_list[] = {&callers[0], &callers[1], &callers[2], NULL};

const cc_engine *const *cc_mutants_callers(void) { return caller_list; }
