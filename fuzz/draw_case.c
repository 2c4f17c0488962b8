/* Drawing a case for an engine from a case seed. Valid cases cover each engine's whole range with
 * extra weight on its edges (smallest and largest radius, the smallest size 2r+1, primes, powers
 * of two, densities 0 and 1, count ranges touching 0 and the largest count); invalid cases break
 * exactly one of its limits. Of the valid cases:
 *
 * - most have sides up to CC_CAMPAIGN_DEFAULT_SIZE_MAX (160) and cost the oracle at most the
 *   budget (fit_budget: fewer steps, then smaller sides, then one step at probability
 *   budget / cost);
 * - CC_CAMPAIGN_DEFAULT_LARGE_PERCENT (15%) are large: sides past every engine's blocks, from
 *   2^k - 1, 2^k, 2^k + 1 (2^k in 64..2048) and n*tile - 1, n*tile, n*tile + 1 (n >= 2, where the
 *   caps state a tile), one side >= 1100 in about half of them, nearly all non-square, 1..4
 *   steps, bounded by the engine-work budget (CC_CAMPAIGN_DEFAULT_LARGE_BUDGET) rather than the
 *   oracle's, since a light-cone check verifies them; where one step would cost more, the
 *   shorter side shrinks (to 2r+1 at worst), and radii too wide for any large case are redrawn
 *   smaller;
 * - of those at r > 16, CC_CAMPAIGN_DEFAULT_RADIUS_STEPS_PERCENT (36%) get 2..4 steps on
 *   non-square grids near the smallest, within CC_CAMPAIGN_RADIUS_STEPS_BUDGET_FACTOR times the
 *   oracle budget in expectation (a dearer radius is kept at probability budget / cost, else a
 *   cheaper radius above 16 is taken).
 *
 * Every case, valid or not, also draws its grid kind: 70% uniform soups, 6% each of patches,
 * bands, cells, holes and checkerboards (oracle/case.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "fuzz/draw_internal.h"

static int draw_valid(param_stream *ps, const cc_draw_caps *dc, const cc_campaign_options *opt,
                      cc_drawn_case *out, cc_error *err) {
    const cc_engine_caps *all = &dc->all;
    /* Each shape draws within its own radii and sides (caps.shape_limits); a shape whose
     * window the options leave empty is not drawn. */
    cc_shape shapes[CC_SHAPE_COUNT];
    int32_t los[CC_SHAPE_COUNT], his[CC_SHAPE_COUNT];
    int n = 0, rc = CC_OK;
    cc_error first_err;
    cc_error_clear(&first_err);
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(all->shapes & CC_SHAPE_BIT(s))) continue;
        int32_t lo = 1, hi = 1;
        int src = fuzz_radius_window(dc->name, &dc->shape[s], opt, &lo, &hi, &first_err);
        if (src) {
            if (!rc) rc = src, *err = first_err;
            continue;
        }
        if (s == CC_SHAPE_HEX && lo != 1) continue;
        los[n] = lo;
        his[n] = hi;
        shapes[n++] = (cc_shape)s;
    }
    if (n == 0 && rc) return rc;
    if (n == 0)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: no shape of the engine fits radii %d..%d",
                       dc->name, (int)(opt->radius_lo > 0 ? opt->radius_lo : all->radius_min),
                       (int)(opt->radius_hi > 0 ? opt->radius_hi : all->radius_max));
    uint32_t centres[2];
    int nc = 0;
    if (all->centres & CC_CENTRE_M0) centres[nc++] = 0;
    if (all->centres & CC_CENTRE_M1) centres[nc++] = 1;
    if (nc == 0) return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: caps allow neither M0 nor M1", dc->name);

    cc_case *c = &out->c;
    cc_rule *rule = &c->rule;
    memset(rule, 0, sizeof *rule);
    const int pick_shape = (int)uniform(ps, (uint32_t)n);
    rule->shape = shapes[pick_shape];
    const int32_t rlo = los[pick_shape], rhi = his[pick_shape];
    const cc_engine_caps *caps = &dc->shape[rule->shape];
    rule->radius = rule->shape == CC_SHAPE_HEX ? 1 : fuzz_draw_radius(ps, rlo, rhi);
    /* A large case takes the drawn radius where one fits the budget, else a smaller one. */
    int large_percent = opt->large_percent == 0 ? CC_CAMPAIGN_DEFAULT_LARGE_PERCENT
                                                : opt->large_percent;
    double large_budget = opt->large_budget > 0 ? opt->large_budget
                                                : CC_CAMPAIGN_DEFAULT_LARGE_BUDGET;
    large_axes ax;
    int large = large_percent > 0 && chance(ps, large_percent > 100 ? 100u : (uint32_t)large_percent);
    if (large && !fuzz_large_fits(caps, opt, rule->radius, large_budget, &ax)) {
        int32_t rcap = rule->radius - 1;
        while (rcap >= rlo && !fuzz_large_fits(caps, opt, rcap, large_budget, &ax)) rcap--;
        large = rcap >= rlo;
        if (large) {
            rule->radius = log_between(ps, rlo, rcap);
            fuzz_large_fits(caps, opt, rule->radius, large_budget, &ax);
        }
    }
    int64_t steps_max = opt->steps_max > 0 ? opt->steps_max : CC_CAMPAIGN_DEFAULT_STEPS_MAX;
    double budget = opt->cost_budget > 0 ? opt->cost_budget : CC_CAMPAIGN_DEFAULT_BUDGET;
    int64_t big_r_steps = 0;
    if (!large && rule->radius > CC_CAMPAIGN_LARGE_RADIUS &&
        chance(ps, CC_CAMPAIGN_DEFAULT_RADIUS_STEPS_PERCENT))
        big_r_steps = fuzz_radius_steps(ps, caps, opt, rlo, steps_max,
                                        CC_CAMPAIGN_RADIUS_STEPS_BUDGET_FACTOR * budget, rule);
    rule->centre = (int)centres[uniform(ps, (uint32_t)nc)];
    fuzz_draw_sets(ps, rule, caps->count_max);
    /* The bounded plane in a third of the cases of an engine that does both, in all of a
     * plane-only engine's; an engine of the torus alone draws what it always drew. */
    if (caps->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE)) {
        int torus = (caps->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS)) != 0;
        rule->topology = !torus || chance(ps, 33) ? CC_TOPOLOGY_PLANE : CC_TOPOLOGY_TORUS;
    }

    out->large = large;
    fuzz_fit_port_sets(caps, rule);
    if (large) {
        fuzz_draw_large(ps, &ax, large_budget, steps_max, c);
        c->density = fuzz_draw_density(ps);
        int32_t w_hi = large_limit(opt, caps->w_max), h_hi = large_limit(opt, caps->h_max);
        fuzz_fit_port_sides(caps, w_hi < h_hi ? w_hi : h_hi, c);
    } else {
        int32_t w_hi = side_limit(opt, caps->w_max), h_hi = side_limit(opt, caps->h_max);
        int32_t w_lo = side_min(opt, rule->radius, caps->w_multiple, w_hi);
        int32_t h_lo = side_min(opt, rule->radius, caps->h_multiple, h_hi);
        c->w = fuzz_draw_side(ps, w_lo, w_hi, caps->w_multiple);
        c->h = fuzz_draw_side(ps, h_lo, h_hi, caps->h_multiple);
        c->steps = fuzz_draw_steps(ps, steps_max);
        c->density = fuzz_draw_density(ps);
        if (big_r_steps > 0) {
            fuzz_draw_radius_sides(ps, c, w_lo, w_hi, h_lo, h_hi, caps->w_multiple,
                                   caps->h_multiple);
            c->steps = big_r_steps;
        } else {
            fuzz_fit_budget(ps, c, budget, w_lo, h_lo, caps->w_multiple, caps->h_multiple);
        }
        fuzz_fit_port_sides(caps, w_hi < h_hi ? w_hi : h_hi, c);
    }
    out->expect_refusal = 0;
    out->why[0] = '\0';
    return CC_OK;
}

