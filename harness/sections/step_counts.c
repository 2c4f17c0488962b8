/* Step counts across magnitudes, each on a case no plausible wrong count passes. */
#include "harness/sections/section.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/extremes.h"
#include "harness/step_counts.h"

/* Oracle visits one candidate's trajectory may cost, the candidates tried for each count (two
 * that run past that budget end the search: a larger grid would not do better), and the work a
 * count's case may cost the engine (cell-neighbour visits of one run; it runs twice). */
#define STEP_COUNT_VISITS 1e9
#define STEP_COUNT_CANDIDATES 64
#define STEP_COUNT_CASE_VISITS 3e9

/* What the search for one step count found: a case every plausible wrong count fails on
 * (verdict 1) and the oracle's grid after its k steps, or why there is none. */
typedef struct step_count_search {
    cc_case c;
    int verdict; /* 1 found; 0 every candidate aliased; -1 none within the budgets */
    int64_t alias;
    int too_costly;
    cc_grid expected;
    int rc;
    cc_error err;
} step_count_search;

static void step_count_find(const cc_engine *engine, const cc_engine_caps *caps,
                            const uint8_t master[CC_SEED_BYTES], int ki, int64_t k,
                            const int32_t *blocks, int nb, int waited, step_count_search *out) {
    /* The smallest grids first: a count's check costs the engine its cells times k, and the
     * first candidate that tells k apart is kept, so every engine, however slow a cell, runs
     * the same counts (none is left out for time: the verdict must not depend on the host). */
    static const int32_t sides[][2] = {{7, 5},   {5, 9},   {9, 7},   {11, 5},  {7, 11},  {11, 9},
                                       {13, 7},  {9, 13},  {13, 11}, {17, 19}, {23, 21}, {19, 29},
                                       {29, 13}, {31, 23}, {13, 37}, {37, 17}};
    /* A count past 2^31 needs the trajectory's cycle, not just its first k states: a chaotic
     * rule's cycle on 2^n states comes after about 2^(n/2) steps, within the oracle's budget up
     * to about 45 cells, so those counts keep to the smallest grids, each with many rules. */
    static const int32_t small_sides[][2] = {{7, 5}, {5, 7}, {5, 9}, {9, 5}, {7, 6}};
    const int nsides = waited ? (int)(sizeof small_sides / sizeof small_sides[0])
                              : (int)(sizeof sides / sizeof sides[0]);
    const int32_t(*side_of)[2] = waited ? small_sides : sides;
    const int over_budget_max = waited ? 6 : 2;
    memset(out, 0, sizeof *out);
    out->verdict = -1;
    out->alias = -1;
    int64_t wrong[CC_STEP_COUNTS_WRONG_MAX];
    int nw = waited ? cc_step_counts_wrong_waited(k, wrong)
                    : cc_step_counts_wrong(k, blocks, nb, wrong);
    int over_budget = 0;
    /* Past 2^31 only a cycle tells counts apart, and most small trajectories end on a fixed
     * point (quickly seen): more candidates. */
    const int candidates = waited ? 4 * STEP_COUNT_CANDIDATES : STEP_COUNT_CANDIDATES;
    for (int cand = 0; cand < candidates && out->verdict != 1 && over_budget < over_budget_max;
         cand++) {
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x737465707300000ull + ((uint64_t)ki << 8) + (uint64_t)cand,
                         seed); /* "steps" */
        cc_case c;
        if (cc_case_draw_small(engine, seed, &c, &out->err)) break;
        /* Most candidates at the smallest radius: on a small torus a large neighbourhood sees
         * the whole grid, which soon dies or settles. */
        /* The limits of the drawn shape (caps.shape_limits). */
        const cc_engine_caps shaped = cc_engine_caps_for_shape(caps, c.rule.shape);
        if (cand % 4 != 3 && c.rule.shape != CC_SHAPE_HEX)
            c.rule = cc_rule_at_radius(&c.rule, shaped.radius_min > 1 ? shaped.radius_min : 1);
        int32_t min = 2 * c.rule.radius + 1;
        const int side = (cand / 4) % nsides;
        c.w = cc_fit_side(side_of[side][0], min, shaped.w_multiple, shaped.w_max);
        c.h = cc_fit_side(side_of[side][1], min, shaped.h_multiple, shaped.h_max);
        if (!c.w || !c.h) continue;
        c.steps = k;
        c.grid_kind = CC_GRID_UNIFORM;
        c.density = 0.25 + 0.1 * (double)(cand % 4);
        if (!fuzz_fit_port_caps(&shaped, 0, &c)) continue;
        if (!waited && (double)c.w * (double)c.h * (double)cc_rule_max_count(&c.rule) *
                               (double)k > STEP_COUNT_CASE_VISITS) {
            out->too_costly = 1;
            continue;
        }
        out->c = c;
        if ((out->rc = cc_step_counts_distinct(&c, wrong, nw, STEP_COUNT_VISITS, &out->verdict,
                                               &out->alias, &out->expected, &out->err)))
            return;
        over_budget += out->verdict == -1;
    }
}

