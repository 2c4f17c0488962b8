/* cpu.runsum-emu: cuda.runsum's program (engines/cuda/runsum/runsum_program.h) in portable C. A
 * warp is 32 lanes in arrays; each lane computes what the kernel's thread computes, from the same
 * functions, and a shuffle is a read of the neighbour lane's array entry (a lane past the warp
 * reads its own, as __shfl_up_sync and __shfl_down_sync return). Bands cut as for a device of
 * EMU_MULTIPROCESSORS, so that small grids too have several.
 *
 * Every warp reads the current grid and writes its own words of the next, so the warps run on
 * every core, in any order, and give the same grid on any number of threads; so do the rows of
 * load, store and the refresh. The band-matrix count's MMAs sum only the products whose band
 * operand is not zero (the terms built at create): the others add nothing, so every d is the one
 * cat1_emulate_mma_b1 and cat1_emulate_mma_s8 form. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/runsum_emu/runsum_emu.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/cuda/runsum/runsum_mma_program.h"

#define LANES RUNSUM_LANES
#define EMU_MULTIPROCESSORS 4
#define BOX_PLANES_MAX (RUNSUM_LEVELS_MAX + 2)

#define EMU_MMA_BAND_CHUNKS 2 /* bands of 64 rows: several even in small grids */
#define MROWS 16                /* rows m of an MMA's A (and D) */
#define NCOLS 8                 /* columns n of an MMA's B (and D) */

/* Grids below this many cells run on one thread: a parallel region costs more than their work,
 * and far more where the team outnumbers the free cores (the step-count checks run long sequences
 * of steps on small grids). The result is the same either way. */
#define PARALLEL_CELLS_MIN (1 << 16)
#define WIDE(g) ((int64_t)(g)->w * (int64_t)(g)->h >= PARALLEL_CELLS_MIN)

/* The non-zero A registers of row m of a row-sum MMA (k 0 .. 127: a0, a1; a2, a3 are 0):
 * popc(mask & B[4n + kt][0]) for each. */
typedef struct b1_terms {
    int count;
    uint8_t kt[4];
    uint32_t mask[4];
} b1_terms;

/* The non-zero bytes of column n of a vertical band (B): slot s's byte b, met by A's byte of slot
 * s (lane 4 (m % 8) + kt, register m / 8 + 2 half, byte shift / 8). */
typedef struct s8_terms {
    int count;
    uint8_t kt[32], half[32], shift[32];
    int8_t b[32];
} s8_terms;

typedef struct runsum_emu {
    runsum_geometry g;
    runsum_rule rule;
    int band_mma;             /* the count by band matrices (runsum_mma_program.h) */
    /* The rule's tables (runsum_mma_table_build), table_stride bytes apart, as the kernel of the
     * radius's reach reads them. */
    uint8_t *tables;
    int32_t table_stride;
    /* Each lane's constant operands, as the kernel computes them once a warp: the chunks' row
     * band's A registers (m-tile, row g or g + 8; radius 0 for the cross), the cross's horizontal
     * arm's (radius r), the vertical band's B (group, chunk, register). */
    uint32_t row_band[LANES][2][2], arm_band[LANES][2][2], column_band[LANES][4][3][2];
    /* The same bands as the non-zero terms the MMAs sum: of m-tile h's row m, and of output
     * group gp, chunk ch and column n. */
    b1_terms row_terms[2][MROWS], arm_terms[2][MROWS];
    s8_terms column_terms[4][3][NCOLS];
    uint32_t *cur, *next;
} runsum_emu;

/* from_right[l]: lane l + 1's value (__shfl_down_sync by 1); from_left[l]: lane l - 1's. */
static uint32_t from_right(const uint32_t v[LANES][BOX_PLANES_MAX], int lane, int q) {
    return v[lane + 1 < LANES ? lane + 1 : lane][q];
}
static uint32_t from_left(const uint32_t v[LANES][BOX_PLANES_MAX], int lane, int q) {
    return v[lane > 0 ? lane - 1 : lane][q];
}

/* The box of the signed rows d (two planes a lane) over the window of radius r: box[lane], of
 * runsum_box_planes planes. */
