/* cuda.life-lop3-nccl: cuda.life-lop3 over every visible GPU of one host, in one process. The
 * torus is cut into row slabs, one a device (engines/slabs); each slab is stepped by the same
 * streaming kernel between halos of LIFE_LOP3_NCCL_EXCHANGE_STEPS rows, exchanged every that many
 * steps by peer copies or NCCL's send and receive (a copy on the device itself where a halo comes
 * from its own rows). Between exchanges each launch also steps the halo rows that the next
 * launches still read, so the rows it steps shrink by a launch's steps from either end. The
 * devices are those CUDA_VISIBLE_DEVICES shows, or the first N of them with CELLCHECK_DEVICES=N.
 * NCCL is loaded at create (libnccl.so.2), so the binary starts where it is absent. W must be a
 * multiple of 32. */
#ifndef CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_NCCL_H
#define CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_NCCL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "oracle/error.h"
#include "oracle/rule.h"

#include "engines/cuda/life_lop3/life_lop3_steps.h"

/* Steps between exchanges, and the halo's rows: four launches. An exchange took about 30 us on
 * two H200s, 0.7 of a step of a 32768-wide slab: one every launch held weak scaling over two
 * devices to 94.7 %, one every four launches measured 98.6 %. */
#define LIFE_LOP3_NCCL_EXCHANGE_STEPS (4 * LIFE_LOP3_STEPS)

/* The engine's table functions (ctx: its own context). */
int life_lop3_nccl_available(cc_error *err);
int life_lop3_nccl_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
int life_lop3_nccl_load(void *ctx, const uint8_t *cells, cc_error *err);
int life_lop3_nccl_step(void *ctx, int64_t k, cc_error *err);
int life_lop3_nccl_timed_step(void *ctx, int64_t k, double *ms, cc_error *err);
int life_lop3_nccl_store(void *ctx, uint8_t *cells, cc_error *err);
void life_lop3_nccl_destroy(void *ctx);
const char *life_lop3_nccl_device_name(void *ctx);

#ifdef __cplusplus
}
#endif

#endif
