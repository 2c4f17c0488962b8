/* The checks every section counts into its tally (see section.h). */
#include "harness/sections/section.h"

#include <stdio.h>

#include "harness/extremes.h"
#include "harness/progress.h"
#include "supervise/supervisor.h"

void tally_note_failure(conformance_tally *t, cc_failure_kind kind, const char *label,
                        const char *detail, const cc_case *c, const char *calls) {
    t->sections[t->section].failed++;
    if (t->failed++ > 0) return;
    t->first_ordinal = (int64_t)t->ordinal - 1; /* mine() counted the failing check */
    t->first_kind = kind;
    t->first_section = t->section;
    snprintf(t->first_failure, sizeof t->first_failure, "%.120s: %.500s", label, detail);
    t->first_case[0] = t->first_calls[0] = '\0';
    if (c && case_format(c, t->first_case, sizeof t->first_case, NULL)) t->first_case[0] = '\0';
    if (calls) snprintf(t->first_calls, sizeof t->first_calls, "%s", calls);
}

int tally_rule_fits(const conformance_tally *t, cc_rule *rule, int32_t w, int32_t h) {
    cc_error err;
    if (cc_engine_check(t->engine, rule, w, h, &err) == CC_OK) return 1;
    rule->topology = CC_TOPOLOGY_PLANE;
    return cc_engine_check(t->engine, rule, w, h, &err) == CC_OK;
}

tally_clock tally_clock_now(const conformance_tally *t) {
    cc_supervisor_stats stats = {0};
    cc_supervisor *sv = cc_supervisor_of(t->engine);
    if (sv) cc_supervisor_stats_get(sv, &stats);
    return (tally_clock){cc_now_seconds(), stats.engine_seconds, stats.call_seconds};
}

void tally_clock_add(const conformance_tally *t, const tally_clock *mark, cc_section_tally *s) {
    const tally_clock now = tally_clock_now(t);
    s->seconds += now.wall - mark->wall;
    s->engine_seconds += now.engine - mark->engine;
    s->exchange_seconds += (now.calls - mark->calls) - (now.engine - mark->engine);
}

int tally_mine(conformance_tally *t) {
    uint64_t j = t->ordinal++;
    return j % t->opt->shard_count == t->opt->shard_index;
}

static void report_failure(conformance_tally *t, const char *section, const cc_case *c,
                           const cc_check_result *res) {
    tally_note_failure(t, res->kind, section, res->detail, c, NULL);
    /* Faults end an engine's checks: what follows would repeat them at their cost. */
    if (cc_failure_kind_is_fault(res->kind)) t->stopped = 1;
    if (t->reported) {
        cc_failure_print_short(stdout, t->opt->reproduce, t->engine->name, section, c, res);
        return;
    }
    t->reported = 1;
    printf("FAILED in %s:\n", section);
    /* The verdict first: the analysis steps and shrinks the case again. */
    cc_failure_print_short(stdout, t->opt->reproduce, t->engine->name, section, c, res);
    printf("  analysing it: the full report follows\n");
    fflush(stdout);
    cc_failure_report rep;
    cc_error err;
    const double start = cc_now_seconds();
    const int rc = cc_failure_analyse(t->engine, c, res, t->opt, -1, &rep, &err);
    t->sections[t->section].shrink_seconds += cc_now_seconds() - start;
    if (rc) {
        printf("analysis failed: %s\n", err.msg);
        cc_failure_print_short(stdout, t->opt->reproduce, t->engine->name, section, c, res);
        return;
    }
    cc_failure_report_print(&rep, stdout);
}

