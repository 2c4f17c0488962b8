/* The engines a program knows: the built-in ones and those of the plugins it loaded
 * (engines/plugin.h), each with where it came from. */
#ifndef CELLCHECK_ENGINES_ENGINE_SET_H
#define CELLCHECK_ENGINES_ENGINE_SET_H

#include <stddef.h>

#include "engines/engine.h"
#include "engines/plugin_spec.h"
#include "engines/plugin.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* The engines a program knows: the built-in ones (cc_engines_all, where the registry is linked
 * in), then those of each plugin loaded, in order. Names are unique across all of them. */
typedef struct cc_engine_set {
    const cc_engine **engines; /* NULL-terminated */
    const char **origins;      /* per engine: the plugin's path, or NULL when built in */
    size_t count, room;
    void **handles; /* the plugins' dlopen handles */
    char **paths;   /* the plugins' paths, as given */
    cc_engine ***converted; /* per plugin: its tables converted from an older plugin ABI or
                             * renamed under its prefix (NULL-terminated), or NULL for those of
                             * the current ABI as they are */
    char **prefixes;        /* per plugin: the prefix of its engines' names, or NULL */
    size_t plugins;
} cc_engine_set;

/* The built-in engines; refused, naming the engine, where one's caps contradict themselves
 * (cc_engine_caps_check), as a plugin's would be. */
int cc_engine_set_init(cc_engine_set *set, cc_error *err);

/* Loads the plugin spec names (PATH, or PATH:PREFIX: cc_plugin_spec_split) and adds its engines. A plugin of ABI version CC_PLUGIN_ABI_OLDEST
 * (4) is read through its frozen layout (plugin_v4.h) and its tables converted. Refused, with the
 * path and the reason: a library that fails to load, a missing export, an ABI version neither
 * current nor 4, an engine table without a name or a required function, caps that contradict
 * themselves (cc_engine_caps_check), a name some engine already has. On refusal the set is as it
 * was. */
int cc_engine_set_load(cc_engine_set *set, const char *path, cc_error *err);

/* cc_engine_set_load by the file's absolute path (what is exported and printed in reproducers);
 * a path that names no file is refused with its name. */
int cc_engine_set_load_file(cc_engine_set *set, const char *path, cc_error *err);

/* Exports the plugins loaded in CELLCHECK_PLUGINS, so that a process started to replay a case,
 * and every reproducer printed, find them; nothing when none was loaded. */
int cc_engine_set_export(const cc_engine_set *set, cc_error *err);

/* The longest engine name; a name is letters, digits and . _ - + (checked as a plugin loads). */
#define CC_ENGINE_NAME_MAX 64



/* word as one POSIX shell word that reads back as word: as it is when it holds only safe
 * characters, else in single quotes. Cut short rather than overflowing buf. */
void cc_shell_word(char *buf, size_t size, const char *word);

/* " --plugin a.so --plugin b.so:twin" (each spec a shell word) for the plugins of
 * CELLCHECK_PLUGINS, into buf (cut short rather than overflowing); "" when there are none. */
void cc_plugin_args(char *buf, size_t size);

/* Loads each path of a colon-separated list (CELLCHECK_PLUGINS); NULL or "" loads none. */
int cc_engine_set_load_list(cc_engine_set *set, const char *list, cc_error *err);

const cc_engine *cc_engine_set_find(const cc_engine_set *set, const char *name);

/* The plugin an engine came from, or NULL for a built-in one or an engine not in the set. */
const char *cc_engine_set_origin(const cc_engine_set *set, const cc_engine *engine);

/* "a.so:b.so:twin": the plugins loaded, each with its prefix, for CELLCHECK_PLUGINS in a process started to replay a case;
 * "" when none. The caller frees it. NULL when out of memory. */
char *cc_engine_set_plugin_list(const cc_engine_set *set);

/* Unloads the plugins; their engines must no longer be used. */
void cc_engine_set_free(cc_engine_set *set);

#ifdef __cplusplus
}
#endif

#endif
