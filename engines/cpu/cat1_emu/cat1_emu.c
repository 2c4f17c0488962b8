/* cpu.cat1-emu: cuda.cat1's fragment program (engines/cuda/cat1/cat1_program.h) in portable C.
 * A warp is 32 lanes in arrays; each lane computes exactly what the kernel's thread computes from
 * the same functions; the two MMAs are emulated from the PTX fragment layouts
 * (cat1_emulate_mma_b1, cat1_emulate_mma_s8) and a ballot is a word with bit i from lane i. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/common/engine_functions.h"
#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/engine.h"

#define LANES 32

typedef struct cat1_emu {
    cat1_geometry g;
    int cross;
    cat_rule_params rule;
    uint32_t *cur, *next;
    /* The band registers every lane builds at the start of the kernel. */
    uint32_t band_a[CAT1_MGROUPS][LANES][4];
    cat1_mults mults;
    uint32_t band_v[3][LANES][2];
} cat1_emu;

CPU_ENGINE_FUNCTIONS_DECLARE(cat1_emu);

/* The horizontal pass of one group (interior group index grp) of the strip: G words per m-group
 * and lane, of H (the band's lower half, B = {word, 0}) and of C (its upper half, B = {0, word}):
 * the cross sums C down the window, Moore weights the output group's C in the window's last
 * group. */
static void horizontal(const cat1_emu *e, const uint32_t *in, int64_t strip, int64_t grp,
                       uint32_t gh_out[CAT1_MGROUPS][LANES], uint32_t gc_out[CAT1_MGROUPS][LANES]) {
    const cat1_geometry *g = &e->g;
    uint32_t bh[LANES][2], bc[LANES][2];
    for (int lane = 0; lane < LANES; lane++) {
        const int64_t row = g->top + CAT1_GROUP * grp + (lane >> 2);
        const uint32_t word =
            in[(size_t)row * (size_t)g->eww + (size_t)(CAT1_STRIP_WORDS * strip + (lane & 3))];
        bh[lane][0] = bc[lane][1] = word;
        bh[lane][1] = bc[lane][0] = 0;
    }
    for (int mg = 0; mg < CAT1_MGROUPS; mg++) {
        int32_t d[LANES][4];
        memset(d, 0, sizeof d);
        cat1_emulate_mma_b1(d, e->band_a[mg], bh);
        for (int lane = 0; lane < LANES; lane++)
            gh_out[mg][lane] = cat1_pack_h(d[lane][0], d[lane][1], d[lane][2], d[lane][3], &e->mults);
        memset(d, 0, sizeof d);
        cat1_emulate_mma_b1(d, e->band_a[mg], bc);
        for (int lane = 0; lane < LANES; lane++)
            gc_out[mg][lane] = cat1_pack_h(d[lane][0], d[lane][1], d[lane][2], d[lane][3], &e->mults);
    }
}

/* One warp: strip `strip`, output groups y0 .. y1 - 1. */
static void warp_strip(const cat1_emu *e, int64_t strip, int64_t y0, int64_t y1) {
    const cat1_geometry *g = &e->g;
    const int gh = g->gh, ng = 4 * g->kv;
    uint32_t wh[CAT1_WINDOW_MAX][CAT1_MGROUPS][LANES], wc[CAT1_WINDOW_MAX][CAT1_MGROUPS][LANES];
    for (int j = 0; j < ng - 1; j++) horizontal(e, e->cur, strip, y0 - gh + j, wh[j], wc[j]);
    for (int64_t y = y0; y < y1; y++) {
        horizontal(e, e->cur, strip, y - gh + ng - 1, wh[ng - 1], wc[ng - 1]);
        uint32_t ballot[CAT1_MGROUPS][4];
        memset(ballot, 0, sizeof ballot);
        for (int mg = 0; mg < CAT1_MGROUPS; mg++) {
            uint32_t(*win)[CAT1_MGROUPS][LANES] = e->cross ? wc : wh;
            int32_t d[LANES][4];
            memset(d, 0, sizeof d);
            for (int kappa = 0; kappa < g->kv; kappa++) {
                uint32_t a[LANES][4];
                for (int lane = 0; lane < LANES; lane++) {
                    /* Moore: the last window group is the output group's cells, scaled */
                    const uint32_t last = kappa == g->kv - 1 && !e->cross
                                              ? wc[gh][mg][lane] * CAT1_ALIVE_SCALE
                                              : win[4 * kappa + 3][mg][lane];
                    cat1_vertical_a(win[4 * kappa][mg][lane], win[4 * kappa + 1][mg][lane],
                                    win[4 * kappa + 2][mg][lane], last, a[lane]);
                }
                cat1_emulate_mma_s8(d, a, e->band_v[kappa]);
            }
            const int32_t weight = cat1_alive_weight(g->r);
            for (int lane = 0; lane < LANES; lane++)
                for (int q = 0; q < 4; q++) {
                    int32_t raw = d[lane][q];
                    int alive;
                    if (e->cross) {
                        raw += cat1_g_byte(wh[gh][mg][lane], q);
                        const int64_t row = g->top + CAT1_GROUP * y + cat1_out_row(lane, q);
                        const uint32_t centre =
                            e->cur[(size_t)row * (size_t)g->eww +
                                   (size_t)(CAT1_STRIP_WORDS * strip + 1 + (mg >> 1))];
                        alive = (int)((centre >> cat1_centre_bit(lane, mg, q)) & 1u);
                    } else {
                        alive = cat1_split_alive(raw, weight, &raw);
                    }
                    if (cat_rule_next(&e->rule, alive, raw)) ballot[mg][q] |= 1u << lane;
                }
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

static void refresh(const cat1_geometry *g, uint32_t *buf) {
    const int64_t border = cat1_border_words(g);
    for (int64_t b = 0; b < border; b++) {
        int64_t row, word;
        cat1_border_word(g, b, &row, &word);
        buf[(size_t)row * (size_t)g->eww + (size_t)word] = cat1_refreshed_word(g, buf, row, word);
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

int cat1_emu_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    cat1_emu *e = ctx;
    const cat1_geometry *g = &e->g;
    memset(e->cur, 0, cat1_geometry_words(g) * sizeof *e->cur);
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t x = 0; x < g->w; x++)
            if (cells[y * g->w + x]) e->cur[cat1_word_index(g, x, y)] |= 1u << cat1_bit_index(x);
    refresh(g, e->cur);
    return CC_OK;
}

int cat1_emu_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const cat1_emu *e = ctx;
    const cat1_geometry *g = &e->g;
    for (int64_t y = 0; y < g->h; y++)
        for (int64_t x = 0; x < g->w; x++)
            cells[y * g->w + x] =
                (uint8_t)((e->cur[cat1_word_index(g, x, y)] >> cat1_bit_index(x)) & 1u);
    return CC_OK;
}

int cat1_emu_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    cat1_emu *e = ctx;
    const cat1_geometry *g = &e->g;
    for (int64_t s = 0; s < k; s++) {
        /* Blocks in order, warps of a block in order: each warp's work is its own. */
        for (int64_t tile = 0; tile < g->tiles; tile++) {
            const int64_t ty = tile / g->tiles_x, tx = tile % g->tiles_x;
            const int64_t y0 = ty * CAT1_TILE_GROUPS;
            const int64_t y1 = y0 + CAT1_TILE_GROUPS < g->fg ? y0 + CAT1_TILE_GROUPS : g->fg;
            for (int warp = 0; warp < CAT1_WARPS; warp++) {
                const int64_t strip = tx * CAT1_WARPS + warp;
                if (strip < g->strips) warp_strip(e, strip, y0, y1);
            }
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
