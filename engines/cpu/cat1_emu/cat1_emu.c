/* cpu.cat1-emu: cuda.cat1's fragment program (engines/cuda/cat1/cat1_program.h) in portable C.
 * A warp is 32 lanes in arrays; each lane computes exactly what the kernel's thread computes from
 * the same functions; the two MMAs are emulated from the PTX fragment layouts and a ballot is a
 * word with bit i from lane i.
 *
 * The MMAs sum only the products whose band operand is not zero (the band terms built at create):
 * a product with a zero operand adds nothing, so every d is the one cat1_emulate_mma_b1 and
 * cat1_emulate_mma_s8 form, at a fraction of the work. Warps write disjoint words of the next grid
 * and read only the current one, so they run on every core in any order; so do the rows of load,
 * store and the refresh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/common/engine_functions.h"
#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/engine.h"

#define LANES 32
#define MROWS 16 /* rows m of an MMA's A (and D) */

/* Grids below this many cells run on one thread: a parallel region costs more than their work,
 * and far more where the team outnumbers the free cores (the step-count checks run long sequences
 * of steps on small grids). The result is the same either way. */
#define PARALLEL_CELLS_MIN (1 << 16)
#define WIDE(g) ((int64_t)(g)->w * (int64_t)(g)->h >= PARALLEL_CELLS_MIN)

/* The non-zero A registers of row m of the horizontal MMA in one half of k (0: the band of radius
 * r, met by b0; 1: radius 0, met by b1): popc(mask & B[4n + kt][half]) for each. */
typedef struct b1_terms {
    int count;
    uint8_t kt[4];
    uint32_t mask[4];
} b1_terms;

/* The non-zero bytes of column n of the vertical band (B): slot s's byte b, met by A's byte of
 * slot s (lane 4 (m % 8) + kt, register m / 8 + 2 half, byte shift / 8). */
typedef struct s8_terms {
    int count;
    uint8_t kt[32], half[32], shift[32];
    int8_t b[32];
} s8_terms;

typedef struct cat1_emu {
    cat1_geometry g;
    int cross;
    cat_rule_params rule;
    uint32_t *cur, *next;
    /* The band registers every lane builds at the start of the kernel. */
    uint32_t band_a[CAT1_MGROUPS][LANES][4];
    cat1_mults mults;
    uint32_t band_v[3][LANES][2];
    /* The same bands as the non-zero terms the MMAs sum. */
    b1_terms h_terms[CAT1_MGROUPS][MROWS][2];
    s8_terms v_terms[3][CAT1_GROUP];
} cat1_emu;

CPU_ENGINE_FUNCTIONS_DECLARE(cat1_emu);

/* The bits set in v, in operations the compiler vectorises (the baseline x86-64 has no POPCNT). */
static inline uint32_t popc32(uint32_t v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0F0F0F0Fu;
    v += v >> 8;
    v += v >> 16;
    return v & 0x3Fu;
}

/* Row m of the horizontal MMA's D, in one half of k: out[n] = sum of popc(A[m][k] & B[k][n]) over
 * the band's non-zero registers; b[kt][n] is B's register of lane 4n + kt in that half. */
static void mma_b1_row(const b1_terms *t, const uint32_t b[4][CAT1_GROUP],
                       int32_t out[CAT1_GROUP]) {
    uint32_t sum[CAT1_GROUP] = {0};
    for (int i = 0; i < t->count; i++) {
        const uint32_t mask = t->mask[i], *col = b[t->kt[i]];
        for (int n = 0; n < CAT1_GROUP; n++) sum[n] += popc32(mask & col[n]);
    }
    for (int n = 0; n < CAT1_GROUP; n++) out[n] = (int32_t)sum[n];
}

/* The horizontal pass of one group (interior group index grp) of the strip: G words per m-group
 * and lane, of H (the band's lower half, B = {word, 0}) and of C (its upper half, B = {0, word}):
 * the cross sums C down the window, Moore weights the output group's C in the window's last
 * group. Lane 4n + kt loads row n's window word kt; the register of B it is not in holds 0 and
 * meets the other half of A with no product. */
