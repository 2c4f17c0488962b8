/* The cases a campaign draws cover what it promises: extremes of radius, size, steps, density and
 * count ranges, invalid cases of every kind the caps allow, large radii with their steps, narrow
 * caps and each shape's limits. The engines run in workers of this executable: the harness is
 * given their supervisor's descriptions. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, access */

#include "harness/campaign.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/mutants/mutants.h"
#include "harness/harness.h"
#include "testing/check.h"

#define CAMPAIGN_TEST_NAME "campaign_cases_test"
#include "harness/tests_shared.h"

static cc_engine narrow_caps(void) {
    cc_engine e = cc_mutant_control;
    e.name = "test.narrow";
    e.caps = (cc_engine_caps){.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),
                              .radius_min = 2,
                              .radius_max = 8,
                              .centres = CC_CENTRE_M1,
                              .w_multiple = 8,
                              .h_multiple = 4,
                              .w_max = 64,
                              .h_max = 48,
                              .count_max = 100};
    return e;
}

static int is_prime(int32_t n) {
    if (n < 2) return 0;
    for (int32_t d = 2; d * d <= n; d++)
        if (n % d == 0) return 0;
    return 1;
}

/* The test's engines: tables made before the worker hook, as the worker needs them too. */
static cc_engine general, narrow, wide, per_shape;

/* Every drawn case prints as a line that reads back as the same case. */
static void expect_line_round_trip(checks *t, const cc_case *c, uint64_t i) {
    char line[CC_CASE_TEXT_MAX];
    cc_case back;
    cc_error err;
    cc_error_clear(&err);
    int rc = case_format(c, line, sizeof line, &err);
    if (rc == CC_OK) rc = case_parse(line, &back, &err);
    CHECKF(t,
           rc == CC_OK && cc_rule_equal(&c->rule, &back.rule) && c->w == back.w && c->h == back.h &&
               c->steps == back.steps && c->density == back.density &&
               c->grid_kind == back.grid_kind && memcmp(c->seed, back.seed, CC_SEED_BYTES) == 0,
           "case %" PRIu64 " does not round-trip through '%s' (%s)", i, line, err.msg);
}

typedef struct coverage {
    int n, invalid;
    int r_min, r_max, shapes[CC_SHAPE_COUNT], m0, m1;
    int w_smallest, h_smallest, w_prime, w_pow2, non_square, w_big;
    int d0, d1, d_low, d_high, steps0, steps1, steps_many;
    int s_top, s_below_top, s_zero, b_top, b_below_top, b_zero, multi_range;
    int large, large_long, large_non_square, large_steps[5], kinds[CC_GRID_KIND_COUNT];
} coverage;

/* 2^k - 1, 2^k or 2^k + 1 for 2^k in 64..2048. */
static int power_side(int32_t v) {
    for (int k = 6; k <= 11; k++)
        if (v >= (1 << k) - 1 && v <= (1 << k) + 1) return 1;
    return 0;
}

/* n*tile - 1, n*tile or n*tile + 1 for n >= 2. */
static int tile_side(int32_t v, int32_t tile) {
    return tile > 0 && v >= 2 * tile - 1 && ((v + 1) % tile <= 2);
}

