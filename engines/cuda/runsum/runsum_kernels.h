/* The C interface of cuda.runsum's device code (runsum_kernels.cu): the program of
 * runsum_program.h, one bit per cell, on the common GPU driver. */
#ifndef CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/common/gpu.h"
#include "engines/cuda/runsum/runsum_program.h"
#include "oracle/error.h"

/* How the kernels are launched: a choice of speed, never of result (runsum_compare times them). */
typedef struct runsum_config {
    int32_t threads;      /* a block: 32 .. 128, a multiple of 32 */
    int32_t warps_per_sm; /* bands cut for about this many warps a multiprocessor (0: as many as
                           * the kernel can have resident) ... */
    int32_t windows;      /* ... at least this many windows of 2r+1 rows a band */
    int shifts_by_multiply; /* 1: the funnel shifts as multiplies (runsum_funnel_by_multiply) */
} runsum_config;

/* The engine's: 128 threads, as many warps as fit, RUNSUM_BAND_WINDOWS, funnel shifts. */
extern const runsum_config runsum_default;

/* Two grids of 32-bit words (geo, whose bands are cut here for the device's multiprocessors) on
 * CUDA device `device`, on the common GPU driver, whose functions then load, step, time and store
 * them; every message names `engine` (a static string). Refuses grids that do not fit in the
 * device's free memory, geometries runsum_check refuses and configurations outside the ranges
 * above. */
int cuda_runsum_create(const char *engine, int device, const runsum_geometry *geo,
                       const runsum_rule *rule, const runsum_config *cfg, cc_gpu **out,
                       cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
