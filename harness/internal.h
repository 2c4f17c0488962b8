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

#endif
