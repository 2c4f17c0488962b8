/* The generator covers what the campaign promises (extremes of radius, size, steps, density and
 * count ranges; invalid cases of every kind the caps allow), deterministically; options and
 * sharding; the verdicts of cc_case_check for engines that misbehave in each way; the
 * one-line check and its report. The engines run in workers of this executable: the harness is
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

static cc_supervisor *supervisor;

/* The description of a table's engine, which the harness takes. */
static const cc_engine *described(const cc_engine *table) {
    const cc_engine *d = cc_supervised(supervisor, table);
    if (!d) {
        fprintf(stderr, "campaign_test: the worker does not know %s\n", table->name);
        exit(1);
    }
    return d;
}

static int no_hw(cc_error *err) {
    (void)err;
    return CC_OK;
}

/* Caps-only engines: drawing never calls their functions. */
static cc_engine general_caps(void) {
    cc_engine e = cc_mutant_control;
    e.name = "test.general";
    e.available = no_hw;
    return e;
}

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
static cc_engine general, narrow, wide, per_shape, lax, mute_all, refuser, forgetful, failing, failing_io,
    blocked;

static void test_determinism(checks *t) {
    const cc_engine *e = described(&general);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    char a[CC_CASE_TEXT_MAX], b[CC_CASE_TEXT_MAX], c[CC_CASE_TEXT_MAX];
    cc_drawn_case d1, d2, d3;
    cc_error err;
    for (uint64_t i = 0; i < 50; i++) {
        int rc = cc_campaign_case(e, &opt, i, &d1, &err) || cc_campaign_case(e, &opt, i, &d2, &err) ||
                 cc_campaign_case(e, &opt, i + 1, &d3, &err);
        CHECKF(t, rc == CC_OK, "%s", err.msg);
        if (rc) return;
        case_format(&d1.c, a, sizeof a, NULL);
        case_format(&d2.c, b, sizeof b, NULL);
        case_format(&d3.c, c, sizeof c, NULL);
        CHECKF(t, strcmp(a, b) == 0, "case %" PRIu64 " drawn twice differs:\n%s\n%s", i, a, b);
        CHECKF(t, strcmp(a, c) != 0, "cases %" PRIu64 " and the next are equal", i);
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(opt.master, i, seed);
        CHECKF(t, memcmp(seed, d1.c.seed, CC_SEED_BYTES) == 0, "case seed is not the derived seed");
    }
    /* A pinned draw: if the generator changes, recorded reproducers of old campaigns no longer
     * name the same cases, and this says so. */
    cc_campaign_case(e, &opt, 0, &d1, &err);
    case_format(&d1.c, a, sizeof a, NULL);
    printf("case 0 of the default campaign for %s: %s\n", e->name, a);
}

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

