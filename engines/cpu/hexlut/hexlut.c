/* cpu.hexlut: seed 002's lookup-table engine for hexagonal rules, on the CPU. Eight cells a byte;
 * a 2^16-entry table, built at create from the rule, gives the next state of 4 consecutive cells
 * from the 16 cells they depend on, so each byte takes two lookups. OpenMP over rows.
 *
 * The neighbourhood is DESIGN.md's: (-1,-1) (0,-1) (-1,0) (1,0) (0,1) (1,1), y downward. For cells
 * x0 .. x0+3 that is, exactly, 16 cells:
 *     the row above: x0-1 .. x0+3   index bits  0-4
 *     their own row: x0-1 .. x0+4   index bits  5-10 (the four centres are bits 6-9)
 *     the row below: x0   .. x0+4   index bits 11-15
 * Cell x0+j's neighbours are above bits j, j+1, own-row bits j, j+2, below bits j, j+1, and its
 * own state is own-row bit j+1. The table is indexed the same way whatever the rule, M0 or M1.
 *
 * Layout: cell x of a row is bit (x+8)%8 of byte (x+8)/8, least significant bit first; byte 0
 * holds cell W-1 in bit 7 and the bit after cell W-1 holds cell 0, so the torus wrap is two bits
 * written back after each row, for any W. */
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/common/engine_functions.h"
#include "engines/engine.h"

#define HEXLUT_ENTRIES (1u << 16)

typedef struct hexlut {
    int32_t w, h;
    int32_t nb;      /* core bytes per row */
    size_t stride;   /* bytes per row: halo byte, core, halo byte, slack for the 3-byte reads */
    uint8_t *cur, *next;
    uint8_t table[HEXLUT_ENTRIES]; /* the next states of 4 cells in bits 0-3 */
} hexlut;

static void hexlut_destroy(void *ctx) {
    hexlut *e = ctx;
    if (!e) return;
    free(e->cur);
    free(e->next);
    free(e);
}

static unsigned bit(unsigned v, int i) { return (v >> i) & 1u; }

static void build_table(const cc_rule *rule, uint8_t *table) {
    for (unsigned idx = 0; idx < HEXLUT_ENTRIES; idx++) {
        unsigned above = idx & 31u, own = (idx >> 5) & 63u, below = (idx >> 11) & 31u;
        uint8_t next = 0;
        for (int j = 0; j < 4; j++) {
            unsigned alive = bit(own, j + 1);
            int32_t count = (int32_t)(bit(above, j) + bit(above, j + 1) + bit(own, j) +
                                      bit(own, j + 2) + bit(below, j) + bit(below, j + 1));
            if (rule->centre) count += (int32_t)alive;
            int on = alive ? cc_set_has(&rule->survive, count) : cc_set_has(&rule->birth, count);
            next |= (uint8_t)(on << j);
        }
        table[idx] = next;
    }
}

static int hexlut_create(const cc_rule *rule, int32_t w, int32_t h, void **out, cc_error *err) {
    *out = NULL;
    hexlut *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "cpu.hexlut: cannot allocate its context");
    e->w = w;
    e->h = h;
    e->nb = (w + 7) / 8;
    e->stride = ((size_t)e->nb + 5 + 7) / 8 * 8;
    e->cur = calloc(e->stride * (size_t)h, 1);
    e->next = calloc(e->stride * (size_t)h, 1);
    if (!e->cur || !e->next) {
        hexlut_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM, "cpu.hexlut: cannot allocate two %dx%d bit grids",
                       (int)w, (int)h);
    }
    build_table(rule, e->table);
    *out = e;
    return CC_OK;
}

static uint8_t *row_of(const hexlut *e, uint8_t *grid, int32_t y) {
    int32_t m = y % e->h;
    if (m < 0) m += e->h;
    return grid + (size_t)m * e->stride;
}