/* Finds each count's case (the oracle's work alone, so at once), then has the engine run them
 * from the smallest count up, so a wrong engine fails on the cheapest count that shows it.
 * wait_s > 0: each step(k) is waited for that long at most (counts past 2^31). */
static void check_counts(conformance_tally *t, const uint8_t master[CC_SEED_BYTES],
                         const int64_t *ks, int nk, int seed_base, const int32_t *blocks, int nb,
                         double wait_s) {
    const cc_engine_caps caps = t->caps;
    step_count_search found[32];
    int todo[32], ntodo = 0;
    /* Each count is a check of its own for sharding: none is left out by what ran before it,
     * so shards split the counts as a whole run would check them. */
    for (int ki = 0; ki < nk; ki++) {
        int dup = 0;
        for (int j = 0; j < ki; j++) dup |= ks[j] == ks[ki];
        if (!dup && tally_mine(t)) todo[ntodo++] = ki;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < ntodo; i++)
        step_count_find(t->engine, &caps, master, seed_base + todo[i], ks[todo[i]], blocks, nb,
                        wait_s > 0, &found[i]);
    int order[32];
    for (int i = 0; i < ntodo; i++) {
        int j = i;
        for (; j > 0 && ks[todo[order[j - 1]]] > ks[todo[i]]; j--) order[j] = order[j - 1];
        order[j] = i;
    }
    for (int oi = 0; oi < ntodo && !t->stopped; oi++) {
        int i = order[oi];
        step_count_search *f = &found[i];
        int64_t k = ks[todo[i]];
        cc_case c = f->c;
        if (f->rc) {
            printf("ERROR: %s: step counts: %s\n", t->engine->name, f->err.msg);
            t->infra_error++;
            continue;
        }
        if (f->verdict != 1) {
            t->counts_blind++;
            if (f->alias >= 0)
                cc_gap_note(&t->gaps, CC_CHECK_STEP_COUNTS, CC_GAP_BLIND, 1,
                            "step count %lld: no case tried tells it from every wrong count "
                            "(the last one reaches the same grid after %lld)",
                            (long long)k, (long long)f->alias);
            else
                cc_gap_note(&t->gaps, CC_CHECK_STEP_COUNTS, CC_GAP_BUDGET, 1,
                            "step count %lld: %s", (long long)k,
                            f->too_costly ? "its smallest grid costs past 3e9 visits a run"
                                          : "the oracle's trajectory ran past 1e9 visits");
            if (f->alias >= 0)
                printf("note: %s: step count %lld: no case tried tells it from every wrong count "
                       "(the last one reaches the same grid after %lld)\n",
                       t->engine->name, (long long)k, (long long)f->alias);
            else
                printf("note: %s: step count %lld left out: %s\n", t->engine->name, (long long)k,
                       f->too_costly ? "its smallest grid costs past the budget (3e9 visits a run)"
                                     : "the oracle's trajectory ran past its budget (1e9 visits)");
            continue;
        }
        int before = t->counts_passed;
        /* One call of step(k): the count is the point here, and the call patterns (the split
         * among them) would run the engine's k steps again; the campaign runs them. */
        cc_check_options one_call;
        cc_check_options_init(&one_call);
        one_call.patterns = 0;
        one_call.expected = &f->expected;
        one_call.step_wait_s = wait_s;
        if (wait_s > 0) t->counts_long++;
        tally_check_case_with(t, "step counts", &c, &one_call, &t->counts_passed);
        if (t->counts_passed > before && k > t->counts_max) t->counts_max = k;
        if (t->failed && t->opt->stop_at_first_failure) break;
    }
    for (int i = 0; i < ntodo; i++) cc_grid_free(&found[i].expected);
}

