/* The grid a case draws: byte for byte libsodium's randombytes_buf_deterministic stream against
 * the density's threshold, sizes refused before anything is drawn, the extreme densities, and each
 * grid kind (patches, bands, cells, holes, checker) as its description says. */
#include "oracle/case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "testing/check.h"

static void fill_seed(uint8_t seed[CC_SEED_BYTES], uint8_t base) {
    for (int i = 0; i < CC_SEED_BYTES; i++) seed[i] = (uint8_t)(base + 7 * i);
}

/* The grid, cell by cell, against the draws of one randombytes_buf_deterministic call. */
static void test_grid_matches_libsodium(checks *t, int32_t w, int32_t h, double density,
                                        uint32_t threshold) {
    cc_case c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.h = h;
    c.density = density;
    fill_seed(c.seed, (uint8_t)(w * 31 + h));
    size_t bytes = (size_t)w * (size_t)h * 2;
    uint8_t *raw = malloc(bytes);
    if (!CHECKF(t, raw != NULL, "cannot allocate %zu bytes", bytes)) return;
    randombytes_buf_deterministic(raw, bytes, c.seed);
    cc_grid g;
    cc_error err;
    cc_error_clear(&err);
    int rc = case_grid(&c, &g, &err);
    CHECKF(t, rc == CC_OK, "%dx%d: %s", (int)w, (int)h, err.msg);
    if (rc == CC_OK) {
        CHECKF(t, g.w == w && g.h == h, "size %dx%d, want %dx%d", (int)g.w, (int)g.h, (int)w,
               (int)h);
        size_t bad = 0, alive = 0;
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
            uint32_t draw = raw[2 * i] | (uint32_t)raw[2 * i + 1] << 8;
            uint8_t want = draw < threshold;
            if (g.cells[i] != want) bad++;
            alive += g.cells[i];
        }
        CHECKF(t, bad == 0, "%dx%d density %g: %zu cells differ from libsodium's draws", (int)w,
               (int)h, density, bad);
        printf("grid %dx%d (%zu random bytes) density %.4f: %zu alive, identical to "
               "randombytes_buf_deterministic\n",
               (int)w, (int)h, bytes, density, alive);
        cc_grid_free(&g);
    }
    /* Pieces of the grid drawn alone, at offsets off the stream's 32-cell blocks and across
     * its 4096-cell chunks, against libsodium's draws. */
    size_t cells = (size_t)w * (size_t)h;
    const size_t firsts[] = {0, 1, 31, 33, cells / 3, cells > 4100 ? 4095 : 0};
    for (size_t f = 0; f < sizeof firsts / sizeof firsts[0]; f++) {
        size_t first = firsts[f] < cells ? firsts[f] : 0, n = cells - first;
        if (n > 5000) n = 5000 + first % 7;
        uint8_t *piece = malloc(n ? n : 1);
        if (!CHECKF(t, piece != NULL, "cannot allocate %zu bytes", n)) break;
        rc = case_grid_cells(&c, first, piece, n, &err);
        size_t bad = 0;
        for (size_t i = 0; rc == CC_OK && i < n; i++) {
            size_t j = first + i;
            bad += piece[i] != ((raw[2 * j] | (uint32_t)raw[2 * j + 1] << 8) < threshold);
        }
        CHECKF(t, rc == CC_OK && bad == 0, "%dx%d: cells %zu..%zu drawn alone: %zu differ (%s)",
               (int)w, (int)h, first, first + n, bad, rc ? err.msg : "drawn");
        free(piece);
    }
    /* The raw stream at a block-aligned offset, as the grid reads it in chunks. */
    if (bytes > 128) {
        size_t off = (bytes / 2) & ~(size_t)63;
        size_t len = bytes - off;
        uint8_t *part = malloc(len);
        if (part) {
            rc = case_stream(c.seed, off, part, len, &err);
            CHECKF(t, rc == CC_OK && memcmp(part, raw + off, len) == 0,
                   "stream at offset %zu differs", off);
            free(part);
        }
    }
    free(raw);
}

