/* The C interface of cuda.cat's device code: 16 x 16 FP16 WMMA fragments, the band fragments in
 * shared memory, a horizontal pass into a shared tile and a vertical pass out of it, the rule per
 * thread (see cat_common.h for the formulation), on the common GPU driver. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT_CAT_KERNELS_H
#define CELLCHECK_ENGINES_CUDA_CAT_CAT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/cat/cat_common.h"
#include "engines/cuda/common/gpu.h"
#include "oracle/error.h"

#define CUDA_CAT_FRAG 16    /* the WMMA fragment: 16 x 16 FP16 */
#define CUDA_CAT_HALO_MAX 2 /* Section VI: radius up to 32 */

/* The tile a thread block computes, in fragments (w x h). Compiled shapes, any of which a device
 * can be created with; the engines use CUDA_CAT_TILE_W x CUDA_CAT_TILE_H, 1 x 14 (the paper's
 * optimum on the H100) unless the build defines them, e.g.
 *   bazel build --per_file_copt='engines/cuda/cat/cat_engine\.c@-DCUDA_CAT_TILE_H=8' ...
 * A shape that is not compiled is refused at create with the list. */
#define CUDA_CAT_TILES "1x14, 1x8, 1x16, 2x8, 2x14, 4x8"
#ifndef CUDA_CAT_TILE_W
#define CUDA_CAT_TILE_W 1
#endif
#ifndef CUDA_CAT_TILE_H
#define CUDA_CAT_TILE_H 14
#endif

/* Whether each tile's Lambda fragments are first copied into shared memory, asynchronously and a
 * tile ahead, instead of being read by the warps from global memory as in the paper. Off: on the
 * H100 it measured slower (1.19 against 1.01 ms a step at 16384^2, 1x14 tiles), as the paper
 * found for its shared-memory variant. */
#ifndef CUDA_CAT_STAGED
#define CUDA_CAT_STAGED 0
#endif

typedef struct cuda_cat_config {
    cat_number accumulator; /* CAT_NUM_F16 or CAT_NUM_F32; operands are FP16 */
    int32_t tile_w, tile_h; /* one of CUDA_CAT_TILES */
    int staged;             /* see CUDA_CAT_STAGED */
} cuda_cat_config;

/* Is (tile_w, tile_h) compiled? */
int cuda_cat_tile_compiled(int32_t tile_w, int32_t tile_h);

/* The device's two extended buffers (geometry geo: fragments of 16, halo 1 or 2) on the common
 * GPU driver, whose functions then load, step (two launches a step: the step, then the refresh of
 * the halo), time and store them; store writes 2 for a position holding anything but FP16 0 or 1,
 * so that a corrupted buffer cannot pass for a grid. cross: the cross (N+) instead of the Moore
 * square. Refuses, with the numbers, buffers that do not fit in the device's free memory, and
 * tiles that are not compiled. A rule whose B and S are at most one range each
 * (cat_rule_is_single) gets the kernels that test it with one comparison. */
int cuda_cat_create(const cat_geometry *geo, int32_t r, int cross, const cat_rule_params *rule,
                    const cuda_cat_config *cfg, cc_gpu **out, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