static void tally(coverage *cv, const cc_engine *e, const cc_drawn_case *d) {
    cv->n++;
    cv->kinds[d->c.grid_kind]++;
    if (d->large) {
        cv->large++;
        cv->large_long += d->c.w >= 1100 || d->c.h >= 1100;
        cv->large_non_square += d->c.w != d->c.h;
        cv->large_steps[d->c.steps > 4 ? 0 : d->c.steps]++;
        return;
    }
    if (d->expect_refusal) {
        cv->invalid++;
        return;
    }
    const cc_case *c = &d->c;
    const cc_rule *r = &c->rule;
    int32_t max = cc_rule_max_count(r);
    cc_engine_caps caps = cc_engine_caps_resolved(e);
    cv->r_min += r->radius == caps.radius_min;
    cv->r_max += r->radius == caps.radius_max;
    cv->shapes[r->shape]++;
    cv->m0 += r->centre == 0;
    cv->m1 += r->centre == 1;
    cv->w_smallest += c->w == 2 * r->radius + 1;
    cv->h_smallest += c->h == 2 * r->radius + 1;
    cv->w_prime += is_prime(c->w) && c->w > 2 * r->radius + 1;
    cv->w_pow2 += (c->w & (c->w - 1)) == 0;
    cv->non_square += c->w != c->h;
    cv->w_big += c->w >= 100;
    cv->d0 += c->density == 0.0;
    cv->d1 += c->density == 1.0;
    cv->d_low += c->density > 0.0 && c->density <= 0.05;
    cv->d_high += c->density < 1.0 && c->density >= 0.95;
    cv->steps0 += c->steps == 0;
    cv->steps1 += c->steps == 1;
    cv->steps_many += c->steps >= 9;
    const cc_set *s = &r->survive, *b = &r->birth;
    cv->s_top += s->n > 0 && s->r[s->n - 1].hi == max;
    cv->s_below_top += s->n > 0 && s->r[s->n - 1].hi == max - 1;
    cv->s_zero += s->n > 0 && s->r[0].lo == 0;
    cv->b_top += b->n > 0 && b->r[b->n - 1].hi == max;
    cv->b_below_top += b->n > 0 && b->r[b->n - 1].hi == max - 1;
    cv->b_zero += b->n > 0 && b->r[0].lo == 0;
    cv->multi_range += s->n > 1 || b->n > 1;
}