/* Kinds whose structure spans the grid are never drawn in pieces; pieces past the grid refused. */
static void test_cells_refused(checks *t) {
    cc_case c;
    memset(&c, 0, sizeof c);
    c.w = c.h = 64;
    c.density = 0.5;
    c.grid_kind = CC_GRID_BANDS;
    uint8_t piece[64];
    cc_error err;
    int rc = case_grid_cells(&c, 0, piece, sizeof piece, &err);
    CHECKF(t, rc == CC_ERR_UNSUPPORTED && strstr(err.msg, "bands"), "bands in pieces: %d %s", rc,
           err.msg);
    c.grid_kind = CC_GRID_UNIFORM;
    rc = case_grid_cells(&c, 64 * 64 - 10, piece, 11, &err);
    CHECKF(t, rc == CC_ERR_ARG && strstr(err.msg, "outside"), "past the grid: %d %s", rc, err.msg);
}

static void test_thresholds(checks *t) {
    CHECKF(t, case_density_threshold(0.0) == 0, "0 -> %u", case_density_threshold(0.0));
    CHECKF(t, case_density_threshold(1.0) == 65536, "1 -> %u", case_density_threshold(1.0));
    CHECKF(t, case_density_threshold(0.5) == 32768, "0.5 -> %u", case_density_threshold(0.5));
    /* 0.3 * 65536 = 19660.8 */
    CHECKF(t, case_density_threshold(0.3) == 19661, "0.3 -> %u", case_density_threshold(0.3));
    /* 0.0001 * 65536 = 6.5536 */
    CHECKF(t, case_density_threshold(0.0001) == 7, "0.0001 -> %u", case_density_threshold(0.0001));
}

static void test_extreme_densities(checks *t) {
    for (int which = 0; which < 2; which++) {
        cc_case c;
        memset(&c, 0, sizeof c);
        c.w = 37;
        c.h = 41;
        c.density = which ? 1.0 : 0.0;
        fill_seed(c.seed, 99);
        cc_grid g;
        cc_error err;
        int rc = case_grid(&c, &g, &err);
        CHECKF(t, rc == CC_OK, "%s", err.msg);
        if (rc) continue;
        size_t pop = cc_grid_population(&g);
        CHECKF(t, pop == (which ? (size_t)37 * 41 : 0), "density %g: population %zu", c.density,
               pop);
        cc_grid_free(&g);
    }
    cc_case bad;
    memset(&bad, 0, sizeof bad);
    bad.w = 5;
    bad.h = 5;
    bad.density = 1.5;
    cc_grid g;
    cc_error err;
    cc_error_clear(&err);
    CHECKF(t, case_grid(&bad, &g, &err) != CC_OK && err.msg[0], "density 1.5 accepted");
    printf("refused as expected: %s\n", err.msg);
}

/* ---- Grid kinds: each one's stated shape, checked on its own terms ---------------------------- */

static int kind_grid(checks *t, cc_grid_kind kind, int32_t w, int32_t h, double density,
                     uint8_t seed_base, cc_grid *g) {
    cc_case c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.h = h;
    c.density = density;
    c.grid_kind = kind;
    fill_seed(c.seed, seed_base);
    cc_error err;
    cc_error_clear(&err);
    int rc = case_grid(&c, g, &err);
    CHECKF(t, rc == CC_OK, "%s %dx%d: %s", case_grid_kind_name(kind), (int)w, (int)h, err.msg);
    if (rc) return rc;
    /* The same grid twice, and a different one from another seed. */
    cc_grid again;
    rc = case_grid(&c, &again, &err);
    if (CHECKF(t, rc == CC_OK, "second draw: %s", err.msg)) {
        CHECKF(t, cc_grid_equal(g, &again), "%s %dx%d differs between two draws",
               case_grid_kind_name(kind), (int)w, (int)h);
        cc_grid_free(&again);
    }
    for (size_t i = 0; i < cc_grid_cells(g); i++)
        if (!CHECKF(t, g->cells[i] <= 1, "%s: cell %zu is %d", case_grid_kind_name(kind), i,
                    g->cells[i]))
            break;
    return rc;
}

static double alive_share(const cc_grid *g) {
    return (double)cc_grid_population(g) / (double)cc_grid_cells(g);
}

/* Patches and bands keep the uniform draws inside their live regions and clear the rest. */
static void expect_within_uniform(checks *t, const cc_grid *g, uint8_t seed_base, double density,
                                  const char *what) {
    cc_case c;
    memset(&c, 0, sizeof c);
    c.w = g->w;
    c.h = g->h;
    c.density = density;
    fill_seed(c.seed, seed_base);
    cc_grid u;
    cc_error err;
    if (!CHECKF(t, case_grid(&c, &u, &err) == CC_OK, "%s", err.msg)) return;
    size_t outside = 0;
    for (size_t i = 0; i < cc_grid_cells(g); i++) outside += g->cells[i] && !u.cells[i];
    CHECKF(t, outside == 0, "%s: %zu live cells where the uniform draw is dead", what, outside);
    cc_grid_free(&u);
}

