/* The buffer torus of a slab, by hand and against its definition; and the scheme the driver over
 * several devices runs (gpu_slabs.h), emulated with the oracle: buffer tori filled from the grid,
 * halos of r t rows copied from the owners (engines/slabs) every t steps, at most t steps between,
 * own rows taken back, against the oracle on the whole torus. A halo one row short must diverge. */
#include "engines/cuda/common/buffer_torus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/slabs/slabs.h"
#include "oracle/grid.h"
#include "oracle/oracle.h"
#include "oracle/rule.h"
#include "testing/check.h"

static void by_hand(checks *t) {
    /* 5 rows, own rows 1..2, halo 3: rows 3, 4, 0 above, 1, 2 own, 3, 4, 0 below. */
    const int32_t want[] = {3, 4, 0, 1, 2, 3, 4, 0};
    for (int32_t i = 0; i < 8; i++) CHECK_EQ(t, cc_buffer_torus_row(5, 1, 3, i), want[i]);
    /* A halo longer than the torus repeats it: 2 rows, halo 5, own row 0. */
    for (int32_t i = 0; i < 11; i++) CHECK_EQ(t, cc_buffer_torus_row(2, 0, 5, i), (i + 1) % 2);

    /* Each cell its row and column, so that any misplaced row shows. */
    enum { W = 3, H = 7 };
    uint8_t grid[W * H], buffer[W * (2 + 2 * 4)], back[W * H];
    for (int32_t i = 0; i < W * H; i++) grid[i] = (uint8_t)(i / W * 16 + i % W);
    cc_buffer_torus_gather(grid, W, H, 5, 2, 4, buffer);
    int bad = 0;
    for (int32_t i = 0; i < 10; i++)
        for (int32_t x = 0; x < W; x++)
            bad |= buffer[i * W + x] != (uint8_t)(((5 - 4 + i + H) % H) * 16 + x);
    CHECK(t, !bad);
    memset(back, 0xee, sizeof back);
    cc_buffer_torus_scatter(buffer, W, 5, 2, 4, back);
    bad = 0;
    for (int32_t i = 0; i < W * H; i++) bad |= back[i] != (i / W >= 5 ? grid[i] : 0xee);
    CHECK(t, !bad);
}

