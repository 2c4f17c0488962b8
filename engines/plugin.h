/* Engines from elsewhere: what a shared library exports to hand its engine tables to cellcheck
 * (engines/engine_set.h loads it).
 *
 * A plugin is built against the public headers (engines/engine.h, engines/plugin.h and the
 * oracle's error.h, grid.h and rule.h) and links what it uses of them statically, so it needs
 * nothing from the program that loads it. Its one C file of glue says
 *     static const cc_engine *const engines[] = {&my_engine, NULL};
 *     CC_PLUGIN(engines)
 * which exports cellcheck_plugin_abi() and cellcheck_engines(abi_version). A plugin engine is
 * checked exactly as a built-in one is. */
#ifndef CELLCHECK_ENGINES_PLUGIN_H
#define CELLCHECK_ENGINES_PLUGIN_H

#include <stddef.h>

#include "engines/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layout of cc_engine, cc_engine_caps, cc_rule and cc_error, and what the entry points of
 * cc_engine promise. Raised whenever any of them changes. A plugin built for this version is
 * loaded as it is; one built for version 5 is read as the first CC_ENGINE_V5_BYTES of each
 * table (the rest zero: no ranks); one built for version 4 is read through its frozen layout
 * (engines/plugin_v4.h) and its tables converted, so both load unchanged; any other version is
 * refused, never called. */
/* 2: cc_engine gained memory (the estimate of a context's memory).
 * 3: cc_engine_caps gained steps_per_launch.
 * 4: cc_rule gained topology, cc_engine_caps topologies.
 * 5: cc_engine_caps gained shape_limits (limits of one neighbourhood shape only).
 * 6: cc_engine gained rank_id and rank_create (one process per device), after every other
 *    field: a version-5 table is the first CC_ENGINE_V5_BYTES of a version-6 one. */
#define CC_PLUGIN_ABI_VERSION 6
#define CC_PLUGIN_ABI_V5 5
#define CC_ENGINE_V5_BYTES offsetof(cc_engine, rank_id)
/* The oldest version still loaded. */
#define CC_PLUGIN_ABI_OLDEST 4

#define CC_PLUGIN_ABI_SYMBOL "cellcheck_plugin_abi"
#define CC_PLUGIN_ENGINES_SYMBOL "cellcheck_engines"
/* Optional: how the plugin was built (its compiler and flags), a NUL-terminated string that
 * certificates record beside the plugin's SHA-256, so a certificate names the build it judged.
 * Read as data, never called; the first 255 bytes are kept. */
#define CC_PLUGIN_BUILD_SYMBOL "cellcheck_plugin_build"

typedef int (*cc_plugin_abi_fn)(void);
typedef const cc_engine *const *(*cc_plugin_engines_fn)(int abi_version);

#if defined(__GNUC__)
#define CC_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define CC_PLUGIN_EXPORT
#endif

/* The optional build string: CC_PLUGIN_BUILD("gcc 12.2 -O3 -march=native") beside CC_PLUGIN. */
#define CC_PLUGIN_BUILD(text)                                                                    \
    CC_PLUGIN_EXPORT extern const char cellcheck_plugin_build[];                                 \
    CC_PLUGIN_EXPORT const char cellcheck_plugin_build[] = text;

/* The two exports of a plugin whose engines are `list` (NULL-terminated). */
#define CC_PLUGIN(list)                                                                          \
    CC_PLUGIN_EXPORT int cellcheck_plugin_abi(void);                                             \
    CC_PLUGIN_EXPORT const cc_engine *const *cellcheck_engines(int abi_version);                 \
    CC_PLUGIN_EXPORT int cellcheck_plugin_abi(void) { return CC_PLUGIN_ABI_VERSION; }            \
    CC_PLUGIN_EXPORT const cc_engine *const *cellcheck_engines(int abi_version) {                \
        return abi_version == CC_PLUGIN_ABI_VERSION ? (list) : NULL;                             \
    }

#ifdef __cplusplus
}
#endif

#endif
