/* Cases: the initial grid drawn from a seed, campaign seeds, and the one-line text form. */
#include "oracle/case.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

/* randombytes_buf_deterministic is ChaCha20-IETF keyed by the seed with this nonce, counter 0. */
static const unsigned char drg_nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {
    'L', 'i', 'b', 's', 'o', 'd', 'i', 'u', 'm', 'D', 'R', 'G'};

/* randombytes_buf_deterministic refuses more than this many bytes (256 GiB). */
#define DRG_BYTES_MAX 0x4000000000ULL

/* A multiple of the 64-byte ChaCha20 block, so each chunk starts on a block counter. */
#define CHUNK_BYTES 8192

int case_stream(const uint8_t seed[CC_SEED_BYTES], uint64_t offset, uint8_t *buf, size_t len,
                cc_error *err) {
    if (offset % 64 != 0)
        return cc_fail(err, CC_ERR_ARG, "stream offset %llu is not a multiple of 64",
                       (unsigned long long)offset);
    if (offset > DRG_BYTES_MAX || len > DRG_BYTES_MAX - offset)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "a stream of %llu bytes from offset %llu exceeds the %llu bytes one seed "
                       "gives",
                       (unsigned long long)len, (unsigned long long)offset,
                       (unsigned long long)DRG_BYTES_MAX);
    if (sodium_init() < 0) return cc_fail(err, CC_ERR_DEVICE, "libsodium failed to initialise");
    memset(buf, 0, len);
    crypto_stream_chacha20_ietf_xor_ic(buf, buf, (unsigned long long)len, drg_nonce,
                                       (uint32_t)(offset / 64), seed);
    return CC_OK;
}

uint32_t case_density_threshold(double density) {
    if (!(density > 0.0)) return 0; /* also NaN */
    if (density >= 1.0) return 65536u;
    return (uint32_t)floor(density * 65536.0 + 0.5);
}

int case_param_init(cc_param_stream *ps, const uint8_t seed[CC_SEED_BYTES], const char *label,
                    cc_error *err) {
    if (sodium_init() < 0) return cc_fail(err, CC_ERR_DEVICE, "libsodium failed to initialise");
    size_t len = strlen(label);
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, sizeof ps->key);
    crypto_generichash_update(&st, seed, CC_SEED_BYTES);
    crypto_generichash_update(&st, (const unsigned char *)label, len);
    crypto_generichash_final(&st, ps->key, sizeof ps->key);
    ps->pos = sizeof ps->block;
    ps->offset = 0;
    return CC_OK;
}

uint32_t case_param_u32(cc_param_stream *ps) {
    if (ps->pos + 4 > sizeof ps->block) {
        /* Cannot fail: 2^32 blocks of 64 bytes would be needed to reach the stream's limit. */
        case_stream(ps->key, ps->offset, ps->block, sizeof ps->block, NULL);
        ps->offset += sizeof ps->block;
        ps->pos = 0;
    }
    uint32_t v = (uint32_t)ps->block[ps->pos] | (uint32_t)ps->block[ps->pos + 1] << 8 |
                 (uint32_t)ps->block[ps->pos + 2] << 16 | (uint32_t)ps->block[ps->pos + 3] << 24;
    ps->pos += 4;
    return v;
}

uint32_t case_param_uniform(cc_param_stream *ps, uint32_t n) {
    if (n <= 1) return 0;
    uint32_t limit = (uint32_t)(0x100000000ULL - 0x100000000ULL % n);
    for (;;) {
        uint32_t v = case_param_u32(ps);
        if (limit == 0 || v < limit) return v % n;
    }
}

static const char *const grid_kind_names[CC_GRID_KIND_COUNT] = {"uniform", "patches", "bands",
                                                                 "cells",   "holes",   "checker"};

const char *case_grid_kind_name(cc_grid_kind kind) {
    return (int)kind >= 0 && kind < CC_GRID_KIND_COUNT ? grid_kind_names[kind] : NULL;
}

/* Every cell's draw against the density threshold, as the uniform kind is. Each chunk has its own
 * place in the seed's stream, so the chunks are drawn in parallel and the grid is the same for any
 * number of threads; a grid past 2^32 cells takes seconds instead of a minute. */