static uint64_t next_random(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* The scheme on `devices` slabs with halos of `halo` rows, exchanged every `interval` steps, for
 * k steps: 1 when it ends on the oracle's grid, 0 when not, -1 when a call failed. */
static int emulate(const cc_rule *rule, const cc_grid *start, int32_t devices, int32_t interval,
                   int32_t halo, int64_t k, checks *t) {
    const int32_t w = start->w, h = start->h;
    cc_error err;
    cc_slabs s;
    cc_grid want = {0}, got = {0}, buf[16] = {{0}};
    int result = -1;
    if (!CHECKF(t, cc_slabs_cut(h, devices < h ? devices : h, halo, &s, &err) == CC_OK, "%s",
                err.msg))
        return -1;
    int32_t tallest = 0;
    for (int32_t d = 0; d < s.devices; d++)
        if (s.slab[d].rows + 2 * halo > tallest) tallest = s.slab[d].rows + 2 * halo;
    CHECK_EQ(t, cc_buffer_torus_rows_max(h, devices, halo), tallest);
    if (!CHECKF(t, cc_grid_copy(&want, start, &err) == CC_OK, "%s", err.msg)) goto done;
    if (!CHECKF(t, oracle_run(rule, &want, k, &err) == CC_OK, "%s", err.msg)) goto done;
    if (!CHECKF(t, cc_grid_alloc(&got, w, h, &err) == CC_OK, "%s", err.msg)) goto done;
    for (int32_t d = 0; d < s.devices; d++) {
        const cc_slab *sl = &s.slab[d];
        if (!CHECKF(t, cc_grid_alloc(&buf[d], w, sl->rows + 2 * halo, &err) == CC_OK, "%s",
                    err.msg))
            goto done;
        cc_buffer_torus_gather(start->cells, w, h, sl->y0, sl->rows, halo, buf[d].cells);
    }
    for (int64_t left = k; left > 0;) {
        /* Pieces read their owners' own rows and write halo rows: no order among them. */
        for (int32_t d = 0; d < s.devices; d++)
            for (int32_t p = 0; p < s.slab[d].pieces; p++) {
                const cc_slab_piece *pc = &s.slab[d].piece[p];
                memcpy(buf[d].cells + (size_t)pc->dst_row * (size_t)w,
                       buf[pc->src_device].cells + (size_t)pc->src_row * (size_t)w,
                       (size_t)pc->count * (size_t)w);
            }
        const int64_t n = left < interval ? left : interval;
        for (int32_t d = 0; d < s.devices; d++)
            if (!CHECKF(t, oracle_run(rule, &buf[d], n, &err) == CC_OK, "%s", err.msg)) goto done;
        left -= n;
    }
    for (int32_t d = 0; d < s.devices; d++)
        cc_buffer_torus_scatter(buf[d].cells, w, s.slab[d].y0, s.slab[d].rows, halo, got.cells);
    result = cc_grid_equal(&got, &want);
done:
    for (int32_t d = 0; d < 16; d++) cc_grid_free(&buf[d]);
    cc_grid_free(&got);
    cc_grid_free(&want);
    cc_slabs_free(&s);
    return result;
}

static void scheme(checks *t) {
    const char *rules[] = {"B3/S23", "R2,C0,M1,S5..9,B6..8,NM", "R3,C0,M0,S3..6,B4..5,N+"};
    const int32_t interval = 4;
    long runs = 0, wrong = 0, short_caught = 0, short_runs = 0;
    uint64_t seed = 12345;
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++) {
        cc_rule rule;
        cc_error err;
        if (!CHECKF(t, cc_rule_parse(rules[ri], &rule, &err) == CC_OK, "%s", err.msg)) return;
        const int32_t r = rule.radius, halo = r * interval;
        /* Thin and thick slabs, H below the device count, steps around the interval. */
        const int32_t heights[] = {2 * r + 1, 2 * r + 3, 13, 31};
        const int32_t device_counts[] = {1, 2, 3, 5};
        const int64_t steps[] = {0, 1, 3, 4, 5, 9};
        for (size_t hi = 0; hi < sizeof heights / sizeof *heights; hi++)
            for (size_t di = 0; di < sizeof device_counts / sizeof *device_counts; di++)
                for (size_t ki = 0; ki < sizeof steps / sizeof *steps; ki++) {
                    cc_grid g;
                    const int32_t w = 2 * r + 6;
                    if (!CHECKF(t, cc_grid_alloc(&g, w, heights[hi], &err) == CC_OK, "%s",
                                err.msg))
                        return;
                    for (size_t c = 0; c < cc_grid_cells(&g); c++)
                        g.cells[c] = next_random(&seed) % 100 < 45;
                    const int ok = emulate(&rule, &g, device_counts[di], interval, halo,
                                           steps[ki], t);
                    runs++;
                    if (ok != 1 && wrong++ < 3)
                        fprintf(stderr, "%s, %dx%d over %d devices, %lld steps: diverged\n",
                                rules[ri], (int)w, (int)heights[hi], (int)device_counts[di],
                                (long long)steps[ki]);
                    /* The negative control: a halo one row short, on slabs it does not wrap. */
                    if (heights[hi] >= 13 && device_counts[di] > 1 && steps[ki] >= interval) {
                        short_runs++;
                        short_caught += emulate(&rule, &g, device_counts[di], interval, halo - 1,
                                                steps[ki], t) == 0;
                    }
                    cc_grid_free(&g);
                }
    }
    printf("%ld emulated runs, %ld wrong; a short halo caught in %ld of %ld\n", runs, wrong,
           short_caught, short_runs);
    CHECK_EQ(t, wrong, 0);
    CHECK(t, runs == 3 * 4 * 4 * 6);
    /* Random cells: a halo one row short must show on most of these cases. */
    CHECKF(t, short_caught * 2 > short_runs, "a short halo went unnoticed in %ld of %ld runs",
           short_runs - short_caught, short_runs);
}

int main(void) {
    checks t = {"buffer_torus_test", 0, 0};
    by_hand(&t);
    scheme(&t);
    return check_summary(&t);
}