static int cell_at(const cc_grid *g, int32_t x, int32_t y) {
    return g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

/* The longest cyclic run of all-dead rows (or columns). */
static int32_t dead_run(const cc_grid *g, int columns) {
    int32_t n = columns ? g->w : g->h, m = columns ? g->h : g->w, best = 0, run = 0;
    for (int32_t i = 0; i < 2 * n; i++) {
        int dead = 1;
        for (int32_t j = 0; j < m && dead; j++)
            dead = !(columns ? cell_at(g, i % n, j) : cell_at(g, j, i % n));
        run = dead ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best > n ? n : best;
}

static void test_kind_patches(checks *t) {
    cc_grid g;
    if (kind_grid(t, CC_GRID_PATCHES, 301, 173, 1.0, 41, &g)) return;
    double share = alive_share(&g);
    /* Patches cover 5..30% of the torus (less where they overlap); density 1 fills them. */
    CHECKF(t, share > 0.0 && share <= 0.30, "patches at density 1: %.3f alive", share);
    printf("patches 301x173 density 1: %.3f alive\n", share);
    cc_grid_free(&g);
    if (kind_grid(t, CC_GRID_PATCHES, 301, 173, 0.5, 42, &g)) return;
    expect_within_uniform(t, &g, 42, 0.5, "patches");
    CHECKF(t, alive_share(&g) <= 0.16, "patches at density 0.5: %.3f alive", alive_share(&g));
    cc_grid_free(&g);
    /* Every patch fits even the smallest grid. */
    if (kind_grid(t, CC_GRID_PATCHES, 3, 3, 1.0, 43, &g) == CC_OK) {
        CHECKF(t, cc_grid_population(&g) >= 1, "no patch on a 3x3 grid");
        cc_grid_free(&g);
    }
}

static void test_kind_bands(checks *t) {
    int rows = 0, columns = 0, both = 0;
    for (uint8_t s = 0; s < 12; s++) {
        cc_grid g;
        if (kind_grid(t, CC_GRID_BANDS, 333, 270, 1.0, (uint8_t)(50 + s), &g)) return;
        int32_t dr = dead_run(&g, 0), dc = dead_run(&g, 1);
        CHECKF(t, dr >= 64 || dc >= 64, "bands seed %d: dead runs %d rows, %d columns", s,
               (int)dr, (int)dc);
        CHECKF(t, dr < 270 && dc < 333 && cc_grid_population(&g) > 0, "bands: all dead");
        /* At density 1 the live bands are all alive: a live row is alive wherever its column
         * is, so every cell is the product of its row's and its column's state. */
        size_t bad = 0;
        for (int32_t y = 0; y < g.h; y++)
            for (int32_t x = 0; x < g.w; x++) {
                int row_live = 0, col_live = 0;
                for (int32_t i = 0; i < g.w && !row_live; i++) row_live = cell_at(&g, i, y);
                for (int32_t j = 0; j < g.h && !col_live; j++) col_live = cell_at(&g, x, j);
                bad += cell_at(&g, x, y) != (row_live && col_live);
            }
        CHECKF(t, bad == 0, "bands seed %d: %zu cells off the band pattern", s, bad);
        rows += dr >= 64 && dc < 64;
        columns += dc >= 64 && dr < 64;
        both += dr >= 64 && dc >= 64;
        cc_grid_free(&g);
    }
    printf("bands, 12 seeds at 333x270: %d in rows, %d in columns, %d both\n", rows, columns, both);
    CHECKF(t, rows > 0 && columns > 0 && both > 0, "band orientations %d %d %d", rows, columns,
           both);
    cc_grid g;
    if (kind_grid(t, CC_GRID_BANDS, 333, 270, 0.4, 60, &g) == CC_OK) {
        expect_within_uniform(t, &g, 60, 0.4, "bands");
        cc_grid_free(&g);
    }
    /* A side shorter than 65 still leaves a live row or column. */
    if (kind_grid(t, CC_GRID_BANDS, 40, 9, 1.0, 61, &g) == CC_OK) {
        CHECKF(t, cc_grid_population(&g) > 0, "bands 40x9: all dead");
        cc_grid_free(&g);
    }
}

/* The columns (rows) of the cells kind, by the stated list: k*8-1, k*8, k*32-1, k*32, k*64-1,
 * k*64, k*224-1, k*224, k*224+1 modulo the side, and the last. */
static int on_boundary(int32_t v, int32_t n) {
    if (v == n - 1) return 1;
    if (v % 8 == 7 || v % 8 == 0) return 1; /* also covers 32 and 64 */
    int32_t m = v % 224;
    if (m == 223 || m == 0 || m == 1) return 1;
    /* k*224+1 == n + 1 wraps to 1; k*p - 1 == -1 wraps to n - 1 (above). */
    return v == 1 && n % 224 == 0;
}

static void test_kind_cells(checks *t) {
    cc_grid g;
    const int32_t w = 1000, h = 470;
    if (kind_grid(t, CC_GRID_CELLS, w, h, 0.25, 70, &g)) return;
    size_t alive = 0, both = 0, neither = 0;
    int saw[8] = {0}; /* x at 8k-1, 8k, 32k-1, 32k, 64k-1, 64k, 224k+-1, 224k */
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
            if (!cell_at(&g, x, y)) continue;
            alive++;
            int bx = on_boundary(x, w), by = on_boundary(y, h);
            both += bx && by;
            neither += !bx && !by;
            saw[0] += x % 8 == 7;
            saw[1] += x % 8 == 0;
            saw[2] += x % 32 == 31;
            saw[3] += x % 32 == 0;
            saw[4] += x % 64 == 63;
            saw[5] += x % 64 == 0;
            saw[6] += x % 224 == 223 || x % 224 == 1;
            saw[7] += x % 224 == 0;
        }
    /* 0.25 * 1000 * 470 / 64 = 1836 placed, some on the same cell (the boundaries are few). */
    printf("cells 1000x470 density 0.25: %zu alive, %zu on boundaries both ways, %zu neither\n",
           alive, both, neither);
    CHECKF(t, alive >= 900 && alive <= 1836, "cells: %zu alive, want up to 1836", alive);
    CHECKF(t, neither == 0, "cells: %zu live cells on no boundary column or row", neither);
    CHECKF(t, both >= alive * 3 / 4, "cells: only %zu of %zu on boundaries both ways", both,
           alive);
    for (int k = 0; k < 8; k++) CHECKF(t, saw[k] > 0, "cells: boundary family %d unused", k);
    /* Columns 2..5 of a byte hold nothing unless drawn at random (one cell in eight, one side). */
    size_t mid = 0;
    for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++)
            mid += cell_at(&g, x, y) && x % 8 >= 2 && x % 8 <= 5 && x % 224 > 1 && y % 8 >= 2 &&
                   y % 8 <= 5 && y % 224 > 1 && x != w - 1 && y != h - 1;
    CHECKF(t, mid == 0, "cells: %zu live cells inside words both ways", mid);
    cc_grid_free(&g);
    if (kind_grid(t, CC_GRID_CELLS, w, h, 0.0, 71, &g) == CC_OK) {
        CHECKF(t, cc_grid_population(&g) == 0, "cells at density 0: not all dead");
        cc_grid_free(&g);
    }
    if (kind_grid(t, CC_GRID_CELLS, 5, 5, 0.01, 72, &g) == CC_OK) {
        CHECKF(t, cc_grid_population(&g) == 1, "cells 5x5: %zu alive, want 1",
               cc_grid_population(&g));
        cc_grid_free(&g);
    }
}

