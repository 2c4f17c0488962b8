#define _DEFAULT_SOURCE /* madvise */
#include "oracle/grid.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Grids from here up are backed by huge pages where the kernel offers them on request: a grid
 * past 2^32 cells is a million 4 KiB pages otherwise, each a fault on first touch. */
#define HUGE_PAGE_GRID_BYTES ((size_t)1 << 26)
#define HUGE_PAGE_BYTES ((size_t)1 << 21)

static void advise_huge_pages(uint8_t *cells, size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n < HUGE_PAGE_GRID_BYTES) return;
    uintptr_t start = ((uintptr_t)cells + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
    uintptr_t end = ((uintptr_t)cells + n) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE); /* only a hint */
#else
    (void)cells;
    (void)n;
#endif
}

int cc_grid_alloc(cc_grid *g, int32_t w, int32_t h, cc_error *err) {
    g->w = g->h = 0;
    g->cells = NULL;
    if (w < 1 || h < 1 || w > CC_GRID_SIDE_MAX || h > CC_GRID_SIDE_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "grid %dx%d: each side must be in 1..%d", (int)w,
                       (int)h, CC_GRID_SIDE_MAX);
    size_t n = (size_t)w * (size_t)h;
    uint8_t *cells = calloc(n, 1);
    if (!cells)
        return cc_fail(err, CC_ERR_NOMEM, "grid %dx%d: cannot allocate %zu bytes", (int)w, (int)h,
                       n);
    advise_huge_pages(cells, n);
    g->w = w;
    g->h = h;
    g->cells = cells;
    return CC_OK;
}

void cc_grid_free(cc_grid *g) {
    if (!g) return;
    free(g->cells);
    g->cells = NULL;
    g->w = g->h = 0;
}

size_t cc_grid_cells(const cc_grid *g) { return (size_t)g->w * (size_t)g->h; }

int cc_grid_copy(cc_grid *dst, const cc_grid *src, cc_error *err) {
    int rc = cc_grid_alloc(dst, src->w, src->h, err);
    if (rc) return rc;
    memcpy(dst->cells, src->cells, cc_grid_cells(src));
    return CC_OK;
}

int cc_grid_equal(const cc_grid *a, const cc_grid *b) {
    return a->w == b->w && a->h == b->h && memcmp(a->cells, b->cells, cc_grid_cells(a)) == 0;
}

size_t cc_grid_population(const cc_grid *g) {
    size_t n = cc_grid_cells(g), pop = 0;
    for (size_t i = 0; i < n; i++) pop += g->cells[i] != 0;
    return pop;
}

int cc_grid_place(const cc_grid *pattern, int32_t w, int32_t h, cc_grid *out, cc_error *err) {
    if (!pattern || !out) return cc_fail(err, CC_ERR_ARG, "cc_grid_place: NULL argument");
    out->w = out->h = 0;
    out->cells = NULL;
    if (pattern->w > w || pattern->h > h)
        return cc_fail(err, CC_ERR_ARG, "a %dx%d pattern does not fit a %dx%d grid",
                       (int)pattern->w, (int)pattern->h, (int)w, (int)h);
    int rc = cc_grid_alloc(out, w, h, err);
    if (rc) return rc;
    for (int32_t y = 0; y < pattern->h; y++)
        memcpy(out->cells + (size_t)y * (size_t)w, pattern->cells + (size_t)y * (size_t)pattern->w,
               (size_t)pattern->w);
    return CC_OK;
}
