/* The emulated CAT method: exact at every radius its formats allow, for both accumulators and for
 * tiles other than 1x14; and the negative control: the same formulation with FP16 accumulators at
 * r = 23 and 24, where the Moore sum (2r+1)^2 passes 2048, disagrees with the oracle, and the
 * harness catches it. The engines run in workers of this executable: the harness is given their
 * supervisor's descriptions. And the integer sums the emulation runs by default give, grid for
 * grid, what the MMAs run one by one give, roundings included. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/cat_emu/cat_emu_core.h"
#include "engines/cuda/cat/cat_extremes.h"
#include "engines/engine.h"
#include "harness/harness.h"
#include "harness/campaign.h"
#include "testing/check.h"

extern const cc_engine cc_engine_cpu_cat_emu;

/* Test engines: the emulation with other configurations behind the same contract (the
 * contract's create checks the rule and size against their caps first). */
static int emu_f32_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    const cat_emu_config cfg = {CAT_NUM_F32, 1, 14, 1, 0};
    return cat_emu_create("test.cat-emu-f32", rule, w, h, &cfg, (cat_emu **)ctx, err);
}
static int emu_tiles_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    const cat_emu_config cfg = {CAT_NUM_F16, 2, 3, 1, 0};
    return cat_emu_create("test.cat-emu-2x3", rule, w, h, &cfg, (cat_emu **)ctx, err);
}
/* The negative control: FP16 sums, the exactness check off, caps that claim r up to 24. */
static int emu_unchecked_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                cc_error *err) {
    const cat_emu_config cfg = {CAT_NUM_F16, 1, 14, 0, 0};
    return cat_emu_create("test.cat-emu-fp16-r24", rule, w, h, &cfg, (cat_emu **)ctx, err);
}

static const cc_engine emu_f32 = {
    .name = "test.cat-emu-f32",
    .summary = "the emulation with FP32 accumulators",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = 32,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
    .create = emu_f32_create,
    CAT_EMU_FUNCTIONS,
};
static const cc_engine emu_tiles = {
    .name = "test.cat-emu-2x3",
    .summary = "the emulation with tiles of 2x3 fragments",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = 22,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
    .create = emu_tiles_create,
    CAT_EMU_FUNCTIONS,
};
static const cc_engine emu_unchecked = {
    .name = "test.cat-emu-fp16-r24",
    .summary = "the emulation with FP16 accumulators claiming r up to 24 (wrong on purpose)",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
             .radius_max = 24,
             .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
    .create = emu_unchecked_create,
    CAT_EMU_FUNCTIONS,
};

static void expect_all_pass(checks *t, const cc_engine *engine, int32_t r_lo, int32_t r_hi) {
    cat_extremes_result res;
    cat_extremes_run(engine, r_lo, r_hi, 0, &res);
    printf("%s: r %d..%d: %d largest-count cases, %d passed\n", engine->name, (int)r_lo, (int)r_hi,
           res.cases, res.passed);
    CHECKF(t, res.cases > 0 && res.passed == res.cases, "%s: %d of %d failed", engine->name,
           res.cases - res.passed, res.cases);
}

/* steps steps of rule on a W x H grid (cells from seed at density percent %, or all alive with
 * every 97th cell dead at percent 100) by cfg's MMAs one by one and by its sums: the same cells? */
