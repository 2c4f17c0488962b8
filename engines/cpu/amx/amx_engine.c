/* The CAT-CPU engine's context: geometry, band tiles, the rule's keys, halo, load and store. */
#include "engines/cpu/amx/amx_engine.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/common/rows.h"

static int32_t round_up(int32_t v, int32_t m) { return (v + m - 1) / m * m; }

static int32_t mod_floor(int32_t v, int32_t m) {
    int32_t q = v % m;
    return q < 0 ? q + m : q;
}

static uint8_t *row_at(const amx_engine *e, uint8_t *grid, int32_t y) {
    return grid + (size_t)(y + e->ra) * e->grids.pitch + (size_t)e->ra;
}

void amx_engine_destroy(void *ctx) {
    amx_engine *e = ctx;
    if (!e) return;
    if (e->scratch) {
        for (int i = 0; i < e->threads; i++) {
            free(e->scratch[i].hv);
            free(e->scratch[i].acc);
            free(e->scratch[i].tiles);
        }
        free(e->scratch);
    }
    cpu_padded_grids_free(&e->grids);
    free(e);
}

/* The band of ones both passes multiply by: window position p (0 .. 64*nk-1, starting ra cells
 * before the tile) against tile position q (0..15) is 1 iff the two cells are at most r apart. */
static uint8_t band(const amx_engine *e, int32_t p, int32_t q) {
    int32_t d = p - e->ra - q;
    return (uint8_t)(d >= -e->r && d <= e->r);
}

static void build_bands(amx_engine *e) {
    memset(e->band_h, 0, sizeof e->band_h);
    memset(e->band_v, 0, sizeof e->band_v);
    for (int32_t k = 0; k < e->nk; k++)
        for (int32_t kk = 0; kk < AMX_WINDOW; kk++)
            for (int32_t q = 0; q < AMX_BLOCK; q++) {
                uint8_t one = band(e, AMX_WINDOW * k + kk, q);
                /* Horizontal: B operand, K = window column kk, N = output column q, in the
                 * VNNI layout (row kk/4, byte 4q + kk%4). */
                e->band_h[k][kk / 4][4 * q + kk % 4] = one;
                /* Vertical: A operand, M = output row q, K = window row kk. */
                e->band_v[k][q][kk] = one;
            }
    memset(&e->cfg, 0, sizeof e->cfg);
    e->cfg.palette_id = 1;
    for (int i = 0; i < AMX_TILES; i++) {
        e->cfg.rows[i] = AMX_TILE_ROWS_MAX;
        e->cfg.colsb[i] = AMX_TILE_COLSB_MAX;
    }
}

static int add_key_range(amx_engine *e, int64_t lo, int64_t hi) {
    if (lo > hi) return CC_OK;
    e->key_lo[e->key_ranges] = (int32_t)lo;
    e->key_span[e->key_ranges] = (uint32_t)(hi - lo);
    e->key_ranges++;
    return CC_OK;
}

/* key = acc + alive * alive_key, with acc = box - box_bias (box: the (2r+1)^2 sum, centre
 * included). A dead cell's count is box, so B's [lo, hi] is keys [lo - box_bias, hi - box_bias];
 * a live cell's count is box - 1 under M0 and box under M1, and its keys are shifted by
 * alive_key = (2r+1)^2, above every dead key. */
static void build_keys(amx_engine *e, const cc_rule *rule) {
    int64_t side = 2 * (int64_t)e->r + 1, m0 = rule->centre ? 0 : 1;
    e->alive_key = (int32_t)(side * side);
    e->key_ranges = 0;
    for (int i = 0; i < rule->birth.n; i++)
        add_key_range(e, (int64_t)rule->birth.r[i].lo - e->box_bias,
                      (int64_t)rule->birth.r[i].hi - e->box_bias);
    for (int i = 0; i < rule->survive.n; i++)
        add_key_range(e, (int64_t)rule->survive.r[i].lo + m0 - e->box_bias + e->alive_key,
                      (int64_t)rule->survive.r[i].hi + m0 - e->box_bias + e->alive_key);
}

