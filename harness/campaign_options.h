/* A campaign's options (cc_campaign_options, fuzz/draw.h): their defaults, Bazel's sharding
 * protocol, and the range syntax of their flags. */
#ifndef CELLCHECK_HARNESS_CAMPAIGN_OPTIONS_H
#define CELLCHECK_HARNESS_CAMPAIGN_OPTIONS_H

#include <stdint.h>

#include "fuzz/draw.h"
#include "oracle/error.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* Defaults: CC_CAMPAIGN_DEFAULT_SEED, CC_CAMPAIGN_DEFAULT_CASES, one shard, stop at the first
 * failure, shrink, no report directory, stdout. */
void cc_campaign_options_init(cc_campaign_options *opt);

/* Bazel's test protocol: TEST_TOTAL_SHARDS and TEST_SHARD_INDEX set the shard (and
 * TEST_SHARD_STATUS_FILE is touched to say sharding is supported); the report directory becomes
 * TEST_UNDECLARED_OUTPUTS_DIR when it is set and none was chosen. Refuses malformed values. */
int cc_campaign_options_from_env(cc_campaign_options *opt, cc_error *err);

/* "A..B" or "A" (A == B), positive integers with A <= B. */
int cc_parse_int_range(const char *text, int32_t *lo, int32_t *hi, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
