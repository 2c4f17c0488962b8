/* cuda.life-lop3-ranks: cuda.life-lop3 as one process per GPU (engine.h's rank_id and
 * rank_create), the way it runs under a launcher across hosts: each rank holds its row slab of
 * the torus (engines/slabs) on its own device and exchanges halos of LIFE_LOP3_NCCL_EXCHANGE_STEPS
 * rows with the other ranks every that many steps through NCCL, its communicator made from rank
 * 0's unique id. Its create (one process, one rank) runs the whole grid on the current device.
 * NCCL is loaded at create (libnccl.so.2). W must be a multiple of 32. */
#ifndef CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_RANKS_H
#define CELLCHECK_ENGINES_CUDA_LIFE_LOP3_LIFE_LOP3_RANKS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/engine.h"
#include "oracle/error.h"
#include "oracle/rule.h"

/* The engine's table functions (ctx: its own context). */
int life_lop3_ranks_id(uint8_t *id, cc_error *err);
int life_lop3_ranks_rank_create(const cc_rule *rule, int32_t w, int32_t h, const cc_rank *rank,
                                void **ctx, cc_error *err);
int life_lop3_ranks_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
int life_lop3_ranks_load(void *ctx, const uint8_t *cells, cc_error *err);
int life_lop3_ranks_step(void *ctx, int64_t k, cc_error *err);
int life_lop3_ranks_timed_step(void *ctx, int64_t k, double *ms, cc_error *err);
int life_lop3_ranks_store(void *ctx, uint8_t *cells, cc_error *err);
void life_lop3_ranks_destroy(void *ctx);
const char *life_lop3_ranks_device_name(void *ctx);

#ifdef __cplusplus
}
#endif

#endif