static void test_general_coverage(checks *t) {
    const cc_engine *e = described(&general);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    coverage cv = {0};
    for (uint64_t i = 0; i < 2000; i++) {
        cc_drawn_case d;
        cc_error err;
        int rc = cc_campaign_case(e, &opt, i, &d, &err);
        CHECKF(t, rc == CC_OK, "case %" PRIu64 ": %s", i, err.msg);
        if (rc) return;
        cc_error check;
        int refused = cc_engine_check(e, &d.c.rule, d.c.w, d.c.h, &check) != CC_OK;
        CHECKF(t, refused == d.expect_refusal, "case %" PRIu64 ": drawn %s, caps say %s", i,
               d.expect_refusal ? "invalid" : "valid", refused ? check.msg : "valid");
        CHECKF(t, d.c.w >= 2 * d.c.rule.radius + 1 && d.c.h >= 2 * d.c.rule.radius + 1,
               "case %" PRIu64 " smaller than 2r+1", i);
        expect_line_round_trip(t, &d.c, i);
        if (d.large) {
            /* Past the blocks: sides from the stated set, 1..4 steps, within the large budget. */
            int32_t least = 2 * d.c.rule.radius + 1;
            CHECKF(t, (power_side(d.c.w) || d.c.w == least) && (power_side(d.c.h) || d.c.h == least) &&
                          (power_side(d.c.w) || power_side(d.c.h)),
                   "large case %" PRIu64 " %dx%d: a side outside 2^k-1..2^k+1 and 2r+1", i,
                   (int)d.c.w, (int)d.c.h);
            CHECKF(t, d.c.steps >= 1 && d.c.steps <= 4 &&
                          case_cost(&d.c) <= CC_CAMPAIGN_DEFAULT_LARGE_BUDGET,
                   "large case %" PRIu64 " costs %g with %" PRId64 " steps", i,
                   case_cost(&d.c), d.c.steps);
        } else if (!d.expect_refusal) {
            CHECKF(t,
                   d.c.w <= CC_CAMPAIGN_DEFAULT_SIZE_MAX && d.c.h <= CC_CAMPAIGN_DEFAULT_SIZE_MAX,
                   "case %" PRIu64 " %dx%d beyond the default size limit", i, (int)d.c.w,
                   (int)d.c.h);
            CHECKF(t, case_cost(&d.c) <= CC_CAMPAIGN_DEFAULT_BUDGET || d.c.steps == 1,
                   "case %" PRIu64 " costs %g with %" PRId64 " steps", i, case_cost(&d.c),
                   d.c.steps);
        } else {
            CHECKF(t, d.c.rule.radius > e->caps.radius_max,
                   "general caps: invalid case %" PRIu64 " should break the radius, breaks %s", i,
                   d.why);
        }
        tally(&cv, e, &d);
    }
    printf("general caps, 2000 draws: %d invalid; r=min %d, r=max %d; shapes NM %d NN %d N+ %d NC "
           "%d NH %d; M0 %d M1 %d\n",
           cv.invalid, cv.r_min, cv.r_max, cv.shapes[0], cv.shapes[1], cv.shapes[2],
           cv.shapes[3], cv.shapes[4], cv.m0, cv.m1);
    printf("  W=2r+1 %d, H=2r+1 %d, W prime %d, W power of two %d, non-square %d, W>=100 %d\n",
           cv.w_smallest, cv.h_smallest, cv.w_prime, cv.w_pow2, cv.non_square, cv.w_big);
    printf("  density 0 %d, 1 %d, <=0.05 %d, >=0.95 %d; steps 0 %d, 1 %d, >=9 %d\n", cv.d0,
           cv.d1, cv.d_low, cv.d_high, cv.steps0, cv.steps1, cv.steps_many);
    printf("  S to max %d, to max-1 %d, from 0 %d; B to max %d, to max-1 %d, from 0 %d; "
           "several ranges %d\n",
           cv.s_top, cv.s_below_top, cv.s_zero, cv.b_top, cv.b_below_top, cv.b_zero,
           cv.multi_range);
    printf("  large %d (a side >= 1100: %d, non-square %d; steps 1 %d, 2 %d, 3 %d, 4 %d); grid "
           "kinds uniform %d, patches %d, bands %d, cells %d, holes %d, checker %d\n",
           cv.large, cv.large_long, cv.large_non_square, cv.large_steps[1], cv.large_steps[2],
           cv.large_steps[3], cv.large_steps[4], cv.kinds[0], cv.kinds[1], cv.kinds[2],
           cv.kinds[3], cv.kinds[4], cv.kinds[5]);
    /* About 15% of the 1800 valid cases are large; half of those have a side past 1100. */
    int valid = cv.n - cv.invalid;
    CHECKF(t, cv.large >= valid / 8 && cv.large <= valid / 4, "large cases %d of %d", cv.large,
           valid);
    CHECKF(t, cv.large_long >= cv.large * 2 / 5 && cv.large_non_square >= cv.large * 4 / 5,
           "large cases: %d with a side >= 1100, %d non-square, of %d", cv.large_long,
           cv.large_non_square, cv.large);
    for (int k = 1; k <= 4; k++)
        CHECKF(t, cv.large_steps[k] >= cv.large / 10, "large cases with %d steps: %d", k,
               cv.large_steps[k]);
    CHECKF(t, cv.kinds[0] >= 1200 && cv.kinds[0] <= 1600, "uniform grids %d of 2000", cv.kinds[0]);
    for (int k = 1; k < CC_GRID_KIND_COUNT; k++)
        CHECKF(t, cv.kinds[k] >= 70, "grid kind %s: %d of 2000",
               case_grid_kind_name((cc_grid_kind)k), cv.kinds[k]);
    /* Each at least a few dozen times in 2000 draws (the weights give far more). */
    CHECKF(t, cv.invalid >= 120 && cv.invalid <= 280, "invalid share %d of 2000", cv.invalid);
    CHECKF(t, cv.r_min >= 50 && cv.r_max >= 50, "radius ends %d %d", cv.r_min, cv.r_max);
    for (int s = 0; s < CC_SHAPE_COUNT; s++)
        CHECKF(t, cv.shapes[s] >= 50, "shape %d: %d", s, cv.shapes[s]);
    CHECKF(t, cv.m0 >= 200 && cv.m1 >= 200, "centres %d %d", cv.m0, cv.m1);
    CHECKF(t, cv.w_smallest >= 50 && cv.h_smallest >= 50, "smallest sizes %d %d", cv.w_smallest,
           cv.h_smallest);
    CHECKF(t, cv.w_prime >= 50 && cv.w_pow2 >= 30 && cv.non_square >= 500 && cv.w_big >= 30,
           "sizes: primes %d, powers %d, non-square %d, big %d", cv.w_prime, cv.w_pow2,
           cv.non_square, cv.w_big);
    CHECKF(t, cv.d0 >= 30 && cv.d1 >= 30 && cv.d_low >= 60 && cv.d_high >= 60, "densities");
    CHECKF(t, cv.steps0 >= 50 && cv.steps1 >= 200 && cv.steps_many >= 30, "steps %d %d %d",
           cv.steps0, cv.steps1, cv.steps_many);
    CHECKF(t, cv.s_top >= 100 && cv.s_below_top >= 50 && cv.s_zero >= 100, "S ranges");
    CHECKF(t, cv.b_top >= 100 && cv.b_below_top >= 50 && cv.b_zero >= 100, "B ranges");
    CHECKF(t, cv.multi_range >= 50, "Life-like subsets %d", cv.multi_range);
}