static void box(const runsum_geometry *g, uint32_t d[LANES][BOX_PLANES_MAX],
                uint32_t out[LANES][BOX_PLANES_MAX]) {
    uint32_t s[RUNSUM_LEVELS_MAX + 1][LANES][BOX_PLANES_MAX];
    const int32_t levels = g->levels, planes = runsum_box_planes(levels), w = 2 * g->r + 1;
    memcpy(s[0], d, sizeof s[0]);
    for (int32_t k = 1; k <= levels; k++) {
        const int n_in = k + 1, shift = 1 << (k - 1);
        uint32_t shifted[LANES][BOX_PLANES_MAX];
        for (int lane = 0; lane < LANES; lane++)
            for (int q = 0; q < n_in; q++)
                shifted[lane][q] = runsum_funnel(s[k - 1][lane][q], from_right(s[k - 1], lane, q), shift);
        for (int lane = 0; lane < LANES; lane++)
            runsum_add(s[k][lane], n_in + 1, s[k - 1][lane], n_in, shifted[lane], n_in);
    }
    memset(out, 0, sizeof(uint32_t) * LANES * BOX_PLANES_MAX);
    for (int32_t k = levels; k >= 0; k--) {
        if (!((w >> k) & 1)) continue;
        const int32_t off = runsum_piece_offset(g->r, k);
        const int n = k + 2;
        uint32_t piece[LANES][BOX_PLANES_MAX];
        for (int lane = 0; lane < LANES; lane++)
            for (int q = 0; q < n; q++)
                piece[lane][q] = off >= 0 ? runsum_funnel(s[k][lane][q], from_right(s[k], lane, q), off)
                                          : runsum_funnel(from_left(s[k], lane, q), s[k][lane][q],
                                                          RUNSUM_WORD + off);
        for (int lane = 0; lane < LANES; lane++)
            runsum_add(out[lane], planes, out[lane], planes, piece[lane], n);
    }
}

/* One warp: strip `strip`, band `band`, from grid in into grid out. */
static void warp_band(const runsum_emu *e, const uint32_t *in, uint32_t *out, int64_t strip,
                      int64_t band) {
    const runsum_geometry *g = &e->g;
    const int64_t y0 = band * g->band_h, y1 = y0 + g->band_h < g->h ? y0 + g->band_h : g->h;
    const int64_t side = 2 * (int64_t)g->r + 1;
    const int n = g->state_planes, planes = runsum_box_planes(g->levels);
    const int single = runsum_rule_single(&e->rule);
    int64_t col[LANES];
    for (int lane = 0; lane < LANES; lane++) {
        const int64_t c = RUNSUM_STRIP_WORDS * strip + lane;
        col[lane] = c < g->eww ? c : g->eww - 1;
    }
    uint32_t state[LANES][RUNSUM_PLANES_MAX];
    for (int lane = 0; lane < LANES; lane++) runsum_counter_start(&e->rule, state[lane], n);
    for (int64_t i = 0; i < side - 1 + (y1 - y0); i++) {
        const int64_t ynew = cat_mod(y0 - g->r + i, g->h), yold = cat_mod(ynew - side, g->h);
        uint32_t d[LANES][BOX_PLANES_MAX];
        for (int lane = 0; lane < LANES; lane++) {
            const uint32_t fresh = in[(size_t)ynew * (size_t)g->eww + (size_t)col[lane]];
            const uint32_t old = i >= side ? in[(size_t)yold * (size_t)g->eww + (size_t)col[lane]] : 0;
            d[lane][0] = fresh ^ old;
            d[lane][1] = old & ~fresh;
        }
        if (g->cross) {
            for (int lane = 0; lane < LANES; lane++) runsum_add(state[lane], n, state[lane], n, d[lane], 2);
        } else {
            uint32_t diff[LANES][BOX_PLANES_MAX];
            box(g, d, diff);
            for (int lane = 0; lane < LANES; lane++)
                runsum_add(state[lane], n, state[lane], n, diff[lane], planes);
        }
        if (i < side - 1) continue;
        const int64_t y = y0 + i - (side - 1);
        uint32_t alive[LANES], raw[LANES][RUNSUM_PLANES_MAX];
        for (int lane = 0; lane < LANES; lane++)
            alive[lane] = in[(size_t)y * (size_t)g->eww + (size_t)col[lane]];
        if (g->cross) {
            uint32_t row[LANES][BOX_PLANES_MAX], arm[LANES][BOX_PLANES_MAX];
            memset(row, 0, sizeof row);
            for (int lane = 0; lane < LANES; lane++) row[lane][0] = alive[lane];
            box(g, row, arm);
            for (int lane = 0; lane < LANES; lane++)
                runsum_add(raw[lane], n, arm[lane], n, state[lane], n);
        } else {
            memcpy(raw, state, sizeof raw);
        }
        for (int lane = 1; lane <= RUNSUM_STRIP_WORDS; lane++) {
            const int64_t c = RUNSUM_STRIP_WORDS * strip + lane;
            if (c <= g->nw)
                out[(size_t)y * (size_t)g->eww + (size_t)c] =
                    single ? runsum_next_single(&e->rule, raw[lane], n, alive[lane])
                           : runsum_next(&e->rule, raw[lane], n, alive[lane]);
        }
    }
}

