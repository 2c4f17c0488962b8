/* The C interface of cuda.mcell's device code. */
#ifndef CELLCHECK_ENGINES_CUDA_MCELL_MCELL_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_MCELL_MCELL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* 16 x 16 threads per block, two horizontally adjacent cells per thread: 32 x 16 cells. */
#define CUDA_MCELL_THREADS 16
#define CUDA_MCELL_CELLS 2

/* cc_engine.create: the device grids (a cc_gpu, *ctx) for a Moore rule of radius 1..16 on a
 * w x h torus, stepped by this engine's kernel. */
int cuda_mcell_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