static void horizontal(const cat1_emu *e, const uint32_t *in, int64_t strip, int64_t grp,
                       uint32_t gh_out[CAT1_MGROUPS][LANES], uint32_t gc_out[CAT1_MGROUPS][LANES]) {
    const cat1_geometry *g = &e->g;
    uint32_t b[4][CAT1_GROUP];
    for (int n = 0; n < CAT1_GROUP; n++)
        for (int kt = 0; kt < 4; kt++) {
            const int64_t row = g->top + CAT1_GROUP * grp + n;
            b[kt][n] = in[(size_t)row * (size_t)g->eww + (size_t)(CAT1_STRIP_WORDS * strip + kt)];
        }
    for (int mg = 0; mg < CAT1_MGROUPS; mg++) {
        int32_t h[MROWS][CAT1_GROUP], c[MROWS][CAT1_GROUP]; /* D[m][n] */
        for (int m = 0; m < MROWS; m++) {
            mma_b1_row(&e->h_terms[mg][m][0], (const uint32_t(*)[CAT1_GROUP])b, h[m]);
            mma_b1_row(&e->h_terms[mg][m][1], (const uint32_t(*)[CAT1_GROUP])b, c[m]);
        }
        /* lane (g, t): d0 (g, 2t), d1 (g, 2t+1), d2 (g+8, 2t), d3 (g+8, 2t+1) */
        for (int lane = 0; lane < LANES; lane++) {
            const int m = lane >> 2, n = 2 * (lane & 3);
            gh_out[mg][lane] =
                cat1_pack_h(h[m][n], h[m][n + 1], h[m + 8][n], h[m + 8][n + 1], &e->mults);
            gc_out[mg][lane] =
                cat1_pack_h(c[m][n], c[m][n + 1], c[m + 8][n], c[m + 8][n + 1], &e->mults);
        }
    }
}

/* d[n][m] += (A x B)[m][n] of the vertical m16n8k32 s8 MMA of chunk kappa, over the slots where
 * its band B is not zero. a[half][kt][m] is A's register m / 8 + 2 half of lane 4 (m % 8) + kt. */
static void mma_s8_band(const cat1_emu *e, int kappa, const uint32_t a[2][4][MROWS],
                        int32_t d[CAT1_GROUP][MROWS]) {
    for (int n = 0; n < CAT1_GROUP; n++) {
        const s8_terms *t = &e->v_terms[kappa][n];
        for (int i = 0; i < t->count; i++) {
            const uint32_t *col = a[t->half[i]][t->kt[i]];
            const int shift = t->shift[i];
            const int32_t bv = t->b[i];
            for (int m = 0; m < MROWS; m++) d[n][m] += (int32_t)(int8_t)(col[m] >> shift) * bv;
        }
    }
}

/* cat_rule_next for count cells: whether raw - self_weight * alive lies in a range of the set of
 * the cell's state. Both sets are tested for every cell and the state picks one, in loops the
 * compiler vectorises. */
static void rule_cells(const cat_rule_params *p, const int32_t *raw, const int32_t *alive,
                       int32_t *next, int count) {
    int32_t born[LANES * 4], stays[LANES * 4];
    for (int c = 0; c < count; c++) born[c] = stays[c] = 0;
    for (int32_t q = 0; q < p->ranges[0]; q++) {
        const int32_t lo = p->lo[0][q], hi = p->hi[0][q];
        for (int c = 0; c < count; c++) born[c] |= (raw[c] >= lo) & (raw[c] <= hi);
    }
    for (int32_t q = 0; q < p->ranges[1]; q++) {
        const int32_t lo = p->lo[1][q] + p->self_weight, hi = p->hi[1][q] + p->self_weight;
        for (int c = 0; c < count; c++) stays[c] |= (raw[c] >= lo) & (raw[c] <= hi);
    }
    for (int c = 0; c < count; c++) next[c] = alive[c] ? stays[c] : born[c];
}

