/* NCCL's library from C (nccl_library.cuh has its functions for CUDA C++). */
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_NCCL_LIBRARY_H
#define CELLCHECK_ENGINES_CUDA_COMMON_NCCL_LIBRARY_H

#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads libnccl.so.2 as the engines do, every function they call found, and sets *version to
 * its ncclGetVersion (2.28.3: 22803). CC_ERR_UNAVAILABLE where it is not installed or lacks one
 * (named). Needs no GPU. */
int cc_nccl_library_version(int *version, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
