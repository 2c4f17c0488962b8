/* The CAT fragment-level algorithm on the CPU, step for step as cat_kernels.cu runs it.
 *
 * A tile runs one of two ways, with the same result:
 *   - direct: every MMA as cat_emu_core.h states it, on the FP16 fragments, rounded one by one;
 *   - by sums (the default): the 2*halo+1 MMAs of a pass summed at once in 16-bit integers, over
 *     the diagonals of the band matrix that the band fragments form side by side where they are
 *     not zero (a product with a zero band entry adds nothing).
 * Why the sums are the MMAs' results: every operand is a non-negative integer (cells and band
 * entries are 0 or 1, and H is a sum of their products), so every partial sum the chain of MMAs
 * forms, C included, is at most the complete sum. Where the complete sums of a fragment are all at
 * most the accumulator's exact limit (2048 for FP16, 2^24 for FP32), every rounding on the way
 * returned its input, and the chain's result is the exact sum. A fragment with a larger sum (FP16
 * past 2048: only with the exactness check off) runs its vertical MMAs directly instead. H needs
 * no such fallback: it is at most the band's largest column sum, 2r+1 <= 65, which create checks
 * against 2048, so it is exact in every accumulator and as the FP16 operand of the vertical pass.
 * The buffers hold only FP16 0 and 1 (load and the rule write nothing else; the refresh copies),
 * whose values are 0 and 1.
 *
 * Tiles read the current buffer and write disjoint fragments of the next, so they run on every
 * core, each thread with its own H tile, and give the same buffer on any number of threads; so do
 * the rows of load and store and the positions the refresh copies. */
#include "engines/cpu/cat_emu/cat_emu_core.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/cat_emu/half.h"
#include "engines/engine.h"

#define FRAG CAT_EMU_FRAG
#define CELLS (FRAG * FRAG)
#define BANDS_MAX (2 * CAT_EMU_HALO_MAX + 1)
#define SPAN_MAX (BANDS_MAX * FRAG)                  /* the band fragments side by side */
#define DIAGONALS_MAX (2 * CAT_EMU_HALO_MAX * FRAG + 1) /* offsets -halo*FRAG .. halo*FRAG */
#define HALF_ONE 0x3C00u

/* Grids below this many cells run on one thread: a parallel region costs more than their work,
 * and far more where the team outnumbers the free cores (the step-count checks run long sequences
 * of steps on small grids). The result is the same either way. */
#define PARALLEL_CELLS_MIN (1 << 16)
#define WIDE(g) ((int64_t)(g)->w * (int64_t)(g)->h >= PARALLEL_CELLS_MIN)

/* A pass's band fragments side by side as one band matrix of SPAN inputs by FRAG outputs, stored
 * by its non-zero diagonals: output o meets input position o + offset + halo*FRAG with weight
 * weight[d][o] (0 where that position is past the fragments). */
typedef struct cat_emu_diagonals {
    int count;
    int32_t offset[DIAGONALS_MAX];
    int16_t weight[DIAGONALS_MAX][FRAG];
    int32_t sum_max; /* the largest sum of the weights one output meets */
} cat_emu_diagonals;

/* A thread's H tile: tile_w * (tile_h + 2 halo) fragments, as integers (by sums) or FP16 bits
 * (direct). */
typedef struct cat_emu_scratch {
    int16_t *h;
    uint16_t *h_bits;
} cat_emu_scratch;

