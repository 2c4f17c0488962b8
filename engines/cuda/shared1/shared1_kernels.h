/* The C interface of cuda.shared1's device code. */
#ifndef CELLCHECK_ENGINES_CUDA_SHARED1_SHARED1_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_SHARED1_SHARED1_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* The thread block: 32 x 32 threads. Up to radius CUDA_SHARED1_SINGLE_MAX each thread stands for
 * one cell of a 32 x 32 tile; beyond it, where a 32-wide tile would leave too little inside its
 * halo (none at r = 16), for a 2 x 2 group of cells of a 64 x 64 tile, 32 apart. */
#define CUDA_SHARED1_BLOCK 32
#define CUDA_SHARED1_SINGLE_MAX 7

/* cc_engine.create: the device grids (a cc_gpu, *ctx) for a Moore rule of radius 1..16 on a
 * w x h torus, stepped by this engine's kernel. */
int cuda_shared1_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