static double case_cost(const cc_case *c) {
    double side = 2.0 * c->rule.radius + 1;
    return (double)c->w * c->h * side * side * (double)c->steps;
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

static void test_option_ranges(checks *t) {
    const cc_engine *e = described(&general);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.radius_lo = 3;
    opt.radius_hi = 5;
    opt.size_lo = 20;
    opt.size_hi = 30;
    opt.invalid_percent = 0;
    for (uint64_t i = 0; i < 300; i++) {
        cc_drawn_case d;
        cc_error err;
        int rc = cc_campaign_case(e, &opt, i, &d, &err);
        CHECKF(t, rc == CC_OK, "%s", err.msg);
        if (rc) return;
        CHECKF(t,
               !d.expect_refusal && !d.large && d.c.rule.radius >= 3 && d.c.rule.radius <= 5 &&
                   d.c.w >= 20 && d.c.w <= 30 && d.c.h >= 20 && d.c.h <= 30,
               "case %" PRIu64 ": r %d %dx%d", i, (int)d.c.rule.radius, (int)d.c.w, (int)d.c.h);
    }
    /* An explicit size range bounds large cases too; a smaller budget bounds their work; a
     * negative share turns them off. */
    opt.size_lo = 100;
    opt.size_hi = 600;
    opt.large_budget = 2e7;
    int large = 0;
    for (uint64_t i = 0; i < 300; i++) {
        cc_drawn_case d;
        cc_error err;
        if (!CHECKF(t, cc_campaign_case(e, &opt, i, &d, &err) == CC_OK, "%s", err.msg)) return;
        large += d.large;
        if (d.large)
            CHECKF(t, d.c.w >= 100 && d.c.w <= 600 && d.c.h >= 100 && d.c.h <= 600 &&
                          case_cost(&d.c) <= 2e7,
                   "large case %" PRIu64 " %dx%d r %d, %" PRId64 " steps, past the options", i,
                   (int)d.c.w, (int)d.c.h, (int)d.c.rule.radius, d.c.steps);
    }
    CHECKF(t, large >= 20, "sizes 100..600: %d large cases of 300", large);
    opt.large_percent = -1;
    for (uint64_t i = 0; i < 300; i++) {
        cc_drawn_case d;
        cc_error err;
        if (!CHECKF(t, cc_campaign_case(e, &opt, i, &d, &err) == CC_OK, "%s", err.msg)) return;
        if (!CHECKF(t, !d.large, "large case %" PRIu64 " with large_percent -1", i)) break;
    }
    opt.large_percent = 0;
    opt.large_budget = 0;

    cc_drawn_case d;
    cc_error err;
    cc_error_clear(&err);
    opt.radius_lo = 17;
    opt.radius_hi = 20;
    CHECKF(t, cc_campaign_case(e, &opt, 0, &d, &err) != CC_OK && strstr(err.msg, "1..16"),
           "radius range beyond caps: %s", err.msg);
    printf("refused as expected: %s\n", err.msg);
    opt.radius_lo = 10;
    opt.radius_hi = 12;
    opt.size_lo = 5;
    opt.size_hi = 15;
    CHECKF(t, cc_campaign_case(e, &opt, 0, &d, &err) != CC_OK && strstr(err.msg, "2r+1"),
           "sizes too small for radii: %s", err.msg);
    printf("refused as expected: %s\n", err.msg);

    int32_t lo = 0, hi = 0;
    CHECKF(t, cc_parse_int_range("3..7", &lo, &hi, &err) == CC_OK && lo == 3 && hi == 7, "3..7");
    CHECKF(t, cc_parse_int_range("16", &lo, &hi, &err) == CC_OK && lo == 16 && hi == 16, "16");
    static const char *const bad[] = {"", "7..3", "0..3", "a..b", "3..", "..3", "3...5", "-1..2",
                                      "3..5x", "99999999999"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cc_error_clear(&err);
        CHECKF(t, cc_parse_int_range(bad[k], &lo, &hi, &err) != CC_OK && err.msg[0],
               "range '%s' accepted", bad[k]);
    }
}

static void test_env(checks *t) {
    const char *tmp = getenv("TEST_TMPDIR");
    char status[512];
    snprintf(status, sizeof status, "%s/shard_status", tmp ? tmp : "/tmp");
    unlink(status);
    setenv("TEST_TOTAL_SHARDS", "3", 1);
    setenv("TEST_SHARD_INDEX", "1", 1);
    setenv("TEST_SHARD_STATUS_FILE", status, 1);
    setenv("TEST_UNDECLARED_OUTPUTS_DIR", "/some/outputs", 1);
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    cc_error err;
    int rc = cc_campaign_options_from_env(&opt, &err);
    CHECKF(t, rc == CC_OK && opt.shard_count == 3 && opt.shard_index == 1, "shards %u/%u (%s)",
           opt.shard_index, opt.shard_count, err.msg);
    CHECKF(t, access(status, F_OK) == 0, "shard status file %s not touched", status);
    CHECKF(t, opt.report_dir && strcmp(opt.report_dir, "/some/outputs") == 0, "report dir");
    setenv("TEST_SHARD_INDEX", "3", 1);
    cc_campaign_options_init(&opt);
    CHECKF(t, cc_campaign_options_from_env(&opt, &err) != CC_OK && err.msg[0], "index 3 of 3");
    printf("refused as expected: %s\n", err.msg);
    setenv("TEST_TOTAL_SHARDS", "x", 1);
    CHECKF(t, cc_campaign_options_from_env(&opt, &err) != CC_OK && err.msg[0], "shards x");
    printf("refused as expected: %s\n", err.msg);
    unsetenv("TEST_TOTAL_SHARDS");
    unsetenv("TEST_SHARD_INDEX");
    unsetenv("TEST_SHARD_STATUS_FILE");
    unsetenv("TEST_UNDECLARED_OUTPUTS_DIR");
}

static void test_sharding(checks *t, FILE *sink) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = 60;
    opt.out = sink;
    opt.large_percent = -1; /* sharding, not the draw: keep the cases quick */
    cc_campaign_result whole, part;
    cc_error err;
    const cc_engine *control = described(&cc_mutant_control);
    int rc = cc_campaign_run(control, &opt, &whole, &err);
    CHECKF(t, rc == CC_OK && whole.run == 60, "unsharded: %s", err.msg);
    uint64_t run = 0, passed = 0, refused = 0;
    opt.shard_count = 3;
    for (uint32_t s = 0; s < 3; s++) {
        opt.shard_index = s;
        rc = cc_campaign_run(control, &opt, &part, &err);
        CHECKF(t, rc == CC_OK && part.run == 20, "shard %u ran %" PRIu64 " (%s)", s, part.run,
               err.msg);
        run += part.run;
        passed += part.passed;
        refused += part.refused;
    }
    CHECKF(t, run == whole.run && passed == whole.passed && refused == whole.refused,
           "shards sum to %" PRIu64 "/%" PRIu64 "/%" PRIu64 ", whole %" PRIu64 "/%" PRIu64
           "/%" PRIu64,
           run, passed, refused, whole.run, whole.passed, whole.refused);
    opt.shard_index = 3;
    CHECKF(t, cc_campaign_run(control, &opt, &part, &err) != CC_OK, "shard 3 of 3 ran");
    /* A mutant sharded: each shard reports the first failure among its own cases. */
    opt.cases = 200;
    for (uint32_t s = 0; s < 3; s++) {
        opt.shard_index = s;
        rc = cc_campaign_run(described(cc_mutants_all()[0]), &opt, &part, &err);
        CHECKF(t, rc == CC_ERR_MISMATCH && part.has_failure && part.first_failure % 3 == s,
               "mutant in shard %u: rc %d, first failure %" PRIu64, s, rc, part.first_failure);
    }
}

