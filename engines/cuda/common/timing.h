/* The timing disturbance a worker runs beside a GPU engine (a case's timing=, oracle/case.h): on
 * each device the engine uses, background work before each of its calls that widens the windows
 * between streams, where a missing wait shows:
 *   - CC_TIMING_LEGACY: a kernel of about 1 ms on a blocking stream, so that what the engine puts
 *     on the legacy default stream waits behind it while its non-blocking streams run on;
 *   - CC_TIMING_COPIES: 16 MiB host-to-device and device-to-host copies between page-locked host
 *     memory and the device on a non-blocking stream, twice each way, occupying the copy engines;
 *   - CC_TIMING_KERNEL: a kernel of about 0.5 ms over two blocks of 256 threads a multiprocessor
 *     on that non-blocking stream, occupying the multiprocessors.
 * A stream's batch is queued again only once its last batch finished, so the load stays bounded
 * (a few ms a call at most) however fast the calls come. The device current in the calling thread
 * is restored after each call, so an engine that relies on its own choice of device keeps it.
 *
 * The worker (supervise/worker.c) calls these where the CUDA driver library
 * (//engines/cuda/common:gpu) is linked in; it declares them weak, as the registry's
 * cc_engines_all, and a worker without them reports the disturbance unavailable. Every CUDA call
 * and launch is checked; errors are codes with the call, the device and CUDA's words in err;
 * nothing here exits. */
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_TIMING_H
#define CELLCHECK_ENGINES_CUDA_COMMON_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_gpu_timing cc_gpu_timing;

/* The background work, as bits of cc_gpu_timing_before's work: the values of oracle/case.h's
 * CC_TIMING_LEGACY, _COPIES and _KERNEL (the worker checks they agree), kept here so that the
 * driver needs nothing of the case code. */
#define CC_GPU_TIMING_LEGACY 1u
#define CC_GPU_TIMING_COPIES 2u
#define CC_GPU_TIMING_KERNEL 4u

/* How long the background kernels run, and the copies' size. */
#define CC_GPU_TIMING_LEGACY_NS 1000000u
#define CC_GPU_TIMING_KERNEL_NS 500000u
#define CC_GPU_TIMING_COPY_BYTES ((size_t)16 << 20)

/* 0 where devices 0 .. devices-1 can be disturbed (CUDA sees that many); CC_ERR_UNAVAILABLE with
 * what was found otherwise. */
int cc_gpu_timing_available(int32_t devices, cc_error *err);

/* A disturbance with nothing on any device yet (no CUDA call is made): *out, or CC_ERR_NOMEM. */
int cc_gpu_timing_open(cc_gpu_timing **out, cc_error *err);

/* Before an engine call: on each of devices 0 .. devices-1 (set up at its first use: its streams,
 * events and buffers), queues the background work that work's CC_GPU_TIMING_* bits ask for,
 * without waiting for it (other bits are ignored). CC_ERR_DEVICE naming the device and the call
 * where CUDA fails (a context an engine poisoned fails here too), CC_ERR_NOMEM where its buffers
 * do not fit. */
int cc_gpu_timing_before(cc_gpu_timing *t, uint32_t work, int32_t devices, cc_error *err);

/* Page-locked host memory of at least bytes for load's and store's grids, kept and grown by t
 * (its contents are undefined after a growth): *out, or CC_ERR_NOMEM / CC_ERR_DEVICE. */
int cc_gpu_timing_pinned(cc_gpu_timing *t, size_t bytes, uint8_t **out, cc_error *err);

/* Waits for the background work, frees what t holds (NULL: nothing). Teardown cannot report. */
void cc_gpu_timing_close(cc_gpu_timing *t);

#ifdef __cplusplus
}
#endif

#endif
