/* Times cuda.runsum's launch configurations against cuda.cat1 and cuda.base in the same run:
 * median ms per step over repeats (CUDA events, transfers excluded, after warm-up steps) on a 30 %
 * soup, for each size and radius (the Table VI rule of that radius, Moore M0; past 16, Bosco's
 * rule scaled to the window; with --cross, the same fractions of the cross's cells). Every
 * configuration must end on the grid cuda.cat1 reaches in as many steps (cuda.base runs fewer
 * steps, r <= 16, and is timed only). A tool for the GPU machine, not a test.
 *   runsum_compare [--size 16384,32768,65600] [--radius 1,2,4,8,16,32] [--steps 100]
 *                  [--base-steps 4] [--repeats 5] [--cross]
 *                  [--config THREADS:WARPS_PER_SM:WINDOWS:MULTIPLY[:COUNT[:CHUNKS]] ...]
 *                  [--no-base]
 * WARPS_PER_SM 0: as many as the kernel can have resident (the engine's default). COUNT 0: the
 * faster for the shape and radius (the engine's), 1: running sums, 2: band matrices, in bands of
 * CHUNKS x 32 rows (0: the default).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/cat/tile_bench.h"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/runsum/runsum_kernels.h"
#include "engines/cuda/runsum/runsum_program.h"
#include "engines/engine.h"
#include "oracle/grid.h"
#include "oracle/table6.h"

#define LIST_MAX 16

extern const cc_engine cc_engine_cuda_base;
extern const cc_engine cc_engine_cuda_cat1;

static void report(const char *what, int32_t n, double ms, const char *note) {
    printf("  %-30s %6d  %9.4f ms/step  %9.3e cells/s%s\n", what, (int)n, ms,
           (double)n * (double)n / (ms * 1e-3), note);
    fflush(stdout);
}

/* The rule of radius r: Table VI's (Life at 1); past its radii, Bosco's rule (R5, S34..58,
 * B34..45 of 121) scaled to the (2r+1)^2 window. The shape is Moore, or the cross with the same
 * fractions of its 4r + 1 cells. */
static int workload(int32_t r, int cross, cc_rule *rule, cc_error *err) {
    const cc_table6_instance *t = cc_table6_find(r);
    if (!cross && t) return cc_rule_parse(r == 1 ? "B3/S23" : t->rule, rule, err);
    const int32_t cells = cross ? 4 * r + 1 : (2 * r + 1) * (2 * r + 1);
    char text[CC_RULE_TEXT_MAX];
    snprintf(text, sizeof text, "R%d,C2,M0,S%d..%d,B%d..%d,%s", (int)r, (int)(cells * 34 / 121),
             (int)(cells * 58 / 121), (int)(cells * 34 / 121), (int)(cells * 45 / 121),
             cross ? "N+" : "NM");
    return cc_rule_parse(text, rule, err);
}