/* Counts around the blocks engines run per launch (n*t - 1 and n*t + 1), past 8- and 16-bit
 * counters, and three drawn on a log scale up to 2^17; each on a small odd-sided grid whose
 * oracle trajectory no plausible wrong count (cc_step_counts_wrong) reaches the same grid by.
 * Then counts past 2^31, up to the contract's largest (INT64_MAX): where a 32-bit count goes
 * negative or wraps, one drawn between 2^33 and 2^62, and INT64_MAX itself. No engine runs so
 * many steps in a check's time: each is waited for CC_LONG_COUNT_WAIT_S; an answer by then is
 * compared with the oracle's grid (from the trajectory's cycle), and one still running is ended,
 * which is all that is known of it (the certificate says how many). */
static void step_counts(conformance_tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps caps = t->caps;
    int32_t blocks[4] = CC_STEP_BLOCKS_COMMON;
    int nb = 3;
    if (caps.steps_per_launch > 1 && caps.steps_per_launch != 8 && caps.steps_per_launch != 16 &&
        caps.steps_per_launch != 32)
        blocks[nb++] = caps.steps_per_launch;
    int64_t ks[32];
    int nk = 0;
    for (int i = 0; i < nb; i++) {
        int64_t b = blocks[i];
        int64_t around[] = {b - 1, b + 1, 2 * b - 1, 2 * b + 1};
        for (int j = 0; j < 4; j++) ks[nk++] = around[j];
    }
    ks[nk++] = 257;
    /* Where a signed and an unsigned 16-bit count wrap (65537 is also 16n + 1). */
    ks[nk++] = 65535;
    ks[nk++] = 65537;
    cc_param_stream ps;
    cc_error err;
    enum { NLONG = 6 }; /* the counts past 2^31 */
    int64_t longs[NLONG] = {INT32_MAX, (int64_t)INT32_MAX + 1, (int64_t)INT32_MAX + 2,
                        ((int64_t)1 << 32) + 1, 0, INT64_MAX};
    if (case_param_init(&ps, master, "step counts", &err) == CC_OK) {
        for (int i = 0; i < 3; i++) {
            /* 2^(1 + 16 u), u uniform in [0, 1). */
            double u = (double)case_param_u32(&ps) / 4294967296.0;
            ks[nk++] = (int64_t)exp2(1.0 + 16.0 * u) + 1;
        }
        double u = (double)case_param_u32(&ps) / 4294967296.0;
        longs[4] = (int64_t)exp2(33.0 + 29.0 * u) + 1; /* 2^33 .. 2^62 */
    } else {
        longs[4] = ((int64_t)1 << 40) + 1;
    }
    /* Under --quick the counts up to 257 alone: the oracle's search for a case that tells a
     * count past 2^16 apart is most of a quick run's time. */
    if (t->opt->quick) {
        int kept = 0;
        for (int i = 0; i < nk; i++)
            if (ks[i] <= 257) ks[kept++] = ks[i];
        cc_gap_note(&t->gaps, CC_CHECK_STEP_COUNTS, CC_GAP_ASKED, nk - kept + NLONG,
                    "--quick: the step counts up to 257 alone, %d past it left out",
                    nk - kept + NLONG);
        nk = kept;
    }
    check_counts(t, master, ks, nk, 0, blocks, nb, 0.0);
    if (!t->opt->quick && !t->stopped && !(t->failed && t->opt->stop_at_first_failure))
        check_counts(t, master, longs, NLONG, 64, blocks, nb, CC_LONG_COUNT_WAIT_S);
}

static void run(conformance_tally *t) { step_counts(t, t->opt->master); }

const conformance_section section_step_counts = {
    .progress = "step counts", .part_of = -1, .run = run};
