/* The tile benches' shared driver: command line, rules, grids, timing and the tiles' agreement. */
#include "engines/cuda/cat/tile_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/common/gpu.h"
#include "oracle/case.h"
#include "oracle/table6.h"
#include "oracle/grid.h"

#define LIST_MAX CAT_TILE_BENCH_TILES_MAX

int tile_bench_parse_list(const char *text, int32_t *out, int *n) {
    *n = 0;
    const char *p = text;
    while (*p && *n < LIST_MAX) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1) return 1;
        out[(*n)++] = (int32_t)v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return 1;
    }
    return *n == 0;
}

int tile_bench_parse_tiles(const char *text, int32_t *tw, int32_t *th, int *n) {
    *n = 0;
    const char *p = text;
    while (*p && *n < LIST_MAX) {
        char *end;
        long w = strtol(p, &end, 10);
        if (end == p || *end != 'x') return 1;
        long h = strtol(end + 1, &end, 10);
        if (w < 1 || h < 1) return 1;
        tw[*n] = (int32_t)w;
        th[*n] = (int32_t)h;
        (*n)++;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return 1;
    }
    return *n == 0;
}

/* The Table VI rule of radius r; past 16, a Moore M0 rule with Table VI's proportions (S and B
 * near 0.15..0.27 of the neighbourhood, as at r = 16). */
static int rule_at(int32_t r, cc_rule *rule, cc_error *err) {
    const cc_table6_instance *inst = cc_table6_find(r);
    if (inst) return cc_rule_parse(inst->rule, rule, err);
    memset(rule, 0, sizeof *rule);
    rule->shape = CC_SHAPE_MOORE;
    rule->radius = r;
    int32_t n = (2 * r + 1) * (2 * r + 1) - 1;
    if (cc_set_add(&rule->survive, (int32_t)(0.15 * n), (int32_t)(0.27 * n), err)) return 1;
    return cc_set_add(&rule->birth, (int32_t)(0.15 * n), (int32_t)(0.28 * n), err);
}

int tile_bench_soup(const cc_rule *rule, int32_t n, uint8_t seed, cc_grid *initial,
                    cc_error *err) {
    return tile_bench_soup_wh(rule, n, n, seed, initial, err);
}