static int sums_as_direct(checks *t, const char *rule_text, cat_emu_config cfg, int32_t w,
                          int32_t h, int percent, int steps, uint64_t seed) {
    cc_rule rule;
    cc_error err;
    if (!CHECKF(t, cc_rule_parse(rule_text, &rule, &err) == CC_OK, "%s: %s", rule_text, err.msg))
        return 0;
    const size_t n = (size_t)w * (size_t)h;
    uint8_t *cells = malloc(n), *out[2] = {malloc(n), malloc(n)};
    int ok = cells && out[0] && out[1];
    for (size_t i = 0; ok && i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        cells[i] = percent >= 100 ? i % 97 != 0 : (int)(seed % 100) < percent;
    }
    for (int direct = 0; ok && direct < 2; direct++) {
        cat_emu *e = NULL;
        cfg.direct = direct;
        ok = cat_emu_create("test.cat-emu-sums", &rule, w, h, &cfg, &e, &err) == CC_OK &&
             cat_emu_load(e, cells, &err) == CC_OK && cat_emu_step(e, steps, &err) == CC_OK &&
             cat_emu_store(e, out[direct], &err) == CC_OK;
        CHECKF(t, ok, "%s %dx%d: %s", rule_text, (int)w, (int)h, err.msg);
        cat_emu_destroy(e);
    }
    int same = ok && memcmp(out[0], out[1], n) == 0;
    CHECKF(t, !ok || same, "%s %dx%d, %d%% alive, %d steps, %s accumulators, tiles %dx%d: the sums "
           "differ from the MMAs one by one", rule_text, (int)w, (int)h, percent, steps,
           cat_number_name(cfg.accumulator), (int)cfg.tile_w, (int)cfg.tile_h);
    free(cells);
    free(out[0]);
    free(out[1]);
    return same;
}

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {&cc_engine_cpu_cat_emu, &emu_f32, &emu_tiles, &emu_unchecked,
                                       NULL};
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    checks t = {"cat_emu_test", 0, 0};
    const cc_engine *emu = cc_supervised(sv, &cc_engine_cpu_cat_emu),
                    *f32 = cc_supervised(sv, &emu_f32), *tiles = cc_supervised(sv, &emu_tiles),
                    *unchecked = cc_supervised(sv, &emu_unchecked);
    if (!CHECK(&t, emu && f32 && tiles && unchecked)) {
        cc_supervisor_close(sv);
        return check_summary(&t);
    }

    /* The caps of the emulation are those of the exactness argument. */
    CHECK_EQ(&t, cc_engine_cpu_cat_emu.caps.radius_max,
             cat_radius_exact_max(CC_SHAPE_MOORE, CAT_NUM_F16, CAT_NUM_F16));

    /* Exact everywhere the formats allow: FP16 sums to r = 22, FP32 sums to r = 32 (the halo's
     * limit), at the largest counts; other tiles give the same cells. */
    expect_all_pass(&t, emu, 1, 22);
    expect_all_pass(&t, f32, 1, 32);
    expect_all_pass(&t, tiles, 1, 18);
    {
        cc_campaign_options opt;
        cc_campaign_options_init(&opt);
        opt.cases = 80;
        cc_campaign_result res;
        cc_error err;
        int rc = cc_campaign_run(tiles, &opt, &res, &err);
        CHECKF(&t, rc == CC_OK, "campaign of %s: %s", emu_tiles.name, rc ? err.msg : "");
    }

    /* The exactness check refuses r = 23 with FP16 sums, naming the limit. */
    {
        cc_rule rule;
        cc_error err;
        CHECK_EQ(&t, cc_rule_parse("R23,C2,M1,S2000..2209,B2000..2208,NM", &rule, &err), CC_OK);
        cat_emu_config cfg = {CAT_NUM_F16, 1, 14, 1, 0};
        cat_emu *e = NULL;
        int rc = cat_emu_create("cpu.cat-emu", &rule, 47, 47, &cfg, &e, &err);
        CHECK_REFUSED(&t, rc, &err, "2048", "FP16 sums at r = 23");
        CHECK(&t, strstr(err.msg, "2209") != NULL);
        cat_emu_destroy(e);
        cfg.accumulator = CAT_NUM_F32;
        rc = cat_emu_create("cpu.cat-emu", &rule, 47, 47, &cfg, &e, &err);
        CHECK_EQ(&t, rc, CC_OK);
        cat_emu_destroy(e);
    }

    /* The negative control. Below r = 23 it is exact; at r = 23 and 24 the FP16 sums round
     * (2209 becomes 2208) and cells differ from the oracle; with FP32 sums the same cases pass. */
    expect_all_pass(&t, unchecked, 20, 22);
    {
        cat_extremes_result res;
        cat_extremes_run(unchecked, 23, 24, 1, &res);
        printf("%s: r 23..24: %d largest-count cases, %d differ from the oracle\n",
               emu_unchecked.name, res.cases, res.mismatched);
        CHECKF(&t, res.mismatched > 0, "no case at r = 23, 24 differs from the oracle");
        CHECK_EQ(&t, res.other_failures + res.infra_errors, 0);
    }
    expect_all_pass(&t, f32, 23, 24);
    {
        /* The conformance harness every engine runs catches it on its own, from the caps. */
        cc_campaign_options opt;
        cc_campaign_options_init(&opt);
        opt.cases = 20;
        opt.radius_lo = 20;
        opt.radius_hi = 24;
        opt.shrink_tries = 20;
        cc_conformance_summary sum;
        cc_error err;
        printf("--- the harness on %s (expected to fail):\n", emu_unchecked.name);
        int rc = cc_conformance_run(unchecked, &opt, &sum, &err);
        printf("--- end of the expected failure\n");
        CHECKF(&t, rc == CC_OK, "the conformance run could not run: %s", err.msg);
        CHECKF(&t, !sum.passed && sum.failed > 0,
               "the harness passed an engine whose FP16 sums round (failed %d)", sum.failed);
    }

    /* The sums against the MMAs one by one, where FP16 rounds (r = 23, 24: a cell's sum reaches
     * 2209 and 2401) and where nothing rounds, Moore and the cross, other tiles, FP32. */
    {
        const cat_emu_config f16 = {CAT_NUM_F16, 1, 14, 0, 0}, f32 = {CAT_NUM_F32, 1, 14, 1, 0},
                             tiles = {CAT_NUM_F16, 2, 3, 0, 0};
        const int densities[] = {100, 97, 60};
        int cases = 0, same = 0;
        for (int i = 0; i < 3; i++) {
            const uint64_t seed = 0x9E3779B97F4A7C15ull + (uint64_t)i;
            cases += 8;
            same += sums_as_direct(&t, "R23,C2,M1,S2000..2209,B2000..2208,NM", f16, 101, 67,
                                   densities[i], 2, seed);
            same += sums_as_direct(&t, "R24,C2,M0,S1900..2400,B2100..2400,NM", f16, 99, 130,
                                   densities[i], 2, seed);
            same += sums_as_direct(&t, "R24,C2,M1,S1900..2401,B2100..2400,NM", tiles, 150, 52,
                                   densities[i], 1, seed);
            same += sums_as_direct(&t, "R24,C2,M1,S50..97,B40..90,N+", f16, 67, 49, densities[i],
                                   2, seed);
            same += sums_as_direct(&t, "B3/S23", f16, 37, 19, densities[i], 5, seed);
            same += sums_as_direct(&t, "R17,C2,M1,S300..800,B350..600,NM", f32, 70, 40,
                                   densities[i], 2, seed);
            same += sums_as_direct(&t, "R32,C2,M1,S2000..4225,B2100..4000,NM", f32, 65, 65,
                                   densities[i], 1, seed);
            same += sums_as_direct(&t, "R9,C2,M1,S10..30,B12..25,N+", tiles, 45, 33, densities[i],
                                   3, seed);
        }
        printf("sums against the MMAs one by one: %d of %d cases the same\n", same, cases);
    }
    cc_supervisor_close(sv);
    return check_summary(&t);
}
