/* The entry points that call an engine's functions, each after the contract's generic checks
 * (engine.h). Only the worker processes of the supervisor (supervise/) and an engine's own code
 * and tests call them: everything above the engines reaches an engine through
 * supervise/supervisor.h, never in its own process. Bazel's visibility of //engines:entry says
 * who may. */
#ifndef CELLCHECK_ENGINES_ENTRY_H
#define CELLCHECK_ENGINES_ENTRY_H

#include "engines/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The entry points every caller uses. create checks the rule and W x H against the caps (the
 * message names the limit), then calls the engine's create; *out is NULL on failure. load checks
 * that every cell is 0 or 1; step that k >= 0 and a grid was loaded; store that a grid was
 * loaded. Every failure names the engine. destroy accepts NULL. */
int cc_engine_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                     cc_context **out, cc_error *err);
int cc_engine_load(cc_context *c, const uint8_t *cells, cc_error *err);
int cc_engine_step(cc_context *c, int64_t k, cc_error *err);
/* k steps timed on the engine's clock where it has one (*engine_clock = 1), else by the host's
 * monotonic clock around step (*engine_clock = 0). */
int cc_engine_timed_step(cc_context *c, int64_t k, double *ms, int *engine_clock, cc_error *err);
int cc_engine_store(cc_context *c, uint8_t *cells, cc_error *err);
void cc_engine_destroy(cc_context *c);
/* The engine's own estimate of a context's memory into *need: 1 when it states one, else 0 with
 * *need zero. */
int cc_engine_memory(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                     cc_memory *need);
/* The engine's device name for a live context, or NULL for a CPU engine. */
const char *cc_engine_device_name(const cc_context *c);
/* 0 if the engine's hardware is here (an engine without available() always is). */
int cc_engine_available(const cc_engine *engine, cc_error *err);
/* One rank of an engine that runs as one process per device (cc_engine.rank_create): the
 * contract's checks of the rule and the whole W x H, then of *rank (rank within ranks, ranks
 * within 1..H, its slab the cut's: engines/slabs/slabs.h), then the engine's rank_create. The
 * context speaks the slab: its h is rank->rows. CC_ERR_UNSUPPORTED for an engine without ranks. */
int cc_engine_rank_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                          const cc_rank *rank, cc_context **out, cc_error *err);
/* Rank 0's id for the next rank_create (CC_RANK_ID_BYTES into id). */
int cc_engine_rank_id(const cc_engine *engine, uint8_t *id, cc_error *err);
/* The devices a create would spread a grid over: the engine's devices() where it has one (a count
 * below 1 is refused, naming the engine), else 1. */
int cc_engine_devices(const cc_engine *engine, int32_t *count, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
