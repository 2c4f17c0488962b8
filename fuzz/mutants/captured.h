/* A conformance run of a mutant with this process's stdout captured, so that a test can read
 * what the run reported and print only what it needs. */
#ifndef CELLCHECK_FUZZ_MUTANTS_CAPTURED_H
#define CELLCHECK_FUZZ_MUTANTS_CAPTURED_H

#include <stddef.h>

#include "harness/harness.h"

/* cc_conformance_run(engine, opt) with stdout captured into report (size bytes at most, ending
 * in '\0') through a file named after the engine and tag in TEST_TMPDIR (else /tmp). Its code,
 * or CC_ERR_IO where the output cannot be captured. */
int cc_mutants_conformance_captured(const cc_engine *engine, const cc_campaign_options *opt,
                                    const char *tag, char *report, size_t size,
                                    cc_conformance_summary *sum, cc_error *err);

#endif