/* ---- Engines that misbehave in one way each, built on the control loop ----------------- */

static int create_lax(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    /* Skips the caps check for radii up to 20: accepts what it must refuse. */
    cc_rule r = *rule;
    if (r.radius > 16 && r.radius <= 20) r.radius = 16;
    if (2 * r.radius + 1 > w || 2 * r.radius + 1 > h) r.radius = 1;
    return cc_mutant_control.create(&r, w, h, ctx, err);
}

static int create_mute(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h, (void)ctx;
    if (err) err->msg[0] = '\0';
    return CC_ERR_UNSUPPORTED;
}

static int create_none(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h, (void)ctx;
    return cc_fail(err, CC_ERR_UNSUPPORTED, "test.refuser: refuses everything");
}

static int store_nothing(void *ctx, uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells, (void)err;
    return CC_OK;
}

static int step_fails(void *ctx, int64_t k, cc_error *err) {
    (void)ctx;
    return k > 0 ? cc_fail(err, CC_ERR_DEVICE, "test.stepfail: step(%lld) failed", (long long)k)
                 : CC_OK;
}

static int step_fails_io(void *ctx, int64_t k, cc_error *err) {
    (void)ctx;
    return k > 0 ? cc_fail(err, CC_ERR_IO, "test.stepfail-io: step(%lld) failed", (long long)k)
                 : CC_OK;
}

/* Right for step(1), one step short for step(k) with k >= 2: only a one-call run shows it. */
static int step_blocked(void *ctx, int64_t k, cc_error *err) {
    return cc_mutant_control.step(ctx, k >= 2 ? k - 1 : k, err);
}

static const char *const valid_line =
    "rule=R2,C2,M1,S3..12,B4..9,NM size=13x11 steps=3 density=0.4000 "
    "seed=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
static const char *const invalid_line = /* radius 17: beyond the control's 1..16 */
    "rule=R17,C2,M1,S3..12,B4..9,NM size=35x36 steps=3 density=0.4000 "
    "seed=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

