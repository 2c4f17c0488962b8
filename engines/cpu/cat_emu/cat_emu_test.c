/* The emulated CAT method: exact at every radius its formats allow, for both accumulators and for
 * tiles other than 1x14; and the negative control: the same formulation with FP16 accumulators at
 * r = 23 and 24, where the Moore sum (2r+1)^2 passes 2048, disagrees with the oracle, and the
 * harness catches it. The engines run in workers of this executable: the harness is given their
 * supervisor's descriptions. */
#include <stdio.h>
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
    const cat_emu_config cfg = {CAT_NUM_F32, 1, 14, 1};
    return cat_emu_create("test.cat-emu-f32", rule, w, h, &cfg, (cat_emu **)ctx, err);
}
static int emu_tiles_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    const cat_emu_config cfg = {CAT_NUM_F16, 2, 3, 1};
    return cat_emu_create("test.cat-emu-2x3", rule, w, h, &cfg, (cat_emu **)ctx, err);
}
/* The negative control: FP16 sums, the exactness check off, caps that claim r up to 24. */
static int emu_unchecked_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                                cc_error *err) {
    const cat_emu_config cfg = {CAT_NUM_F16, 1, 14, 0};
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
        cat_emu_config cfg = {CAT_NUM_F16, 1, 14, 1};
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
    cc_supervisor_close(sv);
    return check_summary(&t);
}