struct cat_emu {
    char name[64];
    cat_geometry g;
    int32_t r;
    int cross;
    cat_rule_params rule;
    cat_emu_config cfg;
    uint16_t *cur, *next; /* extended buffers, FP16 bits */
    uint16_t band_h[BANDS_MAX][CELLS], band_v[BANDS_MAX][CELLS];
    int by_sums;                        /* 0: every tile direct */
    cat_emu_diagonals diag_h, diag_v;   /* the bands for the sums */
    int64_t exact_max;                  /* the accumulator's: cat_number_exact_max */
    int threads;                        /* the team the scratch is for */
    cat_emu_scratch *scratch;
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

/* The positions outside the W x H cells take the values of the cells they mirror: each is
 * written once and read from a cell the refresh does not write, so in any order. */
static void refresh(const cat_geometry *g, uint16_t *buf) {
    int64_t border = cat_geometry_border_fragments(g);
#pragma omp parallel for schedule(static) if (WIDE(g))
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

/* The diagonals of the band fragments bands[0 .. 2 halo]: entry (p, o) of the side-by-side band is
 * element [p % FRAG][o] of fragment p / FRAG for the horizontal pass ([in][out]), [o][p % FRAG]
 * for the vertical one ([out][in]). 0 when a non-zero entry lies off every diagonal the sums
 * read or is not a small non-negative integer (never for cat_emu_band's fragments). */
static int build_diagonals(const uint16_t bands[][CELLS], int32_t halo, int vertical,
                           cat_emu_diagonals *out) {
    const int span = (2 * halo + 1) * FRAG;
    int nonzero = 0, covered = 0;
    memset(out, 0, sizeof *out);
    for (int p = 0; p < span; p++)
        for (int o = 0; o < FRAG; o++) {
            uint16_t bits = vertical ? bands[p / FRAG][o * FRAG + p % FRAG]
                                     : bands[p / FRAG][(p % FRAG) * FRAG + o];
            nonzero += bits != 0;
        }
    int32_t sums[FRAG] = {0};
    for (int32_t off = -halo * FRAG; off <= halo * FRAG; off++) {
        int16_t weight[FRAG];
        int any = 0;
        for (int o = 0; o < FRAG; o++) {
            const int p = o + off + halo * FRAG;
            weight[o] = 0;
            if (p < 0 || p >= span) continue;
            uint16_t bits = vertical ? bands[p / FRAG][o * FRAG + p % FRAG]
                                     : bands[p / FRAG][(p % FRAG) * FRAG + o];
            double v = half_to_double(bits);
            if (!(v >= 0.0 && v <= 1.0 && v == (double)(int)v)) return 0;
            weight[o] = (int16_t)v;
            covered += bits != 0;
            sums[o] += weight[o];
            any |= bits != 0;
        }
        if (!any) continue;
        out->offset[out->count] = off;
        memcpy(out->weight[out->count++], weight, sizeof weight);
    }
    for (int o = 0; o < FRAG; o++)
        if (sums[o] > out->sum_max) out->sum_max = sums[o];
    return covered == nonzero;
}

/* out[o] = sum over the diagonals of weight * in[o + offset + halo*FRAG] for the FRAG outputs of
 * one row (horizontal pass), in int16: the caller has bounded every sum. */
static void diagonal_row(const cat_emu_diagonals *dg, const int16_t *in, int32_t halo,
                         int16_t out[FRAG]) {
    int16_t acc[FRAG] = {0};
    for (int d = 0; d < dg->count; d++) {
        const int16_t *w = dg->weight[d], *x = in + dg->offset[d] + halo * FRAG;
        for (int o = 0; o < FRAG; o++) acc[o] = (int16_t)(acc[o] + w[o] * x[o]);
    }
    memcpy(out, acc, sizeof acc);
}

/* The vertical pass of one fragment by sums: out row o = sum over the diagonals of weight[d][o]
 * times row o + offset + halo*FRAG of the column of fragments src[0 .. 2 halo]. */
static void diagonal_column(const cat_emu_diagonals *dg, const int16_t *const src[BANDS_MAX],
                            int32_t halo, int16_t out[CELLS]) {
    for (int o = 0; o < FRAG; o++) {
        int16_t acc[FRAG] = {0};
        for (int d = 0; d < dg->count; d++) {
            const int16_t w = dg->weight[d][o];
            if (!w) continue;
            const int p = o + dg->offset[d] + halo * FRAG;
            const int16_t *x = src[p / FRAG] + (p % FRAG) * FRAG;
            for (int j = 0; j < FRAG; j++) acc[j] = (int16_t)(acc[j] + w * x[j]);
        }
        memcpy(out + o * FRAG, acc, sizeof acc);
    }
}

/* The vertical MMAs of one fragment one by one, each rounded (src: its operand fragments as
 * integers, H or cells, exact in FP16). */
static void vertical_direct(const cat_emu *e, const int16_t *const src[BANDS_MAX],
                            int32_t out[CELLS]) {
    double acc[CELLS] = {0};
    for (int b = 0; b < 2 * e->g.halo + 1; b++) {
        uint16_t bits[CELLS];
        for (int c = 0; c < CELLS; c++) bits[c] = half_from_double((double)src[b][c]);
        mma(acc, e->band_v[b], bits, e->cfg.accumulator);
    }
    for (int c = 0; c < CELLS; c++) out[c] = (int32_t)acc[c];
}

/* cat_rule_next for every cell of a fragment: whether raw - self_weight * alive lies in a range of
 * the set of the cell's state. Both sets are tested for every cell and the state picks one, in
 * loops the compiler vectorises. */
static void rule_cells(const cat_rule_params *p, const int32_t raw[CELLS],
                       const int32_t alive[CELLS], int32_t next[CELLS]) {
    int32_t born[CELLS] = {0}, stays[CELLS] = {0};
    for (int32_t q = 0; q < p->ranges[0]; q++) {
        const int32_t lo = p->lo[0][q], hi = p->hi[0][q];
        for (int c = 0; c < CELLS; c++) born[c] |= (raw[c] >= lo) & (raw[c] <= hi);
    }
    for (int32_t q = 0; q < p->ranges[1]; q++) {
        const int32_t lo = p->lo[1][q] + p->self_weight, hi = p->hi[1][q] + p->self_weight;
        for (int c = 0; c < CELLS; c++) stays[c] |= (raw[c] >= lo) & (raw[c] <= hi);
    }
    for (int c = 0; c < CELLS; c++) next[c] = alive[c] ? stays[c] : born[c];
}

static size_t tile_fragments(const cat_emu_config *cfg, int32_t halo) {
    return (size_t)cfg->tile_w * (size_t)(cfg->tile_h + 2 * halo);
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
    size_t tile_cells = tile_fragments(cfg, g.halo) * CELLS;
    int threads = omp_get_max_threads() > 1 ? omp_get_max_threads() : 1;
    cat_emu *e = calloc(1, sizeof *e);
    int ok = e != NULL;
    if (ok) {
        e->threads = threads;
        e->cur = calloc(positions, sizeof *e->cur);
        e->next = calloc(positions, sizeof *e->next);
        e->scratch = calloc((size_t)threads, sizeof *e->scratch);
        ok = e->cur && e->next && e->scratch;
        for (int i = 0; ok && i < threads; i++) {
            e->scratch[i].h = calloc(tile_cells, sizeof *e->scratch[i].h);
            e->scratch[i].h_bits = calloc(tile_cells, sizeof *e->scratch[i].h_bits);
            ok = e->scratch[i].h && e->scratch[i].h_bits;
        }
    }
    if (!ok) {
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
    /* The sums stand for the MMAs where H (at most the horizontal band's largest column sum, the
     * cells being 0 or 1) is exact in FP16, and where R (at most the vertical band's largest row
     * sum times the largest operand, H or a cell) fits int16. */
    e->exact_max = cat_number_exact_max(cfg->accumulator);
    e->by_sums = !cfg->direct && build_diagonals(e->band_h, g.halo, 0, &e->diag_h) &&
                 build_diagonals(e->band_v, g.halo, 1, &e->diag_v);
    if (e->by_sums) {
        const int64_t h_max = e->diag_h.sum_max,
                      r_max = (int64_t)e->diag_v.sum_max * (e->cross ? 1 : h_max);
        e->by_sums = h_max <= cat_number_exact_max(CAT_NUM_F16) && r_max <= INT16_MAX;
    }
    *out = e;
    return CC_OK;
}

void cat_emu_memory(const cc_rule *rule, int32_t w, int32_t h, const cat_emu_config *cfg,
                    cc_memory *need) {
    const double threads = omp_get_max_threads() > 1 ? omp_get_max_threads() : 1;
    cat_geometry g;
    need->host_bytes = (double)sizeof(cat_emu);
    need->device_bytes = 0.0;
    if (cat_geometry_init(&g, w, h, FRAG, cat_halo_fragments(rule->radius, FRAG), NULL)) return;
    need->host_bytes += 2.0 * sizeof(uint16_t) * (double)cat_geometry_positions(&g) +
                        threads * ((double)sizeof(cat_emu_scratch) +
                                   (double)(tile_fragments(cfg, g.halo) * CELLS) *
                                       (sizeof(int16_t) + sizeof(uint16_t)));
}

void cat_emu_destroy(void *ctx) {
    cat_emu *e = ctx;
    if (!e) return;
    free(e->cur);
    free(e->next);
    if (e->scratch)
        for (int i = 0; i < e->threads; i++) {
            free(e->scratch[i].h);
            free(e->scratch[i].h_bits);
        }
    free(e->scratch);
    free(e);
}

/* Rows on every core, the FRAG positions of a fragment's row at a time. */
int cat_emu_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    cat_emu *e = ctx;
    const cat_geometry *g = &e->g;
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t x0 = 0; x0 < g->w; x0 += FRAG) {
            const uint8_t *src = cells + y * g->w + x0;
            uint16_t *dst = e->cur + cat_ext_index(g, x0, y);
            const int n = g->w - x0 < FRAG ? (int)(g->w - x0) : FRAG;
            for (int i = 0; i < n; i++) dst[i] = src[i] ? HALF_ONE : 0;
        }
    refresh(g, e->cur);
    return CC_OK;
}

int cat_emu_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const cat_emu *e = ctx;
    const cat_geometry *g = &e->g;
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t x0 = 0; x0 < g->w; x0 += FRAG) {
            uint8_t *dst = cells + y * g->w + x0;
            const uint16_t *src = e->cur + cat_ext_index(g, x0, y);
            const int n = g->w - x0 < FRAG ? (int)(g->w - x0) : FRAG;
            for (int i = 0; i < n; i++) dst[i] = src[i] == HALF_ONE ? 1 : src[i] == 0 ? 0 : 2;
        }
    return CC_OK;
}