/* ---- The band-matrix count, as band_mma.cuh runs it ---- */

/* A chunk's row sums as the vertical MMAs' A operands: register m / 8 + 2 half of lane
 * 4 (m % 8) + kt of m-tile h at a[h][half][kt][m]. */
typedef struct mma_chunk {
    uint32_t a[2][2][4][MROWS];
} mma_chunk;

/* The bits set in v, in operations the compiler vectorises (the baseline x86-64 has no POPCNT). */
static inline uint32_t popc32(uint32_t v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0F0F0F0Fu;
    v += v >> 8;
    v += v >> 16;
    return v & 0x3Fu;
}

/* Row m of a row-sum MMA's D: out[n] = sum of popc(A[m][k] & B[k][n]) over the band's non-zero
 * registers; b[kt][n] is B's register b0 of lane 4n + kt (b1 is 0). */
static void mma_b1_row(const b1_terms *t, const uint32_t b[4][NCOLS], int32_t out[NCOLS]) {
    uint32_t sum[NCOLS] = {0};
    for (int i = 0; i < t->count; i++) {
        const uint32_t mask = t->mask[i], *col = b[t->kt[i]];
        for (int n = 0; n < NCOLS; n++) sum[n] += popc32(mask & col[n]);
    }
    for (int n = 0; n < NCOLS; n++) out[n] = (int32_t)sum[n];
}

/* d[n][m] += (A x B)[m][n] of a vertical m16n8k32 s8 MMA whose band B has the terms t (per
 * column n), A a chunk's m-tile (a[half][kt][m]). */
static void mma_s8_band(const s8_terms t[NCOLS], const uint32_t a[2][4][MROWS],
                        int32_t d[NCOLS][MROWS]) {
    for (int n = 0; n < NCOLS; n++)
        for (int i = 0; i < t[n].count; i++) {
            const uint32_t *col = a[t[n].half[i]][t[n].kt[i]];
            const int shift = t[n].shift[i];
            const int32_t bv = t[n].b[i];
            for (int m = 0; m < MROWS; m++) d[n][m] += (int32_t)(int8_t)(col[m] >> shift) * bv;
        }
}

/* A binary MMA's B: the window words of the 8 rows from y (mod H) about word column e, b[kt][n]
 * lane 4 n + kt's register b0 (word e - 1 + kt of row y + runsum_mma_row_of_column(n); the
 * fourth word, never in a window, clamped into the grid). */
static void window_words(const runsum_geometry *g, const uint32_t *in, int64_t e, int64_t y,
                         uint32_t b[4][NCOLS]) {
    for (int n = 0; n < NCOLS; n++) {
        const int64_t y_n = cat_mod(y + runsum_mma_row_of_column(n), g->h);
        const uint32_t *row = in + (size_t)y_n * (size_t)g->eww;
        for (int kt = 0; kt < 4; kt++)
            b[kt][n] = row[e - 1 + kt < g->eww ? e - 1 + kt : g->eww - 1];
    }
}

/* The row sums of the chunk whose first row is y (mod H), of word column e: per m-tile h, four
 * binary MMAs (groups q of 8 rows; lane (g, t) of B holds word e - 1 + t of row
 * y + 8 q + runsum_mma_row_of_column(g)),
 * their results packed into each lane's A registers (runsum_mma_pack_chunk). */
