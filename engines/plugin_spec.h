/* How a plugin is named (--plugin, CELLCHECK_PLUGINS): PATH, or PATH:PREFIX for its engines
 * under PREFIX.NAME (plugin_spec.c); engine_set.h's loading uses it. */
#ifndef CELLCHECK_ENGINES_PLUGIN_SPEC_H
#define CELLCHECK_ENGINES_PLUGIN_SPEC_H

#include <stddef.h>

#include "engines/engine.h"
#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A plugin path as it may enter: no ':' (CELLCHECK_PLUGINS's separator), no control character. */
int cc_plugin_path_check(const char *path, cc_error *err);

/* The longest prefix of PATH:PREFIX. */
#define CC_PLUGIN_PREFIX_MAX 16

/* A plugin as it is named (--plugin, CELLCHECK_PLUGINS): PATH, or PATH:PREFIX to load its
 * engines as PREFIX.NAME, so that a twin runs beside its original (the same library twice under
 * two prefixes, or a wrong copy beside the right one). A prefix is letters, digits, _ - + and no
 * '.' or '/', which tells it from a path in CELLCHECK_PLUGINS. The path is copied into path,
 * *prefix points into spec (NULL when none); a wrong path or prefix is refused by name. */
int cc_plugin_spec_split(const char *spec, char *path, size_t size, const char **prefix,
                         cc_error *err);

/* CELLCHECK_PLUGINS ("a.so:b.so:twin") split in place at ':' into at most max specs; an entry
 * that is a prefix (no '.', no '/') stays joined to the plugin before it, b.so:twin. */
size_t cc_plugin_list_split(char *list, const char **specs, size_t max);

/* Copies of the n tables of list, each named PREFIX.NAME, into *out (NULL-terminated, each
 * table one allocation with its name). */
int cc_plugin_rename(const char *path, const char *prefix, const cc_engine *const *list, size_t n,
                     cc_engine ***out, cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
