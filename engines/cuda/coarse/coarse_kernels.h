/* The C interface of cuda.coarse's device code. */
#ifndef CELLCHECK_ENGINES_CUDA_COARSE_COARSE_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_COARSE_COARSE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* Each block computes an 80 x 80 tile of cells with 16 x 16 threads, 5 x 5 cells per thread. */
#define CUDA_COARSE_TILE 80
#define CUDA_COARSE_THREADS 16

/* cc_engine.create: the device grids (a cc_gpu, *ctx) for a Moore rule of radius 1..16 on a
 * w x h torus, stepped by this engine's kernel. */
int cuda_coarse_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
