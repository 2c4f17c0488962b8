/* Timing one engine against its reference in the same run, on the Table VI workloads: for each
 * radius and size, the Table VI rule of that radius at its density (Life, B3/S23, for r = 1; for
 * a hexagonal-only engine seed 002's B2/S34H at density 0.5) on a seeded grid. Radii outside
 * either engine's range are skipped with a note. Warm-up steps, then repeats of K steps, timed
 * by the engine's timed_step (CUDA events) when it has one, else by CLOCK_MONOTONIC around
 * step(). Figures are the median ms per
 * step and cells per second (W*H / seconds per step). After timing, both engines have run the
 * same steps from the same grid, so their final grids are compared too. */
#ifndef CELLCHECK_HARNESS_BENCH_H
#define CELLCHECK_HARNESS_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "harness/options.h"
#include "oracle/error.h"
#include "oracle/rule.h"

#define CC_BENCH_LIST_MAX 16
#define CC_BENCH_DEVICE_MAX 128

typedef struct cc_bench_options {
    int32_t
        radii[CC_BENCH_LIST_MAX]; /* radius_count 0: 1, 4, 8, 16 clamped to both engines' caps */
    int radius_count;
    int32_t widths[CC_BENCH_LIST_MAX], heights[CC_BENCH_LIST_MAX];
    int size_count; /* 0: 1024x1024 for CPU engines, 8192x8192 for GPU engines */
    int64_t steps;  /* per repeat; 0: 25 on a GPU, 2 on a CPU */
    int64_t warmup; /* steps before timing; -1: 3 on a GPU, 1 on a CPU */
    int repeats;    /* 0: 5 on a GPU, 3 on a CPU */
    double budget;  /* seconds the whole run may be estimated to take; 0: CC_TIME_BUDGET_DEFAULT */
    cc_rule rules[CC_BENCH_LIST_MAX]; /* rule_count > 0: these rules, in place of Table VI's (the */
    int rule_count;                   /* radii unused), each on one grid of CC_BENCH_RULE_DENSITY */
} cc_bench_options;

/* The density of the grids a rule of cc_bench_options.rules runs on: Life's usual soup. */
#define CC_BENCH_RULE_DENSITY 0.3

typedef struct cc_bench_row {
    int32_t radius, w, h;
    char rule[CC_RULE_TEXT_MAX];
    double density;
    int64_t steps; /* per repeat */
    int repeats;
    double engine_ms; /* median ms per step */
    double engine_cells_per_s;
    double reference_ms; /* median ms per step; 0 when the reference was not run */
    double reference_cells_per_s;
    double speedup;  /* reference_ms / engine_ms; 0 when the reference was not run */
    int grids_match; /* 1 equal, 0 different, -1 not compared */
} cc_bench_row;

/* All defaults (as documented above). */
void cc_bench_options_init(cc_bench_options *opt);

/* One flag's value: "--radius 1,4,16", "--size 1024,2048x512". */
int cc_bench_parse_radii(const char *text, cc_bench_options *opt, cc_error *err);
int cc_bench_parse_sizes(const char *text, cc_bench_options *opt, cc_error *err);

/* The benchmark's flags as rows of an option table, writing into opt: --radius LIST, --size LIST,
 * --steps K, --repeats N, --warmup K. */
#define CC_BENCH_OPTION_COUNT 6
void cc_bench_option_rows(cc_bench_options *opt, cc_option rows[CC_BENCH_OPTION_COUNT]);

/* The reference engine an engine is measured against by default: "cuda.base" for GPU engines,
 * "cpu.ref" for the others. */
const char *cc_bench_default_reference(const cc_engine *engine);

/* "Intel(R) Xeon(R) ..." from /proc/cpuinfo, or "unknown CPU". */
void cc_bench_cpu_model(char *buf, size_t size);

/* The workload at radius r: Life (r = 1) and the Table VI rules for engines that take the Moore
 * neighbourhood; for a hexagonal engine, seed 002's rule 34/2 (B2/S34H) at density 0.5. */
int cc_bench_workload(const cc_engine *engine, int32_t r, cc_rule *rule, double *density,
                      cc_error *err);

/* The engine's caps as they stand for the workload's shape (Moore, or hex for a hexagonal
 * engine): the radii a bench may run, within that shape's own limits (caps.shape_limits). */
cc_engine_caps cc_bench_workload_caps(const cc_engine *engine);

/* Times every radius x size and prints a table and one "BENCH {json}" line per row to out.
 * reference may be NULL or the engine itself (then it is run once and the speed-up is 1).
 * rows (may be NULL) receives up to max_rows rows; *row_count (may be NULL) how many were run.
 * Both engines must be available. Fails on any engine error or when the final grids differ. */
int cc_bench_run(const cc_engine *engine, const cc_engine *reference, const cc_bench_options *opt,
                 FILE *out, cc_bench_row *rows, int max_rows, int *row_count, cc_error *err);

#endif
