// The timing disturbance beside a GPU engine (timing.h): background streams on the engine's
// devices, queued before each of its calls.
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/common/check.cuh"
#include "engines/cuda/common/devices.h"
#include "engines/cuda/common/timing.h"

namespace {

const char *const who = "timing disturbance";

struct device_load {
    int ready;                 // streams, events and buffers made
    int sms;                   // the device's multiprocessors
    cudaStream_t blocking;     // what the legacy default stream waits behind
    cudaStream_t background;   // non-blocking: the copies and the kernel over the SMs
    cudaEvent_t blocking_done, background_done; // recorded after each batch
    void *device_buf;
    void *host_buf;            // page-locked, CC_GPU_TIMING_COPY_BYTES
};

// Runs for ns nanoseconds of the device's global timer, keeping its block resident and busy.
__global__ void spin(uint64_t ns) {
    uint64_t start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

} // namespace

struct cc_gpu_timing {
    device_load dev[CC_DEVICES_MAX];
    uint8_t *pinned; // load's and store's page-locked grid buffer
    size_t pinned_bytes;
};

// CC_ERR_DEVICE naming the device; CUDA's out-of-memory as CC_ERR_NOMEM.
static int failed(cudaError_t status, int device, const char *call, cc_error *err) {
    const int code = status == cudaErrorMemoryAllocation ? CC_ERR_NOMEM : CC_ERR_DEVICE;
    return cc_fail(err, code, "%s on device %d: %s failed: %s", who, device, call,
                   cudaGetErrorString(status));
}

#define TIMING_CHECK(device, call)                                                               \
    do {                                                                                         \
        cudaError_t timing_status = (call);                                                      \
        if (timing_status != cudaSuccess) return failed(timing_status, (device), #call, err);    \
    } while (0)

extern "C" int cc_gpu_timing_available(int32_t devices, cc_error *err) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess)
        return cc_fail(err, CC_ERR_UNAVAILABLE, "%s: no usable CUDA device: %s", who,
                       cudaGetErrorString(status));
    if (devices < 1 || devices > CC_DEVICES_MAX || devices > count)
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "%s: the engine uses %d devices, CUDA shows %d (at most %d are disturbed)",
                       who, (int)devices, count, CC_DEVICES_MAX);
    return CC_OK;
}

extern "C" int cc_gpu_timing_open(cc_gpu_timing **out, cc_error *err) {
    *out = (cc_gpu_timing *)calloc(1, sizeof **out);
    return *out ? CC_OK : cc_fail(err, CC_ERR_NOMEM, "%s: out of host memory", who);
}

// Streams, events and buffers of device d (the current device).
static int set_up(device_load *l, int d, cc_error *err) {
    TIMING_CHECK(d, cudaDeviceGetAttribute(&l->sms, cudaDevAttrMultiProcessorCount, d));
    TIMING_CHECK(d, cudaStreamCreateWithFlags(&l->blocking, cudaStreamDefault));
    TIMING_CHECK(d, cudaStreamCreateWithFlags(&l->background, cudaStreamNonBlocking));
    TIMING_CHECK(d, cudaEventCreateWithFlags(&l->blocking_done, cudaEventDisableTiming));
    TIMING_CHECK(d, cudaEventCreateWithFlags(&l->background_done, cudaEventDisableTiming));
    TIMING_CHECK(d, cudaMalloc(&l->device_buf, CC_GPU_TIMING_COPY_BYTES));
    TIMING_CHECK(d, cudaHostAlloc(&l->host_buf, CC_GPU_TIMING_COPY_BYTES, cudaHostAllocPortable));
    // Bytes that are not zeros, once: what the copies carry does not matter, only that they run.
    memset(l->host_buf, 0x5a, CC_GPU_TIMING_COPY_BYTES);
    l->ready = 1;
    return CC_OK;
}

// 1 when the stream's last batch finished (or none was queued), 0 while it runs.
static int idle(cudaEvent_t done, int d, int *rc, cc_error *err) {
    const cudaError_t status = cudaEventQuery(done);
    if (status == cudaSuccess) return 1;
    if (status == cudaErrorNotReady) return 0;
    *rc = failed(status, d, "cudaEventQuery", err);
    return 0;
}

