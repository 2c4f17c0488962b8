/* Error messages: one too long for cc_error keeps its start and its reason at the end, and a
 * short one is left whole. */
#include <string.h>

#include "oracle/error.h"
#include "testing/check.h"

/* A message too long for cc_error keeps its start and its reason at the end; the long path in
 * the middle is what is cut. */
static void check_long_messages(checks *t) {
    char path[2000];
    memset(path, 'd', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    path[0] = '/';
    cc_error err;
    cc_fail(&err, CC_ERR_IO, "cannot open %s: No such file or directory", path);
    size_t len = strlen(err.msg);
    CHECK_EQ(t, len, CC_ERROR_MSG_MAX - 1);
    CHECK(t, strncmp(err.msg, "cannot open /ddd", 16) == 0);
    CHECK(t, strstr(err.msg, "ddd ... ddd") != NULL);
    CHECK(t, strcmp(err.msg + len - 27, ": No such file or directory") == 0);
    /* A prefix holding the long path: the old message, the reason, stays whole at the end. */
    cc_fail(&err, CC_ERR_ARG, "RLE line 2: unknown token 'z'");
    cc_prefix(&err, "loading %s", path);
    len = strlen(err.msg);
    CHECK_EQ(t, len, CC_ERROR_MSG_MAX - 1);
    CHECK(t, strncmp(err.msg, "loading /ddd", 12) == 0);
    CHECK(t, strcmp(err.msg + len - 31, ": RLE line 2: unknown token 'z'") == 0);
    CHECK_EQ(t, err.code, CC_ERR_ARG);
    /* Short ones are untouched. */
    cc_fail(&err, CC_ERR_IO, "x %d", 5);
    cc_prefix(&err, "p");
    CHECK_STR(t, err.msg, "p: x 5");
}

int main(void) {
    checks t = {"error_test", 0, 0};
    check_long_messages(&t);
    return check_summary(&t);
}