/* One tile, direct: Algorithm 1 of the paper, warp by warp in order. */
static void step_tile_direct(cat_emu *e, uint16_t *tile_h, int64_t fy0, int64_t fx0) {
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
        uint16_t *dst = tile_h + (size_t)(i * tw_max + j) * CELLS;
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
                    : tile_h + (size_t)((i + b) * tw_max + j) * CELLS;
            mma(acc, e->band_v[b], x, e->cfg.accumulator);
        }
        const uint16_t *h_centre = tile_h + (size_t)((i + hf) * tw_max + j) * CELLS;
        for (int c = 0; c < CELLS; c++) {
            int32_t raw = (int32_t)acc[c];
            if (e->cross) raw += (int32_t)half_to_double(h_centre[c]);
            int alive = e->cur[centre + c] != 0;
            e->next[centre + c] = cat_rule_next(&e->rule, alive, raw) ? HALF_ONE : 0;
        }
    }
}

/* One tile by sums (the header comment): the same fragments as step_tile_direct. */
static void step_tile_sums(cat_emu *e, int16_t *tile_h, int64_t fy0, int64_t fx0) {
    const cat_geometry *g = &e->g;
    const int hf = g->halo, bands = 2 * g->halo + 1, tw_max = e->cfg.tile_w;
    const int64_t ew = g->ew;
    const int th = (int)(g->fh - fy0 < e->cfg.tile_h ? g->fh - fy0 : e->cfg.tile_h);
    const int tw = (int)(g->fw - fx0 < tw_max ? g->fw - fx0 : tw_max);

    /* Step 1: H, row by row of each fragment, from that row of the bands' fragments. */
    for (int u = 0; u < tw * (th + 2 * hf); u++) {
        int i = u / tw, j = u % tw;
        const uint16_t *left =
            e->cur + ((size_t)(fy0 + i) * (size_t)ew + (size_t)(fx0 + j)) * CELLS;
        int16_t *dst = tile_h + (size_t)(i * tw_max + j) * CELLS;
        for (int y = 0; y < FRAG; y++) {
            int16_t row[SPAN_MAX];
            for (int b = 0; b < bands; b++)
                for (int k = 0; k < FRAG; k++)
                    row[b * FRAG + k] = left[(size_t)b * CELLS + (size_t)(y * FRAG + k)] != 0;
            diagonal_row(&e->diag_h, row, hf, dst + y * FRAG);
        }
    }

    /* Step 2: R, then the rule. */
    for (int u = 0; u < tw * th; u++) {
        int i = u / tw, j = u % tw;
        size_t centre = ((size_t)(fy0 + i + hf) * (size_t)ew + (size_t)(fx0 + j + hf)) * CELLS;
        const int16_t *h_centre = tile_h + (size_t)((i + hf) * tw_max + j) * CELLS;
        int16_t cells[BANDS_MAX][CELLS];
        const int16_t *src[BANDS_MAX];
        for (int b = 0; b < bands; b++) {
            if (e->cross) {
                /* the cross (Eq. 3) sums Lambda's columns: extended row fy0 + i + b */
                const uint16_t *x =
                    e->cur + ((size_t)(fy0 + i + b) * (size_t)ew + (size_t)(fx0 + j + hf)) * CELLS;
                for (int c = 0; c < CELLS; c++) cells[b][c] = x[c] != 0;
                src[b] = cells[b];
            } else {
                src[b] = tile_h + (size_t)((i + b) * tw_max + j) * CELLS;
            }
        }
        int16_t sums[CELLS];
        int16_t top = 0;
        diagonal_column(&e->diag_v, src, hf, sums);
        for (int c = 0; c < CELLS; c++) top = sums[c] > top ? sums[c] : top;
        int32_t raw[CELLS], alive[CELLS], next[CELLS];
        if (top > e->exact_max)
            vertical_direct(e, src, raw);
        else
            for (int c = 0; c < CELLS; c++) raw[c] = sums[c];
        if (e->cross)
            for (int c = 0; c < CELLS; c++) raw[c] += h_centre[c];
        /* local pointers: the buffers may not alias the context, which the loops would reread */
        const uint16_t *restrict now = e->cur + centre;
        uint16_t *restrict out = e->next + centre;
        for (int c = 0; c < CELLS; c++) alive[c] = now[c] != 0;
        rule_cells(&e->rule, raw, alive, next);
        for (int c = 0; c < CELLS; c++) out[c] = next[c] ? HALF_ONE : 0;
    }
}

int cat_emu_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    cat_emu *e = ctx;
    const cat_geometry *g = &e->g;
    int64_t tiles_x = (g->fw + e->cfg.tile_w - 1) / e->cfg.tile_w;
    int64_t tiles_y = (g->fh + e->cfg.tile_h - 1) / e->cfg.tile_h;
    for (int64_t s = 0; s < k; s++) {
#pragma omp parallel num_threads(e->threads) if (WIDE(g))
        {
            const cat_emu_scratch *sc = &e->scratch[omp_get_thread_num()];
#pragma omp for schedule(static)
            for (int64_t t = 0; t < tiles_x * tiles_y; t++) {
                const int64_t fy0 = t / tiles_x * e->cfg.tile_h, fx0 = t % tiles_x * e->cfg.tile_w;
                if (e->by_sums)
                    step_tile_sums(e, sc->h, fy0, fx0);
                else
                    step_tile_direct(e, sc->h_bits, fy0, fx0);
            }
        }
        refresh(g, e->next);
        uint16_t *tmp = e->cur;
        e->cur = e->next;
        e->next = tmp;
    }
    return CC_OK;
}
