/* Moore engines whose step costs the same at every radius (a summed-area table of the torus, so a
 * count is four lookups), for the thin, tall and wide grids at r = 64: past the section's work
 * bound, where a plain loop takes minutes, these take well under a second, and the section runs
 * the case by its measured time (box_sums.h). */
#include "fuzz/mutants/box_sums.h"

#include <stdlib.h>
#include <string.h>

#include "oracle/error.h"

typedef struct box {
    int32_t w, h;
    cc_rule rule;
    int wrong_wide; /* mutant.box-wide */
    uint8_t *cells, *next;
    int64_t *sums; /* (w + 2r + 1) x (h + 2r + 1): sums[y][x] = live cells above and left of
                    * (x - r, y - r) on the torus */
} box;

static void box_destroy(void *p) {
    box *b = p;
    if (!b) return;
    free(b->cells);
    free(b->next);
    free(b->sums);
    free(b);
}

static int box_make(const cc_rule *rule, int32_t w, int32_t h, int wrong_wide, void **out,
                    cc_error *err) {
    box *b = calloc(1, sizeof *b);
    const int32_t r = rule->radius;
    const size_t cells = (size_t)w * (size_t)h;
    const size_t sums = ((size_t)w + 2 * (size_t)r + 1) * ((size_t)h + 2 * (size_t)r + 1);
    if (!b || !(b->cells = malloc(cells)) || !(b->next = malloc(cells)) ||
        !(b->sums = malloc(sums * sizeof *b->sums))) {
        box_destroy(b);
        return cc_fail(err, CC_ERR_NOMEM, "box sums: no memory for %dx%d", (int)w, (int)h);
    }
    b->w = w;
    b->h = h;
    b->rule = *rule;
    b->wrong_wide = wrong_wide;
    *out = b;
    return CC_OK;
}

static int box_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    return box_make(rule, w, h, 0, out, err);
}

static int box_wide_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    return box_make(rule, w, h, 1, out, err);
}

static int box_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    box *b = p;
    memcpy(b->cells, cells, (size_t)b->w * (size_t)b->h);
    return CC_OK;
}

static int box_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    box *b = p;
    memcpy(cells, b->cells, (size_t)b->w * (size_t)b->h);
    return CC_OK;
}

static int32_t wrap(int32_t v, int32_t n) { return v < 0 ? v + n : v >= n ? v - n : v; }

static void box_one_step(box *b) {
    const int32_t w = b->w, h = b->h, r = b->rule.radius;
    const size_t sw = (size_t)w + 2 * (size_t)r + 1;
    /* The table over the grid extended by r on every side (r < w, h: the engine's caps). */
    memset(b->sums, 0, sw * sizeof *b->sums);
    for (int32_t y = 0; y < h + 2 * r; y++) {
        const uint8_t *row = b->cells + (size_t)wrap(y - r, h) * (size_t)w;
        int64_t *above = b->sums + (size_t)y * sw, *here = above + sw;
        int64_t run = 0;
        here[0] = 0;
        for (int32_t x = 0; x < w + 2 * r; x++) {
            run += row[wrap(x - r, w)] != 0;
            here[x + 1] = above[x + 1] + run;
        }
    }
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            /* The box is columns x .. x + 2r and rows y .. y + 2r of the extended grid. */
            int32_t east = x + 2 * r + 1;
            /* mutant.box-wide: past r = 48 on grids past 65536 columns, the east edge's column
             * in 16 bits, as a port that packs its row spans in 16-bit offsets. */
            if (b->wrong_wide && r > 48 && w > 65536) east = (uint16_t)east;
            const int64_t *top = b->sums + (size_t)y * sw,
                          *bottom = b->sums + ((size_t)y + 2 * (size_t)r + 1) * sw;
            int64_t box_count = bottom[east] - bottom[x] - top[east] + top[x];
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int alive = b->cells[i] != 0;
            int32_t count = (int32_t)box_count - alive + (b->rule.centre ? alive : 0);
            b->next[i] = (uint8_t)cc_set_has(alive ? &b->rule.survive : &b->rule.birth, count);
        }
    uint8_t *t = b->cells;
    b->cells = b->next;
    b->next = t;
}

static int box_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    for (int64_t s = 0; s < k; s++) box_one_step(p);
    return CC_OK;
}

static void box_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    const double r = rule->radius;
    need->host_bytes = 2.0 * (double)w * (double)h +
                       ((double)w + 2 * r + 1) * ((double)h + 2 * r + 1) * sizeof(int64_t);
    need->device_bytes = 0.0;
}

/* Moore up to r = 64 on the torus; every side past 2r so the extended grid wraps once. */
#define BOX_CAPS                                                                                   \
    {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 64, .cells_max = 1ll << 28}

static const cc_engine box_engines[] = {
    {.name = "control.box-sums",
     .summary = "right: Moore counts from a summed-area table, the same cost at every radius",
     .caps = BOX_CAPS, .memory = box_memory, .create = box_create, .load = box_load,
     .step = box_step, .store = box_store, .destroy = box_destroy},
    {.name = "mutant.box-wide",
     .summary = "control.box-sums; past r = 48 on grids past 65536 columns the box's east edge "
                "in 16 bits",
     .caps = BOX_CAPS, .memory = box_memory, .create = box_wide_create, .load = box_load,
     .step = box_step, .store = box_store, .destroy = box_destroy},
};

static const cc_engine *const box_list[] = {&box_engines[0], &box_engines[1], NULL};

const cc_engine *const *cc_mutants_box_sums(void) { return box_list; }