static void expect_kind(checks *t, const cc_engine *e, const char *line, cc_outcome outcome,
                        cc_failure_kind kind) {
    cc_case c;
    cc_error err;
    if (!CHECKF(t, case_parse(line, &c, &err) == CC_OK, "cannot parse %s: %s", line, err.msg))
        return;
    cc_check_result res;
    int rc = cc_case_check(e, &c, &res, &err);
    CHECKF(t, rc == CC_OK && res.outcome == outcome && res.kind == kind,
           "%s: outcome %d kind %s, want %d %s (%s)", e->name, res.outcome,
           cc_failure_kind_name(res.kind), outcome, cc_failure_kind_name(kind), res.detail);
    printf("%s: %s: %s\n", e->name,
           res.outcome == CC_OUTCOME_PASS ? "pass" : cc_failure_kind_name(res.kind), res.detail);
}

static void test_verdicts(checks *t, const char *report_dir) {
    const cc_engine *control = described(&cc_mutant_control), *blocked_d = described(&blocked);
    expect_kind(t, control, valid_line, CC_OUTCOME_PASS, CC_FAILURE_NONE);
    expect_kind(t, control, invalid_line, CC_OUTCOME_REFUSED, CC_FAILURE_NONE);
    /* An engine that forgets a limit of its caps never sees such a case: the contract refuses it. */
    expect_kind(t, described(&lax), invalid_line, CC_OUTCOME_REFUSED, CC_FAILURE_NONE);
    /* An engine that refuses a case within its caps without a message gets one named for it. */
    expect_kind(t, described(&mute_all), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_REFUSED_VALID);
    expect_kind(t, described(&refuser), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_REFUSED_VALID);
    /* The supervisor sees store's cells left unwritten before any comparison. */
    expect_kind(t, described(&forgetful), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_CONTRACT);
    /* CC_ERR_DEVICE is a device fault whatever the hardware; any other code, an engine error. */
    expect_kind(t, described(&failing), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_DEVICE_ERROR);
    expect_kind(t, described(&failing_io), valid_line, CC_OUTCOME_FAIL, CC_FAILURE_ENGINE_ERROR);
    expect_kind(t, blocked_d, valid_line, CC_OUTCOME_FAIL, CC_FAILURE_MISMATCH);

    /* The blocked engine agrees step by step; the report must say so and find j = 2. */
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.report_dir = report_dir;
    char path[1024];
    snprintf(path, sizeof path, "%s/check_line.txt", report_dir);
    FILE *out = fopen(path, "w+");
    if (!CHECKF(t, out != NULL, "cannot open %s", path)) return;
    opt.out = out;
    cc_failure_report rep;
    cc_error err;
    int rc = cc_campaign_check_line(blocked_d, valid_line, &opt, &rep, &err);
    CHECKF(t, rc == CC_ERR_MISMATCH, "blocked: rc %d", rc);
    CHECKF(t,
           rep.divergence.known && rep.divergence.single_steps_agree &&
               rep.divergence.first_step == 2,
           "blocked: first step %" PRId64 ", single steps agree %d", rep.divergence.first_step,
           rep.divergence.single_steps_agree);
    CHECKF(t, rep.divergence.png[0] && access(rep.divergence.png, R_OK) == 0,
           "blocked: no picture at '%s'", rep.divergence.png);
    /* Shrinking keeps the failure: at least 2 steps, as step(1) is right. */
    CHECKF(t,
           rep.shrunk && rep.smallest.steps == 2 && rep.smallest_result.kind == CC_FAILURE_MISMATCH,
           "blocked: shrunk to %s", rep.smallest_line);

    /* The swap mutant by one line: the printed report ends with the reproducers. */
    rc = cc_campaign_check_line(described(cc_mutants_all()[4]), valid_line, &opt, &rep, &err);
    CHECKF(t, rc == CC_ERR_MISMATCH && strcmp(cc_mutants_all()[4]->name, "mutant.swap") == 0,
           "swap: rc %d", rc);
    CHECKF(t,
           rep.shrunk && rep.smallest_result.outcome == CC_OUTCOME_FAIL &&
               (int64_t)rep.smallest.w * rep.smallest.h < 13 * 11 && rep.smallest.steps <= 3,
           "swap shrunk to %s", rep.smallest_line);
    rc = cc_campaign_check_line(control, valid_line, &opt, NULL, &err);
    CHECKF(t, rc == CC_OK, "control line: %s", err.msg);
    rc = cc_campaign_check_line(control, invalid_line, &opt, NULL, &err);
    CHECKF(t, rc == CC_OK, "control refusing: %s", err.msg);
    cc_error_clear(&err);
    rc = cc_campaign_check_line(control, "rule=B3/S23 size=9x9", &opt, NULL, &err);
    CHECKF(t, rc == CC_ERR_ARG && err.msg[0], "malformed line: rc %d", rc);

    fflush(out);
    rewind(out);
    char text[32768];
    size_t len = fread(text, 1, sizeof text - 1, out);
    text[len] = '\0';
    fclose(out);
    char want[512];
    snprintf(want, sizeof want, "reproduce: cellcheck check --engine mutant.swap --case '%s'\n",
             valid_line);
    CHECKF(t, strstr(text, want) != NULL, "report lacks '%s'", want);
    CHECKF(t, strstr(text, "first diverging step: 2 of 3 (step(1) repeated agrees") != NULL,
           "report lacks the blocked engine's diverging step");
    CHECKF(t, strstr(text, "PASSED: mutant.control: ") && strstr(text, "REFUSED as required"),
           "verdict lines missing");
    CHECKF(t, strstr(text, "difference picture: /") != NULL, "the picture's path is missing");
    /* Under bazel test the picture lands in the test's outputs directory, gone after the test:
     * the report names the archive Bazel keeps instead of the sandbox path. */
    const char *keep[] = {"TEST_UNDECLARED_OUTPUTS_DIR", "TEST_TARGET", "TEST_SHARD_INDEX",
                          "TEST_TOTAL_SHARDS"};
    char *kept[4];
    for (int i = 0; i < 4; i++) kept[i] = getenv(keep[i]) ? strdup(getenv(keep[i])) : NULL;
    setenv("TEST_UNDECLARED_OUTPUTS_DIR", report_dir, 1);
    setenv("TEST_TARGET", "//harness:campaign_test", 1);
    unsetenv("TEST_SHARD_INDEX");
    unsetenv("TEST_TOTAL_SHARDS");
    FILE *bazel_out = tmpfile();
    if (CHECK(t, bazel_out != NULL)) {
        opt.out = bazel_out;
        cc_campaign_check_line(blocked_d, valid_line, &opt, &rep, &err);
        rewind(bazel_out);
        char bazel_text[8192];
        size_t got = fread(bazel_text, 1, sizeof bazel_text - 1, bazel_out);
        bazel_text[got] = '\0';
        fclose(bazel_out);
        CHECKF(t,
               strstr(bazel_text, "in bazel-testlogs/harness/campaign_test/test.outputs/"
                                  "outputs.zip") != NULL &&
                   strstr(bazel_text, "difference picture: /") == NULL,
               "under bazel test the picture is named by its sandbox path:\n%s", bazel_text);
    }
    /* As Bazel set them (or not), for the checks after this one. */
    for (int i = 0; i < 4; i++) {
        if (kept[i]) setenv(keep[i], kept[i], 1);
        else unsetenv(keep[i]);
        free(kept[i]);
    }
    printf("---- report of the one-line checks ----\n%s---- end ----\n", text);
}

