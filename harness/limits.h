/* What one request may ask of this machine, checked before anything large is allocated or
 * started, each refusal naming the size asked for, what it needs and what there is:
 *   - work, in cell-neighbour visits: steps * W * H * (the neighbourhood + 1);
 *   - host memory, against MemAvailable (/proc/meminfo).
 * The caps (README, "Limits"):
 *   run:            at most CC_RUN_WORK_MAX visits (about an hour of a fast GPU engine)
 *   check --case:   at most CC_CHECK_WORK_MAX visits, and the grids in host memory
 *   check --cases:  at most CC_CAMPAIGN_CASES_MAX (harness.h); --size up to CC_CAMPAIGN_SIDE_MAX */
#ifndef CELLCHECK_HARNESS_LIMITS_H
#define CELLCHECK_HARNESS_LIMITS_H

#include <stdint.h>

#include "oracle/error.h"
#include "oracle/rule.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CC_RUN_WORK_MAX 1e15
#define CC_CHECK_WORK_MAX 1e15
#define CC_CAMPAIGN_SIDE_MAX 16384

/* steps * W * H * (neighbourhood + 1). */
double cc_work_visits(const cc_rule *rule, int32_t w, int32_t h, int64_t steps);

/* CC_ERR_ARG, naming what, the request and the cap, when the work is above max. */
int cc_limit_work(const char *what, const cc_rule *rule, int32_t w, int32_t h, int64_t steps,
                  double max, cc_error *err);

/* The host memory a WxH request needs, bytes_per_cell a cell, against what is available now:
 * CC_ERR_NOMEM, naming the size, the bytes needed and the bytes available, when it is more. */
int cc_limit_memory(const char *what, int32_t w, int32_t h, double bytes_per_cell, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
