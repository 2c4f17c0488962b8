/* The AMX tile emulation (semantics in amx_tiles_emu.h). */
#include "engines/cpu/amx/amx_tiles_emu.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void emu_fault(amx_emu_tiles *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void emu_fault(amx_emu_tiles *t, const char *fmt, ...) {
    if (t->fault) return; /* keep the first */
    t->fault = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->fault_msg, sizeof t->fault_msg, fmt, ap);
    va_end(ap);
}

void amx_emu_init(amx_emu_tiles *t) {
    memset(t, 0, sizeof *t);
}

void amx_emu_release(amx_emu_tiles *t) {
    t->configured = 0;
    memset(t->rows, 0, sizeof t->rows);
    memset(t->colsb, 0, sizeof t->colsb);
    memset(t->data, 0, sizeof t->data);
}

void amx_emu_loadconfig(amx_emu_tiles *t, const amx_tilecfg *cfg) {
    if (cfg->palette_id == 0) {
        amx_emu_release(t);
        return;
    }
    if (cfg->palette_id != 1) {
        emu_fault(t, "LDTILECFG: palette %u is not supported (only 1)", (unsigned)cfg->palette_id);
        return;
    }
    for (size_t i = 0; i < sizeof cfg->reserved; i++)
        if (cfg->reserved[i]) {
            emu_fault(t, "LDTILECFG: reserved byte %zu is not 0", i + 2);
            return;
        }
    if (cfg->start_row) {
        emu_fault(t, "LDTILECFG: start_row %u is not 0", (unsigned)cfg->start_row);
        return;
    }
    for (int i = 0; i < 16; i++) {
        unsigned rows = cfg->rows[i], colsb = cfg->colsb[i];
        if (i >= AMX_TILES && (rows || colsb)) {
            emu_fault(t, "LDTILECFG: tile %d does not exist in palette 1", i);
            return;
        }
        if (rows > AMX_TILE_ROWS_MAX || colsb > AMX_TILE_COLSB_MAX || (rows == 0) != (colsb == 0)) {
            emu_fault(t, "LDTILECFG: tile %d has %u rows of %u bytes (at most 16 of 64, both 0 or "
                         "neither)", i, rows, colsb);
            return;
        }
    }
    t->configured = 1;
    for (int i = 0; i < AMX_TILES; i++) {
        t->rows[i] = cfg->rows[i];
        t->colsb[i] = cfg->colsb[i];
    }
    memset(t->data, 0, sizeof t->data);
}

/* Is tile a configured tile here? Records the fault the instruction named op would raise. */
static int emu_usable(amx_emu_tiles *t, int tile, const char *op) {
    if (!t->configured) {
        emu_fault(t, "%s: tiles are not configured (no LDTILECFG)", op);
        return 0;
    }
    if (tile < 0 || tile >= AMX_TILES) {
        emu_fault(t, "%s: tmm%d does not exist", op, tile);
        return 0;
    }
    if (t->rows[tile] == 0) {
        emu_fault(t, "%s: tmm%d is not configured", op, tile);
        return 0;
    }
    return 1;
}

void amx_emu_zero(amx_emu_tiles *t, int tile) {
    if (!emu_usable(t, tile, "TILEZERO")) return;
    memset(t->data[tile], 0, sizeof t->data[tile]);
}

void amx_emu_load(amx_emu_tiles *t, int tile, const void *base, long stride) {
    if (!emu_usable(t, tile, "TILELOADD")) return;
    const unsigned char *src = base;
    unsigned rows = t->rows[tile], colsb = t->colsb[tile];
    memset(t->data[tile], 0, sizeof t->data[tile]);
    for (unsigned m = 0; m < rows; m++) memcpy(t->data[tile][m], src + (long)m * stride, colsb);
}

