/* A campaign's options: defaults, Bazel's sharding protocol, ranges (see campaign_options.h). */
#include "harness/campaign_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof CC_CAMPAIGN_DEFAULT_SEED == 2 * CC_SEED_BYTES + 1,
               "the default master seed must be 64 hex digits");

void cc_campaign_options_init(cc_campaign_options *opt) {
    memset(opt, 0, sizeof *opt);
    case_seed_parse_hex(CC_CAMPAIGN_DEFAULT_SEED, opt->master, NULL);
    opt->cases = CC_CAMPAIGN_DEFAULT_CASES;
    opt->invalid_percent = CC_CAMPAIGN_DEFAULT_INVALID_PERCENT;
    opt->shard_index = 0;
    opt->shard_count = 1;
    opt->stop_at_first_failure = 1;
    opt->shrink = 1;
    opt->shrink_tries = CC_CAMPAIGN_DEFAULT_SHRINK_TRIES;
    opt->huge_grid = CC_HUGE_GRID_GPU;
}

static int parse_u32(const char *s, uint32_t *out) {
    if (!s || !*s) return 0;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > UINT32_MAX) return 0;
    }
    *out = (uint32_t)v;
    return 1;
}

int cc_campaign_options_from_env(cc_campaign_options *opt, cc_error *err) {
    const char *total = getenv("TEST_TOTAL_SHARDS");
    const char *index = getenv("TEST_SHARD_INDEX");
    if (total && *total) {
        uint32_t t, i;
        if (!parse_u32(total, &t) || t == 0)
            return cc_fail(err, CC_ERR_ARG, "TEST_TOTAL_SHARDS='%s' is not a positive number",
                           total);
        if (!index || !parse_u32(index, &i) || i >= t)
            return cc_fail(err, CC_ERR_ARG, "TEST_SHARD_INDEX='%s' is not a shard of 0..%u",
                           index ? index : "", t - 1);
        opt->shard_count = t;
        opt->shard_index = i;
    }
    const char *status = getenv("TEST_SHARD_STATUS_FILE");
    if (status && *status) {
        FILE *f = fopen(status, "a");
        if (!f)
            return cc_fail(err, CC_ERR_IO, "cannot touch TEST_SHARD_STATUS_FILE %s: %s", status,
                           strerror(errno));
        fclose(f);
    }
    const char *outputs = getenv("TEST_UNDECLARED_OUTPUTS_DIR");
    if (!opt->report_dir && outputs && *outputs) opt->report_dir = outputs;
    return CC_OK;
}

static int parse_i32(const char *s, size_t len, int32_t *out) {
    if (len == 0 || len > 9) return 0;
    int32_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

int cc_parse_int_range(const char *text, int32_t *lo, int32_t *hi, cc_error *err) {
    if (!text) return cc_fail(err, CC_ERR_ARG, "missing range");
    const char *dots = strstr(text, "..");
    int32_t a, b;
    int ok = dots ? parse_i32(text, (size_t)(dots - text), &a) &&
                        parse_i32(dots + 2, strlen(dots + 2), &b)
                  : parse_i32(text, strlen(text), &a);
    if (!dots) b = a;
    if (!ok)
        return cc_fail(err, CC_ERR_ARG, "range '%s' is not A..B or A with whole numbers", text);
    if (a < 1 || b < a)
        return cc_fail(err, CC_ERR_ARG, "range '%s' must have 1 <= A <= B", text);
    *lo = a;
    *hi = b;
    return CC_OK;
}