/* The bounds of the header comment, checked for this radius. */
static int check_exactness(const amx_engine *e, cc_error *err) {
    int64_t r = e->r, side = 2 * r + 1;
    /* The vertical pass's INT8 operand: H - h_bias, H in 0 .. 2r+1. */
    if (-(int64_t)e->h_bias < INT8_MIN || side - e->h_bias > INT8_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: radius %d: the horizontal sums minus %d span %lld..%lld, outside "
                       "INT8 -128..127",
                       e->name, (int)e->r, (int)e->h_bias, (long long)-e->h_bias,
                       (long long)(side - e->h_bias));
    /* The band windows: nk windows of 64 must reach from ra before a tile to r past it. */
    if (e->nk > AMX_BAND_TILES_MAX || e->ra < e->r ||
        e->ra + AMX_BLOCK + r > (int64_t)AMX_WINDOW * e->nk)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: radius %d needs %d band windows of %d cells; the tile program has "
                       "room for %d",
                       e->name, (int)e->r, (int)e->nk, AMX_WINDOW, AMX_BAND_TILES_MAX);
    /* INT32: partial sums of the vertical pass, and the keys of the rule. */
    int64_t partial = side * (r + 1) + e->box_bias, key = side * side + e->alive_key;
    if (partial > INT32_MAX || key - e->box_bias > INT32_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: radius %d overflows INT32 sums",
                       e->name, (int)e->r);
    return CC_OK;
}

/* The sizes of the layout: padded area, band windows, work items, the extended grids. */
static void plan_layout(amx_engine *e, int32_t r, int32_t w, int32_t h) {
    e->grids.w = w;
    e->grids.h = h;
    e->r = r;
    e->wp = round_up(w, AMX_STRIP);
    e->hp = round_up(h, AMX_BLOCK);
    e->ra = round_up(e->r, 4);
    e->nk = (e->ra + AMX_BLOCK + e->r + AMX_WINDOW - 1) / AMX_WINDOW;
    /* Work items: a strip of 64 columns by a chunk of about 256 rows. */
    e->strips = e->wp / AMX_STRIP;
    e->chunks = (e->hp + 255) / 256;
    e->chunk_rows = round_up((e->hp + e->chunks - 1) / e->chunks, AMX_BLOCK);
    e->chunks = (e->hp + e->chunk_rows - 1) / e->chunk_rows;
    int32_t rows_end = e->hp, hv_lines = 0;
    for (int32_t c = 0; c < e->chunks; c++) {
        int32_t ya = c * e->chunk_rows;
        int32_t yb = ya + e->chunk_rows < e->hp ? ya + e->chunk_rows : e->hp;
        int32_t blocks = amx_item_h_blocks(e, yb - ya);
        if (ya - e->ra + AMX_BLOCK * blocks > rows_end) rows_end = ya - e->ra + AMX_BLOCK * blocks;
        int32_t lines = (yb - ya - AMX_BLOCK) / 4 + (AMX_WINDOW / 4) * e->nk;
        if (lines < 4 * blocks) lines = 4 * blocks;
        if (lines > hv_lines) hv_lines = lines;
    }
    e->hv_lines = hv_lines;
    e->cols = e->wp - AMX_BLOCK + AMX_WINDOW * e->nk;
    e->rows = e->ra + rows_end;
    e->grids.pitch = (size_t)round_up(e->cols, 64);
    e->grids.origin = (size_t)e->ra * e->grids.pitch + (size_t)e->ra;
}

/* The emulated tiles are eight of 16 rows of 64 bytes, and their configuration. */
#define AMX_EMU_TILES_BOUND (8 * 16 * 64 + 64)

void amx_engine_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    amx_engine e;
    memset(&e, 0, sizeof e);
    plan_layout(&e, rule->radius, w, h);
    double threads = omp_get_max_threads() > 1 ? omp_get_max_threads() : 1;
    double scratch = (double)e.hv_lines * 256 + sizeof(int32_t) * AMX_BLOCK * AMX_STRIP +
                     AMX_EMU_TILES_BOUND + sizeof(amx_scratch);
    need->host_bytes = 2.0 * (double)e.grids.pitch * (double)e.rows + threads * scratch +
                       (double)sizeof(amx_engine) + 64;
}

