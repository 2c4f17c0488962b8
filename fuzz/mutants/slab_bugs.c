/* Slab engines over emulated devices, right and wrong at the seams (slab_bugs.h). */
#include "fuzz/mutants/slab_bugs.h"

#include <stdlib.h>
#include <string.h>

#include "engines/slabs/slabs.h"
#include "oracle/grid.h"
#include "oracle/oracle.h"

#define DEVICES_DEFAULT 3 /* the emulated devices "visible" when CELLCHECK_DEVICES is unset */
#define DEVICES_MAX 16
#define STEPS 4 /* steps a launch: the halo is r x STEPS rows */

typedef enum fault { FAULT_NONE, FAULT_LATE, FAULT_NEIGHBOUR, FAULT_ROUND, FAULT_SHALLOW } fault;

typedef struct slab_engine {
    fault bug;
    cc_rule rule;
    int32_t w, h, halo;
    cc_slabs cut;
    cc_grid dev[DEVICES_MAX];  /* each slab with its halos */
    cc_grid sent[DEVICES_MAX]; /* FAULT_LATE: each slab's own rows as the last exchange saw them */
    cc_grid initial;       /* FAULT_ROUND: the rows no slab steps keep what was loaded */
} slab_engine;

static uint8_t *row(cc_grid *g, int32_t y) { return g->cells + (size_t)y * (size_t)g->w; }

static void destroy(void *ctx) {
    slab_engine *e = ctx;
    if (!e) return;
    for (int d = 0; d < DEVICES_MAX; d++) {
        cc_grid_free(&e->dev[d]);
        cc_grid_free(&e->sent[d]);
    }
    cc_grid_free(&e->initial);
    cc_slabs_free(&e->cut);
    free(e);
}

/* CELLCHECK_DEVICES=N emulates N devices (1..DEVICES_MAX), as a real engine takes the first N. */
static int devices(int32_t *count, cc_error *err) {
    const char *want = getenv("CELLCHECK_DEVICES");
    *count = DEVICES_DEFAULT;
    if (!want || !*want) return CC_OK;
    char *end;
    const long n = strtol(want, &end, 10);
    if (*end || n < 1 || n > DEVICES_MAX)
        return cc_fail(err, CC_ERR_ARG,
                       "slab engine: CELLCHECK_DEVICES=%s; a number from 1 to the %d emulated "
                       "devices",
                       want, DEVICES_MAX);
    *count = (int32_t)n;
    return CC_OK;
}

static int create(fault bug, const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                  cc_error *err) {
    slab_engine *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "slab engine: no memory");
    e->bug = bug;
    e->rule = *rule;
    e->w = w;
    e->h = h;
    e->halo = rule->radius * STEPS;
    int32_t n = 0;
    int rc = devices(&n, err);
    if (rc == CC_OK) rc = cc_slabs_cut(h, h < n ? h : n, e->halo, &e->cut, err);
    for (int d = 0; rc == CC_OK && d < e->cut.devices; d++) {
        rc = cc_grid_alloc(&e->dev[d], w, e->cut.slab[d].rows + 2 * e->halo, err);
        if (rc == CC_OK) rc = cc_grid_alloc(&e->sent[d], w, e->dev[d].h, err);
    }
    if (rc == CC_OK) rc = cc_grid_alloc(&e->initial, w, h, err);
    if (rc != CC_OK) {
        destroy(e);
        return rc;
    }
    *ctx = e;
    return CC_OK;
}

/* Each engine's create: its fault. */
static int control_create(const cc_rule *r, int32_t w, int32_t h, void **c, cc_error *e) {
    return create(FAULT_NONE, r, w, h, c, e);
}
static int late_create(const cc_rule *r, int32_t w, int32_t h, void **c, cc_error *e) {
    return create(FAULT_LATE, r, w, h, c, e);
}
static int neighbour_create(const cc_rule *r, int32_t w, int32_t h, void **c, cc_error *e) {
    return create(FAULT_NEIGHBOUR, r, w, h, c, e);
}
static int round_create(const cc_rule *r, int32_t w, int32_t h, void **c, cc_error *e) {
    return create(FAULT_ROUND, r, w, h, c, e);
}
static int shallow_create(const cc_rule *r, int32_t w, int32_t h, void **c, cc_error *e) {
    return create(FAULT_SHALLOW, r, w, h, c, e);
}

