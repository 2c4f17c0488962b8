/* What cuda.cat and cuda.cat-f32 share behind their engine tables: the checks at create (the caps,
 * then the exactness argument of cat_common.h for the engine's accumulators), the device context,
 * load, step and store. The two differ only in the accumulator of their MMAs. */
#ifndef CELLCHECK_ENGINES_CUDA_CAT_CAT_ENGINE_H
#define CELLCHECK_ENGINES_CUDA_CAT_CAT_ENGINE_H

#include <stdint.h>

#include "engines/cuda/cat/cat_common.h"
#include "engines/engine.h"

int cuda_cat_engine_available(cc_error *err);
/* engine: the table (its caps are checked); accumulator: CAT_NUM_F16 or CAT_NUM_F32. */
int cuda_cat_engine_create(const cc_engine *engine, cat_number accumulator, const cc_rule *rule,
                           int32_t w, int32_t h, void **ctx, cc_error *err);
int cuda_cat_engine_load(void *ctx, const uint8_t *cells, cc_error *err);
int cuda_cat_engine_step(void *ctx, int64_t k, cc_error *err);
int cuda_cat_engine_timed_step(void *ctx, int64_t k, double *ms, cc_error *err);
int cuda_cat_engine_store(void *ctx, uint8_t *cells, cc_error *err);
void cuda_cat_engine_destroy(void *ctx);
const char *cuda_cat_engine_device_name(void *ctx);

/* The initializer of a CAT engine's table: Moore and cross, M0 and M1, any size; the engines
 * differ in their largest radius and its reason (limits), and create picks the accumulator. */
#define CUDA_CAT_ENGINE(name_, summary_, radius_max_, limits_, create_)                           \
    {                                                                                              \
        .name = (name_), .summary = (summary_), .hardware = CC_HW_GPU,                            \
        .caps =                                                                                    \
            {                                                                                      \
                .shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE) | CC_SHAPE_BIT(CC_SHAPE_CROSS),             \
                .radius_min = 1,                                                                   \
                .radius_max = (radius_max_),                                                       \
                .centres = CC_CENTRE_M0 | CC_CENTRE_M1,                                            \
                .w_multiple = 1,                                                                   \
                .h_multiple = 1,                                                                   \
                .w_max = 0,                                                                        \
                .h_max = 0,                                                                        \
                .count_max = 0,                                                                    \
                .limits = (limits_),                                                               \
            },                                                                                     \
        .available = cuda_cat_engine_available, .create = (create_),                              \
        .load = cuda_cat_engine_load, .step = cuda_cat_engine_step,                               \
        .store = cuda_cat_engine_store, .destroy = cuda_cat_engine_destroy,                       \
        .timed_step = cuda_cat_engine_timed_step, .device_name = cuda_cat_engine_device_name,     \
    }

#endif
