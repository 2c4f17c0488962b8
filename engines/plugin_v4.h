/* Plugin ABI version 4, frozen: cc_engine and cc_engine_caps as a plugin built before version 5
 * holds them (version 5 added cc_engine_caps.shape_limits, which moved every field of cc_engine
 * after caps). What the two versions share (cc_hardware, cc_memory, cc_rule, cc_error and so the
 * functions' types) comes from the current headers: a change to any of them raises the version
 * again and freezes that here too. The loader (engine_set.c) reads a version-4 plugin's tables
 * through these types and converts each to the current cc_engine, with no limit of one shape
 * (cc_engine_from_v4); nothing here may change. */
#ifndef CELLCHECK_ENGINES_PLUGIN_V4_H
#define CELLCHECK_ENGINES_PLUGIN_V4_H

#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"
#include "engines/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CC_PLUGIN_ABI_V4 4

typedef struct cc_engine_caps_v4 {
    uint32_t shapes;
    int32_t radius_min, radius_max;
    uint32_t centres;
    uint32_t topologies;
    int32_t w_multiple, h_multiple;
    int32_t w_max, h_max;
    int32_t count_max;
    int32_t tile_w, tile_h;
    int32_t steps_per_launch;
    int square_only;
    int32_t s_ranges_max, b_ranges_max;
    int no_b0;
    int64_t cells_max;
    const char *limits;
} cc_engine_caps_v4;

typedef struct cc_engine_v4 {
    const char *name;
    const char *summary;
    cc_hardware hardware;
    cc_engine_caps_v4 caps;
    int (*available)(cc_error *err);
    int (*create)(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err);
    int (*load)(void *ctx, const uint8_t *cells, cc_error *err);
    int (*step)(void *ctx, int64_t k, cc_error *err);
    int (*store)(void *ctx, uint8_t *cells, cc_error *err);
    void (*destroy)(void *ctx);
    int (*timed_step)(void *ctx, int64_t k, double *ms, cc_error *err);
    const char *(*device_name)(void *ctx);
    void (*memory)(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need);
    int (*devices)(int32_t *count, cc_error *err);
} cc_engine_v4;

/* The two exports a version-4 plugin's CC_PLUGIN(list) wrote, for tests that build one. */
#define CC_PLUGIN_V4(list)                                                                       \
    CC_PLUGIN_EXPORT int cellcheck_plugin_abi(void);                                             \
    CC_PLUGIN_EXPORT const cc_engine_v4 *const *cellcheck_engines(int abi_version);              \
    CC_PLUGIN_EXPORT int cellcheck_plugin_abi(void) { return CC_PLUGIN_ABI_V4; }                 \
    CC_PLUGIN_EXPORT const cc_engine_v4 *const *cellcheck_engines(int abi_version) {             \
        return abi_version == CC_PLUGIN_ABI_V4 ? (list) : NULL;                                  \
    }

/* The current table a version-4 one stands for: every field copied, no limit of one shape. */
void cc_engine_from_v4(const cc_engine_v4 *old, cc_engine *out);

#ifdef __cplusplus
}
#endif

#endif
