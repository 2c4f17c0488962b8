/* The C interface of cuda.base's device code. Every function checks every CUDA call it makes and
 * returns a cc_code, with the failing call named in err. */
#ifndef CELLCHECK_REFERENCE_CUDA_BASE_KERNELS_H
#define CELLCHECK_REFERENCE_CUDA_BASE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"

/* The smallest compute capability cuda.base is built for (sm_90). */
#define CUDA_BASE_CC_MAJOR 9
#define CUDA_BASE_CC_MINOR 0

/* The thread block: 32 x 32 threads, one cell each (the CAT paper's BASE). */
#define CUDA_BASE_BLOCK 32

typedef struct cuda_base_device cuda_base_device;

/* 0 when a device of compute capability >= 9.0 is present; otherwise CC_ERR_UNAVAILABLE with
 * what was found (no driver or device, or the device and its capability). */
int cuda_base_probe(cc_error *err);

/* Allocates the two grids and the rule's tables on the device. row_lo[i], row_hi[i] (i = dy + r)
 * give the neighbourhood's dx interval in row dy, centre included; under M0 the kernel subtracts
 * the centre. next_state[alive * (max_count + 1) + count] is the next state. Refuses, with the
 * numbers, a grid that does not fit in the device's free memory. */
int cuda_base_create(int32_t w, int32_t h, int32_t r, int centre, const int32_t *row_lo,
                     const int32_t *row_hi, const uint8_t *next_state, int32_t max_count,
                     cuda_base_device **out, cc_error *err);
void cuda_base_destroy(cuda_base_device *d);

int cuda_base_load(cuda_base_device *d, const uint8_t *cells, cc_error *err);
int cuda_base_store(cuda_base_device *d, uint8_t *cells, cc_error *err);

/* k steps, one kernel launch each, ping-pong between the two grids; synchronises at the end. */
int cuda_base_step(cuda_base_device *d, int64_t k, cc_error *err);
/* k steps between two CUDA events; *ms is the elapsed time between them. */
int cuda_base_timed_step(cuda_base_device *d, int64_t k, double *ms, cc_error *err);

/* The device's name, e.g. "NVIDIA H100 80GB HBM3". */
const char *cuda_base_device_name(const cuda_base_device *d);

#ifdef __cplusplus
}
#endif

#endif