void tally_check_case_with(conformance_tally *t, const char *section, const cc_case *given,
                           const cc_check_options *check, int *passed) {
    const cc_engine_caps caps = t->caps;
    cc_case fitted = *given;
    const cc_case *c = &fitted;
    if (!fuzz_fit_port_caps(&caps, 0, &fitted)) {
        t->over_cells++;
        return;
    }
    cc_case_label(t->engine, section, c);
    cc_check_options with_cache;
    if (check) with_cache = *check;
    else cc_check_options_init(&with_cache);
    if (!with_cache.oracle_cache) with_cache.oracle_cache = t->opt->oracle_cache;
    cc_check_result res;
    cc_error err;
    const int rc = cc_case_check_with(t->engine, c, &with_cache, &res, &err);
    t->sections[t->section].oracle_seconds += res.oracle_seconds;
    t->sections[t->section].draw_seconds += res.draw_seconds;
    if (rc) {
        char line[CC_CASE_TEXT_MAX];
        case_format(c, line, sizeof line, NULL);
        printf("ERROR: %s: %s: cannot check %s: %s\n", t->engine->name, section, line, err.msg);
        t->infra_error++;
        return;
    }
    if (res.outcome == CC_OUTCOME_FAIL) {
        report_failure(t, section, c, &res);
    } else if (res.outcome == CC_OUTCOME_RUNNING) {
        t->counts_running++;
    } else if (res.outcome == CC_OUTCOME_REFUSED) {
        /* Edge cases are built within the caps: a refusal here is a harness bug. */
        t->edge_refused++;
        printf("ERROR: %s: %s: an edge case outside the caps: %s\n", t->engine->name, section,
               res.detail);
    } else {
        if (passed) (*passed)++;
        t->step_seconds = res.step_seconds;
        t->sections[t->section].passed++;
        cc_coverage_add(&t->sections[t->section].cov, &c->rule, c->w, c->h, c->steps, c->threads);
        if (res.lightcone) {
            t->lightcone_cells += res.verified;
            t->seam_classes |= res.seam_classes;
        }
    }
}

void tally_check_case(conformance_tally *t, const char *section, const cc_case *given,
                      int *passed) {
    tally_check_case_with(t, section, given, NULL, passed);
}

void tally_check(conformance_tally *t, const char *section, const cc_case *c, int *passed) {
    if (tally_mine(t) && !t->stopped) tally_check_case(t, section, c, passed);
}

/* A sequence that failed is shortened by up to this many tries. */
#define SEQUENCE_SHRINK_TRIES 96

int tally_draw_sequence_case(conformance_tally *t, const char *what, int i,
                             const uint8_t seed[CC_SEED_BYTES], cc_case *c) {
    cc_error err;
    if (!cc_case_draw_small(t->engine, seed, c, &err)) return 0;
    printf("ERROR: %s: %s %d: cannot draw its case: %s\n", t->engine->name, what, i, err.msg);
    t->infra_error++;
    return 1;
}

int32_t tally_team_of(const conformance_tally *t, int i, int n) {
    const int quarter = n >= 4 ? (n + 3) / 4 : 1;
    return cc_team_size(t->engine, t->opt, (uint64_t)(i / quarter) * CC_TEAM_TURN);
}

int tally_fit_sequence_case(conformance_tally *t, int i, int n, cc_case *c) {
    if (!fuzz_fit_port_caps(&t->caps, 0, c)) {
        t->over_cells++;
        return 0;
    }
    c->threads = tally_team_of(t, i, n);
    return 1;
}

int tally_run_sequence(conformance_tally *t, const char *label, int i, const cc_case *c,
                       int *passed) {
    int64_t max_k = c->steps < 2 ? 2 : c->steps > 8 ? 8 : c->steps;
    cc_call_sequence s;
    cc_sequence_draw(c, max_k, &s);
    return tally_run_sequence_given(t, label, i, c, &s, passed);
}

