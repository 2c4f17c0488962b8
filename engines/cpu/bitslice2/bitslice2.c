/* cpu.bitslice2: seed 001's Algorithm DOUBLE-WORD on the CPU. One bit per cell in 64-bit words;
 * the words K (row y) and L (row y+1) of one column are updated together: the four neighbour
 * words they share (rows y and y+1 shifted west and east) are summed once, then each adds its own
 * three words above or below and the other centre word. The counts are full 4-bit sums, and the
 * rule's multiplexer tree turns count and cell into the next word (engines/cpu/bitrows), so any
 * Moore radius-1 rule, M0 or M1, runs; any W and H (an odd last row takes SINGLE-WORD). OpenMP
 * over row pairs. */
#include "engines/cpu/bitrows/bitrows.h"
#include "engines/engine.h"

extern const cc_engine cc_engine_cpu_bitslice2;

static int bitslice2_available(cc_error *err) {
    (void)err;
    return CC_OK;
}

static int bitslice2_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                            cc_error *err) {
    *ctx = NULL;
    int rc = cc_engine_check(&cc_engine_cpu_bitslice2, rule, w, h, err);
    if (rc) return rc;
    return bitrows_create(&cc_engine_cpu_bitslice2, rule, w, h, (bitrows **)ctx, err);
}

/* Rows y (K) and y+1 (L) from rows r0 = y-1 (A B C), r1 = y (D K E), r2 = y+1 (I L J) and
 * r3 = y+2 (F G H), named as in the paper's Figure 5. */
static void double_row(const bitrows_rule *rule, int32_t nw, const uint64_t *r0,
                       const uint64_t *r1, const uint64_t *r2, const uint64_t *r3, uint64_t *out_k,
                       uint64_t *out_l) {
    for (int32_t j = 1; j <= nw; j++) {
        uint64_t a = bitrows_west(r0, j), b = r0[j], c = bitrows_east(r0, j);
        uint64_t d = bitrows_west(r1, j), k = r1[j], e = bitrows_east(r1, j);
        uint64_t i = bitrows_west(r2, j), l = r2[j], jw = bitrows_east(r2, j);
        uint64_t f = bitrows_west(r3, j), g = r3[j], hw = bitrows_east(r3, j);
        uint64_t shared2, shared1, shared0, above2, above1, above0, below2, below1, below0;
        bitrows_add22(d & e, d ^ e, i & jw, i ^ jw, &shared2, &shared1, &shared0);
        bitrows_add22(a & b, a ^ b, c & l, c ^ l, &above2, &above1, &above0);
        bitrows_add22(f & g, f ^ g, hw & k, hw ^ k, &below2, &below1, &below0);
        uint64_t s3, s2, s1, s0;
        bitrows_add33(above2, above1, above0, shared2, shared1, shared0, &s3, &s2, &s1, &s0);
        out_k[j] = bitrows_next(rule, k, s3, s2, s1, s0);
        bitrows_add33(below2, below1, below0, shared2, shared1, shared0, &s3, &s2, &s1, &s0);
        out_l[j] = bitrows_next(rule, l, s3, s2, s1, s0);
    }
}

static void step_once(bitrows *b) {
    const int32_t h = b->h, nw = b->nw, pairs = (b->h + 1) / 2;
#pragma omp parallel for schedule(static)
    for (int32_t p = 0; p < pairs; p++) {
        int32_t y = 2 * p;
        const uint64_t *r0 = bitrows_row(b, b->cur, y - 1);
        const uint64_t *r1 = bitrows_row(b, b->cur, y);
        const uint64_t *r2 = bitrows_row(b, b->cur, y + 1);
        uint64_t *out_k = bitrows_row(b, b->next, y);
        if (y + 1 < h) {
            const uint64_t *r3 = bitrows_row(b, b->cur, y + 2);
            uint64_t *out_l = bitrows_row(b, b->next, y + 1);
            double_row(&b->rule, nw, r0, r1, r2, r3, out_k, out_l);
            bitrows_fix_row(b, out_l);
        } else {
            bitrows_single_row(&b->rule, nw, r0, r1, r2, out_k);
        }
        bitrows_fix_row(b, out_k);
    }
    uint64_t *t = b->cur;
    b->cur = b->next;
    b->next = t;
}

static int bitslice2_step(void *ctx, int64_t k, cc_error *err) {
    if (k < 0)
        return cc_fail(err, CC_ERR_ARG, "cpu.bitslice2: negative step count %lld", (long long)k);
    for (int64_t i = 0; i < k; i++) step_once(ctx);
    return CC_OK;
}

static int bitslice2_load(void *ctx, const uint8_t *cells, cc_error *err) {
    return bitrows_load(ctx, cells, err);
}

static int bitslice2_store(void *ctx, uint8_t *cells, cc_error *err) {
    return bitrows_store(ctx, cells, err);
}

static void bitslice2_destroy(void *ctx) { bitrows_destroy(ctx); }

const cc_engine cc_engine_cpu_bitslice2 = {
    .name = "cpu.bitslice2",
    .summary = "CPU bit-per-cell words, bitwise adders two rows at a time (DOUBLE-WORD), OpenMP",
    .hardware = CC_HW_CPU,
    .caps =
        {
            .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),
            .radius_min = 1,
            .radius_max = 1,
            .centres = CC_CENTRE_M0 | CC_CENTRE_M1,
            .w_multiple = 1,
            .h_multiple = 1,
            .w_max = 0,
            .h_max = 0,
            .count_max = 0,
            .limits = NULL,
        },
    .available = bitslice2_available,
    .create = bitslice2_create,
    .load = bitslice2_load,
    .step = bitslice2_step,
    .store = bitslice2_store,
    .destroy = bitslice2_destroy,
    .timed_step = NULL,
    .device_name = NULL,
};
