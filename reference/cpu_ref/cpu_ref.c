/* cpu.ref: the CPU baseline. OpenMP over rows, a plain loop over every cell and every offset of
 * the neighbourhood. The torus is handled by index tables built once at create (a column index
 * and a row offset for every position up to r beyond either edge), so the inner loop has no
 * modulo and no branch. The bounded plane takes a loop of its own, which skips the offsets that
 * leave the grid. */
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/common/byte_grids.h"
#include "engines/engine.h"

#define CPU_REF_RADIUS_MAX 64

typedef struct cpu_ref {
    cpu_byte_grids grids; /* first: load and store are cpu_byte_grids_load and _store */
    int32_t r;
    int centre;
    int plane; /* the bounded plane: cells outside the grid are dead */
    int32_t offset_count;
    int32_t *dx, *dy; /* the shape's offsets, centre excluded */
    int32_t *col;     /* col[x + r] = x mod w, for x in -r .. w-1+r */
    size_t *row;      /* row[y + r] = (y mod h) * w, for y in -r .. h-1+r */
    int32_t max_count;
    uint8_t *next_state; /* next_state[alive * (max_count + 1) + count] */
} cpu_ref;

static void cpu_ref_destroy(void *ctx) {
    cpu_ref *e = ctx;
    if (!e) return;
    cpu_byte_grids_free(&e->grids);
    free(e->dx);
    free(e->dy);
    free(e->col);
    free(e->row);
    free(e->next_state);
    free(e);
}

static int cpu_ref_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    *out = NULL;
    int32_t r = rule->radius, side = 2 * r + 1;
    cpu_ref *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "cpu.ref: cannot allocate its context");
    e->r = r;
    e->centre = rule->centre;
    e->plane = rule->topology == CC_TOPOLOGY_PLANE;
    e->max_count = cc_rule_max_count(rule);
    int grids = cpu_byte_grids_alloc(&e->grids, w, h);
    e->dx = malloc(sizeof(int32_t) * (size_t)side * (size_t)side);
    e->dy = malloc(sizeof(int32_t) * (size_t)side * (size_t)side);
    e->col = malloc(sizeof(int32_t) * ((size_t)w + 2 * (size_t)r));
    e->row = malloc(sizeof(size_t) * ((size_t)h + 2 * (size_t)r));
    e->next_state = calloc(2 * ((size_t)e->max_count + 1), 1);
    if (grids != CC_OK || !e->dx || !e->dy || !e->col || !e->row || !e->next_state) {
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
    /* w, h >= 2r+1 (the contract's create checks it), so one wrap either way is enough. */
    for (int32_t i = 0; i < w + 2 * r; i++) {
        int32_t x = i - r;
        e->col[i] = x < 0 ? x + w : x >= w ? x - w : x;
    }
    for (int32_t i = 0; i < h + 2 * r; i++) {
        int32_t y = i - r;
        e->row[i] = (size_t)(y < 0 ? y + h : y >= h ? y - h : y) * (size_t)w;
    }
    for (int32_t c = 0; c <= e->max_count; c++) {
        e->next_state[c] = (uint8_t)cc_set_has(&rule->birth, c);
        e->next_state[(size_t)e->max_count + 1 + (size_t)c] =
            (uint8_t)cc_set_has(&rule->survive, c);
    }
    *out = e;
    return CC_OK;
}

static void cpu_ref_step_once(const cpu_ref *e) {
    const int32_t w = e->grids.w, h = e->grids.h, r = e->r, n = e->offset_count;
    const uint8_t *in = e->grids.cur;
    uint8_t *out = e->grids.next;
    const size_t stride = (size_t)e->max_count + 1;
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            int32_t count = 0;
            for (int32_t k = 0; k < n; k++)
                count += in[e->row[y + r + e->dy[k]] + (size_t)e->col[x + r + e->dx[k]]];
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            int alive = in[i];
            if (e->centre) count += alive;
            out[i] = e->next_state[(size_t)alive * stride + (size_t)count];
        }
    }
}

/* One cell of the bounded plane: the offsets that leave the grid count as dead. */
static uint8_t cpu_ref_plane_cell(const cpu_ref *e, const uint8_t *in, int32_t x, int32_t y) {
    const int32_t w = e->grids.w, h = e->grids.h;
    int32_t count = 0;
    for (int32_t k = 0; k < e->offset_count; k++) {
        int32_t nx = x + e->dx[k], ny = y + e->dy[k];
        if (nx >= 0 && ny >= 0 && nx < w && ny < h) count += in[(size_t)ny * (size_t)w + (size_t)nx];
    }
    int alive = in[(size_t)y * (size_t)w + (size_t)x];
    if (e->centre) count += alive;
    return e->next_state[(size_t)alive * ((size_t)e->max_count + 1) + (size_t)count];
}

/* Cells at least r from every edge see no outside cell, so they take the torus loop's plain
 * sum; only the border of width r pays for the bounds tests. */
static void cpu_ref_step_once_plane(const cpu_ref *e) {
    const int32_t w = e->grids.w, h = e->grids.h, r = e->r, n = e->offset_count;
    const uint8_t *in = e->grids.cur;
    uint8_t *out = e->grids.next;
    const size_t stride = (size_t)e->max_count + 1;
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < h; y++) {
        uint8_t *row_out = out + (size_t)y * (size_t)w;
        if (y < r || y >= h - r) {
            for (int32_t x = 0; x < w; x++) row_out[x] = cpu_ref_plane_cell(e, in, x, y);
            continue;
        }
        int32_t inner_end = w - r > r ? w - r : r;
        for (int32_t x = 0; x < r && x < w; x++) row_out[x] = cpu_ref_plane_cell(e, in, x, y);
        for (int32_t x = r; x < inner_end; x++) {
            int32_t count = 0;
            for (int32_t k = 0; k < n; k++)
                count += in[(size_t)(y + e->dy[k]) * (size_t)w + (size_t)(x + e->dx[k])];
            int alive = in[(size_t)y * (size_t)w + (size_t)x];
            if (e->centre) count += alive;
            row_out[x] = e->next_state[(size_t)alive * stride + (size_t)count];
        }
        for (int32_t x = inner_end; x < w; x++) row_out[x] = cpu_ref_plane_cell(e, in, x, y);
    }
}

static int cpu_ref_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    cpu_ref *e = ctx;
    for (int64_t s = 0; s < k; s++) {
        if (e->plane)
            cpu_ref_step_once_plane(e);
        else
            cpu_ref_step_once(e);
        cpu_byte_grids_swap(&e->grids);
    }
    return CC_OK;
}

/* What create allocates: two byte grids, the offset tables, the torus index tables. */
static void cpu_ref_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    double side = 2.0 * rule->radius + 1.0;
    need->host_bytes = 2.0 * (double)w * (double)h + 2.0 * sizeof(int32_t) * side * side +
                       sizeof(int32_t) * (w + side) + sizeof(size_t) * (h + side) +
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
