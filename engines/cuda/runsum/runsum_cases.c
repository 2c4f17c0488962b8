/* The cases of runsum_cases.h. */
#include "engines/cuda/runsum/runsum_cases.h"

#include <stdio.h>
#include <string.h>

#include "engines/cuda/cat/cat_extremes.h"
#include "oracle/case.h"

int runsum_soups(const cc_engine *engine) {
    static const struct {
        int32_t w, r;
    } sizes[] = {{959, 1}, {961, 1}, {1921, 1}, {961, 5}, {1921, 5}, {959, 16}, {961, 16}, {961, 32}};
    uint8_t master[CC_SEED_BYTES];
    memset(master, 0x5e, sizeof master);
    uint64_t salt = 0;
    cat_extremes_result res;
    memset(&res, 0, sizeof res);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int cross = 0; cross <= 1; cross++) {
            const cc_shape shape = cross ? CC_SHAPE_CROSS : CC_SHAPE_MOORE;
            if (!(cc_engine_caps_resolved(engine).shapes & CC_SHAPE_BIT(shape))) continue;
            cc_case c;
            memset(&c, 0, sizeof c);
            c.rule.shape = shape;
            c.rule.radius = sizes[si].r;
            c.rule.centre = (int)(salt & 1);
            const int32_t top = cc_rule_max_count(&c.rule), mean = top / 3;
            cc_set_clear(&c.rule.survive);
            cc_set_clear(&c.rule.birth);
            cc_error err;
            if (cc_set_add(&c.rule.survive, mean - mean / 4, mean + mean / 3, &err) ||
                cc_set_add(&c.rule.birth, mean, mean + mean / 5, &err)) {
                printf("ERROR: %s: the soup rule of r = %d: %s\n", engine->name, (int)c.rule.radius,
                       err.msg);
                res.cases++;
                res.infra_errors++;
                continue;
            }
            c.w = sizes[si].w;
            c.h = 8 * (2 * sizes[si].r + 1) + 7; /* two bands (runsum_geometry_bands), the second 7 rows */
            c.steps = 2;
            c.density = 1.0 / 3.0;
            case_seed_derive(master, salt++, c.seed);
            cat_extremes_check(engine, &c, 0, &res);
        }
    printf("%s: %d soups across strips and bands, %d passed, %d mismatched, %d other failures, %d "
           "not run\n",
           engine->name, res.cases, res.passed, res.mismatched, res.other_failures, res.infra_errors);
    return res.cases > 0 && res.passed == res.cases;
}

int runsum_cases_test_main(const cc_engine *table, const char *test, int argc, char **argv) {
    return cat_extremes_test_main_more(table, test, runsum_soups, argc, argv);
}
