/* Shrinking a failing case: the smallest size, steps and radius that still fail the same way. */
#ifndef CELLCHECK_HARNESS_SHRINK_H
#define CELLCHECK_HARNESS_SHRINK_H

#include "engines/engine.h"
#include "harness/check.h"
#include "oracle/case.h"
#include "oracle/error.h"
#include "oracle/rule.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* The rule at another radius, its count ranges keeping their meaning: a bound in the lower half
 * of 0..max (counts from the bottom) stays, at most half the new largest count; a bound in the
 * upper half keeps its distance to the top, at least just above that half. So S0..16639 at R64,
 * M1 (largest count 16641) becomes S0..7 at R1 (largest 9): "all but the two fullest counts",
 * not every count. */
cc_rule cc_rule_at_radius(const cc_rule *rule, int32_t radius);

/* Shrinks a failing case greedily: fewer steps, a smaller radius (cc_rule_at_radius), smaller W
 * and H down to the smallest the engine takes (both together for a square-only engine), the
 * cheapest candidate first; keeps each change under which the case still fails with the same
 * kind of failure (and, for a call pattern, the same pattern). Runs at most max_tries cases and
 * starts none after budget_s seconds; past CC_SHRINK_QUIET_S, each try is named on stderr. */
#define CC_SHRINK_BUDGET_S 120.0
/* A case past CC_CHECK_IN_PLACE_CELLS is shrunk through candidates of at most this many cells,
 * within CC_SHRINK_HUGE_BUDGET_S: its analysis ends within a minute of its failure. */
#define CC_SHRINK_HUGE_CELLS_MAX ((double)(1u << 28))
#define CC_SHRINK_HUGE_BUDGET_S 30.0
#define CC_SHRINK_QUIET_S 5.0
int cc_case_shrink(const cc_engine *engine, const cc_case *c, cc_failure_kind kind,
                   cc_pattern pattern, int max_tries, double budget_s, cc_case *smallest,
                   int *tries, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
