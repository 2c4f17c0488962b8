/* cpu.ref: the CPU baseline. OpenMP over rows, a plain sum over every offset of the neighbourhood
 * for every cell, one byte a cell, with no algebra of counts (no running sums, no packed words):
 * a row's counts are the sum of its source rows shifted by each offset, so that the inner loop
 * runs along a row (the compiler's SIMD over cells). The torus wraps a shifted row's end around;
 * on the bounded plane that part is dead. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/common/byte_grids.h"
#include "engines/engine.h"

/* Counts fit 16 bits: Moore at r = 64 with its centre is 129^2 = 16641. */
#define CPU_REF_RADIUS_MAX 64

typedef struct cpu_ref {
    cpu_byte_grids grids; /* first: load and store are cpu_byte_grids_load and _store */
    int centre;
    int plane; /* the bounded plane: cells outside the grid are dead */
    int32_t offset_count;
    int32_t *dx, *dy; /* the shape's offsets, centre excluded */
    int32_t max_count;
    uint8_t *next_state; /* next_state[alive * (max_count + 1) + count] */
} cpu_ref;

static void cpu_ref_destroy(void *ctx) {
    cpu_ref *e = ctx;
    if (!e) return;
    cpu_byte_grids_free(&e->grids);
    free(e->dx);
    free(e->dy);
    free(e->next_state);
    free(e);
}

static int cpu_ref_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    *out = NULL;
    int32_t r = rule->radius, side = 2 * r + 1;
    cpu_ref *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "cpu.ref: cannot allocate its context");
    e->centre = rule->centre;
    e->plane = rule->topology == CC_TOPOLOGY_PLANE;
    e->max_count = cc_rule_max_count(rule);
    int grids = cpu_byte_grids_alloc(&e->grids, w, h);
    e->dx = malloc(sizeof(int32_t) * (size_t)side * (size_t)side);
    e->dy = malloc(sizeof(int32_t) * (size_t)side * (size_t)side);
    e->next_state = calloc(2 * ((size_t)e->max_count + 1), 1);
    if (grids != CC_OK || !e->dx || !e->dy || !e->next_state) {
        cpu_ref_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM, "cpu.ref: cannot allocate buffers for a %dx%d grid",
                       (int)w, (int)h);
    }
    for (int32_t dy = -r; dy <= r; dy++)
        for (int32_t dx = -r; dx <= r; dx++)
            if (cc_shape_contains(rule->shape, r, dx, dy)) {
                e->dx[e->offset_count] = dx;
                e->dy[e->offset_count] = dy;
                e->offset_count++;
            }
    for (int32_t c = 0; c <= e->max_count; c++) {
        e->next_state[c] = (uint8_t)cc_set_has(&rule->birth, c);
        e->next_state[(size_t)e->max_count + 1 + (size_t)c] =
            (uint8_t)cc_set_has(&rule->survive, c);
    }
    *out = e;
    return CC_OK;
}

/* count[x] += src[x + dx] for every x of a row, the source row shifted by dx: the part inside
 * the row, then on the torus the part that wraps around (|dx| <= r < w, so one wrap is enough);
 * on the plane that part is outside the grid, dead. */
static void cpu_ref_add_shifted(uint16_t *restrict count, const uint8_t *restrict src, int32_t w,
                                int32_t dx, int torus) {
    int32_t lo = dx < 0 ? -dx : 0, hi = dx > 0 ? w - dx : w;
#pragma omp simd
    for (int32_t x = lo; x < hi; x++) count[x] = (uint16_t)(count[x] + src[x + dx]);
    if (!torus) return;
#pragma omp simd
    for (int32_t x = hi; x < w; x++) count[x] = (uint16_t)(count[x] + src[x + dx - w]);
#pragma omp simd
    for (int32_t x = 0; x < lo; x++) count[x] = (uint16_t)(count[x] + src[x + dx + w]);
}

/* One row of the next grid: every offset of the neighbourhood adds its shifted source row to the
 * row's counts (the plain sum over offsets, with the loops over cells and offsets swapped so that
 * the inner loop runs along a row), then each cell's next state by its count. */
static void cpu_ref_row(const cpu_ref *e, int32_t y, uint16_t *count) {
    const int32_t w = e->grids.w, h = e->grids.h;
    const uint8_t *in = e->grids.cur;
    memset(count, 0, sizeof *count * (size_t)w);
    for (int32_t k = 0; k < e->offset_count; k++) {
        int32_t sy = y + e->dy[k];
        if (sy < 0 || sy >= h) {
            if (e->plane) continue;
            sy = sy < 0 ? sy + h : sy - h;
        }
        cpu_ref_add_shifted(count, in + (size_t)sy * (size_t)w, w, e->dx[k], !e->plane);
    }
    const uint8_t *alive = in + (size_t)y * (size_t)w;
    uint8_t *out = e->grids.next + (size_t)y * (size_t)w;
    const uint8_t *born = e->next_state, *kept = e->next_state + e->max_count + 1;
    for (int32_t x = 0; x < w; x++) {
        int32_t c = count[x] + (e->centre ? alive[x] : 0);
        out[x] = alive[x] ? kept[c] : born[c];
    }
}

/* OpenMP over rows, each thread with one row of counts. */
static int cpu_ref_step_once(const cpu_ref *e) {
    int failed = 0;
#pragma omp parallel reduction(| : failed)
    {
        uint16_t *count = malloc(sizeof *count * (size_t)e->grids.w);
        if (!count) failed = 1;
#pragma omp for schedule(static)
        for (int32_t y = 0; y < e->grids.h; y++)
            if (count) cpu_ref_row(e, y, count);
        free(count);
    }
    return failed ? CC_ERR_NOMEM : CC_OK;
}

static int cpu_ref_step(void *ctx, int64_t k, cc_error *err) {
    cpu_ref *e = ctx;
    for (int64_t s = 0; s < k; s++) {
        if (cpu_ref_step_once(e) != CC_OK)
            return cc_fail(err, CC_ERR_NOMEM, "cpu.ref: cannot allocate a row of %d counts",
                           (int)e->grids.w);
        cpu_byte_grids_swap(&e->grids);
    }
    return CC_OK;
}

/* What create allocates (two byte grids, the offset tables) and a step's row of counts a thread. */
static void cpu_ref_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    double side = 2.0 * rule->radius + 1.0;
    need->host_bytes = 2.0 * (double)w * (double)h + 2.0 * sizeof(int32_t) * side * side +
                       sizeof(uint16_t) * (double)w * omp_get_max_threads() +
                       2.0 * (cc_rule_max_count(rule) + 1) + sizeof(cpu_ref);
}

const cc_engine cc_engine_cpu_ref = {
    .name = "cpu.ref",
    .summary = "CPU baseline: OpenMP over rows, plain per-cell loops over the neighbourhood",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |
                       CC_SHAPE_BIT(CC_SHAPE_CROSS) | CC_SHAPE_BIT(CC_SHAPE_CIRCULAR) |
                       CC_SHAPE_BIT(CC_SHAPE_HEX),
             .radius_max = CPU_REF_RADIUS_MAX,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
             .topologies = CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) | CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE)},
    .create = cpu_ref_create,
    .memory = cpu_ref_memory,
    CPU_BYTE_GRIDS_FUNCTIONS(cpu_ref),
};
