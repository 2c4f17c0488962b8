/* mutant.launch-rows: a CUDA engine whose launch grid stops at 65535 block rows of 16 (CUDA's
 * limit in y) with no loop past them: exact up to 1,048,560 rows, wrong past them. Only the
 * shapes past 65535 tiles can catch it. */
#ifndef CELLCHECK_FUZZ_MUTANTS_LAUNCH_ROWS_H
#define CELLCHECK_FUZZ_MUTANTS_LAUNCH_ROWS_H

#include <stdint.h>

#include "engines/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

int mutant_launch_rows_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                              cc_error *err);

extern const cc_engine cc_mutant_launch_rows;

#ifdef __cplusplus
}
#endif

#endif