/* One warp: strip `strip`, output groups y0 .. y1 - 1. */
static void warp_strip(const cat1_emu *e, int64_t strip, int64_t y0, int64_t y1) {
    const cat1_geometry *g = &e->g;
    const int gh = g->gh, ng = 4 * g->kv;
    const int32_t weight = cat1_alive_weight(g->r);
    uint32_t wh[CAT1_WINDOW_MAX][CAT1_MGROUPS][LANES], wc[CAT1_WINDOW_MAX][CAT1_MGROUPS][LANES];
    for (int j = 0; j < ng - 1; j++) horizontal(e, e->cur, strip, y0 - gh + j, wh[j], wc[j]);
    for (int64_t y = y0; y < y1; y++) {
        horizontal(e, e->cur, strip, y - gh + ng - 1, wh[ng - 1], wc[ng - 1]);
        uint32_t ballot[CAT1_MGROUPS][4];
        memset(ballot, 0, sizeof ballot);
        for (int mg = 0; mg < CAT1_MGROUPS; mg++) {
            uint32_t(*win)[CAT1_MGROUPS][LANES] = e->cross ? wc : wh;
            int32_t d[CAT1_GROUP][MROWS]; /* D[m][n] of the vertical MMAs, at d[n][m] */
            memset(d, 0, sizeof d);
            for (int kappa = 0; kappa < g->kv; kappa++) {
                uint32_t a[2][4][MROWS];
                for (int lane = 0; lane < LANES; lane++) {
                    /* Moore: the last window group is the output group's cells, scaled */
                    const uint32_t last = kappa == g->kv - 1 && !e->cross
                                              ? wc[gh][mg][lane] * CAT1_ALIVE_SCALE
                                              : win[4 * kappa + 3][mg][lane];
                    uint32_t regs[4];
                    cat1_vertical_a(win[4 * kappa][mg][lane], win[4 * kappa + 1][mg][lane],
                                    win[4 * kappa + 2][mg][lane], last, regs);
                    for (int q = 0; q < 4; q++) a[q >> 1][lane & 3][(lane >> 2) + 8 * (q & 1)] = regs[q];
                }
                mma_s8_band(e, kappa, (const uint32_t(*)[4][MROWS])a, d);
            }
            int32_t raw[CAT1_GROUP][MROWS], alive[CAT1_GROUP][MROWS], next[CAT1_GROUP][MROWS];
            if (e->cross) {
                /* the centre group's H, and the cells from the grid */
                for (int lane = 0; lane < LANES; lane++)
                    for (int q = 0; q < 4; q++) {
                        const int m = (lane >> 2) + 8 * (q >> 1), n = cat1_out_row(lane, q);
                        const int64_t row = g->top + CAT1_GROUP * y + n;
                        const uint32_t centre =
                            e->cur[(size_t)row * (size_t)g->eww +
                                   (size_t)(CAT1_STRIP_WORDS * strip + 1 + (mg >> 1))];
                        raw[n][m] = d[n][m] + cat1_g_byte(wh[gh][mg][lane], q);
                        alive[n][m] = (int32_t)((centre >> cat1_centre_bit(lane, mg, q)) & 1u);
                    }
            } else {
                /* cat1_split_alive */
                for (int n = 0; n < CAT1_GROUP; n++)
                    for (int m = 0; m < MROWS; m++) {
                        alive[n][m] = d[n][m] >= weight;
                        raw[n][m] = d[n][m] - (alive[n][m] ? weight : 0);
                    }
            }
            rule_cells(&e->rule, raw[0], alive[0], next[0], CAT1_GROUP * MROWS);
            /* ballot q: bit lane from the lane's register q, row m = g + 8 (q / 2), column
             * n = 2t + q % 2 */
            for (int q = 0; q < 4; q++)
                for (int lane = 0; lane < LANES; lane++)
                    ballot[mg][q] |= (uint32_t)next[cat1_out_row(lane, q)][(lane >> 2) + 8 * (q >> 1)]
                                     << lane;
        }
        for (int lane = 0; lane < CAT1_GROUP * CAT1_STRIP_WORDS; lane++) {
            const int row_in = lane >> 1, s = lane & 1;
            const int64_t row = g->top + CAT1_GROUP * y + row_in;
            e->next[(size_t)row * (size_t)g->eww + (size_t)(CAT1_STRIP_WORDS * strip + 1 + s)] =
                cat1_row_word((const uint32_t(*)[4])&ballot[2 * s], row_in, &e->mults);
        }
        memmove(wh, wh[1], (size_t)(ng - 1) * sizeof wh[0]);
        memmove(wc, wc[1], (size_t)(ng - 1) * sizeof wc[0]);
    }
}

/* A real row's border words read only that row's real cells, which the refresh keeps; the halo
 * rows read only real cells. So real rows first, each on one thread, then the halo rows: every
 * word comes out as the refresh word by word in cat1_border_word's order leaves it. */
