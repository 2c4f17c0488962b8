// NCCL's functions, from libnccl.so.2 loaded at an engine's create (CUDA C++; included by .cu
// files only): the one loader the engines over several GPUs share, in one process or as ranks.
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_NCCL_LIBRARY_CUH
#define CELLCHECK_ENGINES_CUDA_COMMON_NCCL_LIBRARY_CUH

#ifndef __CUDACC__
#error "engines/cuda/common/nccl_library.cuh is CUDA C++: include it from .cu files only"
#endif

#include <cuda_runtime.h>
#include <nccl.h>
#include <stddef.h>

#include "engines/cuda/common/nccl_library.h"

// Zeroed: not loaded.
struct cc_nccl_library {
    void *handle;
    ncclResult_t (*get_unique_id)(ncclUniqueId *);
    ncclResult_t (*comm_init_rank)(ncclComm_t *, int, ncclUniqueId, int);
    ncclResult_t (*comm_init_all)(ncclComm_t *, int, const int *);
    ncclResult_t (*comm_finalize)(ncclComm_t);
    ncclResult_t (*comm_destroy)(ncclComm_t);
    ncclResult_t (*group_start)(void);
    ncclResult_t (*group_end)(void);
    ncclResult_t (*send)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*recv)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    const char *(*error_string)(ncclResult_t);
    ncclResult_t (*get_version)(int *);
};

// libnccl.so.2 (else CUDA's copy), every function above found: CC_ERR_UNAVAILABLE where it is not
// installed or lacks one. The library stays loaded for the process (RTLD_NODELETE): NCCL sets
// itself up once a process, and a fresh copy each create would set up (and hold) its host
// buffers again.
int cc_nccl_library_load(cc_nccl_library *lib, const char *engine, cc_error *err);

// Lets go of the handle (the library itself stays) and zeroes lib. Accepts a zeroed one.
void cc_nccl_library_close(cc_nccl_library *lib);

// CC_ERR_DEVICE, "<engine>: <call> failed: <NCCL's words>".
int cc_nccl_library_fail(const cc_nccl_library *lib, ncclResult_t r, const char *engine,
                         const char *call, cc_error *err);

#endif
