/* The next-state table every byte-grid CUDA engine reads: its entries against hand-written
 * rules, and the refusal of a buffer too small for it. (Everything on the device is exercised by
 * each engine's conformance test: the zero-step round trip through each layout, and the steps.) */
#include "engines/cuda/devgrid/devgrid.h"

#include <string.h>

#include "testing/check.h"

static void life(checks *t) {
    cc_rule rule;
    cc_error err;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &rule, &err), CC_OK);
    uint8_t table[2 * 9];
    memset(table, 0xee, sizeof table);
    CHECK_EQ(t, cc_devgrid_build_table(&rule, table, sizeof table, &err), CC_OK);
    /* Dead cells (row 0) are born at 3 only; live ones (row 1, stride 9) survive at 2 and 3. */
    static const uint8_t want[2 * 9] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0};
    for (int i = 0; i < 2 * 9; i++) CHECKF(t, table[i] == want[i], "entry %d is %u", i, table[i]);
}

static void larger_than_life_m1(checks *t) {
    /* Bosco's rule: M1, so counts run to 121 and the stride is 122. */
    cc_rule rule;
    cc_error err;
    CHECK_EQ(t, cc_rule_parse("R5,C2,M1,S34..58,B34..45,NM", &rule, &err), CC_OK);
    uint8_t table[2 * 122 + 1];
    table[2 * 122] = 0x5a; /* one byte past the table stays untouched */
    CHECK_EQ(t, cc_devgrid_build_table(&rule, table, sizeof table, &err), CC_OK);
    CHECK_EQ(t, table[33], 0);
    CHECK_EQ(t, table[34], 1);
    CHECK_EQ(t, table[45], 1);
    CHECK_EQ(t, table[46], 0);
    CHECK_EQ(t, table[122 + 33], 0);
    CHECK_EQ(t, table[122 + 34], 1);
    CHECK_EQ(t, table[122 + 58], 1);
    CHECK_EQ(t, table[122 + 59], 0);
    CHECK_EQ(t, table[122 + 121], 0);
    CHECK_EQ(t, table[2 * 122], 0x5a);
}

static void too_small(checks *t) {
    cc_rule rule;
    cc_error err;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &rule, &err), CC_OK);
    uint8_t table[17];
    int rc = cc_devgrid_build_table(&rule, table, sizeof table, &err);
    CHECK_REFUSED(t, rc, &err, "18 needed", "a 17-byte table for Life");
}

int main(void) {
    checks t = {"devgrid_test", 0, 0};
    life(&t);
    larger_than_life_m1(&t);
    too_small(&t);
    return check_summary(&t);
}