static void refresh(const cat1_geometry *g, uint32_t *buf) {
    const int64_t halo_words = (g->eh - g->h) * g->eww, per_row = g->eww - g->full_words;
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t b = halo_words + y * per_row; b < halo_words + (y + 1) * per_row; b++) {
            int64_t row, word;
            cat1_border_word(g, b, &row, &word);
            buf[(size_t)row * (size_t)g->eww + (size_t)word] = cat1_refreshed_word(g, buf, row, word);
        }
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t b = 0; b < halo_words; b++) {
        int64_t row, word;
        cat1_border_word(g, b, &row, &word);
        buf[(size_t)row * (size_t)g->eww + (size_t)word] = cat1_refreshed_word(g, buf, row, word);
    }
}

/* The bands' non-zero terms, from the registers every lane builds (band_a, band_v). */
static void build_terms(cat1_emu *e) {
    for (int mg = 0; mg < CAT1_MGROUPS; mg++)
        for (int m = 0; m < MROWS; m++)
            for (int half = 0; half < 2; half++) {
                b1_terms *t = &e->h_terms[mg][m][half];
                t->count = 0;
                for (int kt = 0; kt < 4; kt++) {
                    const uint32_t mask = e->band_a[mg][4 * (m & 7) + kt][(m >> 3) + 2 * half];
                    if (!mask) continue;
                    t->kt[t->count] = (uint8_t)kt;
                    t->mask[t->count++] = mask;
                }
            }
    for (int kappa = 0; kappa < e->g.kv; kappa++)
        for (int n = 0; n < CAT1_GROUP; n++) {
            s8_terms *t = &e->v_terms[kappa][n];
            t->count = 0;
            for (int s = 0; s < 32; s++) {
                const int kt = (s & 15) >> 2, half = s >> 4, byte = s & 3;
                const int8_t b = (int8_t)(e->band_v[kappa][4 * n + kt][half] >> (8 * byte));
                if (!b) continue;
                t->kt[t->count] = (uint8_t)kt;
                t->half[t->count] = (uint8_t)half;
                t->shift[t->count] = (uint8_t)(8 * byte);
                t->b[t->count++] = b;
            }
        }
}

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    const char *name = "cpu.cat1-emu";
    int rc = cat1_check(name, rule->shape, rule->radius, err);
    if (rc) return rc;
    cat1_emu *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", name);
    if ((rc = cat_rule_params_build(name, rule, &e->rule, err)) ||
        (rc = cat1_geometry_init(&e->g, w, h, rule->radius, err))) {
        free(e);
        return rc;
    }
    const size_t words = cat1_geometry_words(&e->g);
    e->cur = calloc(words, sizeof *e->cur);
    e->next = calloc(words, sizeof *e->next);
    if (!e->cur || !e->next) {
        cat1_emu_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM,
                       "%s: cannot allocate two grids of %zu 32-bit words for a %dx%d grid", name,
                       words, (int)w, (int)h);
    }
    e->cross = rule->shape == CC_SHAPE_CROSS;
    e->mults = cat1_mults_of();
    for (int lane = 0; lane < LANES; lane++) {
        for (int mg = 0; mg < CAT1_MGROUPS; mg++)
            for (int q = 0; q < 4; q++)
                e->band_a[mg][lane][q] = cat1_band_a(rule->radius, mg, lane, q);
        for (int kappa = 0; kappa < e->g.kv; kappa++)
            for (int q = 0; q < 2; q++)
                e->band_v[kappa][lane][q] =
                    cat1_band_v(rule->radius, kappa, lane, q,
                                e->cross ? 0 : cat1_alive_b(rule->radius));
    }
    build_terms(e);
    *ctx = e;
    return CC_OK;
}

void cat1_emu_destroy(void *ctx) {
    cat1_emu *e = ctx;
    if (!e) return;
    free(e->cur);
    free(e->next);
    free(e);
}

/* The word of 32 cells (0 or 1) at cells: column 8 q + i at bit 4 i + q (cat1_bit_of_column). Each
 * run of 8 columns q is one 64-bit number with cell i in bit 8 i, whose bits move to 4 i in three
 * masked shifts (by 4, 8, 16: the bits of i from the lowest), then up by q. */
static inline uint32_t pack_word(const uint8_t *cells) {
    uint32_t v = 0;
    for (int q = 0; q < 4; q++) {
        uint64_t x = 0;
        for (int i = 0; i < 8; i++) x |= (uint64_t)cells[8 * q + i] << (8 * i);
        x = (x | (x >> 4)) & 0x0011001100110011ull;
        x = (x | (x >> 8)) & 0x0000111100001111ull;
        x = (x | (x >> 16)) & 0x11111111ull;
        v |= (uint32_t)x << q;
    }
    return v;
}