/* ---- Shrinking keeps a rule's meaning ----------------------------------------------------- */

/* A test-local engine: Moore, r 1..16, M1, right except that a count of the largest less two is
 * read as the largest less one. Only rules that tell those two counts apart show it. */
typedef struct near_top {
    cc_rule rule;
    int32_t w, h;
    uint8_t *cells, *spare;
} near_top;

static const cc_engine near_top_engine;

static int near_top_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    size_t n = (size_t)w * (size_t)h;
    near_top *e = malloc(sizeof *e);
    uint8_t *cells = calloc(n, 1), *spare = calloc(n, 1);
    if (!e || !cells || !spare) {
        free(e), free(cells), free(spare);
        return cc_fail(err, CC_ERR_NOMEM, "test.near-top: no memory for %dx%d", (int)w, (int)h);
    }
    *e = (near_top){.rule = *rule, .w = w, .h = h, .cells = cells, .spare = spare};
    *ctx = e;
    return CC_OK;
}

/* Load and store: the grid in or out, whole. */
static int near_top_copy(const near_top *e, uint8_t *to, const uint8_t *from) {
    memcpy(to, from, (size_t)e->w * (size_t)e->h);
    return CC_OK;
}

static int near_top_load(void *ctx, const uint8_t *cells, cc_error *err) {
    return (void)err, near_top_copy(ctx, ((near_top *)ctx)->cells, cells);
}

