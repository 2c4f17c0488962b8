/* The host driver every CUDA engine runs on: its device (0 unless the layout names another) and
 * its name, the two grids a step
 * ping-pongs between, the staging buffer of engines whose grids are not plain bytes, the step
 * loop, and the CUDA events that time it. An engine supplies its layout and its launches
 * (cc_gpu_ops); the driver's functions are its table's load, step, timed_step, store, destroy and
 * device_name (CC_GPU_ENGINE_FUNCTIONS).
 *
 * Every function checks every CUDA call and launch it makes and returns a cc_code, with the call
 * and the engine named in err; nothing here exits. */
#ifndef CELLCHECK_ENGINES_CUDA_COMMON_GPU_H
#define CELLCHECK_ENGINES_CUDA_COMMON_GPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"

/* The smallest compute capability the CUDA engines are built for (sm_90). */
#define CC_GPU_CC_MAJOR 9
#define CC_GPU_CC_MINOR 0

typedef struct cc_gpu cc_gpu;

/* What an engine does on the device; self is the engine's own state (cc_gpu_create). */
typedef struct cc_gpu_ops {
    /* Launches one step from grid in into grid out without waiting for it; checks each launch. */
    int (*step)(void *self, const void *in, void *out, cc_error *err);
    /* Optional: after a load, rewrites whatever the layout keeps beside the cells of grid (halo
     * copies) from the cells; launched without waiting. NULL: nothing to do. */
    int (*refresh)(void *self, void *grid, cc_error *err);
    /* For a staged layout: count portable cells, rows y0 .. of the grid (count is a multiple of
     * W), from staging into grid (load_rows) or from grid into staging (store_rows); launched
     * without waiting. */
    int (*load_rows)(void *self, void *grid, const uint8_t *staging, int64_t y0, int64_t count,
                     cc_error *err);
    int (*store_rows)(void *self, uint8_t *staging, const void *grid, int64_t y0, int64_t count,
                      cc_error *err);
    /* Frees self and the device memory it holds. Teardown cannot report. */
    void (*release)(void *self);
    /* Optional, for engines that run several steps per launch (temporal blocking): launches
     * between 1 and k steps (k >= 1) from grid in into grid out without waiting, and sets *done to
     * how many. The driver calls it until the k steps of a step() are done, so any k works whatever
     * the engine does per launch. NULL: step, one step per launch. */
    int (*steps)(void *self, const void *in, void *out, int64_t k, int64_t *done, cc_error *err);
} cc_gpu_ops;

/* A staged layout's loads and stores go through a buffer of whole rows of at most this many bytes
 * of cells. */
#define CC_GPU_STAGING_MAX ((size_t)64 << 20)

/* The most that buffer takes for W x H cells, for cc_engine.memory: all the cells, or the limit and
 * a row more. */
static inline double cc_gpu_staging_bytes_max(int32_t w, int32_t h) {
    const double cells = (double)w * (double)h, max = (double)CC_GPU_STAGING_MAX;
    return cells < max ? cells : max + (double)w;
}

typedef struct cc_gpu_layout {
    const char *engine; /* a static string: names the engine in every message */
    int32_t w, h;
    size_t grid_bytes; /* each of the two grids, zeroed at create */
    /* staged 0: cell (x, y) is the byte at y * pitch + lead + x of a grid, copied directly.
     * staged 1: cells go through a staging buffer of whole rows (at most 64 MiB) and
     * load_rows/store_rows. */
    int staged;
    size_t pitch, lead;
    size_t extra_bytes;  /* the engine's own device memory, counted in the free-memory check */
    const char *buffers; /* what the memory holds, for the refusal: "two copies of 512-byte rows" */
    /* The CUDA device it runs on; 0, the first visible, unless an engine over several devices
     * (gpu_slabs.h) places one instance a device. */
    int device;
    /* Where interior row y (0 <= y < h) of a grid lives: row_bytes contiguous bytes from
     * row0_offset + y * row_bytes, holding everything the layout keeps of that row (its cells
     * and their copies beside them), so that rows copied between grids of the same W carry
     * whole rows. 0 row_bytes: rows are not contiguous; the grid cannot be cut into slabs. */
    size_t row_bytes, row0_offset;
} cc_gpu_layout;

/* What create found out about its device. */
typedef struct cc_gpu_info {
    char name[256];
    int multiprocessors;
    size_t shared_per_block_optin; /* bytes of shared memory a block may opt in to */
} cc_gpu_info;