static void mma_row_sums(const runsum_emu *em, const uint32_t *in, int64_t e, int64_t y,
                         mma_chunk *c) {
    uint32_t b[4][4][NCOLS]; /* [q][kt][n] */
    for (int q = 0; q < 4; q++) window_words(&em->g, in, e, y + 8 * q, b[q]);
    for (int h = 0; h < 2; h++) {
        int32_t d[4][MROWS][NCOLS]; /* D[m][n] of group q */
        for (int q = 0; q < 4; q++)
            for (int m = 0; m < MROWS; m++)
                mma_b1_row(&em->row_terms[h][m], (const uint32_t(*)[NCOLS])b[q], d[q][m]);
        for (int lane = 0; lane < LANES; lane++) {
            /* lane (g, t): d0 (g, 2t), d1 (g, 2t+1), d2 (g+8, 2t), d3 (g+8, 2t+1) */
            const int m = lane >> 2, n = 2 * (lane & 3);
            int32_t mine[4][4];
            uint32_t regs[4];
            for (int q = 0; q < 4; q++) {
                mine[q][0] = d[q][m][n];
                mine[q][1] = d[q][m][n + 1];
                mine[q][2] = d[q][m + 8][n];
                mine[q][3] = d[q][m + 8][n + 1];
            }
            runsum_mma_pack_chunk((const int32_t(*)[4])mine, regs);
            for (int k = 0; k < 4; k++) c->a[h][k >> 1][lane & 3][m + 8 * (k & 1)] = regs[k];
        }
    }
}

/* The cross's horizontal arms of the 8 rows from y (mod H), word column e, as the kernel's first
 * vertical MMA of a group starts from them: the binary MMAs of the band of radius r by the rows'
 * words, whose D has the vertical D's layout (D[m][n] of m-tile mt at d[mt][n][m]). */
static void horizontal_arms(const runsum_emu *em, const uint32_t *in, int64_t e, int64_t y,
                            int32_t d[2][NCOLS][MROWS]) {
    uint32_t b[4][NCOLS]; /* [kt][n] */
    window_words(&em->g, in, e, y, b);
    for (int mt = 0; mt < 2; mt++)
        for (int m = 0; m < MROWS; m++) {
            int32_t out[NCOLS];
            mma_b1_row(&em->arm_terms[mt][m], (const uint32_t(*)[NCOLS])b, out);
            for (int n = 0; n < NCOLS; n++) d[mt][n][m] = out[n];
        }
}

/* Bit s of the lane and bit s - 2 of the word change places in every lane's w (s = 2, 3, 4). */
static void mma_exchange(uint32_t w[LANES], int s) {
    const int shift = 1 << (s - 2), partner = 1 << s;
    uint32_t send[LANES], keep[LANES];
    for (int lane = 0; lane < LANES; lane++) {
        keep[lane] = runsum_mma_exchange_keep(lane, s);
        send[lane] = (((lane >> s) & 1) ? w[lane] << shift : w[lane] >> shift) & keep[lane];
    }
    for (int lane = 0; lane < LANES; lane++)
        w[lane] = (w[lane] & keep[lane]) | send[lane ^ partner];
}

