/* The CAT-CPU engine's context and everything around its tile program that is not the program
 * itself: create (geometry, band tiles, the rule as ranges of keys, the exactness bounds), load,
 * store, destroy, and the torus halo. Shared by cpu.amx (hardware tiles) and cpu.amx-emu (the
 * same tile program on the emulated tiles), so the emulation's certification covers all of it.
 *
 * The method (the CAT paper's CPU version): cells are INT8 0/1; the neighbourhood sum is two
 * band-matrix products, a horizontal pass H = G x Pi (grid rows times a band of ones |i-j| <= r)
 * then a vertical pass R = Pi x H, both on TDPBSSD (INT8 x INT8 -> INT32). The output is cut into
 * strips of 64 columns; 16 rows of a strip are four 16x16 INT32 accumulator tiles, and four such
 * slabs stacked are one 64x64 super-fragment. Each accumulator tile takes its operand from a
 * window of 64 cells that starts ra = r rounded up to 4 cells before it (to the left in the
 * horizontal pass, above in the vertical one) and continues into the neighbouring super-fragments;
 * the window slides with the tile, so the same band tile serves every tile of a pass. nk windows
 * of 64 cover the ra + 16 + r cells a tile needs: one up to r = 24, two up to r = 56, three up
 * to r = 64.
 *
 * Exactness (checked at create, see amx_engine_create):
 *   - horizontal pass: operands are cells and band entries, 0 or 1, so each product is exact and
 *     H(x, y) = sum of the 2r+1 cells of row y around x lies in 0 .. 2r+1;
 *   - H is the INT8 operand of the vertical pass, and at r = 64, 2r+1 = 129 does not fit in INT8.
 *     So the pass stores H - r, in -r .. r+1, which fits for r <= 126; the vertical pass then sums
 *     2r+1 of these, R' = R - r(2r+1), and the rule adds r(2r+1) back (folded into its keys);
 *   - INT32 accumulation: every partial sum lies within +-(2r+1)(r+1) + r(2r+1), far from 2^31. */
#ifndef CELLCHECK_ENGINES_CPU_AMX_ENGINE_H
#define CELLCHECK_ENGINES_CPU_AMX_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "engines/cpu/amx/amx_tilecfg.h"
#include "engines/cpu/common/engine_functions.h"
#include "engines/cpu/common/rows.h"
#include "engines/engine.h"

#define AMX_RADIUS_MAX 64
#define AMX_STRIP 64        /* output columns per strip: four accumulator tiles */
#define AMX_BLOCK 16        /* output rows per slab, and columns per accumulator tile */
#define AMX_WINDOW 64       /* cells per band window: the K of one TDPBSSD */
#define AMX_BAND_TILES_MAX 3
/* The rule as at most 8 S ranges and 8 B ranges of keys. */
#define AMX_KEY_RANGES_MAX (2 * CC_SET_MAX_RANGES)

typedef struct amx_scratch {
    uint32_t *hv;  /* the horizontal sums minus r, INT8 in the VNNI layout: 4 rows x 64 columns
                    * per 256-byte line (byte 4c+i of line q is row 4q+i, column c) */
    int32_t *acc;  /* 16 rows x 64 columns of INT32: four accumulator tiles side by side */
    void *tiles;   /* the emulated tile registers (cpu.amx-emu), else NULL */
} amx_scratch;

typedef struct amx_engine amx_engine;

/* One step of the tile program, from grids.cur into grids.next. */
typedef int (*amx_run_step)(amx_engine *e, cc_error *err);

struct amx_engine {
    /* First: the table's store is cpu_padded_grids_store. The extended grids: cell (x, y), for
     * -ra <= x < cols - ra and -ra <= y < rows - ra, at a grid + (y + ra) * pitch + (x + ra), so
     * origin = ra * pitch + ra. Outside 0..W-1 x 0..H-1 they hold the torus' wrapped copies (the
     * halo), refreshed after every step. */
    cpu_padded_grids grids;
    const char *name; /* the engine's, for messages */
    amx_run_step run_step;
    int32_t r;
    int32_t wp, hp;  /* W rounded up to AMX_STRIP, H to AMX_BLOCK: the area the tiles cover */
    int32_t ra;      /* r rounded up to 4: where a window starts before its tile */
    int32_t nk;      /* band tiles (windows of 64) per pass */
    int32_t h_bias;  /* r: subtracted from H so it fits in INT8 */
    int32_t box_bias; /* r(2r+1): what the vertical pass's result is short of the box sum */

    int32_t cols, rows; /* of the extended grids */

    /* Row chunks of the work items (a strip by a chunk of rows). */
    int32_t chunk_rows, chunks, strips;
    int32_t hv_lines; /* 256-byte lines of a scratch's hv */

    _Alignas(64) uint8_t band_h[AMX_BAND_TILES_MAX][16][64]; /* B operands, VNNI layout */
    _Alignas(64) uint8_t band_v[AMX_BAND_TILES_MAX][16][64]; /* A operands, row-major */
    amx_tilecfg cfg; /* all eight tiles 16 rows of 64 bytes */

    /* The rule: with key = acc + alive * alive_key (acc the vertical pass's result), the next
     * state is 1 iff (uint32)(key - key_lo[i]) <= key_span[i] for some i. */
    int32_t alive_key;
    int key_ranges;
    int32_t key_lo[AMX_KEY_RANGES_MAX];
    uint32_t key_span[AMX_KEY_RANGES_MAX];

    int threads;
    amx_scratch *scratch; /* one per thread */
};

/* Checks the exactness bounds for the rule's radius (the contract has checked the rule and size
 * against the engine's caps) and builds the context. name: the engine's, for messages;
 * tiles_size: bytes of emulated tile state per thread (0: hardware tiles); run_step: the tile
 * program on the engine's tiles. */
int amx_engine_create(const char *name, const cc_rule *rule, int32_t w, int32_t h,
                      size_t tiles_size, amx_run_step run_step, amx_engine **out, cc_error *err);
/* cc_engine.memory of both AMX engines: the extended grids and every thread's scratch. */
void amx_engine_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need);
/* The other functions of an engine on this context, for its table: amx_engine_load,
 * amx_engine_step (k steps of the context's run_step, the halo refreshed after each),
 * amx_engine_destroy, and cpu_padded_grids_store, the context's first member being its grids. */
CPU_ENGINE_LOAD_STEP_DESTROY_DECLARE(amx_engine);
#define AMX_FUNCTIONS CPU_ENGINE_FUNCTIONS_STORING(amx_engine, cpu_padded_grids_store)

/* Refreshes the halo of the current grid from its interior. */
void amx_engine_wrap(amx_engine *e);

/* The horizontal sums one work item needs: blocks of 16 rows, from ra rows above the chunk to
 * r rows below it. */
static inline int32_t amx_item_h_blocks(const amx_engine *e, int32_t chunk_rows) {
    return (chunk_rows + e->ra + e->r + AMX_BLOCK - 1) / AMX_BLOCK;
}

#endif
