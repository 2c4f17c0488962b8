/* Times the multi-step engines' compiled tiles at several steps a launch, in shared memory and in
 * registers, against cuda.bitslice1, cuda.bitslice2, cuda.pack and cuda.base in the same run, on
 * Conway's Life from a 30 % soup: median ms per step over repeats (CUDA events, transfers
 * excluded, after warm-up steps) and cells per second. Every run must end on the same grid as
 * cuda.bitslice1 after the same number of steps. A tool for the GPU machine, not a test.
 *   life_tile_bench [--size 16384,32768] [--steps 1024] [--ref-steps 64] [--repeats 3]
 *                       [--tiles 64x8,...] [--t 2,4,8,...] [--no-ref]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/bitslice/bitslice_kernels.h"
#include "engines/cuda/cat/tile_bench.h"
#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life/life_kernels.h"
#include "engines/engine.h"
#include "engines/entry.h"
#include "oracle/grid.h"

#define LIST_MAX CAT_TILE_BENCH_TILES_MAX

extern const cc_engine cc_engine_cuda_base;
extern const cc_engine cc_engine_cuda_pack;

static void report(const char *what, int32_t n, double ms, const char *note) {
    printf("%-30s n %6d  %9.4f ms/step  %9.3e cells/s%s\n", what, (int)n, ms,
           (double)n * (double)n / (ms * 1e-3), note);
    fflush(stdout);
}

int main(int argc, char **argv) {
    int32_t sizes[LIST_MAX] = {16384, 32768}, ts[LIST_MAX] = {1, 2, 4, 6, 8, 10, 12, 16};
    int32_t tile_bits[LIST_MAX], tile_rows[LIST_MAX];
    int n_sizes = 2, n_ts = 8, n_tiles = 0, repeats = 3, with_ref = 1;
    int64_t steps = 1024, ref_steps = 64;
    if (tile_bench_parse_tiles(CUDA_LIFE_TILES, tile_bits, tile_rows, &n_tiles)) return 2;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : "";
        int bad = 1;
        if (!strcmp(argv[i], "--no-ref")) {
            with_ref = 0;
            continue;
        }
        if (!strcmp(argv[i], "--size"))
            bad = tile_bench_parse_list(val, sizes, &n_sizes);
        else if (!strcmp(argv[i], "--t"))
            bad = tile_bench_parse_list(val, ts, &n_ts);
        else if (!strcmp(argv[i], "--tiles"))
            bad = tile_bench_parse_tiles(val, tile_bits, tile_rows, &n_tiles);
        else if (!strcmp(argv[i], "--steps"))
            bad = (steps = atoll(val)) < 1;
        else if (!strcmp(argv[i], "--ref-steps"))
            bad = (ref_steps = atoll(val)) < 1;
        else if (!strcmp(argv[i], "--repeats"))
            bad = (repeats = atoi(val)) < 1 || repeats > TILE_BENCH_REPEATS_MAX;
        if (bad) {
            fprintf(stderr, "usage: life_tile_bench [--size N,...] [--steps K] [--ref-steps K] "
                            "[--repeats R] [--tiles BITSxROWS,...] [--t T,...] [--no-ref]\n");
            return 2;
        }
        i++;
    }
    cc_error err;
    if (cc_gpu_available(&err)) {
        fprintf(stderr, "life_tile_bench: no device: %s\n", err.msg);
        return 1;
    }
    cc_rule life;
    if (cc_rule_parse("B3/S23", &life, &err)) return 1;
    const int64_t warm = 16;
    int status = 0;
    for (int si = 0; si < n_sizes; si++) {
        const int32_t n = sizes[si];
        cc_grid initial, expected, got;
        if (tile_bench_soup(&life, n, 0x1f, &initial, &err) ||
            cc_grid_alloc(&expected, n, n, &err) || cc_grid_alloc(&got, n, n, &err)) {
            fprintf(stderr, "life_tile_bench: grids: %s\n", err.msg);
            return 1;
        }
        printf("Life B3/S23, %dx%d, density 0.3, %lld timed steps (references %lld) after %lld, "
               "median of %d\n",
               (int)n, (int)n, (long long)steps, (long long)ref_steps, (long long)warm, repeats);
        double ms;
        void *ctx = NULL;
        /* cuda.bitslice1 first: its final grid is what every bit engine must reach. */
        if (cuda_bitslice1_create(&life, n, n, &ctx, &err) ||
            tile_bench_time_gpu(ctx, initial.cells, warm, steps, repeats, &ms, expected.cells,
                                &err)) {
            fprintf(stderr, "life_tile_bench: cuda.bitslice1: %s\n", err.msg);
            return 1;
        }
        cc_gpu_destroy(ctx);
        report("cuda.bitslice1", n, ms, "");
        const double bitslice1_ms = ms;
        if (cuda_bitslice2_create(&life, n, n, &ctx, &err) ||
            tile_bench_time_gpu(ctx, initial.cells, warm, steps, repeats, &ms, got.cells, &err)) {
            fprintf(stderr, "life_tile_bench: cuda.bitslice2: %s\n", err.msg);
            return 1;
        }
        cc_gpu_destroy(ctx);
        int same = cc_grid_equal(&got, &expected);
        status |= !same;
        report("cuda.bitslice2", n, ms, same ? "" : "  GRID DIFFERS");
        for (int variant = 0; variant < 4; variant++)
            for (int ti = 0; ti < n_tiles; ti++)
                for (int k = 0; k < n_ts; k++) {
                    const int shuffle = variant & 1, sums = variant >> 1;
                    const cuda_life_config cfg = {shuffle ? CUDA_LIFE_SHUFFLE : CUDA_LIFE_SHARED,
                                                  tile_bits[ti], tile_rows[ti], ts[k], sums};
                    char what[64];
                    snprintf(what, sizeof what, "%s %s %dx%d t=%d", shuffle ? "shuffle" : "shared",
                             sums ? "sums" : "words", (int)cfg.bits,
                             (int)(32 * cfg.rows_per_lane), (int)cfg.steps);
                    if (cuda_life_create(what, &cfg, &life, n, n, &ctx, &err)) continue; /* not a tile */
                    int rc = tile_bench_time_gpu(ctx, initial.cells, warm, steps, repeats, &ms,
                                                 got.cells, &err);
                    cc_gpu_destroy(ctx);
                    if (rc) {
                        fprintf(stderr, "life_tile_bench: %s: %s\n", what, err.msg);
                        return 1;
                    }
                    same = cc_grid_equal(&got, &expected);
                    status |= !same;
                    char note[64];
                    snprintf(note, sizeof note, "  %5.2fx bitslice1%s", bitslice1_ms / ms,
                             same ? "" : "  GRID DIFFERS");
                    report(what, n, ms, note);
                }
        if (with_ref) {
            const cc_engine *refs[] = {&cc_engine_cuda_pack, &cc_engine_cuda_base};
            for (int r = 0; r < 2; r++) {
                cc_context *rc_ctx = NULL;
                double t[TILE_BENCH_REPEATS_MAX];
                int clock = 0, rc = cc_engine_create(refs[r], &life, n, n, &rc_ctx, &err);
                if (!rc) rc = cc_engine_load(rc_ctx, initial.cells, &err);
                if (!rc) rc = cc_engine_step(rc_ctx, 2, &err);
                for (int i = 0; !rc && i < repeats; i++)
                    rc = cc_engine_timed_step(rc_ctx, ref_steps, &t[i], &clock, &err);
                cc_engine_destroy(rc_ctx);
                if (rc) {
                    fprintf(stderr, "life_tile_bench: %s: %s\n", refs[r]->name, err.msg);
                    return 1;
                }
                report(refs[r]->name, n, tile_bench_median(t, repeats) / (double)ref_steps, "");
            }
        }
        cc_grid_free(&initial);
        cc_grid_free(&expected);
        cc_grid_free(&got);
    }
    printf("life_tile_bench: %s\n", status ? "SOME GRIDS DIFFER" : "every grid agreed");
    return status;
}
