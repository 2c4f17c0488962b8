/* Times cuda.cat's compiled tile shapes against each other on the Table VI rules, and checks that
 * every tile ends on the same grid. For choosing CUDA_CAT_TILE_W x CUDA_CAT_TILE_H on a device.
 *   cat_tile_bench [--size N] [--radius 1,4,16] [--steps K] [--f32] [--staged] [--tiles 1x14,2x8]
 * --staged: Lambda is staged in shared memory (CUDA_CAT_STAGED) instead of read from global.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat/cat_kernels.h"
#include "fuzz/case.h"
#include "golden/table6.h"
#include "oracle/grid.h"

#define LIST_MAX 16

static int parse_list(const char *text, int32_t *out, int *n) {
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

static int parse_tiles(const char *text, int32_t *tw, int32_t *th, int *n) {
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

static int fail(const char *what, const cc_error *err) {
    fprintf(stderr, "cat_tile_bench: %s: %s\n", what, err->msg);
    return 1;
}

int main(int argc, char **argv) {
    int32_t size = 16384, radii[LIST_MAX] = {1, 4, 16}, tw[LIST_MAX] = {1, 1, 1, 2, 2, 4},
            th[LIST_MAX] = {14, 8, 16, 8, 14, 8};
    int nr = 3, nt = 6, f32 = 0, staged = 0;
    int64_t steps = 10;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(argv[i], "--f32") || !strcmp(argv[i], "--staged")) {
            if (argv[i][2] == 'f')
                f32 = 1;
            else
                staged = 1;
            continue;
        }
        int bad = 1;
        if (!strcmp(argv[i], "--size"))
            bad = (size = (int32_t)atoi(val)) < 3;
        else if (!strcmp(argv[i], "--steps"))
            bad = (steps = atoll(val)) < 1;
        else if (!strcmp(argv[i], "--radius"))
            bad = parse_list(val, radii, &nr);
        else if (!strcmp(argv[i], "--tiles"))
            bad = parse_tiles(val, tw, th, &nt);
        if (bad) {
            fprintf(
                stderr,
                "usage: cat_tile_bench [--size N] [--radius LIST] [--steps K] [--f32] [--staged] "
                "[--tiles WxH,...]\n");
            return 2;
        }
        i++;
    }
    cc_error err;
    if (cuda_cat_probe(&err)) return fail("no device", &err);

    cc_case c;
    memset(&c, 0, sizeof c);
    c.w = c.h = size;
    c.density = 0.3;
    memset(c.seed, 0x5e, sizeof c.seed);
    cc_grid initial, result, first;
    if (case_grid(&c, &initial, &err)) return fail("initial grid", &err);
    if (cc_grid_alloc(&result, size, size, &err) || cc_grid_alloc(&first, size, size, &err))
        return fail("result grids", &err);

    printf("cuda.cat tiles, %dx%d, %s sums, Lambda %s, %lld steps, ms per step\n", (int)size,
           (int)size, f32 ? "FP32" : "FP16", staged ? "staged in shared memory" : "from global",
           (long long)steps);
    int status = 0;
    for (int ri = 0; ri < nr; ri++) {
        cc_rule rule;
        if (rule_at(radii[ri], &rule, &err)) return fail("rule", &err);
        cat_rule_params params;
        cat_geometry geo;
        if (cat_rule_params_build("cuda.cat", &rule, &params, &err) ||
            cat_geometry_init(&geo, size, size, CUDA_CAT_FRAG,
                              cat_halo_fragments(rule.radius, CUDA_CAT_FRAG), &err))
            return fail("rule", &err);
        for (int ti = 0; ti < nt; ti++) {
            cuda_cat_config cfg = {f32 ? CAT_NUM_F32 : CAT_NUM_F16, tw[ti], th[ti], staged};
            cuda_cat_device *d = NULL;
            double ms = 0.0;
            if (cuda_cat_create(&geo, rule.radius, 0, &params, &cfg, &d, &err) ||
                cuda_cat_load(d, initial.cells, &err) || cuda_cat_step(d, 2, &err) ||
                cuda_cat_timed_step(d, steps, &ms, &err) ||
                cuda_cat_store(d, ti ? result.cells : first.cells, &err)) {
                cuda_cat_destroy(d);
                return fail("run", &err);
            }
            cuda_cat_destroy(d);
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
