/* Times cuda.life-lop3 against cuda.life-shuffle, cuda.bitslice2 and cuda.base in the same run
 * (hexagonal rules: against cuda.hexlut and cuda.base): median ms per step over repeats (CUDA
 * events, transfers excluded, after warm-up steps) on a 30 % soup, for each size, rule and block
 * configuration. Every cuda.life-lop3 and cuda.life-shuffle run must end on the grid
 * cuda.bitslice2 (cuda.hexlut) reaches in as many steps (cuda.base runs fewer steps and is timed
 * only). Also prints how long create took (the rule's kernels are compiled there). A tool for the
 * GPU machine, not a test.
 *   life_lop3_compare [--size 16384,32768,65536 | --shape 65536x32768,...] [--rule B3/S23 ...]
 *                     [--steps 1024] [--ref-steps 32] [--repeats 5]
 *                     [--config THREADS:WARPS_PER_SM:BAND_MIN:BAND_MAX ...] [--no-ref]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/cuda/cat/tile_bench.h"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life_lop3/life_lop3.h"
#include "engines/engine.h"
#include "oracle/grid.h"

#define LIST_MAX 16

extern const cc_engine cc_engine_cuda_base;
extern const cc_engine cc_engine_cuda_life_shuffle;
extern const cc_engine cc_engine_cuda_bitslice2;
extern const cc_engine cc_engine_cuda_hexlut;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void report(const char *what, int32_t w, int32_t h, double ms, double ref_ms,
                   const char *note) {
    char size[32];
    snprintf(size, sizeof size, "%dx%d", (int)w, (int)h);
    printf("  %-34s %11s  %9.4f ms/step  %9.3e cells/s", what, size, ms,
           (double)w * (double)h / (ms * 1e-3));
    if (ref_ms > 0) printf("  %6.2fx", ref_ms / ms);
    printf("%s\n", note);
    fflush(stdout);
}

int main(int argc, char **argv) {
    int32_t widths[LIST_MAX] = {16384, 32768, 65536}, heights[LIST_MAX] = {16384, 32768, 65536};
    const char *rules[LIST_MAX];
    life_lop3_config configs[LIST_MAX];
    int n_sizes = 3, n_rules = 0, n_configs = 0, repeats = 5, with_ref = 1;
    int64_t steps = 1024, ref_steps = 32;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : "";
        int bad = 1;
        if (!strcmp(argv[i], "--no-ref")) {
            with_ref = 0;
            continue;
        }
        if (!strcmp(argv[i], "--size")) {
            bad = tile_bench_parse_list(val, widths, &n_sizes);
            for (int k = 0; !bad && k < n_sizes; k++) bad = (heights[k] = widths[k]) < 3;
        } else if (!strcmp(argv[i], "--shape")) {
            bad = tile_bench_parse_tiles(val, widths, heights, &n_sizes);
            for (int k = 0; !bad && k < n_sizes; k++) bad = widths[k] < 3 || heights[k] < 3;
        } else if (!strcmp(argv[i], "--rule"))
            bad = n_rules == LIST_MAX || !*val || !(rules[n_rules++] = val);
        else if (!strcmp(argv[i], "--config")) {
            life_lop3_config *c = &configs[n_configs];
            bad = n_configs == LIST_MAX ||
                  sscanf(val, "%d:%d:%d:%d", &c->threads, &c->warps_per_sm, &c->band_min,
                         &c->band_max) != 4;
            if (!bad) n_configs++;
        } else if (!strcmp(argv[i], "--steps"))
            bad = (steps = atoll(val)) < 1;
        else if (!strcmp(argv[i], "--ref-steps"))
            bad = (ref_steps = atoll(val)) < 1;
        else if (!strcmp(argv[i], "--repeats"))
            bad = (repeats = atoi(val)) < 1 || repeats > TILE_BENCH_REPEATS_MAX;
        if (bad) {
            fprintf(stderr, "usage: life_lop3_compare [--size N,... | --shape WxH,...] [--rule R ...] [--steps K] "
                            "[--ref-steps K] [--repeats R] [--config T:W:BMIN:BMAX ...] "
                            "[--no-ref]\n");
            return 2;
        }
        i++;
    }
    if (n_rules == 0) rules[n_rules++] = "B3/S23";
    if (n_configs == 0) configs[n_configs++] = life_lop3_default;
    cc_error err;
    if (cc_gpu_available(&err)) {
        fprintf(stderr, "life_lop3_compare: no device: %s\n", err.msg);
        return 1;
    }
    const int64_t warm = 16;
    int status = 0;
    for (int ri = 0; ri < n_rules; ri++) {
        cc_rule rule;
        if (cc_rule_parse(rules[ri], &rule, &err)) {
            fprintf(stderr, "life_lop3_compare: %s\n", err.msg);
            return 2;
        }
        for (int si = 0; si < n_sizes; si++) {
            const int32_t w = widths[si], h = heights[si];
            cc_grid initial, expected, got;
            if (tile_bench_soup_wh(&rule, w, h, 0x2b, &initial, &err) ||
                cc_grid_alloc(&expected, w, h, &err) || cc_grid_alloc(&got, w, h, &err)) {
                fprintf(stderr, "life_lop3_compare: grids: %s\n", err.msg);
                return 1;
            }
            printf("%s, %dx%d, density 0.3, %lld timed steps (cuda.base %lld) after %lld, median "
                   "of %d\n",
                   rules[ri], (int)w, (int)h, (long long)steps, (long long)ref_steps,
                   (long long)warm, repeats);
            double ms, bitslice2_ms = 0, base_ms = 0, shuffle_ms = 0;
            void *ctx = NULL;
            /* Hexagonal rules: cuda.hexlut in cuda.bitslice2's place, no cuda.life-shuffle. */
            const int hex = rule.shape == CC_SHAPE_HEX;
            const cc_engine *bs2 = hex ? &cc_engine_cuda_hexlut : &cc_engine_cuda_bitslice2;
            if (bs2->create(&rule, w, h, &ctx, &err) ||
                tile_bench_time_gpu(ctx, initial.cells, warm, steps, repeats, &ms, expected.cells,
                                    &err)) {
                fprintf(stderr, "life_lop3_compare: %s: %s\n", bs2->name, err.msg);
                return 1;
            }
            cc_gpu_destroy(ctx);
            bitslice2_ms = ms;
            report(bs2->name, w, h, ms, 0, "");
            if (hex) shuffle_ms = bitslice2_ms;
            if (with_ref && !hex) {
                const cc_engine *sh = &cc_engine_cuda_life_shuffle;
                if (sh->create(&rule, w, h, &ctx, &err) ||
                    tile_bench_time_gpu(ctx, initial.cells, warm, steps, repeats, &ms, got.cells,
                                        &err)) {
                    fprintf(stderr, "life_lop3_compare: %s: %s\n", sh->name, err.msg);
                    return 1;
                }
                cc_gpu_destroy(ctx);
                shuffle_ms = ms;
                const int same = cc_grid_equal(&got, &expected);
                status |= !same;
                report(sh->name, w, h, ms, 0, same ? "" : "  GRID DIFFERS");
            }
            if (with_ref) {
                const cc_engine *base = &cc_engine_cuda_base;
                if (base->create(&rule, w, h, &ctx, &err) ||
                    tile_bench_time_gpu(ctx, initial.cells, 2, ref_steps, 3, &ms, NULL, &err)) {
                    fprintf(stderr, "life_lop3_compare: %s: %s\n", base->name, err.msg);
                    return 1;
                }
                cc_gpu_destroy(ctx);
                base_ms = ms;
                report(base->name, w, h, ms, 0, "");
            }
            for (int k = 0; k < n_configs; k++) {
                const life_lop3_config *cfg = &configs[k];
                const double t0 = now_s();
                if (life_lop3_create(cfg, &rule, w, h, &ctx, &err)) {
                    fprintf(stderr, "life_lop3_compare: cuda.life-lop3: %s\n", err.msg);
                    return 1;
                }
                const double create_s = now_s() - t0;
                int rc = tile_bench_time_gpu(ctx, initial.cells, warm, steps, repeats, &ms,
                                             got.cells, &err);
                cc_gpu_destroy(ctx);
                if (rc) {
                    fprintf(stderr, "life_lop3_compare: cuda.life-lop3: %s\n", err.msg);
                    return 1;
                }
                const int same = cc_grid_equal(&got, &expected);
                status |= !same;
                char what[80], note[160];
                snprintf(what, sizeof what, "cuda.life-lop3 %d:%d:%d:%d", (int)cfg->threads,
                         (int)cfg->warps_per_sm, (int)cfg->band_min, (int)cfg->band_max);
                snprintf(note, sizeof note, "  (create %.3f s)%s%s", create_s,
                         same ? "" : "  GRID DIFFERS", "");
                report(what, w, h, ms, shuffle_ms, note);
                if (with_ref)
                    printf("  %-34s x%.2f over %s, x%.1f over cuda.base\n", "", bitslice2_ms / ms,
                           bs2->name, base_ms / ms);
            }
            cc_grid_free(&initial);
            cc_grid_free(&expected);
            cc_grid_free(&got);
        }
    }
    return status;
}