/* The draws' cells first .. first+n-1 into out: chunks of the stream aligned to its 64-byte
 * blocks (32 cells), on every core past 256 chunks. */
static int draw_cells(const cc_case *c, uint64_t first, uint8_t *out, uint64_t n, cc_error *err) {
    const uint32_t threshold = case_density_threshold(c->density);
    const uint64_t per_chunk = CHUNK_BYTES / 2, start = first - first % 32;
    const int64_t chunks = (int64_t)((first + n - start + per_chunk - 1) / per_chunk);
    if (sodium_init() < 0) return cc_fail(err, CC_ERR_DEVICE, "libsodium failed to initialise");
    int failed = 0;
#pragma omp parallel for schedule(static) reduction(| : failed) if (chunks > 256)
    for (int64_t k = 0; k < chunks; k++) {
        uint8_t chunk[CHUNK_BYTES];
        uint64_t from = start + (uint64_t)k * per_chunk, to = from + per_chunk;
        if (to > first + n) to = first + n;
        cc_error chunk_err;
        if (case_stream(c->seed, from * 2, chunk, (size_t)((to - from) * 2), &chunk_err)) {
            failed = 1;
            continue;
        }
        for (uint64_t i = from < first ? first : from; i < to; i++) {
            const uint8_t *d = chunk + 2 * (i - from);
            out[i - first] = ((uint32_t)d[0] | ((uint32_t)d[1] << 8)) < threshold;
        }
    }
    /* The callers checked the stream's length first: only a failing library gets here. */
    if (failed)
        return cc_fail(err, CC_ERR_DEVICE, "drawing the random bytes of grid %dx%d failed",
                       (int)c->w, (int)c->h);
    return CC_OK;
}

static int fill_draws(const cc_case *c, cc_grid *out, cc_error *err) {
    return draw_cells(c, 0, out->cells, (uint64_t)c->w * (uint64_t)c->h, err);
}

int case_grid_cells(const cc_case *c, uint64_t first, uint8_t *out, size_t n, cc_error *err) {
    if (c->grid_kind != CC_GRID_UNIFORM)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "only a uniform grid is drawn in pieces, not a %s one",
                       case_grid_kind_name(c->grid_kind) ? case_grid_kind_name(c->grid_kind)
                                                         : "unknown");
    if (!(c->density >= 0.0 && c->density <= 1.0))
        return cc_fail(err, CC_ERR_ARG, "density %g is outside 0..1", c->density);
    if (c->w < 1 || c->h < 1)
        return cc_fail(err, CC_ERR_ARG, "grid size %dx%d is not positive", (int)c->w, (int)c->h);
    uint64_t cells = (uint64_t)c->w * (uint64_t)c->h;
    if (first > cells || n > cells - first)
        return cc_fail(err, CC_ERR_ARG, "cells %llu..%llu are outside the %dx%d grid",
                       (unsigned long long)first, (unsigned long long)(first + n), (int)c->w,
                       (int)c->h);
    if (cells * 2 > DRG_BYTES_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "grid %dx%d needs %llu random bytes, more than one seed gives", (int)c->w,
                       (int)c->h, (unsigned long long)(cells * 2));
    return n ? draw_cells(c, first, out, n, err) : CC_OK;
}

/* cell = (cell & keep) | set over the rw x rh rectangle at (x0, y0), wrapping around the torus
 * (x0 < W, y0 < H, rw <= W, rh <= H). */
static void rect_apply(cc_grid *g, int32_t x0, int32_t y0, int32_t rw, int32_t rh, uint8_t keep,
                       uint8_t set) {
    for (int32_t dy = 0; dy < rh; dy++) {
        int32_t y = y0 + dy >= g->h ? y0 + dy - g->h : y0 + dy;
        uint8_t *row = g->cells + (size_t)y * (size_t)g->w;
        for (int32_t dx = 0; dx < rw; dx++) {
            int32_t x = x0 + dx >= g->w ? x0 + dx - g->w : x0 + dx;
            row[x] = (uint8_t)((row[x] & keep) | set);
        }
    }
}

