/* Table VI as printed in the CAT paper: every instance parses as a Moore M0 rule of its radius,
 * and spot values copied by hand from the table match. */
#include <stdio.h>
#include <string.h>

#include "golden/table6.h"
#include "oracle/rule.h"

static int failures = 0;

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

/* The instance of radius r has S = s_lo..s_hi, B = b_lo..b_hi and density d. */
static void expect_instance(int32_t r, int s_lo, int s_hi, int b_lo, int b_hi, double d,
                            const char *name) {
    const cc_table6_instance *t = cc_table6_find(r);
    EXPECT(t != NULL, "no instance for r = %d", (int)r);
    if (!t) return;
    cc_rule rule;
    cc_error err = {0};
    EXPECT(cc_rule_parse(t->rule, &rule, &err) == CC_OK, "r = %d: %s: %s", (int)r, t->rule,
           err.msg);
    EXPECT(rule.survive.n == 1 && rule.survive.r[0].lo == s_lo && rule.survive.r[0].hi == s_hi,
           "r = %d: S is not %d..%d", (int)r, s_lo, s_hi);
    EXPECT(rule.birth.n == 1 && rule.birth.r[0].lo == b_lo && rule.birth.r[0].hi == b_hi,
           "r = %d: B is not %d..%d", (int)r, b_lo, b_hi);
    EXPECT(t->density == d, "r = %d: density %g, the table says %g", (int)r, t->density, d);
    EXPECT(strcmp(t->name, name) == 0, "r = %d: name '%s', the table says '%s'", (int)r, t->name,
           name);
}

int main(void) {
    size_t count = 0;
    const cc_table6_instance *all = cc_table6_all(&count);
    EXPECT(count == 16, "%zu instances, the table has 16", count);
    for (size_t i = 0; i < count; i++) {
        const cc_table6_instance *t = &all[i];
        cc_rule rule;
        cc_error err = {0};
        EXPECT(t->radius == (int32_t)i + 1, "instance %zu has radius %d", i, (int)t->radius);
        EXPECT(cc_table6_find(t->radius) == t, "lookup of r = %d", (int)t->radius);
        if (cc_rule_parse(t->rule, &rule, &err) != CC_OK) {
            EXPECT(0, "%s does not parse: %s", t->rule, err.msg);
            continue;
        }
        EXPECT(rule.radius == t->radius && rule.shape == CC_SHAPE_MOORE && rule.centre == 0,
               "%s is not Moore M0 at radius %d", t->rule, (int)t->radius);
        EXPECT(cc_rule_validate(&rule, &err) == CC_OK, "%s: %s", t->rule, err.msg);
        EXPECT(t->density > 0.0 && t->density < 1.0, "%s: density %g", t->rule, t->density);
    }
    EXPECT(cc_table6_find(0) == NULL && cc_table6_find(17) == NULL, "radii outside 1..16 found");

    /* Copied from the table by hand. */
    expect_instance(1, 2, 3, 3, 3, 0.07, "Game of Life");
    expect_instance(4, 40, 80, 41, 80, 0.50, "Majority");
    expect_instance(5, 35, 59, 34, 45, 0.21, "Bosco's Rule");
    expect_instance(8, 163, 223, 74, 252, 0.23, "Globe");
    expect_instance(13, 213, 364, 203, 283, 0.25, "The Cleansing");
    expect_instance(15, 170, 296, 170, 240, 0.28, "Pretzels");
    expect_instance(16, 170, 296, 170, 300, 0.26, "Tangy Ramen");

    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("table6: 16 instances checked\n");
    return 0;
}
