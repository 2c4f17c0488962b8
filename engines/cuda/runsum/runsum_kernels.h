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
    int count;              /* RUNSUM_COUNT_*: which count, the band-matrix one in bands of ... */
    int32_t band_chunks;    /* ... this many chunks of 32 rows (0: RUNSUM_MMA_BAND_CHUNKS) */
} runsum_config;

/* The counts: running sums (runsum_program.h), band matrices on the tensor cores (band_mma.cuh),
 * or the faster of the two for the shape and radius (RUNSUM_MMA_RADIUS_FROM, and
 * RUNSUM_MMA_CROSS_RADIUS_FROM for the cross). */
#define RUNSUM_COUNT_FASTER 0
#define RUNSUM_COUNT_SUMS 1
#define RUNSUM_COUNT_BANDS 2

/* Moore from r = 3 on (H200, 32768^2, ms a step): the band matrices 0.349 at r = 2 to 8 (their
 * smallest reach, band_mma.cuh), the running sums 0.345 at r = 2, 0.449 at 3, 0.453 at 4 and 0.634
 * at 8. */
#define RUNSUM_MMA_RADIUS_FROM 3

/* The cross from r = 3 on (H200, 32768^2, ms a step): the band matrices 0.400 to r = 8, 0.418 at
 * 16, 0.467 at 32; the running sums 0.390 at r = 2, 0.428 at 3, 0.487 at 4, 0.742 at 16. */
#define RUNSUM_MMA_CROSS_RADIUS_FROM 3

/* Bands of 64 chunks (2048 rows): a band computes two chunks of row sums above its first row, and
 * 32768^2 still has 16 bands of 1024 warps. */
#define RUNSUM_MMA_BAND_CHUNKS 64

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
