/* The JUnit writer: counts in the suite's attributes, one element per case, the failure's and
 * skip's messages escaped, and a report that cannot be written refused with its path. */
#define _POSIX_C_SOURCE 200809L
#include "harness/junit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/files.h"
#include "testing/check.h"

static size_t count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

int main(void) {
    checks t = {"junit_test", 0, 0};
    const char *tmp = getenv("TEST_TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/junit.xml", tmp ? tmp : "/tmp");
    cc_junit j;
    cc_junit_init(&j, "cpu.<ref>");
    for (int i = 0; i < 200; i++) {
        char name[32];
        snprintf(name, sizeof name, "case %d", i);
        if (i == 7)
            cc_junit_add(&j, name, 0.5, CC_JUNIT_FAILED, "mismatch & more", "case: rule=\"B3/S23\"");
        else if (i == 9)
            cc_junit_add(&j, name, 0.0, CC_JUNIT_SKIPPED, "left out", NULL);
        else
            cc_junit_add(&j, name, 0.001, CC_JUNIT_PASSED, NULL, NULL);
    }
    cc_error err = {0};
    CHECK_EQ(&t, cc_junit_write(&j, path, &err), CC_OK);
    char *xml = NULL;
    size_t len = 0;
    CHECK_EQ(&t, cc_read_file(path, &xml, &len, &err), CC_OK);
    if (xml) {
        CHECK(&t, strstr(xml, "name=\"cpu.&lt;ref&gt;\" tests=\"200\" failures=\"1\" errors=\"0\" "
                              "skipped=\"1\"") != NULL);
        CHECK_EQ(&t, count(xml, "<testcase "), 200);
        CHECK_EQ(&t, count(xml, "<failure "), 1);
        CHECK(&t, strstr(xml, "name=\"case 7\" time=\"0.500\">\n      <failure message=\"mismatch "
                              "&amp; more\">case: rule=&quot;B3/S23&quot;</failure>") != NULL);
        CHECK(&t, strstr(xml, "name=\"case 9\" time=\"0.000\">\n      <skipped message=\"left "
                              "out\"/>") != NULL);
        CHECK(&t, strstr(xml, "name=\"case 8\" time=\"0.001\"/>") != NULL);
    }
    free(xml);
    char bad[4200];
    snprintf(bad, sizeof bad, "%s/no/such/dir/junit.xml", tmp ? tmp : "/tmp");
    CHECK(&t, cc_junit_write(&j, bad, &err) != CC_OK);
    CHECK(&t, strstr(err.msg, "no/such/dir") != NULL);
    cc_junit_free(&j);
    return check_summary(&t);
}
