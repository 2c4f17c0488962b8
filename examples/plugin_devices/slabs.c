/* example.slabs: a port that spreads one grid over several devices, as a cellcheck plugin built
 * with Make against an installed cellcheck. Its devices are emulated on the CPU, so it runs
 * anywhere; the code is shaped as a multi-GPU engine's is: every device holds only its own slab
 * of rows plus halo rows above and below, steps that buffer alone, and gets fresh halo rows from
 * the devices that own them before every launch of up to STEPS steps.
 *
 * The devices: CELLCHECK_DEVICES=N emulates N (1..DEVICES_MAX), else DEVICES_DEFAULT, as a real
 * engine takes the first N visible GPUs. The engine tells cellcheck through `devices` in its
 * table, and cuts the rows as the contract says (engines/engine.h): over D = min(N, H) devices,
 * device d owns rows d*H/D to (d+1)*H/D - 1, so cellcheck knows where the device seams are.
 *
 * The halo is r x STEPS rows: a launch of n <= STEPS steps computes, at its s-th step (from 0),
 * the buffer's rows r*(s+1) .. rows-1-r*(s+1), each from the rows within r of it, so the rows a
 * device owns are exact after n steps and the halo is spent. Columns are whole rows on every
 * device and wrap around the torus there.
 *
 * Two engines, loaded side by side: example.slabs, and example.slabs-late, its wrong twin with a
 * device seam bug: the halo rows it copies from another device come from that device's buffer
 * of one step before (the double buffer not yet swapped), as a port that starts its peer copies
 * before the last step of a launch has landed. Over one device every halo row is the device's own
 * and the twin is right; over two or more, its rows next to a device seam go wrong. */
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "engines/plugin.h"

#define DEVICES_DEFAULT 3 /* the emulated devices "visible" when CELLCHECK_DEVICES is unset */
#define DEVICES_MAX 16
#define STEPS 4      /* the steps of one launch: the halo is r x STEPS rows */
#define RADIUS_MAX 4 /* the counts go to (2r+1)^2 = 81 */
#define COUNT_MAX ((2 * RADIUS_MAX + 1) * (2 * RADIUS_MAX + 1))

typedef struct device {
    int32_t y0, rows; /* the global rows it owns: y0 .. y0 + rows - 1 */
    /* (halo + rows + halo) x w cells each: halo rows above, its own rows, halo rows below.
     * Buffer row i holds global row y0 - halo + i, modulo H. cur is the state now, prev the
     * state one step before (in the rows the last step computed). */
    uint8_t *cur, *prev;
} device;

typedef struct slabs {
    int late; /* the wrong twin: halos from other devices one step late */
    int32_t w, h, r, centre, halo, devices;
    uint8_t next[2][COUNT_MAX + 1]; /* next[alive][count]: the rule's S and B */
    device dev[DEVICES_MAX];
    int32_t *column; /* w + 2r column sums, a step's scratch */
} slabs;

static size_t buffer_rows(const slabs *s, int d) {
    return (size_t)s->dev[d].rows + 2 * (size_t)s->halo;
}

static uint8_t *row(const slabs *s, uint8_t *buffer, int32_t i) {
    return buffer + (size_t)i * (size_t)s->w;
}

/* CELLCHECK_DEVICES=N emulates N devices, 1..DEVICES_MAX; unset, DEVICES_DEFAULT. */
static int slabs_devices(int32_t *count, cc_error *err) {
    const char *want = getenv("CELLCHECK_DEVICES");
    *count = DEVICES_DEFAULT;
    if (!want || !*want) return CC_OK;
    char *end;
    const long n = strtol(want, &end, 10);
    if (*end || n < 1 || n > DEVICES_MAX)
        return cc_fail(err, CC_ERR_ARG,
                       "example.slabs: CELLCHECK_DEVICES=%.32s; it takes a number from 1 to the %d "
                       "emulated devices",
                       want, DEVICES_MAX);
    *count = (int32_t)n;
    return CC_OK;
}

