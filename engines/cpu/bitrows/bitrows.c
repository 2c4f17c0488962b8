/* Bit-per-cell rows: allocation, packing to and from the portable form, the wrap bits, and the
 * rule's multiplexer constants. */
#include "engines/cpu/bitrows/bitrows.h"

#include <stdlib.h>
#include <string.h>

void bitrows_destroy(void *ctx) {
    bitrows *b = ctx;
    if (!b) return;
    free(b->cur);
    free(b->next);
    free(b);
}

int bitrows_create(const char *name, const cc_rule *rule, int32_t w, int32_t h,
                   bitrows_step_rows step_rows, bitrows **out, cc_error *err) {
    *out = NULL;
    /* Hexagonal rules are for engines that step with the network (their caps say so). */
    if ((rule->shape != CC_SHAPE_MOORE && rule->shape != CC_SHAPE_HEX) || rule->radius != 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: only the Moore and hexagonal neighbourhoods of radius 1", name);
    bitrows *b = calloc(1, sizeof *b);
    if (!b) return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate its context", name);
    b->hex = rule->shape == CC_SHAPE_HEX;
    b->step_rows = step_rows;
    b->w = w;
    b->h = h;
    b->nw = (w + 63) / 64;
    b->stride = (size_t)b->nw + 2;
    b->cur = calloc(b->stride * (size_t)h, sizeof(uint64_t));
    b->next = calloc(b->stride * (size_t)h, sizeof(uint64_t));
    if (!b->cur || !b->next) {
        bitrows_destroy(b);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate two %dx%d bit grids", name,
                       (int)w, (int)h);
    }
    bitrows_build_rule(rule, &b->rule);
    int rc = lifenet_build(rule, &b->net, err);
    if (rc) {
        bitrows_destroy(b);
        return rc;
    }
    *out = b;
    return CC_OK;
}

void bitrows_fix_row(const bitrows *b, uint64_t *row) {
    int32_t nw = b->nw;
    int valid = b->w - 64 * (nw - 1); /* cells in the last core word, 1..64 */
    uint64_t first = row[1] & 1;
    if (valid < 64) {
        uint64_t last = row[nw] & ((UINT64_C(1) << valid) - 1);
        row[0] = (last >> (valid - 1)) << 63;
        row[nw] = last | (first << valid);
        row[nw + 1] = 0;
    } else {
        row[0] = row[nw] & (UINT64_C(1) << 63);
        row[nw + 1] = first;
    }
}

int bitrows_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    bitrows *b = ctx;
    /* Rows are independent; a grid past 2^32 cells is seconds of packing on one core. */
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < b->h; y++) {
        const uint8_t *src = cells + (size_t)y * (size_t)b->w;
        uint64_t *row = bitrows_row(b, b->cur, y);
        memset(row, 0, b->stride * sizeof *row);
        for (int32_t x = 0; x < b->w; x++) row[1 + x / 64] |= (uint64_t)src[x] << (x % 64);
        bitrows_fix_row(b, row);
    }
    return CC_OK;
}

int bitrows_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const bitrows *b = ctx;
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < b->h; y++) {
        const uint64_t *row = bitrows_row(b, b->cur, y);
        uint8_t *dst = cells + (size_t)y * (size_t)b->w;
        for (int32_t x = 0; x < b->w; x++) dst[x] = (uint8_t)((row[1 + x / 64] >> (x % 64)) & 1);
    }
    return CC_OK;
}

int bitrows_step(void *ctx, int64_t k, cc_error *err) {
    bitrows *b = ctx;
    for (int64_t i = 0; i < k; i++) {
        if (b->step_rows(b))
            return cc_fail(err, CC_ERR_NOMEM, "no memory for a step's row buffers (%d words a row)",
                           (int)b->nw);
        uint64_t *t = b->cur;
        b->cur = b->next;
        b->next = t;
    }
    return CC_OK;
}
