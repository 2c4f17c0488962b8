/* The sliding-count driver: the padded torus, the OpenMP bands and the order of the row kernels.
 *
 * Each thread owns a band of rows [y0, y1) and slides its counts down it. Counts start at zero
 * with a virtual grid whose rows above y0-r are dead, 2r rows above the band: after 2r slides
 * every count of row y0 covers real rows only, and from there on each row costs one kernel call.
 * The halo columns of each new row are filled by the thread that wrote it. */
#include "engines/cpu/sliding/sliding.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/common/rows.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* The exactness bounds of the lanes, at the largest radius create accepts. */
_Static_assert(2 * SLIDING_RADIUS_MAX + 1 <= 255, "a box of 2r+1 cells must fit a u8 lane");
_Static_assert((2 * SLIDING_RADIUS_MAX + 1) * (2 * SLIDING_RADIUS_MAX + 1) <= 65535,
               "the largest count, (2r+1)^2, must fit a u16 lane");

/* Per-thread sums: the Moore box sums or the diamond (u16), the cross's column sums (u8), and for
 * the diamond the ring of diagonal prefix rows. */
typedef struct sliding_scratch {
    uint16_t *sums;
    uint8_t *cols;
    uint16_t *ring;
} sliding_scratch;

typedef struct sliding_ctx {
    /* First: the table's store is cpu_padded_grids_store. A cell row is pad + width + pad bytes,
     * pad (the origin) halo columns on each side, >= r. */
    cpu_padded_grids grids;
    const sliding_kernels *kernels;
    cc_shape shape;
    int32_t r;
    int32_t width; /* w rounded up to SLIDING_CHUNK: the lanes the kernels compute */
    sliding_rule rule;
    int threads;
    sliding_scratch *scratch;
    /* Von Neumann: 2r+3 ring slots, each a q1 row and a q2 row of qstride u16. */
    int32_t ring_rows, qpad;
    size_t qstride;
} sliding_ctx;

static int32_t round_up(int32_t v, int32_t m) { return (v + m - 1) / m * m; }

static void *alloc_zeroed(size_t bytes) {
    size_t size = (bytes + 63) / 64 * 64;
    if (size == 0) size = 64;
    void *p = aligned_alloc(64, size);
    if (p) memset(p, 0, size);
    return p;
}

void sliding_rule_from(const cc_rule *rule, sliding_rule *out) {
    memset(out, 0, sizeof *out);
    out->birth.n = rule->birth.n;
    for (int i = 0; i < rule->birth.n; i++) {
        out->birth.lo[i] = (uint16_t)rule->birth.r[i].lo;
        out->birth.span[i] = (uint16_t)(rule->birth.r[i].hi - rule->birth.r[i].lo);
    }
    /* A live cell's b counts itself: under M0 its count is b-1. */
    int shift = rule->centre ? 0 : 1;
    out->survive.n = rule->survive.n;
    for (int i = 0; i < rule->survive.n; i++) {
        out->survive.lo[i] = (uint16_t)(rule->survive.r[i].lo + shift);
        out->survive.span[i] = (uint16_t)(rule->survive.r[i].hi - rule->survive.r[i].lo);
    }
}

static void free_scratch(sliding_scratch *s) {
    free(s->sums);
    free(s->cols);
    free(s->ring);
}

void sliding_destroy(void *ctx) {
    sliding_ctx *e = ctx;
    if (!e) return;
    for (int t = 0; e->scratch && t < e->threads; t++) free_scratch(&e->scratch[t]);
    free(e->scratch);
    cpu_padded_grids_free(&e->grids);
    free(e);
}

