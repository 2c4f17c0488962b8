/* The driver of the CAT engines' tile benches (cat_tile_bench, cat8_tile_bench): parses the
 * command line, builds the Table VI rules and the grid, times every tile shape at every radius and
 * checks that every tile ends on the first tile's grid. The engine supplies its device. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT_TILE_BENCH_H
#define CELLCHECK_ENGINES_CUDA_CAT_TILE_BENCH_H

#include <stdint.h>

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/common/gpu.h"
#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/rule.h"

#define CAT_TILE_BENCH_TILES_MAX 16

/* One tile shape's run: the driver creates the device through the bench's create, loads initial,
 * runs 2 untimed steps, then steps timed steps into *ms, and stores the grid into final. */
typedef struct cat_tile_run {
    const cat_geometry *geo;
    int32_t radius;
    const cat_rule_params *params;
    int32_t tile_w, tile_h;
    int staged; /* Lambda staged in shared memory */
    const uint8_t *initial;
    int64_t steps;
    double *ms;
    uint8_t *final;
} cat_tile_run;

typedef struct cat_tile_bench {
    const char *program;     /* names the program in messages */
    const char *engine;      /* the engine's name, in the heading and the rule parameters */
    const char *usage_flags; /* the engine's own flags in the usage line, " [--f32]"; NULL: none */
    int32_t fragment;        /* the engine's fragment side */
    const char *tiles;       /* the default tile shapes as --tiles takes them: the compiled list */
    /* The halo, in fragments, at radius r; NULL: always 1. */
    int32_t (*halo_fragments)(int32_t r, int32_t fragment);
    /* Takes an engine flag (no value): 1 when arg is one, 0 when not; may be NULL. */
    int (*flag)(void *user, const char *arg);
    /* What the heading says after the size, e.g. "FP16 sums, "; may be NULL. */
    const char *(*describe)(const void *user);
    /* The device for job's geometry, radius, rule and tile, on the common GPU driver. */
    int (*create)(const void *user, const cat_tile_run *job, cc_gpu **out, cc_error *err);
} cat_tile_bench;

/* Lists the tile benches take: "1,4,16" (positive integers) and "1x14,2x8" (W x H pairs), at most
 * CAT_TILE_BENCH_TILES_MAX entries. 0 on success, 1 when text is not such a list. */
int tile_bench_parse_list(const char *text, int32_t *out, int *n);
int tile_bench_parse_tiles(const char *text, int32_t *tw, int32_t *th, int *n);

/* The benches' initial grid: n x n (w x h), density 0.3, the case seed every byte `seed`; rule
 * (NULL: none) is the case's. */
int tile_bench_soup(const cc_rule *rule, int32_t n, uint8_t seed, cc_grid *initial,
                    cc_error *err);
int tile_bench_soup_wh(const cc_rule *rule, int32_t w, int32_t h, uint8_t seed, cc_grid *initial,
                       cc_error *err);

/* Timings the benches take the median of: at most this many repeats. */
#define TILE_BENCH_REPEATS_MAX 15

/* Sorts the n (1 .. TILE_BENCH_REPEATS_MAX) timings and returns their median. */
double tile_bench_median(double *ms, int n);

/* On a context of the common GPU driver: load initial, `warm` untimed steps, then `repeats`
 * (1 .. TILE_BENCH_REPEATS_MAX) timed runs of `steps` (CUDA events, transfers excluded); the
 * median ms per step in *ms_per_step, and the grid then into final unless it is NULL. */
int tile_bench_time_gpu(cc_gpu *gpu, const uint8_t *initial, int64_t warm, int64_t steps,
                        int repeats, double *ms_per_step, uint8_t *final, cc_error *err);

/* The bench's main: 0 when every tile ran and matched, 1 otherwise, 2 on a bad command line. */
int cat_tile_bench_main(const cat_tile_bench *bench, void *user, int argc, char **argv);

#endif
