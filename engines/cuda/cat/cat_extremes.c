/* The largest-count cases of cat_extremes.h. */
#include "engines/cuda/cat/cat_extremes.h"

#include <stdio.h>
#include <string.h>

#include "harness/campaign.h"
#include "harness/harness.h"
#include "oracle/case.h"

static void one_range(cc_set *set, int32_t lo, int32_t hi) {
    cc_set_clear(set);
    set->n = 1;
    set->r[0].lo = lo < 0 ? 0 : lo;
    set->r[0].hi = hi;
}

void cat_extremes_check(const cc_engine *engine, const cc_case *c, int quiet,
                        cat_extremes_result *res) {
    char line[CC_CASE_TEXT_MAX];
    if (case_format(c, line, sizeof line, NULL)) snprintf(line, sizeof line, "(unprintable)");
    cc_check_result out;
    cc_error err;
    res->cases++;
    if (cc_case_check(engine, c, &out, &err)) {
        res->infra_errors++;
        printf("ERROR: %s: cannot check %s: %s\n", engine->name, line, err.msg);
        return;
    }
    if (out.outcome == CC_OUTCOME_PASS) {
        res->passed++;
        return;
    }
    if (out.kind == CC_FAILURE_MISMATCH)
        res->mismatched++;
    else
        res->other_failures++;
    if (!quiet)
        printf("FAILED: %s: %s: %s\n  reproduce: cellcheck check --engine %s --case '%s'\n",
               engine->name, cc_failure_kind_name(out.kind), out.detail, engine->name, line);
}

void cat_extremes_run(const cc_engine *engine, int32_t r_lo, int32_t r_hi, int quiet,
                      cat_extremes_result *res) {
    memset(res, 0, sizeof *res);
    const cc_engine_caps caps = cc_engine_caps_resolved(engine);
    static const cc_shape shapes[] = {CC_SHAPE_MOORE, CC_SHAPE_CROSS};
    uint8_t master[CC_SEED_BYTES];
    memset(master, 0xca, sizeof master);
    uint64_t salt = 0;
    for (int32_t r = r_lo; r <= r_hi; r++) {
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            if (!(caps.shapes & CC_SHAPE_BIT(shapes[s]))) continue;
            for (int centre = 1; centre >= 0; centre--) {
                if (!(caps.centres & (centre ? CC_CENTRE_M1 : CC_CENTRE_M0))) continue;
                struct {
                    double density;
                    int32_t extra_w, extra_h;
                    int near; /* 0: S = {top}, B = {top-1, top}; 1: S = {top-2, top-1}, B = {top-1}
                               */
                } variants[] = {
                    {1.0, 0, 0, 0},   /* all alive at the smallest torus: every count is the top */
                    {0.99, 7, 3, 0},  /* near all alive, sizes off the fragment grid */
                    {0.97, 21, 1, 1}, /* counts just below the top */
                };
                for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
                    cc_case c;
                    memset(&c, 0, sizeof c);
                    c.rule.shape = shapes[s];
                    c.rule.radius = r;
                    c.rule.centre = centre;
                    int32_t top = cc_rule_max_count(&c.rule);
                    if (variants[v].near) {
                        one_range(&c.rule.survive, top - 2, top - 1);
                        one_range(&c.rule.birth, top - 1, top - 1);
                    } else {
                        one_range(&c.rule.survive, top, top);
                        one_range(&c.rule.birth, top - 1, top);
                    }
                    c.w = 2 * r + 1 + variants[v].extra_w;
                    c.h = 2 * r + 1 + variants[v].extra_h;
                    c.steps = 2;
                    c.density = variants[v].density;
                    case_seed_derive(master, salt++, c.seed);
                    cat_extremes_check(engine, &c, quiet, res);
                }
            }
        }
    }
}

int cat_extremes_test_main(const cc_engine *table, const char *test, int argc, char **argv) {
    return cat_extremes_test_main_more(table, test, NULL, argc, argv);
}

int cat_extremes_test_main_more(const cc_engine *table, const char *test, cat_extremes_more more,
                                int argc, char **argv) {
    const cc_engine *const tables[] = {table, NULL};
    cc_supervisor *sv;
    int status = 0;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    const cc_engine *engine = cc_supervised(sv, table);
    if (cc_harness_skip(engine, &status)) {
        cc_supervisor_close(sv);
        return status;
    }
    const cc_engine_caps caps = cc_engine_caps_resolved(engine);
    cat_extremes_result res;
    cat_extremes_run(engine, caps.radius_min, caps.radius_max, 0, &res);
    int ok = res.cases > 0 && res.passed == res.cases;
    printf("%s: r %d..%d: %d largest-count cases, %d passed, %d mismatched, %d other failures, "
           "%d not run\n",
           engine->name, (int)caps.radius_min, (int)caps.radius_max, res.cases, res.passed,
           res.mismatched, res.other_failures, res.infra_errors);
    if (more && !more(engine)) ok = 0;
    printf("%s: %s\n", test, ok ? "PASSED" : "FAILED");
    cc_supervisor_close(sv);
    return ok ? 0 : 1;
}
