/* The C interface of cuda.pack's device code. */
#ifndef CELLCHECK_ENGINES_CUDA_PACK_PACK_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_PACK_PACK_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* Eight 8-bit cells per 64-bit word; each row keeps two words of halo on either side (the radius
 * reaches at most two words, 16 cells, beyond a word), so any W works. Blocks of 32 x 8 threads,
 * one word each. */
#define CUDA_PACK_CELLS_PER_WORD 8
#define CUDA_PACK_HALO_WORDS 2
#define CUDA_PACK_THREADS_X 32
#define CUDA_PACK_THREADS_Y 8

/* The device layout of a w-cell row: bytes per row, and the byte where cell 0 sits. */
size_t cuda_pack_pitch(int32_t w);
size_t cuda_pack_lead(void);

/* cc_engine.create: the device grids (a cc_gpu, *ctx) for a Moore rule of radius 1..16 on a
 * w x h torus, stepped by this engine's kernels. */
int cuda_pack_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
