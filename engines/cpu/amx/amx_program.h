/* The CAT-CPU tile program: one step of the engine over all work items. Both engines include this
 * file; before including it, each defines the tile operations it runs on:
 *
 *   AMX_TILE_CONFIG(tiles, cfg)          LDTILECFG from an amx_tilecfg
 *   AMX_TILE_RELEASE(tiles)              TILERELEASE
 *   AMX_TILE_ZERO(tiles, t)              TILEZERO tmm<t>
 *   AMX_TILE_LOAD(tiles, t, base, stride)   TILELOADD tmm<t>
 *   AMX_TILE_STORE(tiles, t, base, stride)  TILESTORED tmm<t>
 *   AMX_TILE_DPBSSD(tiles, c, a, b)      TDPBSSD tmm<c> += tmm<a> . tmm<b>
 *   AMX_TILE_FAULT(tiles)                the fault the tiles recorded, as text, or NULL
 *
 * tiles is the thread's tile state (the emulation's registers; unused by the hardware). Tile
 * numbers are literal constants, as the hardware encodes them in the instruction.
 *
 * Tiles: tmm0..tmm3 accumulate the four 16x16 INT32 tiles of a 16x64 slab; tmm4.. hold the nk
 * band tiles of the pass; the rest stream the other operand (windows of the grid in the
 * horizontal pass, of the horizontal sums in the vertical one). The work between the passes
 * (INT32 sums to INT8 in the VNNI layout) and the rule are plain loops over 64 cells that the
 * compiler vectorises (AVX-512 in the hardware build). */
#ifndef CELLCHECK_ENGINES_CPU_AMX_PROGRAM_H
#define CELLCHECK_ENGINES_CPU_AMX_PROGRAM_H

#if !defined(AMX_TILE_CONFIG) || !defined(AMX_TILE_RELEASE) || !defined(AMX_TILE_ZERO) ||     \
    !defined(AMX_TILE_LOAD) || !defined(AMX_TILE_STORE) || !defined(AMX_TILE_DPBSSD) ||       \
    !defined(AMX_TILE_FAULT)
#error "define the AMX_TILE_* operations before including amx_program.h"
#endif

#include <omp.h>
#include <stdint.h>
#include <string.h>

#include "engines/cpu/amx/amx_engine.h"

/* 32-bit words per 256-byte line of horizontal sums (4 rows x 64 columns). */
#define AMX_HV_LINE 64

/* The four accumulator tiles of a 16x64 slab stored side by side: 64 INT32 per row. */
#define AMX_STORE_SLAB(tiles, acc)                                                                \
    do {                                                                                          \
        AMX_TILE_STORE(tiles, 0, (acc) + 0, AMX_STRIP * 4);                                      \
        AMX_TILE_STORE(tiles, 1, (acc) + 16, AMX_STRIP * 4);                                     \
        AMX_TILE_STORE(tiles, 2, (acc) + 32, AMX_STRIP * 4);                                     \
        AMX_TILE_STORE(tiles, 3, (acc) + 48, AMX_STRIP * 4);                                     \
    } while (0)

#define AMX_LOAD_BANDS(tiles, bands, nk)                                                          \
    do {                                                                                          \
        AMX_TILE_LOAD(tiles, 4, (bands)[0], 64);                                                  \
        if ((nk) > 1) AMX_TILE_LOAD(tiles, 5, (bands)[1], 64);                                    \
        if ((nk) > 2) AMX_TILE_LOAD(tiles, 6, (bands)[2], 64);                                    \
    } while (0)

/* One band window of the horizontal pass: accumulator c += 16 grid rows of 64 cells at src
 * (through operand tile o) times band tile b. */
#define AMX_H_WINDOW(tiles, c, o, b, src, stride)                                                 \
    do {                                                                                          \
        AMX_TILE_LOAD(tiles, o, (src), (stride));                                                 \
        AMX_TILE_DPBSSD(tiles, c, o, b);                                                          \
    } while (0)

/* One band window of the vertical pass: accumulator c += band tile b times 64 rows of sums (16
 * VNNI lines) at src (through operand tile o). */
#define AMX_V_WINDOW(tiles, c, o, b, src, stride)                                                 \
    do {                                                                                          \
        AMX_TILE_LOAD(tiles, o, (src), (stride));                                                 \
        AMX_TILE_DPBSSD(tiles, c, b, o);                                                          \
    } while (0)