/* A side of 1 .. 2^e for e drawn in 1..top_log2, so that small sides are as common per doubling
 * as large ones; at most limit. */
static int32_t rect_side(cc_param_stream *ps, int top_log2, int32_t limit) {
    uint32_t span = 1u << (1 + case_param_uniform(ps, (uint32_t)top_log2));
    int32_t v = 1 + (int32_t)case_param_uniform(ps, span);
    return v > limit ? limit : v;
}

/* Rectangles at drawn places until their areas add up to share * W * H (at least one): patches
 * mark bit 1, holes clear the cell. */
static void scatter_rects(cc_param_stream *ps, cc_grid *g, double share, int top_log2,
                          int single_half, uint8_t keep, uint8_t set) {
    uint64_t cells = (uint64_t)g->w * (uint64_t)g->h, covered = 0;
    double target = share * (double)cells;
    do {
        int32_t rw = 1, rh = 1;
        if (!single_half || case_param_uniform(ps, 2)) {
            rw = rect_side(ps, top_log2, g->w);
            rh = rect_side(ps, top_log2, g->h);
        }
        int32_t x0 = (int32_t)case_param_uniform(ps, (uint32_t)g->w);
        int32_t y0 = (int32_t)case_param_uniform(ps, (uint32_t)g->h);
        rect_apply(g, x0, y0, rw, rh, keep, set);
        covered += (uint64_t)rw * (uint64_t)rh;
    } while ((double)covered < target);
}

/* Which of n rows (or columns) are live: from a drawn start, dead bands 64..160 wide (at most
 * n - 1) between live bands 1..96 wide; the last band runs into the first, dead, one. */
static void band_flags(cc_param_stream *ps, int32_t n, uint8_t *live) {
    int32_t pos = (int32_t)case_param_uniform(ps, (uint32_t)n), done = 0;
    for (int dead = 1; done < n; dead = !dead) {
        int32_t width = dead ? 64 + (int32_t)case_param_uniform(ps, 97)
                             : 1 + (int32_t)case_param_uniform(ps, 96);
        if (dead && width > n - 1) width = n - 1;
        for (int32_t i = 0; i < width && done < n; i++, done++) {
            live[pos] = (uint8_t)!dead;
            pos = pos + 1 == n ? 0 : pos + 1;
        }
    }
}

static int bands(cc_param_stream *ps, cc_grid *g, cc_error *err) {
    uint8_t *row_live = malloc((size_t)g->h), *col_live = malloc((size_t)g->w);
    if (!row_live || !col_live) {
        free(row_live);
        free(col_live);
        return cc_fail(err, CC_ERR_NOMEM, "bands of a %dx%d grid: out of memory", (int)g->w,
                       (int)g->h);
    }
    memset(row_live, 1, (size_t)g->h);
    memset(col_live, 1, (size_t)g->w);
    uint32_t orientation = case_param_uniform(ps, 3); /* rows, columns, both */
    if (orientation != 1) band_flags(ps, g->h, row_live);
    if (orientation != 0) band_flags(ps, g->w, col_live);
    for (int32_t y = 0; y < g->h; y++) {
        uint8_t *row = g->cells + (size_t)y * (size_t)g->w;
        if (!row_live[y]) {
            memset(row, 0, (size_t)g->w);
            continue;
        }
        for (int32_t x = 0; x < g->w; x++) row[x] &= col_live[x];
    }
    free(row_live);
    free(col_live);
    return CC_OK;
}

/* A column (or row) of an axis of n cells at a word or tile boundary, modulo n. */
static int32_t boundary_coord(cc_param_stream *ps, int32_t n) {
    /* Periods 8, 32, 64 and 224 in 5, 4, 4 and 2 draws of 16; the last column in 1. */
    static const int32_t periods[16] = {8, 8, 8, 8, 8, 32, 32, 32, 32, 64, 64, 64, 64, 224, 224, 0};
    int32_t p = periods[case_param_uniform(ps, 16)];
    if (p == 0) return n - 1;
    int64_t k = case_param_uniform(ps, (uint32_t)(n / p) + 1u);
    int64_t off = (int64_t)case_param_uniform(ps, p == 224 ? 3 : 2) - 1;
    int64_t v = (k * p + off) % n;
    return (int32_t)(v < 0 ? v + n : v);
}