int tally_run_sequence_given(conformance_tally *t, const char *label, int i, const cc_case *c,
                             const cc_call_sequence *given, int *passed) {
    cc_error err;
    cc_call_sequence s = *given;
    cc_sequence_result res;
    if (cc_sequence_run(t->engine, c, &s, &res, &err)) {
        printf("ERROR: %s: %s %d: %s\n", t->engine->name, label, i, err.msg);
        t->infra_error++;
        return 0;
    }
    if (!res.failed) {
        cc_sequence_transitions(&s, &t->transitions);
        (*passed)++;
        t->sections[t->section].passed++;
        cc_coverage_add(&t->sections[t->section].cov, &c->rule, c->w, c->h, c->steps, c->threads);
        return 0;
    }
    char calls[CC_SEQUENCE_TEXT_MAX];
    cc_sequence_format(&s, calls, sizeof calls);
    int first = t->failed == 0;
    tally_note_failure(t, res.kind, label, res.detail, c, calls);
    if (cc_failure_kind_is_fault(res.kind)) t->stopped = 1;
    cc_call_sequence shortest = s;
    int tries = 0;
    if (!t->reported) {
        printf("FAILED in %s:\n", label);
        /* The verdict first: shrinking runs the sequence again, many times. */
        cc_sequence_report(stdout, t->opt->reproduce, t->engine->name, c, &s, &res, NULL, 0);
        fflush(stdout);
        if (!cc_failure_kind_is_fault(res.kind) && t->opt->shrink &&
            cc_sequence_shrink(t->engine, c, &s, &res, SEQUENCE_SHRINK_TRIES, &shortest, &tries,
                               &err) == CC_OK &&
            shortest.n < s.n)
            cc_sequence_report(stdout, t->opt->reproduce, t->engine->name, c, &s, &res,
                               &shortest, tries);
        /* The reproducer the report ends with: the shortest sequence found. */
        if (first) cc_sequence_format(&shortest, t->first_calls, sizeof t->first_calls);
        t->reported = 1;
    } else {
        cc_sequence_report(stdout, t->opt->reproduce, t->engine->name, c, &s, &res, NULL, 0);
    }
    return t->opt->stop_at_first_failure;
}

static int affordable(const cc_case *c) {
    double side = 2.0 * c->rule.radius + 1;
    return (double)c->w * c->h * side * side <= EDGE_STEP_COST_MAX;
}

int tally_affordable(conformance_tally *t, const cc_case *c) {
    if (affordable(c)) return 1;
    if (tally_mine(t))
        cc_gap_note(&t->gaps, t->section, CC_GAP_BUDGET, 1,
                "%dx%d at r = %d: one step costs more than %.0e oracle visits", (int)c->w,
                (int)c->h, (int)c->rule.radius, EDGE_STEP_COST_MAX);
    return 0;
}

int tally_time_estimate(const conformance_tally *t, const cc_case *big, int32_t want_w,
                        int32_t want_h, double *seconds, double *probe_s) {
    const cc_engine *engine = t->engine;
    const cc_engine_caps caps = cc_engine_caps_for_shape(&t->caps, big->rule.shape);
    cc_case p = *big;
    int32_t min = 2 * p.rule.radius + 1;
    p.w = cc_fit_side(want_w, min, caps.w_multiple, caps.w_max);
    p.h = cc_fit_side(want_h, min, caps.h_multiple, caps.h_max);
    if (!p.w || !p.h) return CC_ERR_UNSUPPORTED;
    cc_grid g = {0};
    cc_error err;
    cc_context *ctx = NULL;
    int rc = case_grid(&p, &g, &err);
    double start = cc_now_seconds();
    if (!rc) rc = cc_call_create(engine, &p.rule, p.w, p.h, &ctx, &err);
    if (!rc) rc = cc_call_load(ctx, g.cells, &err);
    if (!rc) rc = cc_call_step(ctx, 1, &err);
    if (!rc) rc = cc_call_store(ctx, g.cells, &err);
    *probe_s = cc_now_seconds() - start;
    cc_call_destroy(ctx, NULL);
    cc_grid_free(&g);
    /* A probe that fails says nothing of the time: the case itself will show what is wrong. */
    if (rc) return rc;
    *seconds = *probe_s * ((double)big->w * (double)big->h) / ((double)p.w * (double)p.h);
    return CC_OK;
}

int tally_quick_count(conformance_tally *t, cc_check_section section, int full, int quick,
                      const char *what) {
    if (!t->opt->quick || quick >= full) return full;
    cc_gap_note(&t->gaps, section, CC_GAP_ASKED, full - quick,
                "--quick: %d of %d %s (the section at its smallest)", quick, full, what);
    return quick;
}
