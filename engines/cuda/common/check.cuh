// The one way CUDA engines check the runtime (CUDA C++; included by .cu files only): every call
// through CC_CUDA_CHECK, every launch through cc_cuda_launched, each failure a cc_code with the
// engine and the call named. Nothing exits. Also the launch-size helpers the engines share.
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_CHECK_CUH
#define CELLCHECK_ENGINES_CUDA_COMMON_CHECK_CUH

#ifndef __CUDACC__
#error "engines/cuda/common/check.cuh is CUDA C++: include it from .cu files only"
#endif

#include <cuda_runtime.h>

#include <stdint.h>

extern "C" {
#include "oracle/error.h"
}

// CC_ERR_DEVICE, "<engine>: <call> failed: <CUDA's words>".
int cc_cuda_fail(cudaError_t status, const char *engine, const char *call, cc_error *err);

// Checks the launch just made: CC_OK, or CC_ERR_DEVICE with "<engine>: launch of <kernel, from
// fmt> failed: <CUDA's words>".
int cc_cuda_launched(cc_error *err, const char *engine, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

// Runs call (a cudaError_t expression); on failure returns from the enclosing function, which has
// a cc_error *err, with the call named.
#define CC_CUDA_CHECK(engine, call)                                                              \
    do {                                                                                         \
        cudaError_t cc_cuda_status = (call);                                                     \
        if (cc_cuda_status != cudaSuccess)                                                       \
            return cc_cuda_fail(cc_cuda_status, (engine), #call, err);                           \
    } while (0)

// A launch grid of blocks_x x blocks_y blocks with y capped at the hardware's 65535: kernels
// launched on it loop over the block rows past the cap (by += gridDim.y).
inline dim3 cc_cuda_grid(int blocks_x, int blocks_y) {
    return dim3((unsigned)blocks_x, (unsigned)(blocks_y < 65535 ? blocks_y : 65535));
}

// Blocks of `threads` for count items, at most max_blocks: kernels launched with them loop over
// the items past the last block (a grid-stride loop).
inline unsigned cc_cuda_blocks(int64_t count, int threads, int max_blocks) {
    const int64_t blocks = (count + threads - 1) / threads;
    return (unsigned)(blocks > max_blocks ? max_blocks : blocks);
}

#endif