static void test_kind_holes(checks *t) {
    cc_grid g;
    if (kind_grid(t, CC_GRID_HOLES, 257, 190, 0.6, 80, &g)) return;
    double share = alive_share(&g);
    printf("holes 257x190 density 0.6: %.3f alive\n", share);
    /* Holes cover density / 4 = 15% before overlaps. */
    CHECKF(t, share >= 0.85 && share < 0.9, "holes at density 0.6: %.3f alive", share);
    cc_grid_free(&g);
    if (kind_grid(t, CC_GRID_HOLES, 257, 190, 1.0, 81, &g) == CC_OK) {
        CHECKF(t, alive_share(&g) >= 0.75, "holes at density 1: %.3f alive", alive_share(&g));
        cc_grid_free(&g);
    }
    if (kind_grid(t, CC_GRID_HOLES, 257, 190, 0.0, 82, &g) == CC_OK) {
        CHECKF(t, cc_grid_population(&g) == cc_grid_cells(&g), "holes at density 0 has holes");
        cc_grid_free(&g);
    }
}

static void test_kind_checker(checks *t) {
    int sizes[7] = {0};
    for (uint8_t s = 0; s < 24; s++) {
        cc_grid g;
        if (kind_grid(t, CC_GRID_CHECKER, 300, 257, 0.5, (uint8_t)(90 + s), &g)) return;
        /* A checkerboard is a(x) xor b(y): every 2x2 square off the seam xors to 0. */
        size_t bad = 0;
        for (int32_t y = 0; y + 1 < g.h; y++)
            for (int32_t x = 0; x + 1 < g.w; x++)
                bad += (cell_at(&g, x, y) ^ cell_at(&g, x + 1, y) ^ cell_at(&g, x, y + 1) ^
                        cell_at(&g, x + 1, y + 1)) != 0;
        CHECKF(t, bad == 0, "checker seed %d: %zu 2x2 squares off the pattern", s, bad);
        /* The block side: the shortest run in row 0, away from the seam. */
        int32_t run = 1, shortest = 1 << 30;
        for (int32_t x = 1; x < g.w; x++) {
            if (cell_at(&g, x, 0) == cell_at(&g, x - 1, 0)) {
                run++;
            } else {
                if (x - run > 0 && run < shortest) shortest = run;
                run = 1;
            }
        }
        int j = 0;
        while (j < 7 && (1 << j) != shortest) j++;
        CHECKF(t, j < 7, "checker seed %d: blocks of %d cells", s, (int)shortest);
        if (j < 7) sizes[j]++;
        double share = alive_share(&g);
        CHECKF(t, share > 0.35 && share < 0.65, "checker seed %d: %.3f alive", s, share);
        cc_grid_free(&g);
    }
    printf("checker, 24 seeds: blocks 1 %d, 2 %d, 4 %d, 8 %d, 16 %d, 32 %d, 64 %d\n", sizes[0],
           sizes[1], sizes[2], sizes[3], sizes[4], sizes[5], sizes[6]);
    CHECKF(t, sizes[0] > 0, "no single-cell checkerboard in 24 seeds");
}