static int load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    slab_engine *e = ctx;
    memcpy(e->initial.cells, cells, cc_grid_cells(&e->initial));
    for (int d = 0; d < e->cut.devices; d++) {
        const cc_slab *s = &e->cut.slab[d];
        memcpy(row(&e->dev[d], e->halo), cells + (size_t)s->y0 * (size_t)e->w,
               (size_t)s->rows * (size_t)e->w);
        memcpy(e->sent[d].cells, e->dev[d].cells, cc_grid_cells(&e->dev[d]));
    }
    return CC_OK;
}

/* Every halo from the slab that owns its rows. */
static void exchange(slab_engine *e) {
    for (int d = 0; d < e->cut.devices; d++) {
        const cc_slab *s = &e->cut.slab[d];
        for (int32_t k = 0; k < s->pieces; k++) {
            cc_slab_piece p = s->piece[k];
            const int below = p.dst_row >= e->halo + s->rows;
            if (e->bug == FAULT_NEIGHBOUR && below && d == e->cut.devices - 1 && d >= 1 &&
                p.src_device == 0) {
                /* The slab above, as if the torus had no wrap; over two devices, where the slab
                 * above is the first, the last slab's own top rows. */
                p.src_device = d >= 2 ? d - 1 : d;
                if (p.src_row + p.count > e->halo + e->cut.slab[p.src_device].rows) continue;
            }
            cc_grid *src = e->bug == FAULT_LATE ? &e->sent[p.src_device] : &e->dev[p.src_device];
            memmove(row(&e->dev[d], p.dst_row), row(src, p.src_row),
                    (size_t)p.count * (size_t)e->w);
        }
    }
    if (e->bug == FAULT_LATE)
        for (int d = 0; d < e->cut.devices; d++)
            memcpy(e->sent[d].cells, e->dev[d].cells, cc_grid_cells(&e->dev[d]));
}

static int step(void *ctx, int64_t k, cc_error *err) {
    slab_engine *e = ctx;
    for (int64_t launch = 0; k > 0; launch++) {
        const int64_t n = k >= STEPS ? STEPS : 1;
        if (e->bug != FAULT_SHALLOW || launch % 2 == 0) exchange(e);
        /* A slab's buffer stepped as a torus: its wrap spoils r rows a step from either end,
         * no more than the halo in a launch. */
        for (int d = 0; d < e->cut.devices; d++) {
            int rc = oracle_run(&e->rule, &e->dev[d], n, err);
            if (rc != CC_OK) return rc;
        }
        k -= n;
    }
    return CC_OK;
}

static int store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    slab_engine *e = ctx;
    for (int d = 0; d < e->cut.devices; d++) {
        const cc_slab *s = &e->cut.slab[d];
        memcpy(cells + (size_t)s->y0 * (size_t)e->w, row(&e->dev[d], e->halo),
               (size_t)s->rows * (size_t)e->w);
    }
    if (e->bug == FAULT_ROUND) {
        /* Rows past DEVICES x (H / DEVICES) were never a slab's. */
        const int32_t kept = e->cut.devices * (e->h / e->cut.devices);
        memcpy(cells + (size_t)kept * (size_t)e->w, row(&e->initial, kept),
               (size_t)(e->h - kept) * (size_t)e->w);
    }
    return CC_OK;
}

#define SLAB_ENGINE(name_, summary_, create_)                                                    \
    {.name = name_,                                                                              \
     .summary = summary_,                                                                        \
     .caps = {.radius_max = 4, .steps_per_launch = STEPS},                                       \
     .create = create_,                                                                          \
     .load = load,                                                                               \
     .step = step,                                                                               \
     .store = store,                                                                             \
     .destroy = destroy,                                                                         \
     .devices = devices}

const cc_engine cc_slabs_control = SLAB_ENGINE(
    "control.slabs", "emulated devices (3, or CELLCHECK_DEVICES=N), row slabs, halos exchanged "
                     "every launch",
    control_create);
const cc_engine cc_mutant_slab_late =
    SLAB_ENGINE("mutant.slab-late", "each halo one exchange late", late_create);
const cc_engine cc_mutant_slab_neighbour = SLAB_ENGINE(
    "mutant.slab-neighbour", "the last slab's bottom halo from the slab above it, not across "
                             "the torus",
    neighbour_create);
const cc_engine cc_mutant_slab_round = SLAB_ENGINE(
    "mutant.slab-round", "slab heights rounded down: the last rows never stepped", round_create);
const cc_engine cc_mutant_slab_shallow = SLAB_ENGINE(
    "mutant.slab-shallow", "halos exchanged every other launch, a launch deep", shallow_create);