/* One warp: word column e, band `band`, 32 rows an iteration from chunks of row sums. */
static void warp_band_mma(const runsum_emu *em, const uint32_t *in, uint32_t *out, int64_t e,
                          int64_t band) {
    const runsum_geometry *g = &em->g;
    const int64_t band_h = EMU_MMA_BAND_CHUNKS * RUNSUM_MMA_CHUNK;
    const int64_t y0 = band * band_h, y1 = y0 + band_h < g->h ? y0 + band_h : g->h;
    mma_chunk window[3];
    mma_row_sums(em, in, e, y0 - RUNSUM_MMA_CHUNK, &window[0]);
    mma_row_sums(em, in, e, y0, &window[1]);
    for (int64_t y = y0, it = 0; y < y1; y += RUNSUM_MMA_CHUNK, it++) {
        /* chunks it % 3 (rows y - 32 ..), (it + 1) % 3 and (it + 2) % 3, the one filled now */
        mma_chunk *chunks[3] = {&window[it % 3], &window[(it + 1) % 3], &window[(it + 2) % 3]};
        mma_row_sums(em, in, e, y + RUNSUM_MMA_CHUNK, chunks[2]);
        uint32_t bytes[LANES][8] = {{0}};
        for (int gp = 3; gp >= 0; gp--) {
            int32_t d[2][NCOLS][MROWS]; /* D[m][n] of m-tile mt at d[mt][n][m] */
            if (g->cross)
                horizontal_arms(em, in, e, y + 8 * gp, d);
            else
                memset(d, 0, sizeof d);
            for (int ch = 0; ch < 3; ch++) {
                if (!runsum_mma_chunk_used(g->r, gp, ch)) continue;
                for (int mt = 0; mt < 2; mt++)
                    mma_s8_band(em->column_terms[gp][ch],
                                (const uint32_t(*)[4][MROWS])chunks[ch]->a[mt], d[mt]);
            }
            /* lane (g, t), register 2 hh + b of m-tile m: row g + 8 hh, column 2t + b; its cell
             * i = 31 - runsum_mma_bit_of_cell takes entry raw of table i % 4 into bytes[i / 4] */
            for (int lane = 0; lane < LANES; lane++)
                for (int m = 0; m < 2; m++)
                    for (int hh = 0; hh < 2; hh++)
                        for (int b = 0; b < 2; b++) {
                            const int i = 31 - runsum_mma_bit_of_cell(gp, b, m, hh);
                            const int32_t raw = d[m][2 * (lane & 3) + b][(lane >> 2) + 8 * hh];
                            const size_t at = (size_t)(i & 3) * (size_t)em->table_stride;
                            bytes[lane][i >> 2] |= em->tables[at + (size_t)raw];
                        }
        }
        uint32_t stays[LANES], born[LANES];
        for (int lane = 0; lane < LANES; lane++)
            runsum_mma_words_of_bytes(bytes[lane], &stays[lane], &born[lane]);
        for (int s = 2; s <= 4; s++) {
            mma_exchange(stays, s);
            mma_exchange(born, s);
        }
        for (int lane = 0; lane < LANES; lane++) {
            const int64_t yo = y + runsum_mma_row_of_lane(lane);
            if (yo >= y1) continue;
            const size_t at = (size_t)yo * (size_t)g->eww + (size_t)e;
            out[at] = (in[at] & stays[lane]) | (~in[at] & born[lane]);
        }
    }
}

/* Each row from its own cells: rows on every core. */
static void refresh(const runsum_geometry *g, uint32_t *grid) {
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->h; y++) {
        uint32_t *row = grid + (size_t)y * (size_t)g->eww, words[3];
        for (int which = 0; which < 3; which++)
            words[which] = runsum_refreshed_word(g, row, runsum_refresh_column(g, which));
        for (int which = 0; which < 3; which++) row[runsum_refresh_column(g, which)] = words[which];
    }
}

/* The non-zero terms of a row band whose A registers every lane holds (band[lane][h][hh]). */
static void build_b1_terms(const uint32_t band[LANES][2][2], b1_terms terms[2][MROWS]) {
    for (int h = 0; h < 2; h++)
        for (int m = 0; m < MROWS; m++) {
            b1_terms *t = &terms[h][m];
            t->count = 0;
            for (int kt = 0; kt < 4; kt++) {
                const uint32_t mask = band[4 * (m & 7) + kt][h][m >> 3];
                if (!mask) continue;
                t->kt[t->count] = (uint8_t)kt;
                t->mask[t->count++] = mask;
            }
        }
}

/* The bands' non-zero terms, from the registers every lane builds (row_band, arm_band,
 * column_band). */
static void build_terms(runsum_emu *e) {
    build_b1_terms((const uint32_t(*)[2][2])e->row_band, e->row_terms);
    build_b1_terms((const uint32_t(*)[2][2])e->arm_band, e->arm_terms);
    for (int gp = 0; gp < 4; gp++)
        for (int ch = 0; ch < 3; ch++)
            for (int n = 0; n < NCOLS; n++) {
                s8_terms *t = &e->column_terms[gp][ch][n];
                t->count = 0;
                for (int s = 0; s < 32; s++) {
                    const int kt = (s & 15) >> 2, half = s >> 4, byte = s & 3;
                    const int8_t b =
                        (int8_t)(e->column_band[4 * n + kt][gp][ch][half] >> (8 * byte));
                    if (!b) continue;
                    t->kt[t->count] = (uint8_t)kt;
                    t->half[t->count] = (uint8_t)half;
                    t->shift[t->count] = (uint8_t)(8 * byte);
                    t->b[t->count++] = b;
                }
            }
}

