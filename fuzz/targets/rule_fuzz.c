/* Any text either parses into a valid rule that prints and parses back to itself, or is refused
 * with a code and a message. */
#include <stdlib.h>
#include <string.h>

#include "fuzz/targets/fuzz_target.h"
#include "oracle/rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    cc_rule rule, again;
    cc_error err = {0};
    int rc = cc_rule_parse(text, &rule, &err);
    if (rc) {
        FUZZ_REQUIRE(err.code == rc && err.msg[0] != '\0');
    } else {
        FUZZ_REQUIRE(cc_rule_validate(&rule, &err) == CC_OK);
        char printed[CC_RULE_TEXT_MAX];
        if (cc_rule_print(&rule, printed, sizeof printed, &err) == CC_OK) {
            FUZZ_REQUIRE(cc_rule_parse(printed, &again, &err) == CC_OK);
            FUZZ_REQUIRE(cc_rule_equal(&rule, &again));
        } else {
            FUZZ_REQUIRE(err.msg[0] != '\0');
        }
    }
    free(text);
    return 0;
}
