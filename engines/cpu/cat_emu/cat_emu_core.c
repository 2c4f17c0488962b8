/* The CAT fragment-level algorithm on the CPU, step for step as cat_kernels.cu runs it. */
#include "engines/cpu/cat_emu/cat_emu_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/cat_emu/half.h"
#include "engines/engine.h"

#define FRAG CAT_EMU_FRAG
#define CELLS (FRAG * FRAG)
#define BANDS_MAX (2 * CAT_EMU_HALO_MAX + 1)
#define HALF_ONE 0x3C00u

struct cat_emu {
    char name[64];
    cat_geometry g;
    int32_t r;
    int cross;
    cat_rule_params rule;
    cat_emu_config cfg;
    uint16_t *cur, *next; /* extended buffers, FP16 bits */
    uint16_t *tile_h;     /* tile_w * (tile_h + 2 halo) fragments of H, FP16 bits */
    uint16_t band_h[BANDS_MAX][CELLS], band_v[BANDS_MAX][CELLS];
};

void cat_emu_band(int32_t r, int32_t d, int vertical, uint16_t out[CELLS]) {
    for (int row = 0; row < FRAG; row++)
        for (int col = 0; col < FRAG; col++) {
            /* horizontal: row = input column, col = output column; vertical: the reverse */
            int one = vertical ? cat_band(d, row, col, r, FRAG) : cat_band(d, col, row, r, FRAG);
            out[row * FRAG + col] = one ? HALF_ONE : 0;
        }
}

static double round_to(cat_number fmt, double v) {
    return fmt == CAT_NUM_F16 ? half_round(v) : (double)(float)v;
}

/* acc = A x B + acc, each element rounded once to the accumulator's format. The products of
 * FP16 values and their sums over k are exact in double here (small integers). */
static void mma(double acc[CELLS], const uint16_t a[CELLS], const uint16_t b[CELLS],
                cat_number fmt) {
    double av[CELLS], bv[CELLS];
    for (int i = 0; i < CELLS; i++) {
        av[i] = half_to_double(a[i]);
        bv[i] = half_to_double(b[i]);
    }
    for (int i = 0; i < FRAG; i++) {
        double row[FRAG] = {0};
        for (int k = 0; k < FRAG; k++) {
            double x = av[i * FRAG + k];
            if (x == 0.0) continue;
            for (int j = 0; j < FRAG; j++) row[j] += x * bv[k * FRAG + j];
        }
        for (int j = 0; j < FRAG; j++)
            acc[i * FRAG + j] = round_to(fmt, acc[i * FRAG + j] + row[j]);
    }
}

/* The positions outside the W x H cells take the values of the cells they mirror. */
static void refresh(const cat_geometry *g, uint16_t *buf) {
    int64_t border = cat_geometry_border_fragments(g);
    for (int64_t b = 0; b < border; b++) {
        int64_t ey, ex;
        cat_border_fragment(g, b, &ey, &ex);
        for (int e = 0; e < CELLS; e++) {
            int64_t x = (ex - g->halo) * FRAG + e % FRAG, y = (ey - g->halo) * FRAG + e / FRAG;
            if (x >= 0 && x < g->w && y >= 0 && y < g->h) continue;
            buf[cat_ext_index(g, x, y)] = buf[cat_ext_index(g, cat_mod(x, g->w), cat_mod(y, g->h))];
        }
    }
}

int cat_emu_create(const char *name, const cc_rule *rule, int32_t w, int32_t h,
                   const cat_emu_config *cfg, cat_emu **out, cc_error *err) {
    *out = NULL;
    int rc;
    if (rule->radius < 1 || rule->radius > CAT_EMU_HALO_MAX * FRAG)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: radius %d is outside 1..%d (a halo of at most %d fragments of %d)",
                       name, (int)rule->radius, CAT_EMU_HALO_MAX * FRAG, CAT_EMU_HALO_MAX, FRAG);
    if (cfg->accumulator != CAT_NUM_F16 && cfg->accumulator != CAT_NUM_F32)
        return cc_fail(err, CC_ERR_ARG, "%s: %s accumulators are not emulated (FP16, FP32)", name,
                       cat_number_name(cfg->accumulator));
    if (cfg->tile_w < 1 || cfg->tile_h < 1)
        return cc_fail(err, CC_ERR_ARG, "%s: a tile of %dx%d fragments", name, (int)cfg->tile_w,
                       (int)cfg->tile_h);
    if (cfg->check_exactness &&
        (rc = cat_check_exact(name, rule->shape, rule->radius, CAT_NUM_F16, cfg->accumulator, err)))
        return rc;
    cat_rule_params params;
    if ((rc = cat_rule_params_build(name, rule, &params, err))) return rc;
    cat_geometry g;
    if ((rc = cat_geometry_init(&g, w, h, FRAG, cat_halo_fragments(rule->radius, FRAG), err)))
        return rc;

    size_t positions = cat_geometry_positions(&g);
    size_t tile_frags = (size_t)cfg->tile_w * (size_t)(cfg->tile_h + 2 * g.halo);
    cat_emu *e = calloc(1, sizeof *e);
    if (e) {
        e->cur = calloc(positions, sizeof *e->cur);
        e->next = calloc(positions, sizeof *e->next);
        e->tile_h = calloc(tile_frags * CELLS, sizeof *e->tile_h);
    }
    if (!e || !e->cur || !e->next || !e->tile_h) {
        cat_emu_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM,
                       "%s: cannot allocate two buffers of %zu FP16 positions for a %dx%d grid",
                       name, positions, (int)w, (int)h);
    }
    snprintf(e->name, sizeof e->name, "%s", name);
    e->g = g;
    e->r = rule->radius;
    e->cross = rule->shape == CC_SHAPE_CROSS;
    e->rule = params;
    e->cfg = *cfg;
    for (int32_t b = 0; b < 2 * g.halo + 1; b++) {
        cat_emu_band(e->r, b - g.halo, 0, e->band_h[b]);
        cat_emu_band(e->r, b - g.halo, 1, e->band_v[b]);
    }
    *out = e;
    return CC_OK;
}

