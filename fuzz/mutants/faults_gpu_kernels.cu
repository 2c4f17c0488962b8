// The bad kernels of the CUDA faults (faults_gpu.h).
#include "fuzz/mutants/faults_gpu.h"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

__global__ void write_nowhere(int *p) { p[threadIdx.x * 1024] = 1; }

__global__ void spin(volatile int *flag) {
    while (*flag == 0) {
    }
}

int checked(cudaError_t status, const char *what, cc_error *err) {
    if (status == cudaSuccess) return CC_OK;
    return cc_fail(err, CC_ERR_DEVICE, "%s failed: %s", what, cudaGetErrorString(status));
}

}  // namespace

extern "C" int faults_gpu_illegal_address(cc_error *err) {
    // An address no allocation maps: the kernel faults, and the context is poisoned.
    int *bad = reinterpret_cast<int *>(static_cast<uintptr_t>(0x10));
    write_nowhere<<<1, 32>>>(bad);
    int rc = checked(cudaGetLastError(), "launch of write_nowhere", err);
    if (rc) return rc;
    return checked(cudaDeviceSynchronize(), "cudaDeviceSynchronize after write_nowhere", err);
}

extern "C" int faults_gpu_spin(cc_error *err) {
    int *flag = nullptr;
    int rc = checked(cudaMalloc(&flag, sizeof *flag), "cudaMalloc", err);
    if (rc) return rc;
    if ((rc = checked(cudaMemset(flag, 0, sizeof *flag), "cudaMemset", err))) return rc;
    spin<<<1, 1>>>(flag);
    if ((rc = checked(cudaGetLastError(), "launch of spin", err))) return rc;
    return checked(cudaDeviceSynchronize(), "cudaDeviceSynchronize after spin", err);
}

namespace {

// A fifth (leak) or a quarter (pool) of the device's memory.
int device_share(size_t divisor, size_t *bytes, cc_error *err) {
    size_t free_bytes = 0, total = 0;
    int rc = checked(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo", err);
    *bytes = total / divisor;
    return rc;
}

int allocate(void **p, size_t bytes, cc_error *err) {
    cudaError_t status = cudaMalloc(p, bytes);
    if (status == cudaErrorMemoryAllocation) {
        cudaGetLastError(); /* not sticky: the context goes on */
        return cc_fail(err, CC_ERR_NOMEM, "cudaMalloc of %zu bytes: out of device memory", bytes);
    }
    return checked(status, "cudaMalloc", err);
}

void *pool_buffer; /* the process's pool: kept from the first create to the process's end */

}  // namespace

extern "C" int faults_gpu_leak(cc_error *err) {
    size_t bytes = 0;
    void *p = nullptr;
    int rc = device_share(5, &bytes, err);
    return rc ? rc : allocate(&p, bytes, err); /* never freed */
}

extern "C" int faults_gpu_pool(cc_error *err) {
    size_t bytes = 0;
    if (pool_buffer) return CC_OK;
    int rc = device_share(4, &bytes, err);
    return rc ? rc : allocate(&pool_buffer, bytes, err);
}
