/* cuda.life-lop3: every Life-like rule (Moore r = 1, any B and S, M0 and M1) and every hexagonal
 * one (NH) as the shortest gate network engines/lifenet finds for it, compiled into the kernels
 * at create: the rule's LOP3 instructions are written into the kernels' PTX (life_lop3_ptx.h) and
 * the driver compiles it for the device (and keeps what it compiled in its own cache of compiled
 * kernels). Bit-per-cell 32-bit words, row-major; each warp streams down a band of rows, every
 * row passing through LIFE_LOP3_STEPS steps in registers before it is written. Any W and H on the
 * torus: W a multiple of 32 takes the streaming kernel (and a one-step version of it for what is
 * left of a step() after whole launches), any other W a one-step kernel. */
#ifndef CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_H
#define CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

#include "engines/cuda/life_lop3/life_lop3_steps.h"

/* The cells a warp writes across: 30 words. */
#define LIFE_LOP3_WARP_CELLS (30 * 32)

typedef struct life_lop3_config {
    int32_t threads;      /* a block: 32 .. 256, a multiple of 32 */
    int32_t warps_per_sm; /* bands are cut so that about this many warps run a multiprocessor */
    int32_t band_min;     /* rows of a band: at least this many (>= 1) ... */
    int32_t band_max;     /* ... and at most this many */
} life_lop3_config;

/* The engine's defaults (chosen by life_lop3_compare; the figures are beside them). */
extern const life_lop3_config life_lop3_default;

/* A context (a cc_gpu in *ctx) for rule on a w x h torus with cfg. */
int life_lop3_create(const life_lop3_config *cfg, const cc_rule *rule, int32_t w, int32_t h,
                     void **ctx, cc_error *err);

/* cc_engine.create: life_lop3_create with the defaults. */
int cuda_life_lop3_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);


#ifdef __cplusplus
}
#endif

#endif