static void single_cells(cc_param_stream *ps, const cc_case *c, cc_grid *g) {
    if (!(c->density > 0.0)) return;
    double want = floor(c->density * (double)g->w * (double)g->h / 64.0 + 0.5);
    uint64_t n = want < 1.0 ? 1 : (uint64_t)want;
    for (uint64_t i = 0; i < n; i++) {
        int32_t x = boundary_coord(ps, g->w), y = boundary_coord(ps, g->h);
        uint32_t random = case_param_uniform(ps, 16);
        if (random == 0) x = (int32_t)case_param_uniform(ps, (uint32_t)g->w);
        if (random == 1) y = (int32_t)case_param_uniform(ps, (uint32_t)g->h);
        g->cells[(size_t)y * (size_t)g->w + (size_t)x] = 1;
    }
}

static void checker(cc_param_stream *ps, cc_grid *g) {
    uint32_t j = case_param_uniform(ps, 7);
    uint32_t ox = case_param_uniform(ps, 2u << j), oy = case_param_uniform(ps, 2u << j);
    for (int32_t y = 0; y < g->h; y++) {
        uint8_t *row = g->cells + (size_t)y * (size_t)g->w;
        uint32_t by = ((uint32_t)y + oy) >> j;
        for (int32_t x = 0; x < g->w; x++) row[x] = (uint8_t)(((((uint32_t)x + ox) >> j) + by) & 1u);
    }
}

int case_grid(const cc_case *c, cc_grid *out, cc_error *err) {
    if (!(c->density >= 0.0 && c->density <= 1.0))
        return cc_fail(err, CC_ERR_ARG, "density %g is outside 0..1", c->density);
    if (c->w < 1 || c->h < 1)
        return cc_fail(err, CC_ERR_ARG, "grid size %dx%d is not positive", (int)c->w, (int)c->h);
    const char *kind = case_grid_kind_name(c->grid_kind);
    if (!kind) return cc_fail(err, CC_ERR_ARG, "grid kind %d is unknown", (int)c->grid_kind);
    int draws = c->grid_kind == CC_GRID_UNIFORM || c->grid_kind == CC_GRID_PATCHES ||
                c->grid_kind == CC_GRID_BANDS;
    uint64_t cells = (uint64_t)c->w * (uint64_t)c->h;
    if (draws && cells * 2 > DRG_BYTES_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "grid %dx%d (%s) needs %llu random bytes, more than one seed gives",
                       (int)c->w, (int)c->h, kind, (unsigned long long)(cells * 2));
    int rc = cc_grid_alloc(out, c->w, c->h, err);
    if (rc) return rc;
    cc_param_stream ps;
    if ((draws && (rc = fill_draws(c, out, err))) ||
        (rc = case_param_init(&ps, c->seed, "grid", err))) {
        cc_grid_free(out);
        return rc;
    }
    switch (c->grid_kind) {
    case CC_GRID_PATCHES: {
        double share = (5 + case_param_uniform(&ps, 26)) / 100.0;
        scatter_rects(&ps, out, share, 6, 0, 0xff, 2);
        for (uint64_t i = 0; i < cells; i++) out->cells[i] = out->cells[i] == 3;
        break;
    }
    case CC_GRID_BANDS:
        if ((rc = bands(&ps, out, err))) {
            cc_grid_free(out);
            return rc;
        }
        break;
    case CC_GRID_CELLS: single_cells(&ps, c, out); break;
    case CC_GRID_HOLES:
        memset(out->cells, 1, (size_t)cells);
        if (c->density > 0.0) scatter_rects(&ps, out, c->density / 4.0, 3, 1, 0, 0);
        break;
    case CC_GRID_CHECKER: checker(&ps, out); break;
    default: break;
    }
    return CC_OK;
}