int runsum_emu_create(const char *name, int band_mma, const cc_rule *rule, int32_t w, int32_t h,
                      void **ctx, cc_error *err) {
    *ctx = NULL;
    runsum_emu *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", name);
    int rc = runsum_geometry_init(&e->g, name, rule->shape, w, h, rule->radius, err);
    if (!rc) rc = runsum_rule_build(name, rule, &e->g, &e->rule, err);
    if (rc) {
        free(e);
        return rc;
    }
    e->band_mma = band_mma;
    if (band_mma) {
        e->table_stride = runsum_mma_table_stride(runsum_mma_reach(rule->radius));
        e->tables = malloc(runsum_mma_tables_bytes(rule->radius));
        if (!e->tables) {
            free(e);
            return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate the rule's tables", name);
        }
        runsum_mma_tables_of_rule(&e->rule, &e->g, e->tables);
        const int32_t chunk_r = e->g.cross ? 0 : rule->radius; /* the cross's chunks: own bits */
        for (int lane = 0; lane < LANES; lane++) {
            const int g = lane >> 2, t = lane & 3;
            for (int h = 0; h < 2; h++)
                for (int hh = 0; hh < 2; hh++) {
                    e->row_band[lane][h][hh] = runsum_mma_row_band(chunk_r, h, g + 8 * hh, t);
                    e->arm_band[lane][h][hh] =
                        e->g.cross ? runsum_mma_row_band(rule->radius, h, g + 8 * hh, t) : 0;
                }
            for (int gp = 0; gp < 4; gp++)
                for (int ch = 0; ch < 3; ch++)
                    for (int s = 0; s < 2; s++)
                        e->column_band[lane][gp][ch][s] =
                            runsum_mma_column_band(rule->radius, gp, ch, s, g, t);
        }
        build_terms(e);
    }
    runsum_geometry_bands(&e->g, EMU_MULTIPROCESSORS, RUNSUM_WARPS_PER_SM, RUNSUM_BAND_WINDOWS);
    const size_t words = runsum_geometry_words(&e->g);
    e->cur = calloc(words, sizeof *e->cur);
    e->next = calloc(words, sizeof *e->next);
    if (!e->cur || !e->next) {
        runsum_emu_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM,
                       "%s: cannot allocate two grids of %zu 32-bit words for a %dx%d grid", name,
                       words, (int)w, (int)h);
    }
    *ctx = e;
    return CC_OK;
}

void runsum_emu_destroy(void *ctx) {
    runsum_emu *e = ctx;
    if (!e) return;
    free(e->tables);
    free(e->cur);
    free(e->next);
    free(e);
}

/* The word of 32 cells (0 or 1) at cells, cell i at bit i. Each run of 8 cells q is one 64-bit
 * number with cell i in bit 8 i, whose bits move to i in three masked shifts (by 7, 14, 28: the
 * bits of i from the lowest), then up by 8 q. */
static inline uint32_t pack_word(const uint8_t *cells) {
    uint32_t v = 0;
    for (int q = 0; q < 4; q++) {
        uint64_t x = 0;
        for (int i = 0; i < 8; i++) x |= (uint64_t)cells[8 * q + i] << (8 * i);
        x = (x | (x >> 7)) & 0x0003000300030003ull;
        x = (x | (x >> 14)) & 0x0000000F0000000Full;
        x = (x | (x >> 28)) & 0xFFull;
        v |= (uint32_t)x << (8 * q);
    }
    return v;
}

/* pack_word's inverse: bit 8 q + i back to byte 8 q + i, the shifts the other way. */
static inline void unpack_word(uint32_t v, uint8_t *cells) {
    for (int q = 0; q < 4; q++) {
        uint64_t x = (v >> (8 * q)) & 0xFFu;
        x = (x | (x << 28)) & 0x0000000F0000000Full;
        x = (x | (x << 14)) & 0x0003000300030003ull;
        x = (x | (x << 7)) & 0x0101010101010101ull;
        for (int i = 0; i < 8; i++) cells[8 * q + i] = (uint8_t)(x >> (8 * i));
    }
}

