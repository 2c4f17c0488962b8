/* Functions shared by the campaign's own files; not part of its interface. */
#ifndef CELLCHECK_FUZZ_INTERNAL_H
#define CELLCHECK_FUZZ_INTERNAL_H

#include <stdint.h>

#include "engines/engine.h"
#include "fuzz/campaign.h"
#include "oracle/rule.h"

/* Every range clamped to 0 .. max, merged again where clamping made them meet. */
void fuzz_set_clamp(cc_set *set, int32_t max);

/* The smallest side an engine takes at radius r along an axis with this multiple. */
int32_t fuzz_side_min(int32_t r, int32_t multiple);

/* Where a failing case first diverges: the round trip, then step(1) repeated, then step(j) in
 * one call. Writes the difference picture into report_dir (when not NULL) with tag in its name. */
int fuzz_divergence(const cc_engine *engine, const cc_case *c, const char *report_dir,
                    const char *tag, cc_divergence *d, cc_error *err);

#endif
