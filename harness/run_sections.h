/* The conformance checks of one engine as the mutant tests (fuzz/mutants) run them to show which
 * section catches it: cases seeded cases, no shrinking (where it is caught is the point), the
 * sections in sections_off (CC_SECTION_*) left out. */
#ifndef CELLCHECK_HARNESS_RUN_SECTIONS_H
#define CELLCHECK_HARNESS_RUN_SECTIONS_H

#include <string.h>

#include "harness/harness.h"

static inline int run_sections(const cc_engine *e, uint64_t cases, uint32_t sections_off,
                               cc_conformance_summary *sum, cc_error *err) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    opt.cases = cases;
    opt.shrink = 0;
    opt.sections_off = sections_off;
    memset(sum, 0, sizeof *sum);
    return cc_conformance_run(e, &opt, sum, err);
}

#endif