int cc_case_draw_with(const cc_draw_caps *dc, const cc_campaign_options *opt,
                      const uint8_t seed[CC_SEED_BYTES], cc_drawn_case *out, cc_error *err) {
    param_stream ps;
    int rc = case_param_init(&ps, seed, "params", err);
    if (rc) return rc;
    memset(out, 0, sizeof *out);
    memcpy(out->c.seed, seed, CC_SEED_BYTES);
    int percent = opt->invalid_percent < 0 ? 0 : opt->invalid_percent > 100 ? 100 : opt->invalid_percent;
    if (!fuzz_draw_invalid(&ps, dc, (uint32_t)percent, out) &&
        (rc = draw_valid(&ps, dc, opt, out, err)))
        return rc;
    out->c.grid_kind = fuzz_draw_grid_kind(&ps);
    /* The draw must agree with the contract's own check, and print as a case line. */
    cc_error check;
    const cc_case *c = &out->c;
    int refused = cc_engine_check_resolved(dc->name, &dc->all, &c->rule, c->w, c->h, &check) != CC_OK;
    if (refused != out->expect_refusal)
        return cc_fail(err, CC_ERR_ARG,
                       "%s: drew a case meant to be %s but the caps %s it%s%s (a generator bug)",
                       dc->name, out->expect_refusal ? "refused" : "valid",
                       refused ? "refuse" : "accept", refused ? ": " : "",
                       refused ? check.msg : "");
    char line[CC_CASE_TEXT_MAX];
    if ((rc = case_format(&out->c, line, sizeof line, err))) return rc;
    return CC_OK;
}

