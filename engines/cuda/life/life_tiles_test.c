/* Every compiled tile of the multi-step engines, in shared memory and in registers, at several
 * steps a launch (1, a middle value and the most the tile allows), against the oracle through the
 * harness's case check (one call, split calls, step(1) k times, a second load, two live contexts,
 * destroy then create). The engines certify one tile each; this is what stands behind the others.
 * Sizes put the torus seam inside a word and a tile, with short last columns and strips; step
 * counts are below, at and past a launch's steps. Skips without a GPU (fails instead when
 * CELLCHECK_REQUIRE names gpu). */
#include <stdio.h>
#include <string.h>

#include "engines/cuda/common/gpu.h"
#include "engines/cuda/life/life_kernels.h"
#include "harness/harness.h"

#define CAPS {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 1}

/* One engine table per (memory, count, tile, steps): the harness checks engines, so each
 * configuration is one. */
#define TILE_ENGINE(id, memory, sums, bits, rows, steps)                                          \
    static int create_##id(const cc_rule *rule, int32_t w, int32_t h, void **ctx,                 \
                           cc_error *err) {                                                       \
        const cuda_life_config cfg = {memory, bits, rows, steps, sums};                           \
        return cuda_life_create("life." #id, &cfg, rule, w, h, ctx, err);                         \
    }                                                                                             \
    static const cc_engine engine_##id = {                                                        \
        .name = "life." #id, .summary = #memory " row sums " #sums " " #bits "x" #rows " t=" #steps, \
        .hardware = CC_HW_GPU, .caps = CAPS, .create = create_##id, CC_GPU_ENGINE_FUNCTIONS};

/* 32-bit words hold at most 10 halo bits (cells >= halo); 32-row tiles at most 15 steps. */
#define TILES(mem, sums, m)                                                                       \
    TILE_ENGINE(m##_32x1_t1, mem, sums, 32, 1, 1)                                                 \
    TILE_ENGINE(m##_32x1_t10, mem, sums, 32, 1, 10)                                               \
    TILE_ENGINE(m##_64x1_t15, mem, sums, 64, 1, 15)                                               \
    TILE_ENGINE(m##_64x2_t3, mem, sums, 64, 2, 3)                                                 \
    TILE_ENGINE(m##_64x2_t21, mem, sums, 64, 2, 21)                                               \
    TILE_ENGINE(m##_64x4_t4, mem, sums, 64, 4, 4)                                                 \
    TILE_ENGINE(m##_64x8_t1, mem, sums, 64, 8, 1)                                                 \
    TILE_ENGINE(m##_64x8_t8, mem, sums, 64, 8, 8)

TILES(CUDA_LIFE_SHARED, 0, shared_words)
TILES(CUDA_LIFE_SHARED, 1, shared_sums)
TILES(CUDA_LIFE_SHUFFLE, 0, shuffle_words)
TILES(CUDA_LIFE_SHUFFLE, 1, shuffle_sums)

#define LIST(m)                                                                                   \
    &engine_##m##_32x1_t1, &engine_##m##_32x1_t10, &engine_##m##_64x1_t15, &engine_##m##_64x2_t3, \
        &engine_##m##_64x2_t21, &engine_##m##_64x4_t4, &engine_##m##_64x8_t1, &engine_##m##_64x8_t8

static const cc_engine *const engines[] = {LIST(shared_words), LIST(shared_sums),
                                           LIST(shuffle_words), LIST(shuffle_sums)};

static const char *const rules[] = {
    "B3/S23",
    "B36/S23",
    "B0123478/S34678", /* B0: a dead neighbourhood comes alive, so spoiled borders would show */
    "R1,C2,M1,S3..4,B3..3,NM",
    "B1/S8",
};

typedef struct size_steps {
    int32_t w, h;
    int64_t steps;
} size_steps;

/* Small sides (a tile wraps the torus several times), sides just past word columns of 22..62
 * cells and strips of 2..254 rows, the torus seam inside a word; steps below, at, past a launch. */
static const size_steps shapes[] = {
    {3, 3, 5},     {5, 7, 23},     {67, 33, 1},    {130, 61, 9},   {257, 255, 22},
    {1100, 67, 43}, {65, 1025, 17}, {97, 300, 64}, {127, 259, 2}, {44, 129, 0},
};

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {LIST(shared_words), LIST(shared_sums),
                                       LIST(shuffle_words), LIST(shuffle_sums), NULL};
    cc_supervisor *sv;
    int status = 0;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    if (cc_harness_skip(cc_supervised(sv, engines[0]), &status)) {
        cc_supervisor_close(sv);
        return status;
    }
    int cases = 0, passed = 0;
    const size_t n_engines = sizeof engines / sizeof engines[0];
    const size_t n_shapes = sizeof shapes / sizeof shapes[0];
    const size_t n_rules = sizeof rules / sizeof rules[0];
    for (size_t e = 0; e < n_engines; e++) {
        int engine_failed = 0;
        for (size_t s = 0; s < n_shapes; s++) {
            cc_case c;
            memset(&c, 0, sizeof c);
            cc_error err;
            if (cc_rule_parse(rules[(e + s) % n_rules], &c.rule, &err)) {
                printf("rule: %s\n", err.msg);
                return 1;
            }
            c.w = shapes[s].w;
            c.h = shapes[s].h;
            c.steps = shapes[s].steps;
            c.density = 0.1 + 0.08 * (double)s;
            c.grid_kind = (cc_grid_kind)((e + s) % CC_GRID_KIND_COUNT);
            for (int b = 0; b < CC_SEED_BYTES; b++) c.seed[b] = (uint8_t)(17 * e + 31 * s + b);
            cc_check_result res;
            cases++;
            int rc = cc_case_check(cc_supervised(sv, engines[e]), &c, &res, &err);
            char line[CC_CASE_TEXT_MAX];
            if (case_format(&c, line, sizeof line, &err)) snprintf(line, sizeof line, "?");
            if (rc) {
                printf("%s: could not check %s: %s\n", engines[e]->name, line, err.msg);
                engine_failed = 1;
            } else if (res.outcome != CC_OUTCOME_PASS) {
                printf("%s: FAILED %s (%s, %llu cells differ)\n", engines[e]->name, line,
                       res.detail, (unsigned long long)res.differing);
                engine_failed = 1;
            } else {
                passed++;
            }
        }
        printf("%s (%s): %s\n", engines[e]->name, engines[e]->summary,
               engine_failed ? "FAILED" : "passed");
    }
    printf("life_tiles_test: %d engines, %d cases, %d passed: %s\n", (int)n_engines, cases,
           passed, passed == cases ? "PASSED" : "FAILED");
    cc_supervisor_close(sv);
    return passed == cases ? 0 : 1;
}