int amx_engine_create(const char *name, const cc_rule *rule, int32_t w, int32_t h,
                      size_t tiles_size, amx_run_step run_step, amx_engine **out, cc_error *err) {
    *out = NULL;
    /* The band tiles are 64-byte aligned members: calloc promises only 16. */
    size_t ctx_bytes = (sizeof(amx_engine) + 63) / 64 * 64;
    amx_engine *e = aligned_alloc(64, ctx_bytes);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", name);
    memset(e, 0, ctx_bytes);
    e->name = name;
    e->run_step = run_step;
    plan_layout(e, rule->radius, w, h);
    e->h_bias = e->r;
    e->box_bias = e->r * (2 * e->r + 1);
    build_keys(e, rule);
    int rc = check_exactness(e, err);
    if (rc) {
        amx_engine_destroy(e);
        return rc;
    }
    build_bands(e);

    size_t bytes = e->grids.pitch * (size_t)e->rows;
    e->grids.cur = calloc(bytes, 1);
    e->grids.next = calloc(bytes, 1);

    e->threads = omp_get_max_threads();
    if (e->threads < 1) e->threads = 1;
    e->scratch = calloc((size_t)e->threads, sizeof *e->scratch);
    int ok = e->grids.cur && e->grids.next && e->scratch;
    for (int i = 0; ok && i < e->threads; i++) {
        amx_scratch *s = &e->scratch[i];
        s->hv = aligned_alloc(64, (size_t)e->hv_lines * 256);
        s->acc = aligned_alloc(64, sizeof(int32_t) * AMX_BLOCK * AMX_STRIP);
        s->tiles = tiles_size ? aligned_alloc(64, (tiles_size + 63) / 64 * 64) : NULL;
        ok = s->hv && s->acc && (!tiles_size || s->tiles);
        /* Lines past the sums a window needs meet zeros of the band; they start as 0 so no
         * byte the tiles read is ever unset. */
        if (ok) memset(s->hv, 0, (size_t)e->hv_lines * 256);
        if (ok && s->tiles) memset(s->tiles, 0, tiles_size);
    }
    if (!ok) {
        amx_engine_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate buffers for a %dx%d grid",
                       name, (int)w, (int)h);
    }
    *out = e;
    return CC_OK;
}

void amx_engine_wrap(amx_engine *e) {
    const int32_t w = e->grids.w, h = e->grids.h, ra = e->ra, right = e->cols - ra;
    uint8_t *const grid = e->grids.cur;
#pragma omp parallel for schedule(static) num_threads(e->threads)
    for (int32_t y = 0; y < h; y++) {
        uint8_t *row = row_at(e, grid, y);
        for (int32_t x = -ra; x < 0; x++) row[x] = row[mod_floor(x, w)];
        for (int32_t x = w; x < right;) {
            int32_t n = right - x < w ? right - x : w;
            memcpy(row + x, row + x - w, (size_t)n);
            x += n;
        }
    }
    for (int32_t y = h; y < e->rows - ra; y++)
        memcpy(row_at(e, grid, y) - ra, row_at(e, grid, y - h) - ra, (size_t)e->cols);
    for (int32_t y = -ra; y < 0; y++)
        memcpy(row_at(e, grid, y) - ra, row_at(e, grid, mod_floor(y, h)) - ra, (size_t)e->cols);
}

int amx_engine_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    amx_engine *e = ctx;
    cpu_rows_load(row_at(e, e->grids.cur, 0), e->grids.pitch, cells, e->grids.w, e->grids.h);
    amx_engine_wrap(e);
    return CC_OK;
}

int amx_engine_step(void *ctx, int64_t k, cc_error *err) {
    amx_engine *e = ctx;
    for (int64_t s = 0; s < k; s++) {
        int rc = e->run_step(e, err);
        if (rc) return rc;
        cpu_padded_grids_swap(&e->grids);
        amx_engine_wrap(e);
    }
    return CC_OK;
}