void case_seed_derive(const uint8_t master[CC_SEED_BYTES], uint64_t i, uint8_t out[CC_SEED_BYTES]) {
    uint8_t in[CC_SEED_BYTES + 8];
    memcpy(in, master, CC_SEED_BYTES);
    for (int b = 0; b < 8; b++) in[CC_SEED_BYTES + b] = (uint8_t)(i >> (8 * b));
    crypto_generichash(out, CC_SEED_BYTES, in, sizeof in, NULL, 0);
}

void case_seed_format_hex(const uint8_t seed[CC_SEED_BYTES], char out[2 * CC_SEED_BYTES + 1]) {
    sodium_bin2hex(out, 2 * CC_SEED_BYTES + 1, seed, CC_SEED_BYTES);
}

/* Characters of UTF-8 text: bytes that do not continue a sequence. */
static size_t utf8_characters(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

int case_seed_parse_hex(const char *hex, uint8_t out[CC_SEED_BYTES], cc_error *err) {
    size_t len = strlen(hex), chars = utf8_characters(hex);
    /* Counted in characters, so digits of another script are not counted twice or thrice. */
    if (chars != len)
        return cc_fail(err, CC_ERR_ARG,
                       "seed '%.80s' has %zu characters, not all of them ASCII; a seed is %d "
                       "hex digits 0-9 a-f",
                       hex, chars, 2 * CC_SEED_BYTES);
    if (len != 2 * CC_SEED_BYTES)
        return cc_fail(err, CC_ERR_ARG, "seed '%.80s' has %zu hex digits, not %d", hex, len,
                       2 * CC_SEED_BYTES);
    uint8_t bytes[CC_SEED_BYTES];
    size_t n = 0;
    const char *end = NULL;
    int rc = sodium_hex2bin(bytes, sizeof bytes, hex, len, NULL, &n, &end);
    if (rc != 0 || n != CC_SEED_BYTES) {
        /* hex2bin stops at the first non-hex character; when that is the second digit of a
         * byte it fails and leaves end at the first digit, one before the culprit. */
        size_t at = (size_t)(end - hex) + (rc != 0);
        return cc_fail(err, CC_ERR_ARG, "seed has a non-hex character '%c' at position %zu",
                       hex[at], at + 1);
    }
    memcpy(out, bytes, CC_SEED_BYTES);
    return CC_OK;
}

/* Four decimals when they read back exactly (every generated density), otherwise every digit. */
static void format_density(double d, char *buf, size_t size) {
    snprintf(buf, size, "%.4f", d);
    if (strtod(buf, NULL) != d) snprintf(buf, size, "%.17g", d);
}

int case_format(const cc_case *c, char *buf, size_t size, cc_error *err) {
    char rule[CC_RULE_TEXT_MAX];
    int rc = cc_rule_print(&c->rule, rule, sizeof rule, err);
    if (rc) return cc_prefix(err, "formatting a case");
    if (!(c->density >= 0.0 && c->density <= 1.0))
        return cc_fail(err, CC_ERR_ARG, "formatting a case: density %g is outside 0..1",
                       c->density);
    if (c->steps < 0)
        return cc_fail(err, CC_ERR_ARG, "formatting a case: negative step count %lld",
                       (long long)c->steps);
    const char *kind = case_grid_kind_name(c->grid_kind);
    if (!kind)
        return cc_fail(err, CC_ERR_ARG, "formatting a case: grid kind %d is unknown",
                       (int)c->grid_kind);
    char density[40], seed[2 * CC_SEED_BYTES + 1], grid[32] = "";
    format_density(c->density, density, sizeof density);
    case_seed_format_hex(c->seed, seed);
    if (c->grid_kind != CC_GRID_UNIFORM) snprintf(grid, sizeof grid, " grid=%s", kind);
    char threads[24] = "";
    if (c->threads < 0 || c->threads > CC_CASE_THREADS_MAX)
        return cc_fail(err, CC_ERR_ARG, "formatting a case: %d threads is outside 0..%d",
                       (int)c->threads, CC_CASE_THREADS_MAX);
    if (c->threads) snprintf(threads, sizeof threads, " threads=%d", (int)c->threads);
    char timing[CC_TIMING_TEXT_MAX], timing_key[CC_TIMING_TEXT_MAX + 8] = "";
    if ((rc = case_timing_format(c->timing, timing, sizeof timing, err)))
        return cc_prefix(err, "formatting a case");
    if (c->timing) snprintf(timing_key, sizeof timing_key, " timing=%s", timing);
    char buffers[16], buffers_key[32] = "";
    if ((rc = case_buffers_format(c->buffers, buffers, sizeof buffers, err)))
        return cc_prefix(err, "formatting a case");
    if (c->buffers && (c->timing & CC_TIMING_PINNED))
        return cc_fail(err, CC_ERR_ARG,
                       "formatting a case: buffers=%s and timing=pinned both place load's and "
                       "store's buffers",
                       buffers);
    if (c->buffers) snprintf(buffers_key, sizeof buffers_key, " buffers=%s", buffers);
    int n = snprintf(buf, size, "rule=%s size=%dx%d steps=%lld density=%s%s seed=%s%s%s%s", rule,
                     (int)c->w, (int)c->h, (long long)c->steps, density, grid, seed, threads,
                     timing_key, buffers_key);
    if (n < 0 || (size_t)n >= size)
        return cc_fail(err, CC_ERR_ARG, "formatting a case: %d characters do not fit in %zu", n,
                       size);
    return CC_OK;
}

static const char *const timing_names[] = {"legacy", "copies", "kernel", "delays", "pinned"};
#define TIMING_WORDS (sizeof timing_names / sizeof timing_names[0])

int case_timing_format(uint32_t timing, char *buf, size_t size, cc_error *err) {
    if (size) buf[0] = '\0';
    if (timing & ~CC_TIMING_ALL)
        return cc_fail(err, CC_ERR_ARG, "timing bits 0x%x are outside 0x%x", (unsigned)timing,
                       (unsigned)CC_TIMING_ALL);
    size_t used = 0;
    for (size_t i = 0; i < TIMING_WORDS; i++) {
        if (!(timing & (1u << i))) continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? "+" : "", timing_names[i]);
        if (n < 0 || (size_t)n >= size - used)
            return cc_fail(err, CC_ERR_ARG, "timing words do not fit in %zu characters", size);
        used += (size_t)n;
    }
    return CC_OK;
}

