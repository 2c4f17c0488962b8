/* Any text either parses into a case whose line formats and parses back to the same line, or is
 * refused with a code and a message. */
#include <stdlib.h>
#include <string.h>

#include "oracle/case.h"
#include "fuzz/targets/fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    cc_case c, again;
    cc_error err = {0};
    int rc = case_parse(text, &c, &err);
    if (rc) {
        FUZZ_REQUIRE(err.code == rc && err.msg[0] != '\0');
    } else {
        char line[CC_CASE_TEXT_MAX], line2[CC_CASE_TEXT_MAX];
        FUZZ_REQUIRE(case_format(&c, line, sizeof line, &err) == CC_OK);
        FUZZ_REQUIRE(case_parse(line, &again, &err) == CC_OK);
        FUZZ_REQUIRE(case_format(&again, line2, sizeof line2, &err) == CC_OK);
        FUZZ_REQUIRE(strcmp(line, line2) == 0);
    }
    free(text);
    return 0;
}