int sliding_create(const char *name, const sliding_kernels *kernels, const cc_rule *rule,
                   int32_t w, int32_t h, void **out, cc_error *err) {
    *out = NULL;
    if (rule->radius > SLIDING_RADIUS_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: radius %d is above %d, the largest whose "
                       "counts fit the 16-bit lanes", name, (int)rule->radius,
                       SLIDING_RADIUS_MAX);
    if (rule->shape != CC_SHAPE_MOORE && rule->shape != CC_SHAPE_CROSS &&
        rule->shape != CC_SHAPE_VON_NEUMANN)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: neighbourhood %s has no sliding count here",
                       name, cc_shape_code(rule->shape));
    sliding_ctx *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", name);
    e->kernels = kernels;
    e->shape = rule->shape;
    e->grids.w = w;
    e->grids.h = h;
    e->r = rule->radius;
    e->width = round_up(w, SLIDING_CHUNK);
    int32_t pad = round_up(e->r, SLIDING_CHUNK);
    e->grids.origin = (size_t)pad;
    e->grids.pitch = (size_t)pad * 2 + (size_t)e->width;
    sliding_rule_from(rule, &e->rule);
    e->threads = omp_get_max_threads();
    if (e->threads < 1) e->threads = 1;
    e->ring_rows = 2 * e->r + 3;
    e->qpad = round_up(e->r + 2, 32);
    e->qstride = (size_t)e->qpad * 2 + (size_t)e->width;

    e->grids.cur = alloc_zeroed(e->grids.pitch * (size_t)h);
    e->grids.next = alloc_zeroed(e->grids.pitch * (size_t)h);
    e->scratch = calloc((size_t)e->threads, sizeof *e->scratch);
    int ok = e->grids.cur && e->grids.next && e->scratch;
    for (int t = 0; ok && t < e->threads; t++) {
        sliding_scratch *s = &e->scratch[t];
        if (e->shape == CC_SHAPE_CROSS) {
            s->cols = alloc_zeroed((size_t)e->width);
            ok = s->cols != NULL;
        } else {
            s->sums = alloc_zeroed(sizeof(uint16_t) * (size_t)e->width);
            ok = s->sums != NULL;
        }
        if (ok && e->shape == CC_SHAPE_VON_NEUMANN) {
            s->ring = alloc_zeroed(sizeof(uint16_t) * 2 * (size_t)e->ring_rows * e->qstride);
            ok = s->ring != NULL;
        }
    }
    if (!ok) {
        sliding_destroy(e);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate buffers for a %dx%d grid at "
                       "radius %d", name, (int)w, (int)h, (int)rule->radius);
    }
    *out = e;
    return CC_OK;
}

static uint8_t *cell_row(const sliding_ctx *e, uint8_t *grid, int32_t y) {
    int32_t m = y % e->grids.h;
    if (m < 0) m += e->grids.h;
    return grid + (size_t)m * e->grids.pitch + e->grids.origin;
}

/* The torus in x: r columns either side copied from the far edge (w >= 2r+1, no overlap). */
static void fill_cell_halo(const sliding_ctx *e, uint8_t *row) {
    memcpy(row - e->r, row + e->grids.w - e->r, (size_t)e->r);
    memcpy(row + e->grids.w, row, (size_t)e->r);
}

static void fill_diagonal_halo(const sliding_ctx *e, uint16_t *q) {
    size_t n = (size_t)e->r + 1;
    memcpy(q - n, q + e->grids.w - n, n * sizeof *q);
    memcpy(q + e->grids.w, q, n * sizeof *q);
}

int sliding_engine_create(const char *name, cc_hardware hw, const sliding_kernels *kernels,
                          const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    *ctx = NULL;
    if (sliding_cpu_supports(hw, err)) return cc_prefix(err, "%s", name);
    return sliding_create(name, kernels, rule, w, h, ctx, err);
}

int sliding_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    sliding_ctx *e = ctx;
    for (int32_t y = 0; y < e->grids.h; y++) {
        uint8_t *row = cell_row(e, e->grids.cur, y);
        memcpy(row, cells + (size_t)y * (size_t)e->grids.w, (size_t)e->grids.w);
        /* Lanes past w are computed but never read back; keep them dead. */
        memset(row + e->grids.w, 0, (size_t)(e->width - e->grids.w));
        fill_cell_halo(e, row);
    }
    return CC_OK;
}

/* Moore and cross: each row adds row y+r to the counts and takes row y-r-1 away. */
static void band_box(const sliding_ctx *e, sliding_scratch *s, int32_t y0, int32_t y1) {
    const int32_t r = e->r;
    const int cross = e->shape == CC_SHAPE_CROSS;
    if (cross) memset(s->cols, 0, (size_t)e->width);
    else memset(s->sums, 0, sizeof(uint16_t) * (size_t)e->width);
    for (int32_t y = y0 - 2 * r; y < y1; y++) {
        const uint8_t *add = cell_row(e, e->grids.cur, y + r);
        /* Rows above y0-r are the virtual dead ones: nothing leaves until y passes y0. */
        const uint8_t *sub = y - r - 1 >= y0 - r ? cell_row(e, e->grids.cur, y - r - 1) : NULL;
        const uint8_t *centre = y >= y0 ? cell_row(e, e->grids.cur, y) : NULL;
        uint8_t *out = centre ? cell_row(e, e->grids.next, y) : NULL;
        if (cross) e->kernels->cross_row(s->cols, add, sub, r, centre, out, &e->rule, e->width);
        else e->kernels->moore_row(s->sums, add, sub, r, centre, out, &e->rule, e->width);
        if (out) fill_cell_halo(e, out);
    }
}

/* The ring slot of diagonal row yy, counted from base (the band's first, dead, row). */
static uint16_t *diagonal(const sliding_ctx *e, const sliding_scratch *s, int32_t yy,
                          int32_t base, int which) {
    size_t slot = (size_t)((yy - base) % e->ring_rows);
    return s->ring + (slot * 2 + (size_t)which) * e->qstride + (size_t)e->qpad;
}

