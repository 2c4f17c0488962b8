/* Any text either parses into a valid rule that prints and parses back to itself, or is refused
 * with a code and a message. */
#include "fuzz/targets/fuzz_target.h"
#include "oracle/rule.h"

void fuzz_check_text(const char *text) {
    cc_rule rule, again;
    cc_error err = {0};
    if (fuzz_refused(cc_rule_parse(text, &rule, &err), &err)) return;
    FUZZ_REQUIRE(cc_rule_validate(&rule, &err) == CC_OK);
    char printed[CC_RULE_TEXT_MAX];
    if (cc_rule_print(&rule, printed, sizeof printed, &err) == CC_OK) {
        FUZZ_REQUIRE(cc_rule_parse(printed, &again, &err) == CC_OK);
        FUZZ_REQUIRE(cc_rule_equal(&rule, &again));
    } else {
        FUZZ_REQUIRE(err.msg[0] != '\0');
    }
}