int main(int argc, char **argv) {
    int32_t sizes[LIST_MAX] = {16384, 32768, 65600}, radii[LIST_MAX] = {1, 2, 4, 8, 16, 32};
    runsum_config configs[LIST_MAX];
    int n_sizes = 3, n_radii = 6, n_configs = 0, repeats = 5, with_base = 1, cross = 0;
    int64_t steps = 100, base_steps = 4;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : "";
        int bad = 1;
        if (!strcmp(argv[i], "--no-base")) {
            with_base = 0;
            continue;
        }
        if (!strcmp(argv[i], "--cross")) {
            cross = 1;
            continue;
        }
        if (!strcmp(argv[i], "--size")) {
            bad = tile_bench_parse_list(val, sizes, &n_sizes);
            for (int k = 0; !bad && k < n_sizes; k++) bad = sizes[k] < 65;
        } else if (!strcmp(argv[i], "--radius")) {
            bad = tile_bench_parse_list(val, radii, &n_radii);
            for (int k = 0; !bad && k < n_radii; k++) bad = radii[k] > RUNSUM_RADIUS_MAX;
        } else if (!strcmp(argv[i], "--config")) {
            runsum_config *c = &configs[n_configs];
            memset(c, 0, sizeof *c);
            const int got = n_configs == LIST_MAX
                                ? 0
                                : sscanf(val, "%d:%d:%d:%d:%d:%d", &c->threads, &c->warps_per_sm,
                                         &c->windows, &c->shifts_by_multiply, &c->count,
                                         &c->band_chunks);
            bad = got < 4;
            if (!bad) n_configs++;
        } else if (!strcmp(argv[i], "--steps"))
            bad = (steps = atoll(val)) < 1;
        else if (!strcmp(argv[i], "--base-steps"))
            bad = (base_steps = atoll(val)) < 1;
        else if (!strcmp(argv[i], "--repeats"))
            bad = (repeats = atoi(val)) < 1 || repeats > TILE_BENCH_REPEATS_MAX;
        if (bad) {
            fprintf(stderr, "usage: runsum_compare [--size N,...] [--radius R,...] [--steps K] "
                            "[--base-steps K] [--repeats R] [--cross] "
                            "[--config T:W:WINDOWS:MULTIPLY[:COUNT[:CHUNKS]] ...] [--no-base]\n");
            return 2;
        }
        i++;
    }
    if (n_configs == 0) configs[n_configs++] = runsum_default;
    cc_error err;
    if (cc_gpu_available(&err)) {
        fprintf(stderr, "runsum_compare: no device: %s\n", err.msg);
        return 1;
    }
    const int64_t warm = 3;
    int status = 0;
    for (int si = 0; si < n_sizes; si++) {
        const int32_t n = sizes[si];
        cc_grid initial, expected, got;
        if (tile_bench_soup(NULL, n, 0x2b, &initial, &err) ||
            cc_grid_alloc(&expected, n, n, &err) || cc_grid_alloc(&got, n, n, &err)) {
            fprintf(stderr, "runsum_compare: grids: %s\n", err.msg);
            return 1;
        }
        for (int ri = 0; ri < n_radii; ri++) {
            cc_rule rule;
            char text[CC_RULE_TEXT_MAX];
            if (workload(radii[ri], cross, &rule, &err) ||
                cc_rule_print(&rule, text, sizeof text, &err)) {
                fprintf(stderr, "runsum_compare: radius %d: %s\n", (int)radii[ri], err.msg);
                return 2;
            }
            printf("%s, %dx%d, density 0.3, %lld timed steps (cuda.base %lld) after %lld, median "
                   "of %d\n",
                   text, (int)n, (int)n, (long long)steps, (long long)base_steps, (long long)warm,
                   repeats);
            double cat1_ms = 0, base_ms = 0, ms;
            void *ctx = NULL;
            const cc_engine *cat1 = &cc_engine_cuda_cat1;
            if (cat1->create(&rule, n, n, &ctx, &err) ||
                tile_bench_time_gpu(ctx, initial.cells, warm, steps, repeats, &cat1_ms,
                                    expected.cells, &err)) {
                fprintf(stderr, "runsum_compare: %s: %s\n", cat1->name, err.msg);
                return 1;
            }
            cc_gpu_destroy(ctx);
            report(cat1->name, n, cat1_ms, "");
            if (with_base && rule.radius <= cc_engine_caps_resolved(&cc_engine_cuda_base).radius_max) {
                const cc_engine *base = &cc_engine_cuda_base;
                if (base->create(&rule, n, n, &ctx, &err) ||
                    tile_bench_time_gpu(ctx, initial.cells, 1, base_steps, 3, &base_ms, NULL, &err)) {
                    fprintf(stderr, "runsum_compare: %s: %s\n", base->name, err.msg);
                    return 1;
                }
                cc_gpu_destroy(ctx);
                report(base->name, n, base_ms, "");
            }
            runsum_geometry geo;
            runsum_rule params;
            if (runsum_geometry_init(&geo, "cuda.runsum", rule.shape, n, n, rule.radius, &err) ||
                runsum_rule_build("cuda.runsum", &rule, &geo, &params, &err)) {
                fprintf(stderr, "runsum_compare: %s\n", err.msg);
                return 1;
            }
            for (int k = 0; k < n_configs; k++) {
                const runsum_config *cfg = &configs[k];
                cc_gpu *gpu = NULL;
                int rc = cuda_runsum_create("cuda.runsum", 0, &geo, &params, cfg, &gpu, &err);
                if (!rc)
                    rc = tile_bench_time_gpu(gpu, initial.cells, warm, steps, repeats, &ms,
                                             got.cells, &err);
                cc_gpu_destroy(gpu);
                if (rc) {
                    fprintf(stderr, "runsum_compare: cuda.runsum: %s\n", err.msg);
                    return 1;
                }
                const int same = cc_grid_equal(&got, &expected);
                status |= !same;
                char what[80], note[160];
                snprintf(what, sizeof what, "cuda.runsum %d:%d:%d:%d:%d:%d", (int)cfg->threads,
                         (int)cfg->warps_per_sm, (int)cfg->windows, cfg->shifts_by_multiply,
                         cfg->count, (int)cfg->band_chunks);
                int used = snprintf(note, sizeof note, "  x%.2f over cuda.cat1", cat1_ms / ms);
                if (base_ms > 0)
                    used += snprintf(note + used, sizeof note - (size_t)used,
                                     ", x%.1f over cuda.base", base_ms / ms);
                snprintf(note + used, sizeof note - (size_t)used, "%s",
                         same ? "" : "  GRID DIFFERS from cuda.cat1's");
                report(what, n, ms, note);
            }
        }
        cc_grid_free(&initial);
        cc_grid_free(&expected);
        cc_grid_free(&got);
    }
    return status;
}