int cc_case_draw(const cc_engine *engine, const cc_campaign_options *opt,
                 const uint8_t seed[CC_SEED_BYTES], cc_drawn_case *out, cc_error *err) {
    cc_draw_caps dc;
    cc_draw_caps_of(engine, &dc);
    return cc_case_draw_with(&dc, opt, seed, out, err);
}

/* The team of case index for an engine on this hardware (cc_team_size). */
static int32_t team_size(cc_hardware hardware, const cc_campaign_options *opt, uint64_t index) {
    if (hardware == CC_HW_GPU || opt->same_team) return 0;
    /* "Every core": the team this machine gives (OMP_NUM_THREADS where set, as a runner of
     * many jobs sets it, else the cores this process may use), at least 4. */
    const char *omp = getenv("OMP_NUM_THREADS");
    long given = omp && atoi(omp) > 0 ? atoi(omp) : cc_cores_available();
    const int32_t sizes[4] = {1, 2, 3, given > 4 ? (int32_t)(given < 1024 ? given : 1024) : 4};
    return sizes[(index / CC_TEAM_TURN) % 4];
}

int cc_campaign_case_with(const cc_draw_caps *dc, const cc_campaign_options *opt, uint64_t index,
                          cc_drawn_case *out, cc_error *err) {
    uint8_t seed[CC_SEED_BYTES];
    case_seed_derive(opt->master, index, seed);
    int rc = cc_case_draw_with(dc, opt, seed, out, err);
    if (!rc) out->c.threads = team_size(dc->hardware, opt, index);
    return rc;
}

int cc_campaign_case(const cc_engine *engine, const cc_campaign_options *opt, uint64_t index,
                     cc_drawn_case *out, cc_error *err) {
    cc_draw_caps dc;
    cc_draw_caps_of(engine, &dc);
    return cc_campaign_case_with(&dc, opt, index, out, err);
}

int32_t cc_team_size(const cc_engine *engine, const cc_campaign_options *opt, uint64_t index) {
    return engine ? team_size(engine->hardware, opt, index) : 0;
}
