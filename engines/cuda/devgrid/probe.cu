// The device probe every CUDA engine's availability check shares.
#include <cuda_runtime.h>

#include "engines/cuda/devgrid/probe.h"

extern "C" int cc_cuda_probe(const char *engine, int major, int minor, cc_error *err) {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "CUDA driver/device not found: %s",
                       cudaGetErrorString(status));
    if (count < 1)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "CUDA driver/device not found: no device");
    cudaDeviceProp prop;
    status = cudaGetDeviceProperties(&prop, 0);
    if (status != cudaSuccess)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "cudaGetDeviceProperties(device 0) failed: %s",
                       cudaGetErrorString(status));
    if (prop.major < major || (prop.major == major && prop.minor < minor)) {
        if (engine)
            return cc_fail(err, CC_ERR_UNAVAILABLE,
                           "device 0 (%s) has compute capability %d.%d; %s needs %d.%d or newer",
                           prop.name, prop.major, prop.minor, engine, major, minor);
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "device 0 (%s) has compute capability %d.%d; %d.%d or newer is needed",
                       prop.name, prop.major, prop.minor, major, minor);
    }
    return CC_OK;
}
