/* Plugins that must be refused, one per define: PLUGIN_BAD_ABI exports another ABI version,
 * PLUGIN_NO_EXPORT exports nothing, PLUGIN_NO_STEP has a table without step, PLUGIN_TWICE has
 * two engines of one name, PLUGIN_NAME_BAR and PLUGIN_NAME_NEWLINE names that would split a
 * certificate's table or line, PLUGIN_NEGATIVE_CAP a negative radius_max. PLUGIN_W_MULTIPLE
 * loads (widths a multiple of 8, an engine that does nothing): for refusals of what is asked
 * of it. */
#include "engines/engine.h"
#include "engines/plugin.h"

static int create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h, (void)err;
    *ctx = NULL;
    return CC_OK;
}
static int load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells, (void)err;
    return CC_OK;
}
#ifndef PLUGIN_NO_STEP
static int step(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k, (void)err;
    return CC_OK;
}
#endif
static int store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells, (void)err;
    return CC_OK;
}
static void destroy(void *ctx) { (void)ctx; }

static const cc_engine bad = {
#if defined(PLUGIN_NAME_BAR)
    .name = "bad|engine",
#elif defined(PLUGIN_NAME_NEWLINE)
    .name = "bad\nengine",
#else
    .name = "bad.engine",
#endif
#if defined(PLUGIN_NEGATIVE_CAP)
    .caps = {.radius_max = -1},
#elif defined(PLUGIN_W_MULTIPLE)
    .caps = {.w_multiple = 8},
#endif
    .create = create,
    .load = load,
#ifndef PLUGIN_NO_STEP
    .step = step,
#endif
    .store = store,
    .destroy = destroy,
};

#if defined(PLUGIN_TWICE)
static const cc_engine *const engines[] = {&bad, &bad, NULL};
#else
static const cc_engine *const engines[] = {&bad, NULL};
#endif

#if defined(PLUGIN_BAD_ABI)
CC_PLUGIN_EXPORT int cellcheck_plugin_abi(void);
CC_PLUGIN_EXPORT const cc_engine *const *cellcheck_engines(int abi_version);
CC_PLUGIN_EXPORT int cellcheck_plugin_abi(void) { return 999; }
CC_PLUGIN_EXPORT const cc_engine *const *cellcheck_engines(int abi_version) {
    (void)abi_version;
    return engines;
}
#elif defined(PLUGIN_NO_EXPORT)
const cc_engine *const *plugin_engines_unexported(void);
const cc_engine *const *plugin_engines_unexported(void) { return engines; }
#else
CC_PLUGIN(engines)
#endif
