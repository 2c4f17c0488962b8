/* Any text either parses into a case whose line formats and parses back to the same line, or is
 * refused with a code and a message. */
#include <string.h>

#include "oracle/case.h"
#include "fuzz/targets/fuzz_target.h"

void fuzz_check_text(const char *text) {
    cc_case c, again;
    cc_error err = {0};
    if (fuzz_refused(case_parse(text, &c, &err), &err)) return;
    char line[CC_CASE_TEXT_MAX], line2[CC_CASE_TEXT_MAX];
    FUZZ_REQUIRE(case_format(&c, line, sizeof line, &err) == CC_OK);
    FUZZ_REQUIRE(case_parse(line, &again, &err) == CC_OK);
    FUZZ_REQUIRE(case_format(&again, line2, sizeof line2, &err) == CC_OK);
    FUZZ_REQUIRE(strcmp(line, line2) == 0);
}
