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

/* Two grids of 32-bit words (geo, whose bands are cut here for the device's multiprocessors) on
 * CUDA device `device`, on the common GPU driver, whose functions then load, step, time and store
 * them; every message names `engine` (a static string). Refuses grids that do not fit in the
 * device's free memory and geometries runsum_check refuses. */
int cuda_runsum_create(const char *engine, int device, const runsum_geometry *geo,
                       const runsum_rule *rule, cc_gpu **out, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