/* pack_word's inverse: bits 4 i + q back to bytes 8 q + i, the shifts the other way. */
static inline void unpack_word(uint32_t v, uint8_t *cells) {
    for (int q = 0; q < 4; q++) {
        uint64_t x = (v >> q) & 0x11111111u;
        x = (x | (x << 16)) & 0x0000111100001111ull;
        x = (x | (x << 8)) & 0x0011001100110011ull;
        x = (x | (x << 4)) & 0x0101010101010101ull;
        for (int i = 0; i < 8; i++) cells[8 * q + i] = (uint8_t)(x >> (8 * i));
    }
}

/* Rows on every core; a word of 32 real cells at a time (bit cat1_bit_of_column(c) is column c of
 * it), the last word of a row cell by cell. */
int cat1_emu_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    cat1_emu *e = ctx;
    const cat1_geometry *g = &e->g;
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->eh; y++)
        memset(e->cur + (size_t)y * (size_t)g->eww, 0, (size_t)g->eww * sizeof *e->cur);
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->h; y++) {
        const uint8_t *row = cells + y * g->w;
        uint32_t *words = e->cur + cat1_word_index(g, 0, y);
        for (int64_t j = 0; j < g->full_words; j++) words[j] = pack_word(row + CAT1_WORD * j);
        for (int64_t x = CAT1_WORD * g->full_words; x < g->w; x++)
            if (row[x]) e->cur[cat1_word_index(g, x, y)] |= 1u << cat1_bit_index(x);
    }
    refresh(g, e->cur);
    return CC_OK;
}

int cat1_emu_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const cat1_emu *e = ctx;
    const cat1_geometry *g = &e->g;
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->h; y++) {
        uint8_t *row = cells + y * g->w;
        const uint32_t *words = e->cur + cat1_word_index(g, 0, y);
        for (int64_t j = 0; j < g->full_words; j++) unpack_word(words[j], row + CAT1_WORD * j);
        for (int64_t x = CAT1_WORD * g->full_words; x < g->w; x++)
            row[x] = (uint8_t)((e->cur[cat1_word_index(g, x, y)] >> cat1_bit_index(x)) & 1u);
    }
    return CC_OK;
}

int cat1_emu_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    cat1_emu *e = ctx;
    const cat1_geometry *g = &e->g;
    for (int64_t s = 0; s < k; s++) {
        /* Every warp of every block: each reads the current grid and writes its own words of
         * the next, so any order, on any number of threads, gives the same grid. */
        const int64_t warps = g->tiles_y * g->strips;
#pragma omp parallel for schedule(static) if (WIDE(g))
        for (int64_t i = 0; i < warps; i++) {
            const int64_t y0 = i / g->strips * CAT1_TILE_GROUPS;
            const int64_t y1 = y0 + CAT1_TILE_GROUPS < g->fg ? y0 + CAT1_TILE_GROUPS : g->fg;
            warp_strip(e, i % g->strips, y0, y1);
        }
        refresh(g, e->next);
        uint32_t *t = e->cur;
        e->cur = e->next;
        e->next = t;
    }
    return CC_OK;
}

/* Two grids of 32-bit words with their halo and padding, and the context with its bands. */
static void memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    cat1_geometry geo;
    need->host_bytes = (double)sizeof(cat1_emu);
    need->device_bytes = 0.0;
    if (cat1_geometry_init(&geo, w, h, rule->radius, NULL)) return;
    need->host_bytes += 2.0 * 4.0 * (double)cat1_geometry_words(&geo);
}

const cc_engine cc_engine_cpu_cat1_emu = {
    .name = "cpu.cat1-emu",
    .summary = "cuda.cat1 emulated: one bit per cell, band MMAs m16n8k256 .b1 AND/POPC then "
               "m16n8k32 s8, lane by lane as the kernel runs them",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = CAT1_RADIUS_MAX,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
             .tile_w = CAT1_TILE_W,
             .tile_h = CAT1_TILE_H,
             .limits = "r <= 32: the horizontal window reaches one 32-bit word past a strip; H <= "
                       "2r+1 fits the s8 operand; two grids of 32-bit words in memory"},
    .create = create,
    .memory = memory,
    CPU_ENGINE_FUNCTIONS(cat1_emu),
};