static int near_top_store(void *ctx, uint8_t *cells, cc_error *err) {
    return (void)err, near_top_copy(ctx, cells, ((near_top *)ctx)->cells);
}

static int near_top_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    near_top *e = ctx;
    int32_t r = e->rule.radius, top = cc_rule_max_count(&e->rule);
    for (int64_t s = 0; s < k; s++) {
        for (int32_t y = 0; y < e->h; y++)
            for (int32_t x = 0; x < e->w; x++) {
                int32_t count = 0; /* M1: the centre counts */
                for (int32_t dy = -r; dy <= r; dy++)
                    for (int32_t dx = -r; dx <= r; dx++)
                        count += e->cells[(size_t)((y + dy + e->h) % e->h) * (size_t)e->w +
                                          (size_t)((x + dx + e->w) % e->w)];
                if (count == top - 2) count = top - 1; /* the mistake */
                uint8_t was = e->cells[(size_t)y * (size_t)e->w + (size_t)x];
                e->spare[(size_t)y * (size_t)e->w + (size_t)x] =
                    (uint8_t)cc_set_has(was ? &e->rule.survive : &e->rule.birth, count);
            }
        uint8_t *t = e->cells;
        e->cells = e->spare;
        e->spare = t;
    }
    return CC_OK;
}

static void near_top_destroy(void *ctx) {
    if (ctx) free(((near_top *)ctx)->cells), free(((near_top *)ctx)->spare);
    free(ctx);
}

static const cc_engine near_top_engine = {
    .name = "test.near-top",
    .summary = "a count of max-2 read as max-1",
    .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_max = 16, .centres = CC_CENTRE_M1},
    .create = near_top_create,
    .load = near_top_load,
    .step = near_top_step,
    .store = near_top_store,
    .destroy = near_top_destroy,
};

