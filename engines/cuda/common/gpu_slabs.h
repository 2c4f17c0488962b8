/* A single-GPU engine on the common driver (gpu.h) spread over several GPUs of one host, in one
 * process: the W x H torus is cut into row slabs, one a device (engines/slabs), and each device
 * runs its own instance of the engine on a "buffer torus" of its own rows with `halo` rows above
 * and below (buffer_torus.h), halo = r * t. Every t steps (fewer for the rest of a step(k)) the
 * halo rows of the current grids are exchanged (NCCL between devices, copies on a device for rows
 * of its own), each instance refreshes its layout's copies beside the cells, and every device runs
 * the steps without waiting for the others.
 *
 * Why it is exact: the buffer torus wraps its last row onto its first, which the real torus does
 * not; that false wrap reaches r rows further each step, so after at most t steps it is still
 * outside the own rows, which lie halo = r t rows from either end.
 *
 * The devices are the first CELLCHECK_DEVICES of those CUDA shows, else all (cc_gpu_devices), and
 * never more than H. NCCL is loaded at create where there is more than one (nccl_halos.cuh). */
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_GPU_SLABS_H
#define CELLCHECK_ENGINES_CUDA_COMMON_GPU_SLABS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/common/gpu.h"
#include "oracle/error.h"

/* Creates the engine's instance for a buffer torus of w x h cells on CUDA device `device` (its
 * layout's device, with row_bytes set so that rows can be exchanged). arg: the engine's own,
 * read during cc_gpu_slabs_create only. */
typedef int (*cc_gpu_slab_make)(const void *arg, int device, int32_t w, int32_t h, cc_gpu **out,
                                cc_error *err);

typedef struct cc_gpu_slabs_spec {
    const char *engine; /* a static string: names the engine in every message */
    int32_t w, h;       /* the whole torus */
    int32_t radius;     /* the rule's */
    int32_t interval;   /* t: steps between exchanges, the engine's caps.steps_per_launch */
    cc_gpu_slab_make make;
    const void *arg;
} cc_gpu_slabs_spec;

/* Cuts the torus, makes an instance a device, loads NCCL for more than one device. Refuses what
 * an instance refuses (its message), a bad CELLCHECK_DEVICES, and a layout whose rows cannot be
 * exchanged. *ctx: a context for the functions below. */
int cc_gpu_slabs_create(const cc_gpu_slabs_spec *spec, void **ctx, cc_error *err);

/* The engine-table functions, ctx from cc_gpu_slabs_create. step waits for every device;
 * timed_step reports the slowest device's time between CUDA events, transfers excluded. destroy
 * accepts NULL. device_name: "2 x NVIDIA H100 80GB HBM3". */
int cc_gpu_slabs_load(void *ctx, const uint8_t *cells, cc_error *err);
int cc_gpu_slabs_step(void *ctx, int64_t k, cc_error *err);
int cc_gpu_slabs_timed_step(void *ctx, int64_t k, double *ms, cc_error *err);
int cc_gpu_slabs_store(void *ctx, uint8_t *cells, cc_error *err);
void cc_gpu_slabs_destroy(void *ctx);
const char *cc_gpu_slabs_device_name(void *ctx);

/* The function fields of such an engine's table besides create (and memory):
 *   const cc_engine cc_engine_cuda_x_nccl = {.name = ..., .create = ...,
 *                                            CC_GPU_SLABS_ENGINE_FUNCTIONS};
 */
#define CC_GPU_SLABS_ENGINE_FUNCTIONS                                                            \
    .available = cc_gpu_available, .load = cc_gpu_slabs_load, .step = cc_gpu_slabs_step,        \
    .store = cc_gpu_slabs_store, .destroy = cc_gpu_slabs_destroy,                               \
    .timed_step = cc_gpu_slabs_timed_step, .device_name = cc_gpu_slabs_device_name,             \
    .devices = cc_gpu_devices

#ifdef __cplusplus
}
#endif

#endif