/* 0 when device 0 exists and has compute capability >= 9.0; otherwise CC_ERR_UNAVAILABLE with
 * what was found. The signature of cc_engine.available. */
int cc_gpu_available(cc_error *err);

/* Device 0 for a certificate: "NVIDIA H100 80GB HBM3 (sm_90), CUDA driver 13.0, runtime 13.0";
 * CC_ERR_UNAVAILABLE with the reason where there is none. */
int cc_gpu_describe(char *buf, size_t size, cc_error *err);

/* The CUDA driver's and runtime's versions as CUDA numbers them (13000 is 13.0); the driver's is
 * 0 where no driver is installed. CC_ERR_DEVICE with the reason where either query fails. */
int cc_gpu_versions(int *driver, int *runtime, cc_error *err);

/* The devices an engine over several GPUs would use now (the cc_engine.devices field): the first
 * CELLCHECK_DEVICES of those CUDA shows, else every one, at most CC_DEVICES_MAX (devices.h).
 * CC_ERR_ARG naming CELLCHECK_DEVICES where it is not a number from 1 to the visible count;
 * CC_ERR_UNAVAILABLE where CUDA finds no device. */
int cc_gpu_devices(int32_t *count, cc_error *err);

/* Selects the layout's device, refuses (with the numbers) a layout that does not fit in its free memory,
 * allocates and zeroes the two grids, the staging buffer and the events. Takes self: on failure
 * ops->release(self) has been called and *out is NULL. ops must outlive the driver. */
int cc_gpu_create(const cc_gpu_layout *layout, const cc_gpu_ops *ops, void *self, cc_gpu **out,
                  cc_error *err);
const cc_gpu_info *cc_gpu_device(const cc_gpu *gpu);

/* For a persistent kernel (its blocks loop over the tiles): lets kernel use smem bytes of dynamic
 * shared memory, refusing more than the device allows a block, and sets *grid to as many blocks
 * of threads as can be resident at once, but no more than tiles. */
int cc_gpu_persistent_grid(const cc_gpu *gpu, const void *kernel, int threads, size_t smem,
                           int64_t tiles, int *grid, cc_error *err);

/* The engine-table functions, ctx being a cc_gpu. step runs k launches and waits for them;
 * timed_step runs them between two CUDA events, transfers excluded. destroy accepts NULL and
 * releases the engine's state. Each selects the context's device first: several live in one
 * process. */
int cc_gpu_load(void *ctx, const uint8_t *cells, cc_error *err);
int cc_gpu_step(void *ctx, int64_t k, cc_error *err);
int cc_gpu_timed_step(void *ctx, int64_t k, double *ms, cc_error *err);
int cc_gpu_store(void *ctx, uint8_t *cells, cc_error *err);
void cc_gpu_destroy(void *ctx);
const char *cc_gpu_device_name(void *ctx);

/* For a driver over several devices (gpu_slabs.h), which runs the steps of each device's instance
 * between halo exchanges. All work goes on the device's default stream, without waiting:
 * cc_gpu_launch runs k >= 0 steps from the current grid; cc_gpu_refresh has the engine rewrite
 * what its layout keeps beside the cells of the current grid from the cells (after rows were
 * written into it); cc_gpu_row is where interior row y of the current grid starts on the device
 * (NULL where the layout's row_bytes is 0). The current grid changes with every step. */
int cc_gpu_launch(cc_gpu *gpu, int64_t k, cc_error *err);
int cc_gpu_refresh(cc_gpu *gpu, cc_error *err);
void *cc_gpu_row(const cc_gpu *gpu, int64_t y);
const cc_gpu_layout *cc_gpu_layout_of(const cc_gpu *gpu);

/* The function fields of a CUDA engine's table, inside its designated initializer:
 *   const cc_engine cc_engine_cuda_x = {.name = ..., .summary = ..., .hardware = CC_HW_GPU,
 *                                       .caps = {...}, .create = ..., CC_GPU_ENGINE_FUNCTIONS};
 */
#define CC_GPU_ENGINE_FUNCTIONS                                                                  \
    .available = cc_gpu_available, .load = cc_gpu_load, .step = cc_gpu_step,                    \
    .store = cc_gpu_store, .destroy = cc_gpu_destroy, .timed_step = cc_gpu_timed_step,          \
    .device_name = cc_gpu_device_name

#ifdef __cplusplus
}
#endif

#endif
