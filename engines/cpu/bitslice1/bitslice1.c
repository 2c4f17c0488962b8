/* cpu.bitslice1: seed 001's Algorithm SINGLE-WORD on the CPU. One bit per cell in 64-bit words;
 * each word's 8 neighbour words (its row above, its own row and the row below, each shifted west
 * and east) are summed by bitwise half and full adders into a 4-bit count, and the rule's
 * multiplexer tree turns count and cell into the next word (engines/cpu/bitrows). Any Moore
 * radius-1 rule, M0 or M1, any W and H. OpenMP over rows. */
#include "engines/cpu/bitrows/bitrows.h"
#include "engines/engine.h"

extern const cc_engine cc_engine_cpu_bitslice1;

static int bitslice1_available(cc_error *err) {
    (void)err;
    return CC_OK;
}

static int bitslice1_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                            cc_error *err) {
    *ctx = NULL;
    int rc = cc_engine_check(&cc_engine_cpu_bitslice1, rule, w, h, err);
    if (rc) return rc;
    return bitrows_create(&cc_engine_cpu_bitslice1, rule, w, h, (bitrows **)ctx, err);
}

static void step_once(bitrows *b) {
    const int32_t h = b->h, nw = b->nw;
#pragma omp parallel for schedule(static)
    for (int32_t y = 0; y < h; y++) {
        const uint64_t *up = bitrows_row(b, b->cur, y - 1);
        const uint64_t *mid = bitrows_row(b, b->cur, y);
        const uint64_t *down = bitrows_row(b, b->cur, y + 1);
        uint64_t *out = bitrows_row(b, b->next, y);
        bitrows_single_row(&b->rule, nw, up, mid, down, out);
        bitrows_fix_row(b, out);
    }
    uint64_t *t = b->cur;
    b->cur = b->next;
    b->next = t;
}

static int bitslice1_step(void *ctx, int64_t k, cc_error *err) {
    if (k < 0)
        return cc_fail(err, CC_ERR_ARG, "cpu.bitslice1: negative step count %lld", (long long)k);
    for (int64_t i = 0; i < k; i++) step_once(ctx);
    return CC_OK;
}

static int bitslice1_load(void *ctx, const uint8_t *cells, cc_error *err) {
    return bitrows_load(ctx, cells, err);
}

static int bitslice1_store(void *ctx, uint8_t *cells, cc_error *err) {
    return bitrows_store(ctx, cells, err);
}

static void bitslice1_destroy(void *ctx) { bitrows_destroy(ctx); }

const cc_engine cc_engine_cpu_bitslice1 = {
    .name = "cpu.bitslice1",
    .summary = "CPU bit-per-cell words, bitwise adders one word at a time (SINGLE-WORD), OpenMP",
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
    .available = bitslice1_available,
    .create = bitslice1_create,
    .load = bitslice1_load,
    .step = bitslice1_step,
    .store = bitslice1_store,
    .destroy = bitslice1_destroy,
    .timed_step = NULL,
    .device_name = NULL,
};
