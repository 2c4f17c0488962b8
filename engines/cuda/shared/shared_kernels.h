/* The C interface of cuda.shared's device code. */
#ifndef CELLCHECK_ENGINES_CUDA_SHARED_SHARED_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_SHARED_SHARED_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* The thread block: 32 x 32 threads, one cell each; the tile adds r rows and columns all round. */
#define CUDA_SHARED_BLOCK 32

/* cc_engine.create: the device grids (a cc_gpu, *ctx) for a Moore rule of radius 1..16 on a
 * w x h torus, stepped by this engine's kernel. */
int cuda_shared_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

/* Runs on the host, no device needed: checks that the kernel's loading writes every byte of the
 * tile it reads exactly once at radius r (its own cells, Topa's four halo shares, the padding).
 * CC_ERR_MISMATCH names the first byte that is not. */
int cuda_shared_check_cover(int32_t r, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