static void band_diamond(const sliding_ctx *e, sliding_scratch *s, int32_t y0, int32_t y1) {
    const int32_t r = e->r;
    /* Rows base .. y0-r-1 are dead: the ring starts zero and the first row made is y0-r. */
    const int32_t base = y0 - 3 * r - 2;
    memset(s->sums, 0, sizeof(uint16_t) * (size_t)e->width);
    memset(s->ring, 0, sizeof(uint16_t) * 2 * (size_t)e->ring_rows * e->qstride);
    for (int32_t y = y0 - 2 * r; y < y1; y++) {
        int32_t made = y + r;
        uint16_t *q1 = diagonal(e, s, made, base, 0), *q2 = diagonal(e, s, made, base, 1);
        e->kernels->diagonal_row(q1, diagonal(e, s, made - 1, base, 0), q2,
                                 diagonal(e, s, made - 1, base, 1), cell_row(e, e->grids.cur, made),
                                 e->width);
        fill_diagonal_halo(e, q1);
        fill_diagonal_halo(e, q2);
        sliding_diamond_rows rows = {
            .q1_low = q1,
            .q1_mid = diagonal(e, s, y - 1, base, 0),
            .q1_top = diagonal(e, s, y - r - 1, base, 0),
            .q2_low = diagonal(e, s, y + r - 1, base, 1),
            .q2_mid = diagonal(e, s, y - 1, base, 1),
            .q2_top = diagonal(e, s, y - r - 2, base, 1),
        };
        const uint8_t *centre = y >= y0 ? cell_row(e, e->grids.cur, y) : NULL;
        uint8_t *out = centre ? cell_row(e, e->grids.next, y) : NULL;
        e->kernels->diamond_row(s->sums, &rows, r, centre, out, &e->rule, e->width);
        if (out) fill_cell_halo(e, out);
    }
}

static void step_once(sliding_ctx *e) {
    int team = e->threads < e->grids.h ? e->threads : e->grids.h;
#pragma omp parallel num_threads(team)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int32_t y0 = (int32_t)((int64_t)e->grids.h * t / nt);
        int32_t y1 = (int32_t)((int64_t)e->grids.h * (t + 1) / nt);
        if (y0 < y1) {
            sliding_scratch *s = &e->scratch[t];
            if (e->shape == CC_SHAPE_VON_NEUMANN) band_diamond(e, s, y0, y1);
            else band_box(e, s, y0, y1);
        }
    }
    cpu_padded_grids_swap(&e->grids);
}

int sliding_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    sliding_ctx *e = ctx;
    for (int64_t i = 0; i < k; i++) step_once(e);
    return CC_OK;
}

#if defined(__x86_64__) || defined(__i386__)
static uint64_t read_xcr0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

int sliding_cpu_supports(cc_hardware hw, cc_error *err) {
#if defined(__x86_64__) || defined(__i386__)
    const char *name = hw == CC_HW_AVX512 ? "AVX-512" : "AVX2";
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: CPUID leaf 1 is not available", name);
    if (!(c & bit_AVX))
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: this CPU has no AVX", name);
    if (!(c & bit_OSXSAVE))
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "%s: the OS has not enabled XSAVE (CPUID OSXSAVE clear)", name);
    uint64_t xcr0 = read_xcr0();
    if ((xcr0 & 0x6) != 0x6)
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "%s: the OS does not save the XMM and YMM registers (XCR0 = 0x%llx)", name,
                       (unsigned long long)xcr0);
    if (__get_cpuid_max(0, NULL) < 7 || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: CPUID leaf 7 is not available", name);
    if (hw == CC_HW_AVX2) {
        if (!(b & bit_AVX2))
            return cc_fail(err, CC_ERR_UNAVAILABLE, "AVX2: this CPU has no AVX2");
        return CC_OK;
    }
    if (hw == CC_HW_AVX512) {
        if (!(b & bit_AVX512F))
            return cc_fail(err, CC_ERR_UNAVAILABLE, "AVX-512: this CPU has no AVX-512F");
        if (!(b & bit_AVX512BW))
            return cc_fail(err, CC_ERR_UNAVAILABLE, "AVX-512: this CPU has no AVX-512BW");
        /* Bits 5-7: the opmask registers and both halves of the ZMM state. */
        if ((xcr0 & 0xe0) != 0xe0)
            return cc_fail(err, CC_ERR_UNAVAILABLE,
                           "AVX-512: the OS does not save the opmask and ZMM registers "
                           "(XCR0 = 0x%llx)",
                           (unsigned long long)xcr0);
        return CC_OK;
    }
    return cc_fail(err, CC_ERR_ARG, "sliding_cpu_supports: %s is not a vector instruction set",
                   cc_hardware_name(hw));
#else
    return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: not an x86 CPU", cc_hardware_name(hw));
#endif
}
