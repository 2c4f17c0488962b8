/* The C interface of cuda.bitslice1 and cuda.bitslice2's device code: seed 001's SINGLE-WORD and
 * DOUBLE-WORD on the GPU, global memory, 64 cells a word in column-major words (bitgrid.h, halo 0). */
#ifndef CELLCHECK_ENGINES_CUDA_BITSLICE_BITSLICE_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_BITSLICE_BITSLICE_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* A block: 256 threads on consecutive rows of one word column (SINGLE-WORD: a row each;
 * DOUBLE-WORD: two rows each). */
#define CUDA_BITSLICE_THREADS 256

/* cc_engine.create of each engine: a Moore radius-1 rule on a w x h torus, any w and h. */
int cuda_bitslice1_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
int cuda_bitslice2_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