/* The nk windows of accumulator c, all through operand tile o; window k is k * step further. */
#define AMX_WINDOWS(tiles, WINDOW, c, o, p, step, nk, stride)                                     \
    do {                                                                                          \
        WINDOW(tiles, c, o, 4, (p), stride);                                                      \
        if ((nk) > 1) WINDOW(tiles, c, o, 5, (p) + (step), stride);                               \
        if ((nk) > 2) WINDOW(tiles, c, o, 6, (p) + 2 * (step), stride);                           \
    } while (0)

/* A slab of either pass (WINDOW is AMX_H_WINDOW or AMX_V_WINDOW): the four accumulators, tile j
 * from the operand windows at p + 16j (columns of the grid, or words of a line of sums). The
 * operands rotate through the tiles the bands leave free (tmm5..tmm7 with one band tile, that is
 * r <= 24; tmm6 and tmm7 with two; tmm7 with three), so a load need not wait for the product
 * that read its tile last. */
#define AMX_SLAB(tiles, WINDOW, p, step, nk, stride)                                              \
    do {                                                                                          \
        AMX_TILE_ZERO(tiles, 0);                                                                  \
        AMX_TILE_ZERO(tiles, 1);                                                                  \
        AMX_TILE_ZERO(tiles, 2);                                                                  \
        AMX_TILE_ZERO(tiles, 3);                                                                  \
        if ((nk) == 1) {                                                                          \
            WINDOW(tiles, 0, 5, 4, (p) + 0, stride);                                              \
            WINDOW(tiles, 1, 6, 4, (p) + 16, stride);                                             \
            WINDOW(tiles, 2, 7, 4, (p) + 32, stride);                                             \
            WINDOW(tiles, 3, 5, 4, (p) + 48, stride);                                             \
        } else if ((nk) == 2) {                                                                   \
            AMX_WINDOWS(tiles, WINDOW, 0, 6, (p) + 0, step, 2, stride);                           \
            AMX_WINDOWS(tiles, WINDOW, 1, 7, (p) + 16, step, 2, stride);                          \
            AMX_WINDOWS(tiles, WINDOW, 2, 6, (p) + 32, step, 2, stride);                          \
            AMX_WINDOWS(tiles, WINDOW, 3, 7, (p) + 48, step, 2, stride);                          \
        } else {                                                                                  \
            AMX_WINDOWS(tiles, WINDOW, 0, 7, (p) + 0, step, 3, stride);                           \
            AMX_WINDOWS(tiles, WINDOW, 1, 7, (p) + 16, step, 3, stride);                          \
            AMX_WINDOWS(tiles, WINDOW, 2, 7, (p) + 32, step, 3, stride);                          \
            AMX_WINDOWS(tiles, WINDOW, 3, 7, (p) + 48, step, 3, stride);                          \
        }                                                                                         \
    } while (0)

/* 16 rows of horizontal sums (acc, 64 INT32 a row) to 4 VNNI lines of INT8 H - bias: byte i of
 * word c of line q is row 4q+i, column c. H - bias is exact in INT8 (amx_engine.h). */
static inline void amx_sums_to_vnni(const int32_t *restrict acc, uint32_t *restrict lines,
                                    int32_t bias) {
    for (int q = 0; q < 4; q++) {
        const int32_t *r0 = acc + (4 * q + 0) * AMX_STRIP, *r1 = acc + (4 * q + 1) * AMX_STRIP;
        const int32_t *r2 = acc + (4 * q + 2) * AMX_STRIP, *r3 = acc + (4 * q + 3) * AMX_STRIP;
        uint32_t *line = lines + q * AMX_HV_LINE;
        for (int c = 0; c < AMX_STRIP; c++)
            line[c] = ((uint32_t)(r0[c] - bias) & 0xFFu) |
                      (((uint32_t)(r1[c] - bias) & 0xFFu) << 8) |
                      (((uint32_t)(r2[c] - bias) & 0xFFu) << 16) |
                      ((uint32_t)(r3[c] - bias) << 24);
    }
}

/* The rule on one row of 64 cells: acc is the vertical pass's result (the box sum minus
 * box_bias), cur the cells, next where the new cells go. */
