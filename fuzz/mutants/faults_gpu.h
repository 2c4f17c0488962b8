/* The CUDA faults of faults.h: the control loop on the host, one bad kernel in step. */
#ifndef CELLCHECK_FUZZ_MUTANTS_FAULTS_GPU_H
#define CELLCHECK_FUZZ_MUTANTS_FAULTS_GPU_H

#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches a kernel that writes to an unmapped device address and waits for it: CC_ERR_DEVICE
 * with CUDA's words (an illegal address, which poisons the context). */
int faults_gpu_illegal_address(cc_error *err);

/* Launches a kernel that spins forever and waits for it: never returns. */
int faults_gpu_spin(cc_error *err);

/* Allocates a fifth of the device's memory and never frees it: a leak per context that runs out
 * at the fifth (CC_ERR_NOMEM). */
int faults_gpu_leak(cc_error *err);

/* The process's pool: a quarter of the device's memory allocated at the first call and kept,
 * reused by every later one. */
int faults_gpu_pool(cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
