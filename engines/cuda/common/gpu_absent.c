/* The device queries of gpu.h for a program built without CUDA (ci/install.sh where nvcc is
 * absent): there is no device to describe or run on, and every answer says why. The rest of the
 * driver serves CUDA engines only, and such a program has none built in. */
#include "engines/cuda/common/gpu.h"

#define NO_CUDA "this cellcheck was built without CUDA (installed where nvcc was absent)"

int cc_gpu_available(cc_error *err) { return cc_fail(err, CC_ERR_UNAVAILABLE, "%s", NO_CUDA); }

int cc_gpu_describe(char *buf, size_t size, cc_error *err) {
    if (size) buf[0] = '\0';
    return cc_fail(err, CC_ERR_UNAVAILABLE, "%s", NO_CUDA);
}

int cc_gpu_versions(int *driver, int *runtime, cc_error *err) {
    *driver = 0;
    *runtime = 0;
    return cc_fail(err, CC_ERR_UNAVAILABLE, "%s", NO_CUDA);
}

int cc_gpu_devices(int32_t *count, cc_error *err) {
    *count = 0;
    return cc_fail(err, CC_ERR_UNAVAILABLE, "%s", NO_CUDA);
}
