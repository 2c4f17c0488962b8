/* Functions shared by the campaign's own files; not part of its interface. */
#ifndef CELLCHECK_HARNESS_INTERNAL_H
#define CELLCHECK_HARNESS_INTERNAL_H

#include <stdint.h>

#include "engines/engine.h"
#include "harness/campaign.h"
#include "oracle/rule.h"

/* How long the divergence search may run before it reports what it found so far. */
#define CC_DIVERGENCE_BUDGET_S 30.0

/* Where a failing case first diverges: the round trip, then step(1) repeated, then step(j) in
 * one call. Writes the difference picture into report_dir (when not NULL) with tag in its name. */
int harness_divergence(const cc_engine *engine, const cc_case *c, const char *report_dir,
                    const char *tag, cc_divergence *d, cc_error *err);

/* check.c's verdicts, shared with check_in_place.c. */
void harness_fail_result(cc_check_result *res, cc_failure_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A call that failed: a fault or a broken contract in the supervisor's words, which name the
 * call; an engine's own error after what was called. */
void harness_call_failed(cc_check_result *res, int rc, const char *what, const cc_error *e);
/* a of the split pattern step(a) then step(k-a): 1..k-1, from the case seed. */
int64_t harness_split_point(const cc_case *c);

/* Above this many cells a uniform case is checked in place (check_in_place.c). */
#define CC_CHECK_IN_PLACE_CELLS 1073741824.0
/* The case checked with one copy of its grid: ctx is created for it (and destroyed here). */
int harness_check_in_place(const cc_engine *engine, const cc_case *c, const cc_check_options *opt,
                           struct cc_context *ctx, cc_check_result *res, cc_error *err);

#endif
