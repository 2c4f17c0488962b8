/* A plugin built for plugin ABI 5, before cc_engine gained rank_id and rank_create: its tables end
 * at devices, and what lies after them in its memory is not its own. Here those bytes hold
 * function pointers, as a neighbouring table's might: a loader that read them as the engine's
 * would take it for an engine that runs as ranks and call into them. Built with
 * PLUGIN_HALF_RANK, it claims ABI 6 instead, with rank_id and no rank_create, which the loader
 * refuses. */
#include "engines/plugin.h"

static int refuse_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h;
    *ctx = NULL;
    return cc_fail(err, CC_ERR_UNSUPPORTED, "v5.table: never created");
}
static int no_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells;
    return cc_fail(err, CC_ERR_UNSUPPORTED, "v5.table: never loaded");
}
static int no_step(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k;
    return cc_fail(err, CC_ERR_UNSUPPORTED, "v5.table: never stepped");
}
static int no_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells;
    return cc_fail(err, CC_ERR_UNSUPPORTED, "v5.table: never stored");
}
static void no_destroy(void *ctx) { (void)ctx; }
static int stray_id(uint8_t *id, cc_error *err) {
    (void)id;
    return cc_fail(err, CC_ERR_UNSUPPORTED, "v5.table: rank_id read past a version-5 table");
}
#ifndef PLUGIN_HALF_RANK
static int stray_rank_create(const cc_rule *rule, int32_t w, int32_t h, const cc_rank *rank,
                             void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h, (void)rank;
    *ctx = NULL;
    return cc_fail(err, CC_ERR_UNSUPPORTED, "v5.table: rank_create read past its table");
}
#endif

#ifdef PLUGIN_HALF_RANK
#define NAME "v6.half-rank"
#else
#define NAME "v5.table"
#endif

static const cc_engine table = {
    .name = NAME,
    .summary = "built for ABI 5",
    .caps = {.radius_max = 2},
    .create = refuse_create,
    .load = no_load,
    .step = no_step,
    .store = no_store,
    .destroy = no_destroy,
    .rank_id = stray_id,
#ifndef PLUGIN_HALF_RANK
    .rank_create = stray_rank_create,
#endif
};

#ifdef PLUGIN_HALF_RANK
#define ABI CC_PLUGIN_ABI_VERSION
#else
#define ABI CC_PLUGIN_ABI_V5
#endif

static const cc_engine *const list[] = {&table, NULL};
CC_PLUGIN_EXPORT int cellcheck_plugin_abi(void);
CC_PLUGIN_EXPORT const cc_engine *const *cellcheck_engines(int abi_version);
CC_PLUGIN_EXPORT int cellcheck_plugin_abi(void) { return ABI; }
CC_PLUGIN_EXPORT const cc_engine *const *cellcheck_engines(int abi_version) {
    return abi_version == ABI ? list : NULL;
}
