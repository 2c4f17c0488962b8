/* A portable C emulation of the AMX tile instructions the CAT tile program uses, following the
 * Intel SDM (palette 1: 8 tiles tmm0..tmm7, each up to 16 rows of 64 bytes):
 *
 *   LDTILECFG   amx_emu_loadconfig  rows and bytes per row of every tile; all tiles zeroed
 *   TILERELEASE amx_emu_release     back to the initial, unconfigured state
 *   TILEZERO    amx_emu_zero        every byte of the tile 0
 *   TILELOADD   amx_emu_load        row m (m < rows) is colsb bytes at base + m * stride; the
 *                                   bytes past colsb and the rows past rows become 0
 *   TILESTORED  amx_emu_store       row m (m < rows) written to base + m * stride, colsb bytes
 *   TDPBSSD     amx_emu_dpbssd      signed bytes times signed bytes, 32-bit accumulation:
 *
 *       for m < rows(dst), n < colsb(dst) / 4:
 *           dst[m][n] += sum over k < colsb(a) / 4, i < 4 of  a[m][4k+i] * b[k][4n+i]
 *
 *     a holds M rows of K bytes (row-major); b holds K/4 rows in the VNNI layout, the four
 *     consecutive k = 4k'..4k'+3 of column n in bytes 4n..4n+3 of row k'. dst is M rows of N
 *     signed 32-bit integers. The sums wrap modulo 2^32 (TDPBSSD does not saturate); the bytes
 *     past colsb(dst) in each row and the rows past rows(dst) are zeroed.
 *
 * Where the hardware raises #UD or #GP (an unconfigured tile, shapes that do not agree, operands
 * that are not three distinct tiles, a malformed configuration) the emulation skips the
 * operation and records a fault; the caller reports it. One amx_emu_tiles per thread, like the
 * per-core tile registers it stands for. */
#ifndef CELLCHECK_ENGINES_CPU_AMX_TILES_EMU_H
#define CELLCHECK_ENGINES_CPU_AMX_TILES_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "engines/cpu/amx/amx_tilecfg.h"

typedef struct amx_emu_tiles {
    int configured;
    uint8_t rows[AMX_TILES];
    uint16_t colsb[AMX_TILES];
    _Alignas(64) uint8_t data[AMX_TILES][AMX_TILE_ROWS_MAX][AMX_TILE_COLSB_MAX];
    int fault;           /* 0, or the first fault seen since init */
    char fault_msg[160]; /* what the hardware would have refused */
} amx_emu_tiles;

/* The state of a thread that has not configured tiles yet (no fault). */
void amx_emu_init(amx_emu_tiles *t);

void amx_emu_loadconfig(amx_emu_tiles *t, const amx_tilecfg *cfg);
void amx_emu_release(amx_emu_tiles *t);
void amx_emu_zero(amx_emu_tiles *t, int tile);
void amx_emu_load(amx_emu_tiles *t, int tile, const void *base, long stride);
void amx_emu_store(amx_emu_tiles *t, int tile, void *base, long stride);
void amx_emu_dpbssd(amx_emu_tiles *t, int dst, int a, int b);

#endif