/* After a row's core bytes are written: clears the bits past cell W-1 and writes the wrap bits. */
static void fix_row(const hexlut *e, uint8_t *row) {
    int32_t nb = e->nb;
    int valid = e->w - 8 * (nb - 1); /* cells in the last core byte, 1..8 */
    unsigned first = row[1] & 1u;
    unsigned last = row[nb] & ((1u << valid) - 1u);
    row[0] = (uint8_t)(((last >> (valid - 1)) & 1u) << 7);
    if (valid < 8) {
        row[nb] = (uint8_t)(last | (first << valid));
        row[nb + 1] = 0;
    } else {
        row[nb] = (uint8_t)last;
        row[nb + 1] = (uint8_t)first;
    }
}

static int hexlut_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    hexlut *e = ctx;
    /* Rows are independent; a grid past 2^32 cells is seconds of packing on one core. */
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < e->h; y++) {
        const uint8_t *src = cells + (size_t)y * (size_t)e->w;
        uint8_t *row = row_of(e, e->cur, y);
        memset(row, 0, e->stride);
        for (int32_t x = 0; x < e->w; x++) row[1 + x / 8] |= (uint8_t)(src[x] << (x % 8));
        fix_row(e, row);
    }
    return CC_OK;
}

static int hexlut_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const hexlut *e = ctx;
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < e->h; y++) {
        const uint8_t *row = row_of(e, e->cur, y);
        uint8_t *dst = cells + (size_t)y * (size_t)e->w;
        for (int32_t x = 0; x < e->w; x++) dst[x] = (uint8_t)((row[1 + x / 8] >> (x % 8)) & 1u);
    }
    return CC_OK;
}

/* Bit i is the cell at row position 8k + i (cell 8k + i - 8). */
static uint32_t window(const uint8_t *row, int32_t k) {
    return (uint32_t)row[k] | (uint32_t)row[k + 1] << 8 | (uint32_t)row[k + 2] << 16;
}

static void step_once(hexlut *e) {
    const int32_t h = e->h, nb = e->nb;
    const uint8_t *table = e->table;
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < h; y++) {
        const uint8_t *up = row_of(e, e->cur, y - 1);
        const uint8_t *own = row_of(e, e->cur, y);
        const uint8_t *down = row_of(e, e->cur, y + 1);
        uint8_t *out = row_of(e, e->next, y);
        /* Output byte k+1 holds cells 8k .. 8k+7, at window bits 8 .. 15. */
        for (int32_t k = 0; k < nb; k++) {
            uint32_t a = window(up, k), m = window(own, k), b = window(down, k);
            uint32_t low = ((a >> 7) & 31u) | ((m >> 7) & 63u) << 5 | ((b >> 8) & 31u) << 11;
            uint32_t high = ((a >> 11) & 31u) | ((m >> 11) & 63u) << 5 | ((b >> 12) & 31u) << 11;
            out[k + 1] = (uint8_t)(table[low] | table[high] << 4);
        }
        fix_row(e, out);
    }
    uint8_t *t = e->cur;
    e->cur = e->next;
    e->next = t;
}

static int hexlut_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    for (int64_t i = 0; i < k; i++) step_once(ctx);
    return CC_OK;
}

/* Two bit grids of h rows of stride bytes, and the context with its 2^16-entry table. */
static void hexlut_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    double stride = (double)(((size_t)(w + 7) / 8 + 5 + 7) / 8 * 8);
    need->host_bytes = 2.0 * stride * (double)h + sizeof(hexlut);
}

const cc_engine cc_engine_cpu_hexlut = {
    .name = "cpu.hexlut",
    .summary = "CPU hexagonal rules: 8 cells a byte, a 2^16-entry table gives 4 cells a lookup",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_HEX),
             .radius_max = 1,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
    .create = hexlut_create,
    .memory = hexlut_memory,
    CPU_ENGINE_FUNCTIONS(hexlut),
};
