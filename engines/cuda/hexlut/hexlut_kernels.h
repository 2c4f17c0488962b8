/* The C interface of cuda.hexlut's device code. */
#ifndef CELLCHECK_ENGINES_CUDA_HEXLUT_HEXLUT_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_HEXLUT_HEXLUT_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* cc_engine.create: the two bit grids (a cc_gpu, *ctx) and the rule's 2^16-entry table on the
 * device, for a hexagonal rule on a w x h torus. Refuses, with the numbers, a grid that does not
 * fit in the device's free memory or a device whose blocks cannot hold the table in shared
 * memory. */
int cuda_hexlut_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