static void test_shrink_keeps_meaning(checks *t) {
    /* By hand: at R64, M1 the largest count is 129^2 = 16641; at R1, 9 (half 4). */
    static const struct {
        const char *rule;
        int32_t radius;
        const char *want;
    } maps[] = {
        {"R64,C2,M1,S0..16639,B16641..16641,NM", 1, "R1,C2,M1,S0..7,B9..9,NM"},
        {"R64,C2,M1,S3..16640,B0..2,NM", 1, "R1,C2,M1,S3..8,B0..2,NM"},
        {"R64,C2,M1,S8000..8400,B100..9000,NM", 1, "R1,C2,M1,S4..5,B4..5,NM"},
        {"R5,C2,M0,S34..58,B34..45,NM", 2, "R2,C2,M0,S12..12,B12..12,NM"},
        {"R3,C2,M1,S2..9,B3..4,N+", 1, "R1,C2,M1,S2..3,B2..2,N+"},
    };
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        cc_rule rule;
        cc_error err;
        if (!CHECKF(t, cc_rule_parse(maps[k].rule, &rule, &err) == CC_OK, "%s: %s", maps[k].rule,
                    err.msg))
            continue;
        cc_rule at = cc_rule_at_radius(&rule, maps[k].radius);
        char got[CC_RULE_TEXT_MAX] = "";
        cc_rule_print(&at, got, sizeof got, NULL);
        cc_rule want;
        CHECKF(t, cc_rule_parse(maps[k].want, &want, &err) == CC_OK && cc_rule_equal(&at, &want),
               "%s at r %d: %s, want %s", maps[k].rule, (int)maps[k].radius, got, maps[k].want);
    }

    /* A failure only a rule that ends just below the top shows: S0..max-2 at R12 (max 625) on a
     * nearly full grid, where some windows hold exactly two dead cells. Clamping S0..623 to a
     * smaller radius's largest count made it "every count", and the failure vanished at every
     * smaller radius; kept at the top, it shrinks. */
    const char *line = "rule=R12,C2,M1,S0..623,B625..625,NM size=25x27 steps=1 density=0.9970 "
                       "seed=5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";
    cc_case c;
    cc_error err;
    if (!CHECKF(t, case_parse(line, &c, &err) == CC_OK, "%s", err.msg)) return;
    const cc_engine *near_top = described(&near_top_engine);
    cc_check_result res;
    int rc = cc_case_check(near_top, &c, &res, &err);
    if (!CHECKF(t, rc == CC_OK && res.kind == CC_FAILURE_MISMATCH, "near-top at R12: %s %s",
                cc_failure_kind_name(res.kind), res.detail))
        return;
    cc_case smallest;
    int tries = 0;
    rc = cc_case_shrink(near_top, &c, CC_FAILURE_MISMATCH, CC_PATTERN_ONE_CALL, 200,
                        CC_SHRINK_BUDGET_S, &smallest, &tries, &err);
    char text[CC_CASE_TEXT_MAX] = "";
    case_format(&smallest, text, sizeof text, NULL);
    printf("near-top: %s\n  shrunk in %d tries to %s\n", line, tries, text);
    int32_t top = cc_rule_max_count(&smallest.rule);
    const cc_set *sv = &smallest.rule.survive;
    CHECKF(t, rc == CC_OK && smallest.rule.radius < 12, "near-top: radius not shrunk: %s", text);
    CHECKF(t, sv->n == 1 && sv->r[0].lo == 0 && sv->r[0].hi == top - 2,
           "near-top: S no longer ends at the largest count less two: %s", text);
    rc = cc_case_check(near_top, &smallest, &res, &err);
    CHECKF(t, rc == CC_OK && res.kind == CC_FAILURE_MISMATCH, "near-top: shrunk case passes: %s",
           text);
}

/* Only fills tables: it runs before the worker hook, in the worker too. */
static void make_engines(void) {
    general = general_caps();
    narrow = narrow_caps();
    wide = wide_caps();
    per_shape = per_shape_caps();
    lax = refuser = mute_all = forgetful = failing = failing_io = blocked = cc_mutant_control;
    lax.name = "test.lax";
    lax.create = create_lax;
    mute_all.name = "test.mute";
    mute_all.create = create_mute;
    refuser.name = "test.refuser";
    refuser.create = create_none;
    forgetful.name = "test.forgetful";
    forgetful.store = store_nothing;
    failing.name = "test.stepfail";
    failing.step = step_fails;
    failing_io.name = "test.stepfail-io";
    failing_io.step = step_fails_io;
    blocked.name = "test.blocked";
    blocked.step = step_blocked;
}

int main(int argc, char **argv) {
    make_engines();
    const cc_engine *tables[32] = {&cc_mutant_control, &general, &narrow, &wide, &lax,
                                   &mute_all, &refuser, &forgetful, &failing, &failing_io,
                                   &blocked, &near_top_engine, &per_shape};
    size_t n = 13;
    for (const cc_engine *const *m = cc_mutants_all(); *m && n + 1 < 32; m++) tables[n++] = *m;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &supervisor, &status)) return status;
    checks t = {"campaign_test", 0, 0};
    /* Copied: test_env changes the environment. */
    char dir[512];
    const char *outputs = getenv("TEST_UNDECLARED_OUTPUTS_DIR");
    if (!outputs) outputs = getenv("TEST_TMPDIR");
    snprintf(dir, sizeof dir, "%s", outputs ? outputs : "/tmp");
    FILE *sink = fopen("/dev/null", "w");
    if (!sink) return 1;
    test_determinism(&t);
    test_general_coverage(&t);
    test_large_radius_steps(&t);
    test_narrow_caps(&t);
    test_shape_limits(&t);
    test_option_ranges(&t);
    test_env(&t);
    test_sharding(&t, sink);
    test_verdicts(&t, dir);
    test_shrink_keeps_meaning(&t);
    fclose(sink);
    cc_supervisor_close(supervisor);
    return check_summary(&t);
}