/* An engine with the radii of cpu.ref (1..64) and a stated tile, for the draw's large cases and
 * its steps at large radii. */
static cc_engine wide_caps(void) {
    cc_engine e = general_caps();
    e.name = "test.wide";
    e.caps.radius_max = 64;
    e.caps.tile_w = 96;
    e.caps.tile_h = 40;
    return e;
}

/* Steps of valid cases with r > 16 over 2000 draws for an engine with radii 1..64: before cases
 * at large radii got steps of their own, 420 of 490 ran none. */
static void test_large_radius_steps(checks *t) {
    const cc_engine *e = described(&wide);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    int hist[6] = {0}, big_r = 0, big_r_multi_non_square = 0, large = 0, large_big_r = 0;
    int tile_w = 0, tile_h = 0;
    double work_large = 0, work_big_r = 0, work_rest = 0; /* cell-neighbour visits */
    for (uint64_t i = 0; i < 2000; i++) {
        cc_drawn_case d;
        cc_error err;
        int rc = cc_campaign_case(e, &opt, i, &d, &err);
        if (!CHECKF(t, rc == CC_OK, "case %" PRIu64 ": %s", i, err.msg)) return;
        if (!d.expect_refusal)
            *(d.large ? &work_large : d.c.rule.radius > 16 ? &work_big_r : &work_rest) +=
                case_cost(&d.c);
        if (d.large) {
            large++;
            large_big_r += d.c.rule.radius > 16;
            int tw = tile_side(d.c.w, 96), th = tile_side(d.c.h, 40);
            /* Where one step would cost more than the budget, the shorter side is the smallest. */
            int32_t least = 2 * d.c.rule.radius + 1;
            CHECKF(t, (power_side(d.c.w) || tw || d.c.w == least) &&
                          (power_side(d.c.h) || th || d.c.h == least) &&
                          (power_side(d.c.w) || tw || power_side(d.c.h) || th),
                   "large case %" PRIu64 " %dx%d r %d: a side from neither 2^k+-1 nor "
                   "n*tile+-1 nor 2r+1",
                   i, (int)d.c.w, (int)d.c.h, (int)d.c.rule.radius);
            tile_w += tw && !power_side(d.c.w);
            tile_h += th && !power_side(d.c.h);
            CHECKF(t, case_cost(&d.c) <= CC_CAMPAIGN_DEFAULT_LARGE_BUDGET && d.c.steps >= 1 &&
                          d.c.w >= 2 * d.c.rule.radius + 1 && d.c.h >= 2 * d.c.rule.radius + 1,
                   "large case %" PRIu64 " r %d %dx%d costs %g", i, (int)d.c.rule.radius,
                   (int)d.c.w, (int)d.c.h, case_cost(&d.c));
            continue;
        }
        if (d.expect_refusal || d.c.rule.radius <= 16) continue;
        big_r++;
        hist[d.c.steps >= 5 ? 5 : d.c.steps]++;
        big_r_multi_non_square += d.c.steps >= 2 && d.c.w != d.c.h;
    }
    printf("r > 16, 2000 draws for r 1..64: %d valid cases; steps 0: %d, 1: %d, 2: %d, 3: %d, "
           "4: %d, 5+: %d; %d with 2+ steps on non-square grids\n",
           big_r, hist[0], hist[1], hist[2], hist[3], hist[4], hist[5], big_r_multi_non_square);
    printf("  large: %d (r > 16: %d), W at n*96+-1 only %d, H at n*40+-1 only %d\n", large,
           large_big_r, tile_w, tile_h);
    printf("  work in cell-neighbour visits: large cases %.3g, others at r > 16 %.3g, the rest "
           "%.3g\n",
           work_large, work_big_r, work_rest);
    CHECKF(t, big_r_multi_non_square >= big_r / 4, "r > 16: %d of %d cases with 2+ steps",
           big_r_multi_non_square, big_r);
    CHECKF(t, hist[2] > 0 && hist[3] > 0 && hist[4] > 0 && hist[5] == 0, "r > 16 steps");
    CHECKF(t, tile_w >= 20 && tile_h >= 20 && large_big_r >= 10,
           "tile sides W %d, H %d; large at r > 16: %d", tile_w, tile_h, large_big_r);
}