/* Rows on every core, a word of 32 cells at a time (column 32 (e - 1) + i at bit i of word e),
 * the last word of a row cell by cell. */
int runsum_emu_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    runsum_emu *e = ctx;
    const runsum_geometry *g = &e->g;
    const int64_t full = g->w / RUNSUM_WORD;
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->h; y++) {
        const uint8_t *row = cells + y * g->w;
        uint32_t *words = e->cur + runsum_word_index(g, 0, y);
        memset(words - 1, 0, (size_t)g->eww * sizeof *words);
        for (int64_t j = 0; j < full; j++) words[j] = pack_word(row + RUNSUM_WORD * j);
        for (int64_t x = RUNSUM_WORD * full; x < g->w; x++)
            if (row[x]) words[x / RUNSUM_WORD] |= 1u << (x % RUNSUM_WORD);
    }
    refresh(g, e->cur);
    return CC_OK;
}

int runsum_emu_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const runsum_emu *e = ctx;
    const runsum_geometry *g = &e->g;
#pragma omp parallel for schedule(static) if (WIDE(g))
    for (int64_t y = 0; y < g->h; y++) {
        uint8_t *row = cells + y * g->w;
        const uint32_t *words = e->cur + runsum_word_index(g, 0, y);
        for (int64_t j = 0; j < g->w / RUNSUM_WORD; j++) unpack_word(words[j], row + RUNSUM_WORD * j);
        for (int64_t x = g->w / RUNSUM_WORD * RUNSUM_WORD; x < g->w; x++)
            row[x] = (uint8_t)((words[x / RUNSUM_WORD] >> (x % RUNSUM_WORD)) & 1u);
    }
    return CC_OK;
}

int runsum_emu_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    runsum_emu *e = ctx;
    const runsum_geometry *g = &e->g;
    const int64_t mma_bands = (g->h + EMU_MMA_BAND_CHUNKS * RUNSUM_MMA_CHUNK - 1) /
                              (EMU_MMA_BAND_CHUNKS * RUNSUM_MMA_CHUNK);
    for (int64_t s = 0; s < k; s++) {
        /* Every warp reads cur and writes its own words of next: any order, any team. */
        if (e->band_mma) {
            const int64_t warps = mma_bands * g->nw;
#pragma omp parallel for schedule(static) if (WIDE(g))
            for (int64_t i = 0; i < warps; i++)
                warp_band_mma(e, e->cur, e->next, 1 + i % g->nw, i / g->nw);
        } else {
            const int64_t warps = g->bands * g->strips;
#pragma omp parallel for schedule(static) if (WIDE(g))
            for (int64_t i = 0; i < warps; i++)
                warp_band(e, e->cur, e->next, i % g->strips, i / g->strips);
        }
        refresh(g, e->next);
        uint32_t *t = e->cur;
        e->cur = e->next;
        e->next = t;
    }
    return CC_OK;
}

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return runsum_emu_create("cpu.runsum-emu", 0, rule, w, h, ctx, err);
}

/* Two grids of 32-bit words with their halo words. */
void runsum_emu_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    runsum_geometry geo;
    need->host_bytes = (double)sizeof(runsum_emu);
    need->device_bytes = 0.0;
    if (runsum_geometry_init(&geo, "cpu.runsum-emu", rule->shape, w, h, rule->radius, NULL)) return;
    need->host_bytes += 2.0 * 4.0 * (double)runsum_geometry_words(&geo);
}

const cc_engine cc_engine_cpu_runsum_emu = {
    .name = "cpu.runsum-emu",
    .summary = "cuda.runsum emulated: one bit per cell, bit-sliced box sums by doubling, vertical "
               "running sums, the rule on the planes, lane by lane as the kernel runs them",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = RUNSUM_RADIUS_MAX,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
             .tile_w = RUNSUM_STRIP_W,
             .limits = "r <= 32: a word's window reaches one 32-bit word either side; two grids "
                       "of 32-bit words in memory"},
    .create = create,
    .memory = runsum_emu_memory,
    CPU_ENGINE_FUNCTIONS(runsum_emu),
};
