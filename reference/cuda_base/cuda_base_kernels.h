/* The C interface of cuda.base's device code, on the common GPU driver
 * (engines/cuda/common/gpu.h), which checks every CUDA call and names the failing one in err. */
#ifndef CELLCHECK_REFERENCE_CUDA_BASE_KERNELS_H
#define CELLCHECK_REFERENCE_CUDA_BASE_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

/* The thread block: 32 x 32 threads, one cell each (the CAT paper's BASE). */
#define CUDA_BASE_BLOCK 32

/* The two grids (a cc_gpu, *ctx) and the rule's tables on the device. row_lo[i], row_hi[i]
 * (i = dy + r) give the neighbourhood's dx interval in row dy, centre included; under M0 the
 * kernel subtracts the centre. Refuses, with the numbers, a grid that does not fit in the
 * device's free memory. */
int cuda_base_create(const cc_rule *rule, int32_t w, int32_t h, const int32_t *row_lo,
                     const int32_t *row_hi, void **ctx, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
