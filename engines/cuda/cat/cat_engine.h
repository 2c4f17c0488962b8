/* cc_engine.create of cuda.cat and cuda.cat-f32, which differ only in the accumulator of their
 * MMAs: the exactness argument of cat_common.h for it, then the device (cat_kernels.h). Everything
 * else of their tables is the common GPU driver's. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT_CAT_ENGINE_H
#define CELLCHECK_ENGINES_CUDA_CAT_CAT_ENGINE_H

#include <stdint.h>

#include "oracle/error.h"
#include "oracle/rule.h"

int cuda_cat_create_f16(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
int cuda_cat_create_f32(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);

#endif