static void test_narrow_caps(checks *t) {
    const cc_engine *e = described(&narrow);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    static const char *const kinds[] = {"above the engine's 8", "below the engine's 2",
                                        "shape", "centre M0", "W ", "H ",
                                        "counts up to"};
    int seen[7] = {0};
    int seen_w_max = 0, seen_h_max = 0, valid = 0;
    for (uint64_t i = 0; i < 2000; i++) {
        cc_drawn_case d;
        cc_error err;
        int rc = cc_campaign_case(e, &opt, i, &d, &err);
        CHECKF(t, rc == CC_OK, "case %" PRIu64 ": %s", i, err.msg);
        if (rc) return;
        cc_error check;
        int refused = cc_engine_check(e, &d.c.rule, d.c.w, d.c.h, &check) != CC_OK;
        CHECKF(t, refused == d.expect_refusal, "case %" PRIu64 ": caps %s", i, check.msg);
        expect_line_round_trip(t, &d.c, i);
        /* Sides up to 64x48 leave nothing past 2^6: no large case. */
        CHECKF(t, !d.large, "narrow caps: large case %" PRIu64 " %dx%d", i, (int)d.c.w,
               (int)d.c.h);
        if (!d.expect_refusal) {
            valid++;
            CHECKF(t,
                   d.c.w % 8 == 0 && d.c.h % 4 == 0 && d.c.w <= 64 && d.c.h <= 48 &&
                       d.c.rule.centre == 1,
                   "valid case %" PRIu64 " %dx%d", i, (int)d.c.w, (int)d.c.h);
            continue;
        }
        for (int k = 0; k < 7; k++)
            if (strstr(d.why, kinds[k])) seen[k]++;
        seen_w_max += strstr(d.why, "above the engine's 64") != NULL;
        seen_h_max += strstr(d.why, "above the engine's 48") != NULL;
    }
    printf("narrow caps: %d valid; invalid by radius high %d, low %d, shape %d, centre %d, W %d "
           "(above max %d), H %d (above max %d), counts %d\n",
           valid, seen[0], seen[1], seen[2], seen[3], seen[4], seen_w_max, seen[5], seen_h_max,
           seen[6]);
    for (int k = 0; k < 7; k++) CHECKF(t, seen[k] > 0, "no invalid case of kind '%s'", kinds[k]);
    CHECKF(t, seen_w_max > 0 && seen_h_max > 0, "W/H above max never drawn");
}

/* Caps of one shape (caps.shape_limits): von Neumann up to r = 4 and W up to 100, circular from
 * r = 3 and at most 4096 cells; Moore the engine's r 1..16. Valid cases keep each shape's own
 * limits and still reach its ends; invalid ones break each of them alone. */
