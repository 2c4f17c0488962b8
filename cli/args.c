#include "cli/args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cli_parse_flags(int argc, char **argv, cli_flag *flags, int nflags, cc_error *err) {
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0)
            return cc_fail(err, CC_ERR_ARG, "unexpected argument '%s'", arg);
        const char *eq = strchr(arg, '=');
        size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        cli_flag *flag = NULL;
        for (int f = 0; f < nflags; f++)
            if (strlen(flags[f].name) == name_len && strncmp(flags[f].name, arg, name_len) == 0)
                flag = &flags[f];
        if (!flag) return cc_fail(err, CC_ERR_ARG, "unknown option '%.*s'", (int)name_len, arg);
        if (flag->value) return cc_fail(err, CC_ERR_ARG, "option %s given twice", flag->name);
        if (eq) {
            flag->value = eq + 1;
        } else {
            if (i + 1 >= argc) return cc_fail(err, CC_ERR_ARG, "option %s needs a value", flag->name);
            flag->value = argv[++i];
        }
    }
    return CC_OK;
}

int cli_parse_int64(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out,
                    cc_error *err) {
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end != '\0')
        return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not an integer", flag, text);
    if (v < lo || v > hi)
        return cc_fail(err, CC_ERR_ARG, "%s: %lld is outside %lld..%lld", flag, v, (long long)lo,
                       (long long)hi);
    *out = v;
    return CC_OK;
}

int cli_parse_range(const char *flag, const char *text, int64_t min, int64_t max, int64_t *lo,
                    int64_t *hi, cc_error *err) {
    const char *dots = strstr(text, "..");
    char buf[64];
    if (!dots) {
        int rc = cli_parse_int64(flag, text, min, max, lo, err);
        if (!rc) *hi = *lo;
        return rc;
    }
    size_t n = (size_t)(dots - text);
    if (n >= sizeof buf) return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not a range A..B", flag, text);
    memcpy(buf, text, n);
    buf[n] = '\0';
    int rc = cli_parse_int64(flag, buf, min, max, lo, err);
    if (!rc) rc = cli_parse_int64(flag, dots + 2, min, max, hi, err);
    if (!rc && *lo > *hi)
        rc = cc_fail(err, CC_ERR_ARG, "%s: range '%s' is empty", flag, text);
    return rc;
}