static void slabs_destroy(void *ctx) {
    slabs *s = ctx;
    if (!s) return;
    for (int d = 0; d < DEVICES_MAX; d++) {
        free(s->dev[d].cur);
        free(s->dev[d].prev);
    }
    free(s->column);
    free(s);
}

static int create(int late, const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                  cc_error *err) {
    int32_t count;
    int rc = slabs_devices(&count, err);
    if (rc != CC_OK) return rc;
    slabs *s = calloc(1, sizeof *s);
    if (!s) return cc_fail(err, CC_ERR_NOMEM, "example.slabs: no memory for a context");
    s->late = late;
    s->w = w;
    s->h = h;
    s->r = rule->radius;
    s->centre = rule->centre;
    s->halo = rule->radius * STEPS;
    /* A device a row at least: over min(count, H) devices. */
    s->devices = count < h ? count : h;
    for (int32_t n = 0; n <= COUNT_MAX; n++) {
        s->next[0][n] = (uint8_t)cc_set_has(&rule->birth, n);
        s->next[1][n] = (uint8_t)cc_set_has(&rule->survive, n);
    }
    int ok = (s->column = malloc(((size_t)w + 2 * (size_t)s->r) * sizeof *s->column)) != NULL;
    for (int d = 0; ok && d < s->devices; d++) {
        device *v = &s->dev[d];
        v->y0 = (int32_t)((int64_t)d * h / s->devices);
        v->rows = (int32_t)((int64_t)(d + 1) * h / s->devices) - v->y0;
        const size_t cells = buffer_rows(s, d) * (size_t)w;
        ok = (v->cur = calloc(cells, 1)) != NULL && (v->prev = calloc(cells, 1)) != NULL;
    }
    if (!ok) {
        slabs_destroy(s);
        return cc_fail(err, CC_ERR_NOMEM, "example.slabs: no memory for %dx%d over %d devices",
                       (int)w, (int)h, (int)count);
    }
    *ctx = s;
    return CC_OK;
}

static int slabs_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return create(0, rule, w, h, ctx, err);
}

static int late_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return create(1, rule, w, h, ctx, err);
}

/* What a context holds: every device's two buffers, halos included, and the scratch. */
static void slabs_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    int32_t count;
    cc_error ignored;
    if (slabs_devices(&count, &ignored) != CC_OK) count = DEVICES_DEFAULT;
    if (count > h) count = h;
    const double halo_rows = 2.0 * rule->radius * STEPS * count;
    need->host_bytes = 2.0 * (double)w * ((double)h + halo_rows) +
                       ((double)w + 2.0 * rule->radius) * sizeof(int32_t) + sizeof(slabs);
    need->device_bytes = 0;
}

static int slabs_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    slabs *s = ctx;
    for (int d = 0; d < s->devices; d++) {
        device *v = &s->dev[d];
        const size_t bytes = (size_t)v->rows * (size_t)s->w;
        memcpy(row(s, v->cur, s->halo), cells + (size_t)v->y0 * (size_t)s->w, bytes);
        memcpy(row(s, v->prev, s->halo), row(s, v->cur, s->halo), bytes);
    }
    return CC_OK;
}

static int slabs_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    slabs *s = ctx;
    for (int d = 0; d < s->devices; d++) {
        const device *v = &s->dev[d];
        memcpy(cells + (size_t)v->y0 * (size_t)s->w, row(s, v->cur, s->halo),
               (size_t)v->rows * (size_t)s->w);
    }
    return CC_OK;
}

/* The device that owns global row y. */
static int owner(const slabs *s, int32_t y) {
    int d = s->devices - 1;
    while (s->dev[d].y0 > y) d--;
    return d;
}

/* Every device's halo rows from the devices that own them now: the slabs next to it, any further
 * ones when slabs are thinner than the halo, and around the torus (its own rows, over one
 * device). */
