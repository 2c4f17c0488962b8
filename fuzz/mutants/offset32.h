/* mutant.offset32: a CUDA engine exact below 2^32 cells and wrong past them (32-bit cell
 * offsets). Only certify's case past 2^32 cells, verified by light cones, can catch it. */
#ifndef CELLCHECK_FUZZ_MUTANTS_OFFSET32_H
#define CELLCHECK_FUZZ_MUTANTS_OFFSET32_H

#include <stdint.h>

#include "engines/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

int mutant_offset32_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

extern const cc_engine cc_mutant_offset32;

#ifdef __cplusplus
}
#endif

#endif
