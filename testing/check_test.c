/* The check macros themselves: a failing check fails the summary, and so does a test in which no
 * check ran at all. Counts are compared by hand here, not through the macros under test. */
#include <stdio.h>

#include "testing/check.h"

int main(void) {
    int bad = 0;
    checks none = {"none", 0, 0};
    if (check_summary(&none) != 1) bad++, fprintf(stderr, "zero checks passed the summary\n");

    checks one = {"one", 0, 0};
    CHECK(&one, 1 + 1 == 2);
    if (one.run != 1 || one.failed != 0 || check_summary(&one) != 0)
        bad++, fprintf(stderr, "one passing check: run %ld failed %ld\n", one.run, one.failed);

    checks failing = {"failing", 0, 0};
    CHECK_EQ(&failing, 2, 3);
    if (failing.run != 1 || failing.failed != 1 || check_summary(&failing) != 1)
        bad++, fprintf(stderr, "one failing check: run %ld failed %ld\n", failing.run,
                       failing.failed);
    printf("check_test: %d problems\n", bad);
    return bad ? 1 : 0;
}
