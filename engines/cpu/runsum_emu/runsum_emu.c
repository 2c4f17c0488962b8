/* cpu.runsum-emu: cuda.runsum's program (engines/cuda/runsum/runsum_program.h) in portable C. A
 * warp is 32 lanes in arrays; each lane computes what the kernel's thread computes, from the same
 * functions, and a shuffle is a read of the neighbour lane's array entry (a lane past the warp
 * reads its own, as __shfl_up_sync and __shfl_down_sync return). Bands and strips in the kernel's
 * order, with bands cut as for a device of EMU_MULTIPROCESSORS, so that small grids too have
 * several. */
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

typedef struct runsum_emu {
    runsum_geometry g;
    runsum_rule rule;
    int band_mma;             /* the count by band matrices (runsum_mma_program.h) */
    runsum_mma_rule mma_rule;
    /* Each lane's constant operands, as the kernel computes them once a warp: the horizontal
     * band's A registers (m-tile, row g or g + 8), the vertical band's B (group, chunk, register). */
    uint32_t row_band[LANES][2][2], column_band[LANES][4][3][2];
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

typedef struct mma_chunk {
    uint32_t a[LANES][2][4]; /* a lane's vertical A registers of each m-tile */
} mma_chunk;

/* The row sums of the chunk whose first row is y (mod H), of word column e. */
static void mma_row_sums(const runsum_emu *em, const uint32_t *in, int64_t e, int64_t y,
                         mma_chunk *c) {
    const runsum_geometry *g = &em->g;
    for (int h = 0; h < 2; h++) {
        int32_t d[4][LANES][4];
        for (int q = 0; q < 4; q++) {
            uint32_t a[LANES][4], b[LANES][2];
            for (int lane = 0; lane < LANES; lane++) {
                const int gg = lane >> 2, t = lane & 3;
                const int64_t col = e - 1 + t < g->eww ? e - 1 + t : g->eww - 1;
                const int64_t row = cat_mod(y + 8 * q + gg, g->h);
                a[lane][0] = em->row_band[lane][h][0];
                a[lane][1] = em->row_band[lane][h][1];
                a[lane][2] = a[lane][3] = 0; /* k 128 .. 255 of the 256-bit MMA: none */
                b[lane][0] = in[(size_t)row * (size_t)g->eww + (size_t)col];
                b[lane][1] = 0;
            }
            memset(d[q], 0, sizeof d[q]);
            cat1_emulate_mma_b1(d[q], a, b);
        }
        for (int lane = 0; lane < LANES; lane++) {
            int32_t mine[4][4];
            for (int q = 0; q < 4; q++) memcpy(mine[q], d[q][lane], sizeof mine[q]);
            runsum_mma_pack_chunk(mine, c->a[lane][h]);
        }
    }
}

/* Bits s of the lane and of the word change places in every lane's w (s = 2, 3, 4). */
static void mma_exchange(uint32_t w[LANES], int s) {
    const int d = 1 << s;
    uint32_t send[LANES], keep[LANES];
    for (int lane = 0; lane < LANES; lane++) {
        keep[lane] = runsum_mma_exchange_keep(lane, s);
        send[lane] = (((lane >> s) & 1) ? w[lane] << d : w[lane] >> d) & keep[lane];
    }
    for (int lane = 0; lane < LANES; lane++) w[lane] = (w[lane] & keep[lane]) | send[lane ^ d];
}

/* One warp: word column e, band `band`, 32 rows an iteration from chunks of row sums. */
static void warp_band_mma(const runsum_emu *em, const uint32_t *in, uint32_t *out, int64_t e,
                          int64_t band) {
    const runsum_geometry *g = &em->g;
    const int64_t band_h = EMU_MMA_BAND_CHUNKS * RUNSUM_MMA_CHUNK;
    const int64_t y0 = band * band_h, y1 = y0 + band_h < g->h ? y0 + band_h : g->h;
    const int single = runsum_rule_single(&em->rule);
    mma_chunk window[3];
    mma_row_sums(em, in, e, y0 - RUNSUM_MMA_CHUNK, &window[0]);
    mma_row_sums(em, in, e, y0, &window[1]);
    for (int64_t y = y0, it = 0; y < y1; y += RUNSUM_MMA_CHUNK, it++) {
        /* chunks it % 3 (rows y - 32 ..), (it + 1) % 3 and (it + 2) % 3, the one filled now */
        mma_chunk *chunks[3] = {&window[it % 3], &window[(it + 1) % 3], &window[(it + 2) % 3]};
        mma_row_sums(em, in, e, y + RUNSUM_MMA_CHUNK, chunks[2]);
        uint32_t stays[LANES] = {0}, born[LANES] = {0};
        for (int gp = 3; gp >= 0; gp--) {
            int32_t d[2][LANES][4];
            memset(d, 0, sizeof d);
            for (int ch = 0; ch < 3; ch++) {
                if (!runsum_mma_chunk_used(g->r, gp, ch)) continue;
                uint32_t b[LANES][2];
                for (int lane = 0; lane < LANES; lane++)
                    memcpy(b[lane], em->column_band[lane][gp][ch], sizeof b[lane]);
                for (int m = 0; m < 2; m++) {
                    uint32_t a[LANES][4];
                    for (int lane = 0; lane < LANES; lane++)
                        memcpy(a[lane], chunks[ch]->a[lane][m], sizeof a[lane]);
                    cat1_emulate_mma_s8(d[m], a, b);
                }
            }
            for (int lane = 0; lane < LANES; lane++)
                for (int b = 1; b >= 0; b--)
                    for (int m = 1; m >= 0; m--)
                        for (int hh = 1; hh >= 0; hh--) {
                            const int32_t raw = d[m][lane][2 * hh + b];
                            const uint32_t in_sets = single
                                                         ? runsum_mma_sets_single(&em->mma_rule, raw)
                                                         : runsum_mma_sets(&em->mma_rule, raw);
                            stays[lane] = (stays[lane] << 1) | (in_sets >> 31);
                            born[lane] = (born[lane] << 1) | ((in_sets >> 15) & 1u);
                        }
        }
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

static void refresh(const runsum_geometry *g, uint32_t *grid) {
    for (int64_t y = 0; y < g->h; y++) {
        uint32_t *row = grid + (size_t)y * (size_t)g->eww, words[3];
        for (int which = 0; which < 3; which++)
            words[which] = runsum_refreshed_word(g, row, runsum_refresh_column(g, which));
        for (int which = 0; which < 3; which++) row[runsum_refresh_column(g, which)] = words[which];
    }
}

int runsum_emu_create(const char *name, int band_mma, const cc_rule *rule, int32_t w, int32_t h,
                      void **ctx, cc_error *err) {
    *ctx = NULL;
    if (band_mma && rule->shape != CC_SHAPE_MOORE)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: the band-matrix count is Moore's only", name);
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
        runsum_mma_rule_build(&e->rule, &e->g, &e->mma_rule);
        for (int lane = 0; lane < LANES; lane++) {
            const int g = lane >> 2, t = lane & 3;
            for (int h = 0; h < 2; h++)
                for (int hh = 0; hh < 2; hh++)
                    e->row_band[lane][h][hh] = runsum_mma_row_band(rule->radius, h, g + 8 * hh, t);
            for (int gp = 0; gp < 4; gp++)
                for (int ch = 0; ch < 3; ch++)
                    for (int s = 0; s < 2; s++)
                        e->column_band[lane][gp][ch][s] =
                            runsum_mma_column_band(rule->radius, gp, ch, s, g, t);
        }
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
    free(e->cur);
    free(e->next);
    free(e);
}

int runsum_emu_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    runsum_emu *e = ctx;
    const runsum_geometry *g = &e->g;
    memset(e->cur, 0, runsum_geometry_words(g) * sizeof *e->cur);
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t x = 0; x < g->w; x++)
            if (cells[y * g->w + x]) e->cur[runsum_word_index(g, x, y)] |= 1u << (x % RUNSUM_WORD);
    refresh(g, e->cur);
    return CC_OK;
}

int runsum_emu_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const runsum_emu *e = ctx;
    const runsum_geometry *g = &e->g;
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t x = 0; x < g->w; x++)
            cells[y * g->w + x] =
                (uint8_t)((e->cur[runsum_word_index(g, x, y)] >> (x % RUNSUM_WORD)) & 1u);
    return CC_OK;
}

int runsum_emu_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    runsum_emu *e = ctx;
    const runsum_geometry *g = &e->g;
    const int64_t mma_bands = (g->h + EMU_MMA_BAND_CHUNKS * RUNSUM_MMA_CHUNK - 1) /
                              (EMU_MMA_BAND_CHUNKS * RUNSUM_MMA_CHUNK);
    for (int64_t s = 0; s < k; s++) {
        if (e->band_mma) {
            for (int64_t band = 0; band < mma_bands; band++)
                for (int64_t col = 1; col <= g->nw; col++) warp_band_mma(e, e->cur, e->next, col, band);
        } else {
            for (int64_t band = 0; band < g->bands; band++)
                for (int64_t strip = 0; strip < g->strips; strip++)
                    warp_band(e, e->cur, e->next, strip, band);
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
