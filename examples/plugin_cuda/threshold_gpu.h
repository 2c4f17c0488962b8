/* example.cuda-threshold's C interface to its device code (threshold_kernels.cu). */
#ifndef EXAMPLE_THRESHOLD_GPU_H
#define EXAMPLE_THRESHOLD_GPU_H

#include <stdint.h>

#include "engines/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

int gpu_threshold_available(cc_error *err);
int gpu_threshold_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
int gpu_threshold_load(void *ctx, const uint8_t *cells, cc_error *err);
int gpu_threshold_step(void *ctx, int64_t k, cc_error *err);
int gpu_threshold_store(void *ctx, uint8_t *cells, cc_error *err);
void gpu_threshold_destroy(void *ctx);

#ifdef __cplusplus
}
#endif

#endif
