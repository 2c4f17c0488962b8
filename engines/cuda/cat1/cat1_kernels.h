/* The C interface of cuda.cat1's device code (cat1_kernels.cu): the fragment program of
 * cat1_program.h on mma.sync (m16n8k256 .b1 AND/POPC, then m16n8k32 s8), one bit per cell, on the
 * common GPU driver. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT1_CAT1_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_CAT1_CAT1_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/cat1/cat1_program.h"
#include "engines/cuda/common/gpu.h"
#include "oracle/error.h"


/* Two grids of 32-bit words (geo) on CUDA device `device`, on the common GPU driver, whose
 * functions then load, step, time and store them; every message names `engine` (a static string).
 * cross: the rule's shape is the cross. Refuses grids that do not fit in the device's free memory
 * and radii outside 1..CAT1_RADIUS_MAX. A rule whose B and S are at most one range each
 * (cat_rule_is_single) gets the kernels that test it with one comparison. The layout's rows are
 * whole extended rows (row_bytes), so that a driver over several devices can exchange them. */
int cuda_cat1_create(const char *engine, int device, const cat1_geometry *geo, int cross,
                     const cat_rule_params *rule, cc_gpu **out, cc_error *err);

/* One MMA on the device, one warp: d = A x B (binary 1: m16n8k256 .b1 AND/POPC; 0: m16n8k32 s8)
 * with a[lane][i], b[lane][i] the registers of each lane and d[lane][i] its results, for holding
 * cat1_emulate_mma_b1/_s8 against the tensor cores. CC_ERR_UNAVAILABLE without a device. */
int cuda_cat1_mma_probe(int binary, const uint32_t a[32][4], const uint32_t b[32][2],
                        int32_t d[32][4], cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