void amx_emu_store(amx_emu_tiles *t, int tile, void *base, long stride) {
    if (!emu_usable(t, tile, "TILESTORED")) return;
    unsigned char *dst = base;
    unsigned rows = t->rows[tile], colsb = t->colsb[tile];
    for (unsigned m = 0; m < rows; m++) memcpy(dst + (long)m * stride, t->data[tile][m], colsb);
}

void amx_emu_dpbssd(amx_emu_tiles *t, int dst, int a, int b) {
    if (!emu_usable(t, dst, "TDPBSSD") || !emu_usable(t, a, "TDPBSSD") ||
        !emu_usable(t, b, "TDPBSSD"))
        return;
    if (dst == a || dst == b || a == b) {
        emu_fault(t, "TDPBSSD: tmm%d, tmm%d, tmm%d are not three distinct tiles", dst, a, b);
        return;
    }
    unsigned m_rows = t->rows[dst], n_cols = t->colsb[dst] / 4u, k_quads = t->colsb[a] / 4u;
    if (t->colsb[dst] % 4u || t->colsb[a] % 4u || t->rows[a] != m_rows ||
        t->rows[b] != k_quads || t->colsb[b] != t->colsb[dst]) {
        emu_fault(t, "TDPBSSD: shapes do not agree: dst %ux%u bytes, a %ux%u, b %ux%u", m_rows,
                  (unsigned)t->colsb[dst], (unsigned)t->rows[a], (unsigned)t->colsb[a],
                  (unsigned)t->rows[b], (unsigned)t->colsb[b]);
        return;
    }
    /* b transposed out of the VNNI layout once, so the inner loop runs over 16 contiguous
     * columns: bt[4k+i][n] = b[k][4n+i]. Only the k whose row of bt holds a non-zero byte, and
     * of those only the k where a's byte is not zero, are summed: the other products are 0 and
     * add nothing (a band operand is mostly zeros). */
    int16_t bt[4 * AMX_TILE_ROWS_MAX][AMX_TILE_COLSB_MAX / 4];
    uint8_t ks[4 * AMX_TILE_ROWS_MAX];
    unsigned nks = 0;
    for (unsigned k = 0; k < k_quads; k++)
        for (unsigned i = 0; i < 4; i++) {
            int any = 0;
            for (unsigned n = 0; n < AMX_TILE_COLSB_MAX / 4; n++) {
                bt[4 * k + i][n] = n < n_cols ? (int8_t)t->data[b][k][4 * n + i] : 0;
                any |= bt[4 * k + i][n];
            }
            if (any) ks[nks++] = (uint8_t)(4 * k + i);
        }
    for (unsigned m = 0; m < m_rows; m++) {
        /* Unsigned arithmetic: the modulo 2^32 wrap the instruction has, without C's signed
         * overflow. Each product of two signed bytes fits in 16 bits. */
        uint32_t acc[AMX_TILE_COLSB_MAX / 4];
        memcpy(acc, t->data[dst][m], sizeof acc);
        const int8_t *arow = (const int8_t *)t->data[a][m];
        /* this row's k with a non-zero byte of a, listed without a branch on the data */
        uint8_t mine[4 * AMX_TILE_ROWS_MAX];
        unsigned nmine = 0;
        for (unsigned j = 0; j < nks; j++) {
            mine[nmine] = ks[j];
            nmine += arow[ks[j]] != 0;
        }
        for (unsigned j = 0; j < nmine; j++) {
            const int16_t av = arow[mine[j]];
            const int16_t *brow = bt[mine[j]];
            for (unsigned n = 0; n < AMX_TILE_COLSB_MAX / 4; n++)
                acc[n] += (uint32_t)(int32_t)(int16_t)(av * brow[n]);
        }
        for (unsigned n = n_cols; n < AMX_TILE_COLSB_MAX / 4; n++) acc[n] = 0;
        memcpy(t->data[dst][m], acc, sizeof acc);
    }
    for (unsigned m = m_rows; m < AMX_TILE_ROWS_MAX; m++)
        memset(t->data[dst][m], 0, sizeof t->data[dst][m]);
}
