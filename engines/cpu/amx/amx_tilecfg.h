/* The 64-byte tile configuration LDTILECFG reads (Intel SDM, palette 1): shared by the hardware
 * build and the emulation, so both see exactly the same configuration. */
#ifndef CELLCHECK_ENGINES_CPU_AMX_TILECFG_H
#define CELLCHECK_ENGINES_CPU_AMX_TILECFG_H

#include <stdint.h>

/* Palette 1: 8 tiles, each at most 16 rows of 64 bytes (1 KiB). */
#define AMX_TILES 8
#define AMX_TILE_ROWS_MAX 16
#define AMX_TILE_COLSB_MAX 64

typedef struct amx_tilecfg {
    uint8_t palette_id;   /* 1: the 8-tile palette; 0: release to the initial state */
    uint8_t start_row;    /* restart point after an interrupted load or store; 0 */
    uint8_t reserved[14]; /* must be 0 */
    uint16_t colsb[16];   /* bytes per row of tile i; only tiles 0..7 exist in palette 1 */
    uint8_t rows[16];     /* rows of tile i */
} amx_tilecfg;

_Static_assert(sizeof(amx_tilecfg) == 64, "LDTILECFG reads exactly 64 bytes");

#endif