static int queue(device_load *l, uint32_t work, int d, cc_error *err) {
    int rc = CC_OK;
    if ((work & CC_GPU_TIMING_LEGACY) && idle(l->blocking_done, d, &rc, err)) {
        spin<<<1, 32, 0, l->blocking>>>(CC_GPU_TIMING_LEGACY_NS);
        TIMING_CHECK(d, cudaGetLastError());
        TIMING_CHECK(d, cudaEventRecord(l->blocking_done, l->blocking));
    }
    if (rc) return rc;
    if ((work & (CC_GPU_TIMING_COPIES | CC_GPU_TIMING_KERNEL)) &&
        idle(l->background_done, d, &rc, err)) {
        if (work & CC_GPU_TIMING_KERNEL) {
            spin<<<2 * l->sms, 256, 0, l->background>>>(CC_GPU_TIMING_KERNEL_NS);
            TIMING_CHECK(d, cudaGetLastError());
        }
        for (int i = 0; i < 2 && (work & CC_GPU_TIMING_COPIES); i++) {
            TIMING_CHECK(d, cudaMemcpyAsync(l->device_buf, l->host_buf, CC_GPU_TIMING_COPY_BYTES,
                                            cudaMemcpyHostToDevice, l->background));
            TIMING_CHECK(d, cudaMemcpyAsync(l->host_buf, l->device_buf, CC_GPU_TIMING_COPY_BYTES,
                                            cudaMemcpyDeviceToHost, l->background));
        }
        TIMING_CHECK(d, cudaEventRecord(l->background_done, l->background));
    }
    return rc;
}

extern "C" int cc_gpu_timing_before(cc_gpu_timing *t, uint32_t work, int32_t devices,
                                    cc_error *err) {
    const uint32_t any = CC_GPU_TIMING_LEGACY | CC_GPU_TIMING_COPIES | CC_GPU_TIMING_KERNEL;
    if (!(work & any)) return CC_OK;
    if (devices < 1 || devices > CC_DEVICES_MAX)
        return cc_fail(err, CC_ERR_ARG, "%s: %d devices is outside 1..%d", who, (int)devices,
                       CC_DEVICES_MAX);
    // The engine's current device is its own: put back whatever happens here.
    int current = 0;
    TIMING_CHECK(0, cudaGetDevice(&current));
    int rc = CC_OK;
    for (int d = 0; d < devices && rc == CC_OK; d++) {
        device_load *l = &t->dev[d];
        cudaError_t status = cudaSetDevice(d);
        if (status != cudaSuccess) rc = failed(status, d, "cudaSetDevice", err);
        if (rc == CC_OK && !l->ready) rc = set_up(l, d, err);
        if (rc == CC_OK) rc = queue(l, work, d, err);
    }
    const cudaError_t back = cudaSetDevice(current);
    if (back != cudaSuccess && rc == CC_OK) rc = failed(back, current, "cudaSetDevice", err);
    return rc;
}

extern "C" int cc_gpu_timing_pinned(cc_gpu_timing *t, size_t bytes, uint8_t **out,
                                    cc_error *err) {
    *out = NULL;
    if (bytes > t->pinned_bytes) {
        if (t->pinned) {
            const cudaError_t status = cudaFreeHost(t->pinned);
            t->pinned = NULL;
            t->pinned_bytes = 0;
            if (status != cudaSuccess)
                return cc_fail(err, CC_ERR_DEVICE, "%s: cudaFreeHost of the grid's buffer failed: %s",
                               who, cudaGetErrorString(status));
        }
        // Room to grow by half again, so a run of growing grids does not pin at every call.
        const size_t want = bytes + bytes / 2;
        void *p = NULL;
        const cudaError_t status = cudaHostAlloc(&p, want, cudaHostAllocPortable);
        if (status != cudaSuccess)
            return cc_fail(err, status == cudaErrorMemoryAllocation ? CC_ERR_NOMEM : CC_ERR_DEVICE,
                           "%s: cudaHostAlloc of %zu page-locked bytes for the grid failed: %s",
                           who, want, cudaGetErrorString(status));
        t->pinned = (uint8_t *)p;
        t->pinned_bytes = want;
    }
    *out = t->pinned;
    return CC_OK;
}

extern "C" void cc_gpu_timing_close(cc_gpu_timing *t) {
    if (!t) return;
    // Teardown: each step is tried whatever the last one gave, for whatever a set-up that
    // stopped part way made.
    for (int d = 0; d < CC_DEVICES_MAX; d++) {
        device_load *l = &t->dev[d];
        if (!l->blocking && !l->background && !l->device_buf && !l->host_buf) continue;
        if (cudaSetDevice(d) != cudaSuccess) continue;
        if (l->blocking) (void)cudaStreamSynchronize(l->blocking);
        if (l->background) (void)cudaStreamSynchronize(l->background);
        if (l->blocking) (void)cudaStreamDestroy(l->blocking);
        if (l->background) (void)cudaStreamDestroy(l->background);
        if (l->blocking_done) (void)cudaEventDestroy(l->blocking_done);
        if (l->background_done) (void)cudaEventDestroy(l->background_done);
        if (l->device_buf) (void)cudaFree(l->device_buf);
        if (l->host_buf) (void)cudaFreeHost(l->host_buf);
    }
    if (t->pinned) (void)cudaFreeHost(t->pinned);
    free(t);
}