void cat_emu_destroy(void *ctx) {
    cat_emu *e = ctx;
    if (!e) return;
    free(e->cur);
    free(e->next);
    free(e->tile_h);
    free(e);
}

int cat_emu_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    cat_emu *e = ctx;
    const cat_geometry *g = &e->g;
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t x = 0; x < g->w; x++)
            e->cur[cat_ext_index(g, x, y)] = cells[y * g->w + x] ? HALF_ONE : 0;
    refresh(g, e->cur);
    return CC_OK;
}

int cat_emu_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const cat_emu *e = ctx;
    const cat_geometry *g = &e->g;
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t x = 0; x < g->w; x++) {
            uint16_t v = e->cur[cat_ext_index(g, x, y)];
            cells[y * g->w + x] = v == HALF_ONE ? 1 : v == 0 ? 0 : 2;
        }
    return CC_OK;
}

/* One tile: Algorithm 1 of the paper, warp by warp in order. */
static void step_tile(cat_emu *e, int64_t fy0, int64_t fx0) {
    const cat_geometry *g = &e->g;
    const int hf = g->halo, bands = 2 * g->halo + 1, tw_max = e->cfg.tile_w;
    const int64_t ew = g->ew;
    const int th = (int)(g->fh - fy0 < e->cfg.tile_h ? g->fh - fy0 : e->cfg.tile_h);
    const int tw = (int)(g->fw - fx0 < tw_max ? g->fw - fx0 : tw_max);
    double acc[CELLS];

    /* Step 1: H for the tile and hf halo rows above and below, into the tile. */
    for (int u = 0; u < tw * (th + 2 * hf); u++) {
        int i = u / tw, j = u % tw;
        const uint16_t *left =
            e->cur + ((size_t)(fy0 + i) * (size_t)ew + (size_t)(fx0 + j)) * CELLS;
        for (int c = 0; c < CELLS; c++) acc[c] = 0.0;
        for (int b = 0; b < bands; b++)
            mma(acc, left + (size_t)b * CELLS, e->band_h[b], e->cfg.accumulator);
        uint16_t *dst = e->tile_h + (size_t)(i * tw_max + j) * CELLS;
        for (int c = 0; c < CELLS; c++) dst[c] = half_from_double(acc[c]);
    }

    /* Step 2: R, then the rule. */
    for (int u = 0; u < tw * th; u++) {
        int i = u / tw, j = u % tw;
        size_t centre = ((size_t)(fy0 + i + hf) * (size_t)ew + (size_t)(fx0 + j + hf)) * CELLS;
        for (int c = 0; c < CELLS; c++) acc[c] = 0.0;
        for (int b = 0; b < bands; b++) {
            /* the cross (Eq. 3) sums Lambda's columns: extended row fy0 + i + b */
            const uint16_t *x =
                e->cross
                    ? e->cur + ((size_t)(fy0 + i + b) * (size_t)ew + (size_t)(fx0 + j + hf)) * CELLS
                    : e->tile_h + (size_t)((i + b) * tw_max + j) * CELLS;
            mma(acc, e->band_v[b], x, e->cfg.accumulator);
        }
        const uint16_t *h_centre = e->tile_h + (size_t)((i + hf) * tw_max + j) * CELLS;
        for (int c = 0; c < CELLS; c++) {
            int32_t raw = (int32_t)acc[c];
            if (e->cross) raw += (int32_t)half_to_double(h_centre[c]);
            int alive = e->cur[centre + c] != 0;
            e->next[centre + c] = cat_rule_next(&e->rule, alive, raw) ? HALF_ONE : 0;
        }
    }
}

int cat_emu_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    cat_emu *e = ctx;
    const cat_geometry *g = &e->g;
    int64_t tiles_x = (g->fw + e->cfg.tile_w - 1) / e->cfg.tile_w;
    int64_t tiles_y = (g->fh + e->cfg.tile_h - 1) / e->cfg.tile_h;
    for (int64_t s = 0; s < k; s++) {
        for (int64_t t = 0; t < tiles_x * tiles_y; t++)
            step_tile(e, t / tiles_x * e->cfg.tile_h, t % tiles_x * e->cfg.tile_w);
        refresh(g, e->next);
        uint16_t *tmp = e->cur;
        e->cur = e->next;
        e->next = tmp;
    }
    return CC_OK;
}