static cc_engine per_shape_caps(void) {
    cc_engine e = general_caps();
    e.name = "test.per-shape";
    e.caps = (cc_engine_caps){
        .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN) |
                  CC_SHAPE_BIT(CC_SHAPE_CIRCULAR),
        .radius_max = 16,
        .shape_limits = {[CC_SHAPE_VON_NEUMANN] = {.radius_max = 4, .w_max = 100},
                         [CC_SHAPE_CIRCULAR] = {.radius_min = 3, .cells_max = 4096}}};
    return e;
}

static void test_shape_limits(checks *t) {
    const cc_engine *e = described(&per_shape);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    static const char *const kinds[] = {"outside NN's own 1..4", "above NN's own 100",
                                        "outside NC's own 3..16", "above NC's own 4096 cells"};
    int seen[4] = {0}, nn_r4 = 0, nc_r3 = 0, nm_r16 = 0, nn = 0, nc = 0, large_nn = 0;
    for (uint64_t i = 0; i < 2000; i++) {
        cc_drawn_case d;
        cc_error err;
        int rc = cc_campaign_case(e, &opt, i, &d, &err);
        CHECKF(t, rc == CC_OK, "case %" PRIu64 ": %s", i, err.msg);
        if (rc) return;
        cc_error check;
        int refused = cc_engine_check(e, &d.c.rule, d.c.w, d.c.h, &check) != CC_OK;
        CHECKF(t, refused == d.expect_refusal, "case %" PRIu64 ": drawn %s, caps say %s", i,
               d.expect_refusal ? "invalid" : "valid", refused ? check.msg : "valid");
        const cc_case *c = &d.c;
        if (d.expect_refusal) {
            for (int k = 0; k < 4; k++) seen[k] += strstr(d.why, kinds[k]) != NULL;
            continue;
        }
        if (c->rule.shape == CC_SHAPE_VON_NEUMANN) {
            nn++;
            nn_r4 += c->rule.radius == 4;
            large_nn += d.large;
            CHECKF(t, c->rule.radius <= 4 && c->w <= 100, "NN case %" PRIu64 ": r %d, %dx%d", i,
                   (int)c->rule.radius, (int)c->w, (int)c->h);
        } else if (c->rule.shape == CC_SHAPE_CIRCULAR) {
            nc++;
            nc_r3 += c->rule.radius == 3;
            CHECKF(t, c->rule.radius >= 3 && (int64_t)c->w * c->h <= 4096,
                   "NC case %" PRIu64 ": r %d, %dx%d", i, (int)c->rule.radius, (int)c->w,
                   (int)c->h);
        } else {
            nm_r16 += c->rule.radius == 16;
        }
    }
    printf("per-shape caps: NN %d (r = 4: %d, large %d), NC %d (r = 3: %d), NM at r = 16 %d; "
           "invalid: NN radius %d, NN W %d, NC radius %d, NC cells %d\n",
           nn, nn_r4, large_nn, nc, nc_r3, nm_r16, seen[0], seen[1], seen[2], seen[3]);
    CHECKF(t, nn >= 300 && nc >= 300, "shapes drawn: NN %d, NC %d", nn, nc);
    CHECKF(t, nn_r4 >= 50 && nc_r3 >= 30 && nm_r16 >= 30, "ends: NN r = 4 %d, NC r = 3 %d, NM "
           "r = 16 %d", nn_r4, nc_r3, nm_r16);
    for (int k = 0; k < 4; k++) CHECKF(t, seen[k] > 0, "no invalid case '%s'", kinds[k]);
}

/* Only fills tables: it runs before the worker hook, in the worker too. */
static void make_engines(void) {
    general = general_caps();
    narrow = narrow_caps();
    wide = wide_caps();
    per_shape = per_shape_caps();
}

int main(int argc, char **argv) {
    make_engines();
    const cc_engine *tables[] = {&general, &narrow, &wide, &per_shape, NULL};
    int status;
    if (cc_harness_supervise(argc, argv, tables, &supervisor, &status)) return status;
    checks t = {"campaign_cases_test", 0, 0};
    test_general_coverage(&t);
    test_large_radius_steps(&t);
    test_narrow_caps(&t);
    test_shape_limits(&t);
    cc_supervisor_close(supervisor);
    return check_summary(&t);
}