/* The uniform kind is the same grid whether grid_kind was set or left zero; the other kinds give
 * other grids from the same seed. */
static void test_kinds_differ(checks *t) {
    cc_grid g[CC_GRID_KIND_COUNT];
    int ok = 1;
    for (int k = 0; k < CC_GRID_KIND_COUNT && ok; k++)
        ok = kind_grid(t, (cc_grid_kind)k, 130, 70, 0.5, 99, &g[k]) == CC_OK;
    if (!ok) return;
    for (int a = 0; a < CC_GRID_KIND_COUNT; a++)
        for (int b = a + 1; b < CC_GRID_KIND_COUNT; b++)
            CHECKF(t, !cc_grid_equal(&g[a], &g[b]), "kinds %d and %d give the same grid", a, b);
    for (int k = 0; k < CC_GRID_KIND_COUNT; k++) cc_grid_free(&g[k]);
    cc_case c;
    memset(&c, 0, sizeof c);
    c.w = c.h = 8;
    c.grid_kind = (cc_grid_kind)17;
    cc_grid bad;
    cc_error err;
    CHECKF(t, case_grid(&c, &bad, &err) != CC_OK && strstr(err.msg, "grid kind 17"),
           "kind 17 drawn: %s", err.msg);
}

int main(void) {
    checks t = {"case_grid_test", 0, 0};
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium_init failed\n");
        return 1;
    }
    test_thresholds(&t);
    /* 2, 30 and 9 bytes-odd sizes; one exactly 64 bytes; more than one 8 KiB chunk; not a
     * multiple of 64 bytes across several chunks. */
    test_grid_matches_libsodium(&t, 1, 1, 0.5, 32768);
    test_grid_matches_libsodium(&t, 3, 5, 0.3, 19661);
    test_grid_matches_libsodium(&t, 4, 8, 0.25, 16384);
    test_grid_matches_libsodium(&t, 67, 71, 0.5, 32768);
    test_grid_matches_libsodium(&t, 64, 64, 0.3, 19661);
    test_grid_matches_libsodium(&t, 331, 97, 0.0001, 7);
    test_grid_matches_libsodium(&t, 1000, 13, 0.9999, 65529);
    test_cells_refused(&t);
    test_extreme_densities(&t);
    test_kind_patches(&t);
    test_kind_bands(&t);
    test_kind_cells(&t);
    test_kind_holes(&t);
    test_kind_checker(&t);
    test_kinds_differ(&t);
    return check_summary(&t);
}
