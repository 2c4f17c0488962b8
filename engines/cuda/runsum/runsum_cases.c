/* The soups of runsum_cases.h. */
#include "engines/cuda/runsum/runsum_cases.h"

#include <stdio.h>
#include <string.h>

#include "engines/cuda/cat/cat_extremes.h"
#include "harness/campaign.h"
#include "harness/harness.h"
#include "oracle/case.h"

static void one_range(cc_set *set, int32_t lo, int32_t hi) {
    cc_set_clear(set);
    set->n = 1;
    set->r[0].lo = lo;
    set->r[0].hi = hi;
}

void runsum_soups_run(const cc_engine *engine, runsum_soups_result *res) {
    static const struct {
        int32_t w, r;
    } sizes[] = {{959, 1}, {961, 1}, {1921, 1}, {961, 5}, {1921, 5}, {959, 16}, {961, 16}, {961, 32}};
    uint8_t master[CC_SEED_BYTES];
    memset(master, 0x5e, sizeof master);
    uint64_t salt = 0;
    memset(res, 0, sizeof *res);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int cross = 0; cross <= 1; cross++) {
            cc_case c;
            memset(&c, 0, sizeof c);
            c.rule.shape = cross ? CC_SHAPE_CROSS : CC_SHAPE_MOORE;
            c.rule.radius = sizes[si].r;
            c.rule.centre = (int)(salt & 1);
            const int32_t top = cc_rule_max_count(&c.rule), mean = top / 3;
            one_range(&c.rule.survive, mean - mean / 4, mean + mean / 3);
            one_range(&c.rule.birth, mean, mean + mean / 5);
            c.w = sizes[si].w;
            c.h = 8 * (2 * sizes[si].r + 1) + 7; /* two bands (runsum_geometry_bands), the second 7 rows */
            c.steps = 2;
            c.density = 1.0 / 3.0;
            case_seed_derive(master, salt++, c.seed);
            char line[CC_CASE_TEXT_MAX];
            if (case_format(&c, line, sizeof line, NULL)) snprintf(line, sizeof line, "(unprintable)");
            cc_check_result out;
            cc_error err;
            res->cases++;
            if (cc_case_check(engine, &c, &out, &err)) {
                printf("ERROR: %s: cannot check %s: %s\n", engine->name, line, err.msg);
                continue;
            }
            if (out.outcome == CC_OUTCOME_PASS) {
                res->passed++;
                continue;
            }
            printf("FAILED: %s: %s: %s\n  reproduce: cellcheck check --engine %s --case '%s'\n",
                   engine->name, cc_failure_kind_name(out.kind), out.detail, engine->name, line);
        }
}

int runsum_cases_test_main(const cc_engine *table, const char *test, int argc, char **argv) {
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
    cat_extremes_result extremes;
    cat_extremes_run(engine, caps.radius_min, caps.radius_max, 0, &extremes);
    runsum_soups_result soups;
    runsum_soups_run(engine, &soups);
    const int ok = extremes.cases > 0 && extremes.passed == extremes.cases && soups.cases > 0 &&
                   soups.passed == soups.cases;
    printf("%s: r %d..%d: %d largest-count cases, %d passed; %d soups across strips and bands, %d "
           "passed\n%s: %s\n",
           engine->name, (int)caps.radius_min, (int)caps.radius_max, extremes.cases,
           extremes.passed, soups.cases, soups.passed, test, ok ? "PASSED" : "FAILED");
    cc_supervisor_close(sv);
    return ok ? 0 : 1;
}