int case_timing_parse(const char *text, uint32_t *timing, cc_error *err) {
    uint32_t bits = 0;
    for (const char *p = text;;) {
        size_t len = strcspn(p, "+");
        size_t word = TIMING_WORDS;
        for (size_t i = 0; i < TIMING_WORDS; i++)
            if (strlen(timing_names[i]) == len && strncmp(p, timing_names[i], len) == 0) word = i;
        if (word == TIMING_WORDS)
            return cc_fail(err, CC_ERR_ARG,
                           "timing '%.*s' is unknown (want words of legacy, copies, kernel, "
                           "delays, pinned joined by '+')",
                           (int)(len > 32 ? 32 : len), p);
        if (bits & (1u << word))
            return cc_fail(err, CC_ERR_ARG, "timing '%s' names %s twice", text,
                           timing_names[word]);
        bits |= 1u << word;
        p += len;
        if (!*p) break;
        p++;
    }
    *timing = bits;
    return CC_OK;
}

/* A decimal integer of digits only (no sign, no spaces) into *out, at most max. */
static int parse_uint(const char *s, size_t len, int64_t max, int64_t *out) {
    if (len == 0 || len > 19) return 0;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        int d = s[i] - '0';
        if (v > (max - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

int case_buffers_format(int32_t buffers, char *buf, size_t size, cc_error *err) {
    if (size) buf[0] = '\0';
    if (buffers < 0 || buffers > CC_BUFFERS_GUARD)
        return cc_fail(err, CC_ERR_ARG, "buffers placement %d is outside 0..%d", (int)buffers,
                       CC_BUFFERS_GUARD);
    int n = buffers == CC_BUFFERS_GUARD ? snprintf(buf, size, "guard")
            : buffers                   ? snprintf(buf, size, "%d", (int)buffers)
                                        : 0;
    if (n < 0 || (size_t)n >= size)
        return cc_fail(err, CC_ERR_ARG, "buffers placement does not fit in %zu characters", size);
    return CC_OK;
}

void case_buffers_describe(int32_t buffers, char *buf, size_t size) {
    if (!size) return;
    buf[0] = '\0';
    if (buffers == CC_BUFFERS_GUARD)
        snprintf(buf, size, "buffers=guard: the last cell right before an unmapped page");
    else if (buffers == CC_BUFFERS_ALIGN)
        snprintf(buf, size, "buffers=%d: 64-byte aligned, not page-aligned, inside a larger "
                 "allocation", (int)buffers);
    else if (buffers > 0 && buffers < CC_BUFFERS_ALIGN)
        snprintf(buf, size, "buffers=%d: %d byte%s past a 64-byte boundary", (int)buffers,
                 (int)buffers, buffers == 1 ? "" : "s");
}

int case_buffers_parse(const char *text, int32_t *buffers, cc_error *err) {
    int64_t n;
    if (strcmp(text, "guard") == 0) n = CC_BUFFERS_GUARD;
    else if (!parse_uint(text, strlen(text), CC_BUFFERS_ALIGN, &n) || n < 1)
        return cc_fail(err, CC_ERR_ARG,
                       "buffers '%.32s' is not a placement (want 1..%d, the bytes past a 64-byte "
                       "boundary, or guard)",
                       text, CC_BUFFERS_ALIGN);
    *buffers = (int32_t)n;
    return CC_OK;
}

enum {
    KEY_RULE,
    KEY_SIZE,
    KEY_STEPS,
    KEY_DENSITY,
    KEY_SEED,
    KEY_GRID,
    KEY_THREADS,
    KEY_TIMING,
    KEY_BUFFERS,
    KEY_COUNT
};
static const char *const key_names[KEY_COUNT] = {"rule", "size",    "steps",  "density", "seed",
                                                 "grid", "threads", "timing", "buffers"};

int case_parse(const char *line, cc_case *out, cc_error *err) {
    cc_case c;
    memset(&c, 0, sizeof c);
    int seen[KEY_COUNT] = {0};
    const char *p = line;
    char value[CC_CASE_TEXT_MAX];
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (!*p) break;
        const char *tok = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') p++;
        size_t tok_len = (size_t)(p - tok);
        const char *eq = memchr(tok, '=', tok_len);
        if (!eq)
            return cc_fail(err, CC_ERR_ARG, "case: '%.*s' is not key=value", (int)tok_len, tok);
        size_t key_len = (size_t)(eq - tok);
        int key = -1;
        for (int k = 0; k < KEY_COUNT; k++)
            if (strlen(key_names[k]) == key_len && strncmp(tok, key_names[k], key_len) == 0)
                key = k;
        if (key < 0)
            return cc_fail(err, CC_ERR_ARG,
                           "case: unknown key '%.*s' (want rule, size, steps, density, grid, "
                           "seed, threads, timing, buffers)",
                           (int)key_len, tok);
        if (seen[key]) return cc_fail(err, CC_ERR_ARG, "case: %s given twice", key_names[key]);
        seen[key] = 1;
        size_t value_len = tok_len - key_len - 1;
        if (value_len == 0) return cc_fail(err, CC_ERR_ARG, "case: %s has no value", key_names[key]);
        if (value_len >= sizeof value)
            return cc_fail(err, CC_ERR_ARG, "case: %s value is too long", key_names[key]);
        memcpy(value, eq + 1, value_len);
        value[value_len] = '\0';
        int rc;
        switch (key) {
        case KEY_RULE:
            if ((rc = cc_rule_parse(value, &c.rule, err))) return cc_prefix(err, "case: rule");
            break;
        case KEY_SIZE: {
            const char *x = strchr(value, 'x');
            int64_t w, h;
            if (!x || !parse_uint(value, (size_t)(x - value), CC_GRID_SIDE_MAX, &w) ||
                !parse_uint(x + 1, strlen(x + 1), CC_GRID_SIDE_MAX, &h))
                return cc_fail(err, CC_ERR_ARG,
                               "case: size '%s' is not WxH with sides 1..%d", value,
                               CC_GRID_SIDE_MAX);
            if (w < 1 || h < 1)
                return cc_fail(err, CC_ERR_ARG, "case: size '%s' has a zero side", value);
            c.w = (int32_t)w;
            c.h = (int32_t)h;
            break;
        }
        case KEY_STEPS: {
            int64_t steps;
            if (!parse_uint(value, value_len, INT64_MAX, &steps))
                return cc_fail(err, CC_ERR_ARG,
                               "case: steps '%s' is not a non-negative whole number", value);
            c.steps = steps;
            break;
        }
        case KEY_DENSITY: {
            char *end;
            errno = 0;
            if (value[0] == '-' && ((value[1] >= '0' && value[1] <= '9') || value[1] == '.'))
                return cc_fail(err, CC_ERR_ARG,
                               "case: density %s is negative; a density is in 0..1", value);
            if (!((value[0] >= '0' && value[0] <= '9') || value[0] == '.'))
                return cc_fail(err, CC_ERR_ARG, "case: density '%s' is not a number", value);
            double d = strtod(value, &end);
            if (*end || errno)
                return cc_fail(err, CC_ERR_ARG, "case: density '%s' is not a number", value);
            if (!(d >= 0.0 && d <= 1.0))
                return cc_fail(err, CC_ERR_ARG, "case: density %s is outside 0..1", value);
            c.density = d;
            break;
        }
        case KEY_SEED:
            if ((rc = case_seed_parse_hex(value, c.seed, err))) return cc_prefix(err, "case");
            break;
        case KEY_GRID: {
            int kind = -1;
            for (int k = 0; k < CC_GRID_KIND_COUNT; k++)
                if (strcmp(value, grid_kind_names[k]) == 0) kind = k;
            if (kind < 0)
                return cc_fail(err, CC_ERR_ARG,
                               "case: grid kind '%s' is unknown (want uniform, patches, bands, "
                               "cells, holes or checker)",
                               value);
            c.grid_kind = (cc_grid_kind)kind;
            break;
        }
        case KEY_THREADS: {
            int64_t n;
            if (!parse_uint(value, strlen(value), CC_CASE_THREADS_MAX, &n) || n < 1)
                return cc_fail(err, CC_ERR_ARG, "case: threads '%s' is not a team size in 1..%d",
                               value, CC_CASE_THREADS_MAX);
            c.threads = (int32_t)n;
            break;
        }
        case KEY_TIMING:
            if ((rc = case_timing_parse(value, &c.timing, err))) return cc_prefix(err, "case");
            break;
        case KEY_BUFFERS:
            if ((rc = case_buffers_parse(value, &c.buffers, err))) return cc_prefix(err, "case");
            break;
        }
    }
    int any = 0;
    for (int k = 0; k < KEY_COUNT; k++) any |= seen[k];
    if (!any)
        return cc_fail(err, CC_ERR_ARG,
                       "case: empty line (a case is rule=R size=WxH steps=K density=D seed=HEX)");
    for (int k = 0; k < KEY_COUNT; k++)
        if (!seen[k] && k != KEY_GRID && k != KEY_THREADS && k != KEY_TIMING && k != KEY_BUFFERS)
            return cc_fail(err, CC_ERR_ARG,
                           "case: %s is missing (a case is rule=R size=WxH steps=K density=D "
                           "seed=HEX)",
                           key_names[k]);
    if (c.buffers && (c.timing & CC_TIMING_PINNED))
        return cc_fail(err, CC_ERR_ARG,
                       "case: buffers= and timing=pinned both place load's and store's buffers "
                       "(take one of them)");
    int32_t min = 2 * c.rule.radius + 1;
    if (c.w < min || c.h < min)
        return cc_fail(err, CC_ERR_ARG,
                       "case: size %dx%d is smaller than 2r+1 = %d on a side (radius %d)",
                       (int)c.w, (int)c.h, (int)min, (int)c.rule.radius);
    *out = c;
    return CC_OK;
}