static void exchange(slabs *s) {
    for (int d = 0; d < s->devices; d++) {
        device *v = &s->dev[d];
        const int32_t rows = (int32_t)buffer_rows(s, d);
        for (int32_t i = 0; i < rows; i++) {
            if (i == s->halo) i += v->rows; /* its own rows stay */
            if (i >= rows) break;
            int64_t y = ((int64_t)v->y0 - s->halo + i) % s->h;
            if (y < 0) y += s->h;
            const int o = owner(s, (int32_t)y);
            const device *from = &s->dev[o];
            uint8_t *source = s->late && o != d ? from->prev : from->cur;
            memcpy(row(s, v->cur, i), row(s, source, s->halo + (int32_t)y - from->y0),
                   (size_t)s->w);
        }
    }
}

/* One step of device d's buffer rows first .. last - 1, from cur into prev, then the two swapped. */
static void step_rows(slabs *s, int d, int32_t first, int32_t last) {
    device *v = &s->dev[d];
    const int32_t w = s->w, r = s->r, span = 2 * r + 1;
    int32_t *column = s->column;
    for (int32_t i = first; i < last; i++) {
        /* column[r + x]: the cells of column x in rows i - r .. i + r; then wrapped r either side. */
        memset(column + r, 0, (size_t)w * sizeof *column);
        for (int32_t dy = -r; dy <= r; dy++) {
            const uint8_t *src = row(s, v->cur, i + dy);
            for (int32_t x = 0; x < w; x++) column[r + x] += src[x];
        }
        for (int32_t k = 0; k < r; k++) {
            column[k] = column[w + k];
            column[r + w + k] = column[r + k];
        }
        const uint8_t *here = row(s, v->cur, i);
        uint8_t *out = row(s, v->prev, i);
        int32_t sum = 0;
        for (int32_t k = 0; k < span; k++) sum += column[k];
        for (int32_t x = 0; x < w; x++) {
            const int alive = here[x];
            const int32_t count = s->centre ? sum : sum - alive;
            out[x] = s->next[alive][count];
            if (x + 1 < w) sum += column[x + span] - column[x];
        }
    }
    uint8_t *swap = v->cur;
    v->cur = v->prev;
    v->prev = swap;
}

static int slabs_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    slabs *s = ctx;
    while (k > 0) {
        const int32_t n = k < STEPS ? (int32_t)k : STEPS;
        exchange(s);
        for (int32_t t = 0; t < n; t++)
            for (int d = 0; d < s->devices; d++) {
                const int32_t edge = s->r * (t + 1);
                step_rows(s, d, edge, (int32_t)buffer_rows(s, d) - edge);
            }
        k -= n;
    }
    return CC_OK;
}

#define SLABS_ENGINE(name_, summary_, create_)                                                   \
    {.name = name_,                                                                              \
     .summary = summary_,                                                                        \
     .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),                                            \
              .radius_max = RADIUS_MAX,                                                          \
              .steps_per_launch = STEPS},                                                        \
     .create = create_,                                                                          \
     .load = slabs_load,                                                                         \
     .step = slabs_step,                                                                         \
     .store = slabs_store,                                                                       \
     .destroy = slabs_destroy,                                                                   \
     .memory = slabs_memory,                                                                     \
     .devices = slabs_devices}

static const cc_engine slabs_engine =
    SLABS_ENGINE("example.slabs",
                 "row slabs over emulated devices (3, or CELLCHECK_DEVICES=N), halos of r x 4 "
                 "rows exchanged every 4 steps",
                 slabs_create);
static const cc_engine slabs_late_engine =
    SLABS_ENGINE("example.slabs-late",
                 "example.slabs with a device seam bug: halos from other devices one step late",
                 late_create);

static const cc_engine *const engines[] = {&slabs_engine, &slabs_late_engine, NULL};
CC_PLUGIN(engines)
