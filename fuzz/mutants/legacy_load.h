/* mutant.legacy-load: a CUDA engine whose load copies the caller's grid to the device with
 * cudaMemcpyAsync on the legacy default stream and returns without waiting, while its steps and
 * stores run on a stream of its own created cudaStreamNonBlocking, which never waits for the
 * legacy stream. The first step can read the device grid before the copy lands: the previous
 * grid, or zeros. Under certify's undisturbed timing the copy of a small grid lands long before
 * the next call arrives from the supervisor, and the race does not show; the GPU timing section,
 * which holds the legacy stream back behind a kernel of its own (timing=legacy) and occupies the
 * copy engines, opens it. */
#ifndef CELLCHECK_FUZZ_MUTANTS_LEGACY_LOAD_H
#define CELLCHECK_FUZZ_MUTANTS_LEGACY_LOAD_H

#include <stdint.h>

#include "engines/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

int mutant_legacy_load_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                              cc_error *err);
int mutant_legacy_load_load(void *ctx, const uint8_t *cells, cc_error *err);
int mutant_legacy_load_step(void *ctx, int64_t k, cc_error *err);
int mutant_legacy_load_store(void *ctx, uint8_t *cells, cc_error *err);
void mutant_legacy_load_destroy(void *ctx);
const char *mutant_legacy_load_device_name(void *ctx);

extern const cc_engine cc_mutant_legacy_load;

#ifdef __cplusplus
}
#endif

#endif