int tile_bench_soup_wh(const cc_rule *rule, int32_t w, int32_t h, uint8_t seed, cc_grid *initial,
                       cc_error *err) {
    cc_case c;
    memset(&c, 0, sizeof c);
    if (rule) c.rule = *rule;
    c.w = w;
    c.h = h;
    c.density = 0.3;
    memset(c.seed, seed, sizeof c.seed);
    return case_grid(&c, initial, err);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double tile_bench_median(double *ms, int n) {
    qsort(ms, (size_t)n, sizeof ms[0], cmp_double);
    return ms[n / 2];
}

int tile_bench_time_gpu(cc_gpu *gpu, const uint8_t *initial, int64_t warm, int64_t steps,
                        int repeats, double *ms_per_step, uint8_t *final, cc_error *err) {
    double ms[TILE_BENCH_REPEATS_MAX];
    if (repeats < 1 || repeats > TILE_BENCH_REPEATS_MAX)
        return cc_fail(err, CC_ERR_ARG, "%d repeats; 1 to %d", repeats, TILE_BENCH_REPEATS_MAX);
    int rc = cc_gpu_load(gpu, initial, err);
    if (!rc) rc = cc_gpu_step(gpu, warm, err);
    for (int i = 0; !rc && i < repeats; i++) rc = cc_gpu_timed_step(gpu, steps, &ms[i], err);
    if (!rc && final) rc = cc_gpu_store(gpu, final, err);
    if (rc) return rc;
    *ms_per_step = tile_bench_median(ms, repeats) / (double)steps;
    return CC_OK;
}

/* One tile shape: load, two untimed steps, the timed steps, store. */
static int run_tile(const cat_tile_bench *bench, const void *user, const cat_tile_run *job,
                    cc_error *err) {
    cc_gpu *gpu = NULL;
    int rc = bench->create(user, job, &gpu, err);
    if (!rc) rc = cc_gpu_load(gpu, job->initial, err);
    if (!rc) rc = cc_gpu_step(gpu, 2, err);
    if (!rc) rc = cc_gpu_timed_step(gpu, job->steps, job->ms, err);
    if (!rc) rc = cc_gpu_store(gpu, job->final, err);
    cc_gpu_destroy(gpu);
    return rc;
}

static int fail(const cat_tile_bench *bench, const char *what, const cc_error *err) {
    fprintf(stderr, "%s: %s: %s\n", bench->program, what, err->msg);
    return 1;
}

int cat_tile_bench_main(const cat_tile_bench *bench, void *user, int argc, char **argv) {
    int32_t size = 16384, radii[LIST_MAX] = {1, 4, 16}, tw[LIST_MAX], th[LIST_MAX];
    int nr = 3, nt = 0, staged = 0;
    if (tile_bench_parse_tiles(bench->tiles, tw, th, &nt)) {
        fprintf(stderr, "%s: compiled tiles '%s' are not a list of WxH\n", bench->program,
                bench->tiles);
        return 2;
    }
    int64_t steps = 10;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(argv[i], "--staged")) {
            staged = 1;
            continue;
        }
        if (bench->flag && bench->flag(user, argv[i])) continue;
        int bad = 1;
        if (!strcmp(argv[i], "--size"))
            bad = (size = (int32_t)atoi(val)) < 3;
        else if (!strcmp(argv[i], "--steps"))
            bad = (steps = atoll(val)) < 1;
        else if (!strcmp(argv[i], "--radius"))
            bad = tile_bench_parse_list(val, radii, &nr);
        else if (!strcmp(argv[i], "--tiles"))
            bad = tile_bench_parse_tiles(val, tw, th, &nt);
        if (bad) {
            fprintf(stderr,
                    "usage: %s [--size N] [--radius LIST] [--steps K]%s [--staged] "
                    "[--tiles WxH,...]\n",
                    bench->program, bench->usage_flags ? bench->usage_flags : "");
            return 2;
        }
        i++;
    }
    cc_error err;
    if (cc_gpu_available(&err)) return fail(bench, "no device", &err);

    cc_grid initial, result, first;
    if (tile_bench_soup(NULL, size, 0x5e, &initial, &err))
        return fail(bench, "initial grid", &err);
    if (cc_grid_alloc(&result, size, size, &err) || cc_grid_alloc(&first, size, size, &err))
        return fail(bench, "result grids", &err);

    printf("%s tiles, %dx%d, %sLambda %s, %lld steps, ms per step\n", bench->engine, (int)size,
           (int)size, bench->describe ? bench->describe(user) : "",
           staged ? "staged in shared memory" : "from global", (long long)steps);
    int status = 0;
    for (int ri = 0; ri < nr; ri++) {
        cc_rule rule;
        if (rule_at(radii[ri], &rule, &err)) return fail(bench, "rule", &err);
        cat_rule_params params;
        cat_geometry geo;
        if (cat_rule_params_build(bench->engine, &rule, &params, &err) ||
            cat_geometry_init(&geo, size, size, bench->fragment,
                              bench->halo_fragments
                                  ? bench->halo_fragments(rule.radius, bench->fragment)
                                  : 1,
                              &err))
            return fail(bench, "rule", &err);
        for (int ti = 0; ti < nt; ti++) {
            double ms = 0.0;
            cat_tile_run run = {
                &geo,   rule.radius,   &params, tw[ti], th[ti],
                staged, initial.cells, steps,   &ms,    ti ? result.cells : first.cells};
            if (run_tile(bench, user, &run, &err)) return fail(bench, "run", &err);
            int same = ti == 0 || cc_grid_equal(&result, &first);
            if (!same) status = 1;
            printf("r %2d  tile %dx%-2d  %8.3f ms%s\n", (int)radii[ri], (int)tw[ti], (int)th[ti],
                   ms / (double)steps, same ? "" : "  GRID DIFFERS FROM THE FIRST TILE'S");
            fflush(stdout);
        }
    }
    cc_grid_free(&initial);
    cc_grid_free(&result);
    cc_grid_free(&first);
    return status;
}
