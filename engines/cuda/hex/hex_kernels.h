/* The C interface of cuda.hex's device code. */
#ifndef CELLCHECK_ENGINES_CUDA_HEX_HEX_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_HEX_HEX_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* A block: 32 x 8 threads, one cell each; a warp reads 32 consecutive bytes of a row. */
#define CUDA_HEX_THREADS_X 32
#define CUDA_HEX_THREADS_Y 8

/* cc_engine.create: the two byte grids (a cc_gpu, *ctx) and the rule's next-state table on the
 * device, for a hexagonal rule on a w x h torus. */
int cuda_hex_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