static inline void amx_rule_row(const amx_engine *restrict e, const int32_t *restrict acc,
                                const uint8_t *restrict cur, uint8_t *restrict next) {
    uint32_t key[AMX_STRIP];
    uint8_t out[AMX_STRIP];
    const uint32_t alive_key = (uint32_t)e->alive_key;
    for (int x = 0; x < AMX_STRIP; x++) {
        key[x] = (uint32_t)acc[x] + (uint32_t)cur[x] * alive_key;
        out[x] = 0;
    }
    for (int i = 0; i < e->key_ranges; i++) {
        const uint32_t lo = (uint32_t)e->key_lo[i], span = e->key_span[i];
        for (int x = 0; x < AMX_STRIP; x++) out[x] |= (uint8_t)(key[x] - lo <= span);
    }
    memcpy(next, out, AMX_STRIP);
}

/* One work item: the strip of 64 columns at x0 by the rows ya .. yb-1, from grids.cur into
 * grids.next. */
static inline void amx_program_item(void *tiles, const amx_engine *e, amx_scratch *s, int32_t x0,
                                    int32_t ya, int32_t yb) {
    (void)tiles; /* the hardware's tile registers need no handle */
    const size_t pitch = e->grids.pitch;
    const int32_t nk = e->nk, ra = e->ra;
    /* (x, y) of the extended grid is at base + (y + ra) * pitch + (x + ra). */
    const uint8_t *in = e->grids.cur;
    uint8_t *out = e->grids.next;
    int32_t *acc = s->acc;

    /* Horizontal pass: sums for the rows ya - ra .. of this chunk, 16 at a time, into hv. */
    AMX_LOAD_BANDS(tiles, e->band_h, nk);
    const int32_t blocks = amx_item_h_blocks(e, yb - ya);
    for (int32_t t = 0; t < blocks; t++) {
        /* Row ya - ra + 16t, column x0 - ra: the window of the slab's first tile. */
        const uint8_t *src = in + (size_t)(ya + AMX_BLOCK * t) * pitch + (size_t)x0;
        AMX_SLAB(tiles, AMX_H_WINDOW, src, AMX_WINDOW, nk, pitch);
        AMX_STORE_SLAB(tiles, acc);
        amx_sums_to_vnni(acc, s->hv + (size_t)(4 * t) * AMX_HV_LINE, e->h_bias);
    }

    /* Vertical pass and the rule, 16 rows at a time. */
    AMX_LOAD_BANDS(tiles, e->band_v, nk);
    for (int32_t i0 = 0; i0 < yb - ya; i0 += AMX_BLOCK) {
        /* Sums row ya + i0 - ra, the window of the slab, is hv's line i0 / 4. */
        const uint32_t *hv = s->hv + (size_t)(i0 / 4) * AMX_HV_LINE;
        AMX_SLAB(tiles, AMX_V_WINDOW, hv, 16 * AMX_HV_LINE, nk, AMX_HV_LINE * 4);
        AMX_STORE_SLAB(tiles, acc);
        for (int32_t m = 0; m < AMX_BLOCK; m++) {
            size_t at = (size_t)(ya + i0 + m + ra) * pitch + (size_t)(x0 + ra);
            amx_rule_row(e, acc + m * AMX_STRIP, in + at, out + at);
        }
    }
}

/* One step: every thread loads its own tile configuration (tile state is per thread), runs its
 * share of the work items and releases its tiles. */
static inline int amx_program_step(amx_engine *e, cc_error *err) {
    const int32_t strips = e->strips, items = e->strips * e->chunks;
#pragma omp parallel num_threads(e->threads)
    {
        amx_scratch *s = &e->scratch[omp_get_thread_num()];
        void *tiles = s->tiles;
        AMX_TILE_CONFIG(tiles, &e->cfg);
#pragma omp for schedule(static)
        for (int32_t i = 0; i < items; i++) {
            int32_t ya = (i / strips) * e->chunk_rows;
            int32_t yb = ya + e->chunk_rows < e->hp ? ya + e->chunk_rows : e->hp;
            amx_program_item(tiles, e, s, (i % strips) * AMX_STRIP, ya, yb);
        }
        AMX_TILE_RELEASE(tiles);
    }
    for (int i = 0; i < e->threads; i++) {
        const char *fault = AMX_TILE_FAULT(e->scratch[i].tiles);
        if (fault)
            return cc_fail(err, CC_ERR_DEVICE, "%s: the tile program faulted on thread %d: %s",
                           e->name, i, fault);
    }
    return CC_OK;
}

#endif
