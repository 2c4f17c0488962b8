/* Table VI as printed in the CAT paper: every instance parses as a Moore M0 rule of its radius,
 * and spot values copied by hand from the table match. */
#include <stdio.h>
#include <string.h>

#include "oracle/table6.h"
#include "oracle/rule.h"
#include "testing/check.h"

/* The instance of radius r has S = s_lo..s_hi, B = b_lo..b_hi and density d. */
static void expect_instance(checks *t, int32_t r, int s_lo, int s_hi, int b_lo, int b_hi, double d,
                            const char *name) {
    const cc_table6_instance *inst = cc_table6_find(r);
    CHECKF(t, inst != NULL, "no instance for r = %d", (int)r);
    if (!inst) return;
    cc_rule rule;
    cc_error err = {0};
    CHECKF(t, cc_rule_parse(inst->rule, &rule, &err) == CC_OK, "r = %d: %s: %s", (int)r, inst->rule,
           err.msg);
    CHECKF(t, rule.survive.n == 1 && rule.survive.r[0].lo == s_lo && rule.survive.r[0].hi == s_hi,
           "r = %d: S is not %d..%d", (int)r, s_lo, s_hi);
    CHECKF(t, rule.birth.n == 1 && rule.birth.r[0].lo == b_lo && rule.birth.r[0].hi == b_hi,
           "r = %d: B is not %d..%d", (int)r, b_lo, b_hi);
    CHECKF(t, inst->density == d, "r = %d: density %g, the table says %g", (int)r, inst->density,
           d);
    CHECKF(t, strcmp(inst->name, name) == 0, "r = %d: name '%s', the table says '%s'", (int)r,
           inst->name, name);
}

/* Every instance: its radius, its lookup, a Moore M0 rule of that radius, a density in (0, 1). */
static void check_all_instances(checks *t) {
    size_t count = 0;
    const cc_table6_instance *all = cc_table6_all(&count);
    CHECKF(t, count == 16, "%zu instances, the table has 16", count);
    for (size_t i = 0; i < count; i++) {
        const cc_table6_instance *inst = &all[i];
        cc_rule rule;
        cc_error err = {0};
        CHECKF(t, inst->radius == (int32_t)i + 1, "instance %zu has radius %d", i,
               (int)inst->radius);
        CHECKF(t, cc_table6_find(inst->radius) == inst, "lookup of r = %d", (int)inst->radius);
        if (!CHECKF(t, cc_rule_parse(inst->rule, &rule, &err) == CC_OK, "%s does not parse: %s",
                    inst->rule, err.msg))
            continue;
        CHECKF(t, rule.radius == inst->radius && rule.shape == CC_SHAPE_MOORE && rule.centre == 0,
               "%s is not Moore M0 at radius %d", inst->rule, (int)inst->radius);
        CHECKF(t, cc_rule_validate(&rule, &err) == CC_OK, "%s: %s", inst->rule, err.msg);
        CHECKF(t, inst->density > 0.0 && inst->density < 1.0, "%s: density %g", inst->rule,
               inst->density);
    }
    CHECKF(t, cc_table6_find(0) == NULL && cc_table6_find(17) == NULL, "radii outside 1..16 found");
}

int main(void) {
    checks t = {"table6_test", 0, 0};
    check_all_instances(&t);

    /* Copied from the table by hand. */
    expect_instance(&t, 1, 2, 3, 3, 3, 0.07, "Game of Life");
    expect_instance(&t, 4, 40, 80, 41, 80, 0.50, "Majority");
    expect_instance(&t, 5, 35, 59, 34, 45, 0.21, "Bosco's Rule");
    expect_instance(&t, 8, 163, 223, 74, 252, 0.23, "Globe");
    expect_instance(&t, 13, 213, 364, 203, 283, 0.25, "The Cleansing");
    expect_instance(&t, 15, 170, 296, 170, 240, 0.28, "Pretzels");
    expect_instance(&t, 16, 170, 296, 170, 300, 0.26, "Tangy Ramen");

    return check_summary(&t);
}
