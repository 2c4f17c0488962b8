/* The engines a program knows, built in and loaded from plugins (engine_set.h). */
#define _POSIX_C_SOURCE 200809L
#include "engines/engine_set.h"
#include "engines/plugin_v4.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The registry defines cc_engines_all where it is linked in. */
#pragma weak cc_engines_all

static int grow(cc_engine_set *set, size_t need, cc_error *err) {
    if (set->count + need + 1 <= set->room) return CC_OK;
    size_t room = (set->count + need + 1) * 2;
    const cc_engine **engines = realloc(set->engines, room * sizeof *engines);
    if (!engines) return cc_fail(err, CC_ERR_NOMEM, "cannot grow the engine list");
    set->engines = engines;
    const char **origins = realloc(set->origins, room * sizeof *origins);
    if (!origins) return cc_fail(err, CC_ERR_NOMEM, "cannot grow the engine list");
    set->origins = origins;
    set->room = room;
    return CC_OK;
}

int cc_engine_set_init(cc_engine_set *set, cc_error *err) {
    memset(set, 0, sizeof *set);
    size_t n = 0;
    const cc_engine *const *all = cc_engines_all ? cc_engines_all() : NULL;
    while (all && all[n]) n++;
    int rc = grow(set, n, err);
    if (rc) return rc;
    for (size_t i = 0; i < n; i++) {
        set->engines[i] = all[i];
        set->origins[i] = NULL;
        /* Built-in caps are held to what a plugin's are: a contradiction is a bug to fix. */
        cc_error caps_err;
        if (cc_engine_caps_check(all[i], &caps_err)) {
            free(set->engines);
            free(set->origins);
            memset(set, 0, sizeof *set);
            return cc_fail(err, CC_ERR_ARG, "built-in engine %s", caps_err.msg);
        }
    }
    set->count = n;
    set->engines[n] = NULL;
    return CC_OK;
}

const cc_engine *cc_engine_set_find(const cc_engine_set *set, const char *name) {
    for (size_t i = 0; name && i < set->count; i++)
        if (strcmp(set->engines[i]->name, name) == 0) return set->engines[i];
    return NULL;
}

const char *cc_engine_set_origin(const cc_engine_set *set, const cc_engine *engine) {
    for (size_t i = 0; i < set->count; i++)
        if (set->engines[i] == engine) return set->origins[i];
    return NULL;
}

/* An engine table the entry points can call: a name that certificates, tables and reproducers
 * can carry as one word, and every function they need. */
static int check_table(const char *path, const cc_engine *e, size_t index, cc_error *err) {
    if (!e->name || !e->name[0])
        return cc_fail(err, CC_ERR_ARG, "plugin %s: engine %zu has no name", path, index);
    size_t len = strnlen(e->name, CC_ENGINE_NAME_MAX + 1);
    if (len > CC_ENGINE_NAME_MAX)
        return cc_fail(err, CC_ERR_ARG, "engine name too long (more than %d characters): plugin %s, "
                       "engine %zu", CC_ENGINE_NAME_MAX, path, index);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)e->name[i];
        if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
            c != '.' && c != '_' && c != '-' && c != '+') {
            char shown[16];
            snprintf(shown, sizeof shown, c >= 0x20 && c < 0x7f ? "'%c'" : "byte 0x%02x", c);
            return cc_fail(err, CC_ERR_ARG,
                           "engine name holds %s at %zu (a name is letters, digits and . _ - + "
                           "only): plugin %s, engine %zu",
                           shown, i, path, index);
        }
    }
    /* The caps against themselves: a negative cap would read as "no limit" (0), a shape's
     * limits may leave it no radius. */
    cc_error caps_err;
    if (cc_engine_caps_check(e, &caps_err))
        return cc_fail(err, CC_ERR_ARG, "plugin %s: %s", path, caps_err.msg);
    const char *missing = !e->create ? "create" : !e->load ? "load" : !e->step ? "step"
                        : !e->store ? "store" : !e->destroy ? "destroy" : NULL;
    if (missing)
        return cc_fail(err, CC_ERR_ARG, "plugin %s: engine %s has no %s function", path, e->name,
                       missing);
    if (!e->rank_id != !e->rank_create)
        return cc_fail(err, CC_ERR_ARG,
                       "plugin %s: engine %s has %s but no %s: a rank engine has both or neither",
                       path, e->name, e->rank_id ? "rank_id" : "rank_create",
                       e->rank_id ? "rank_create" : "rank_id");
    return CC_OK;
}

static void free_converted(cc_engine **tables) {
    for (size_t i = 0; tables && tables[i]; i++) free(tables[i]);
    free(tables);
}

/* A version-5 plugin's engine list as current tables: each its first CC_ENGINE_V5_BYTES, the
 * fields version 6 added after them zero (no ranks). */
static int convert_v5(const char *path, const cc_engine *const *old, cc_engine ***out, size_t *n,
                      cc_error *err) {
    size_t count = 0;
    while (old && old[count]) count++;
    *out = NULL;
    *n = 0;
    if (count == 0) return CC_OK;
    cc_engine **tables = calloc(count + 1, sizeof *tables);
    for (size_t i = 0; tables && i < count; i++) {
        if (!(tables[i] = calloc(1, sizeof **tables))) {
            free_converted(tables);
            tables = NULL;
            break;
        }
        memcpy(tables[i], old[i], CC_ENGINE_V5_BYTES);
    }
    if (!tables)
        return cc_fail(err, CC_ERR_NOMEM, "plugin %s: out of memory for its version-5 tables",
                       path);
    *out = tables;
    *n = count;
    return CC_OK;
}

/* A version-4 plugin's engine list (cc_engine_v4 tables, NULL-terminated) as current tables,
 * each allocated, the list NULL-terminated; *n the count. */
static int convert_v4(const char *path, const void *exported, cc_engine ***out, size_t *n,
                      cc_error *err) {
    const cc_engine_v4 *const *old = exported;
    size_t count = 0;
    while (old && old[count]) count++;
    *out = NULL;
    *n = 0;
    if (count == 0) return CC_OK;
    cc_engine **tables = calloc(count + 1, sizeof *tables);
    for (size_t i = 0; tables && i < count; i++) {
        if (!(tables[i] = malloc(sizeof **tables))) {
            free_converted(tables);
            tables = NULL;
            break;
        }
        cc_engine_from_v4(old[i], tables[i]);
    }
    if (!tables)
        return cc_fail(err, CC_ERR_NOMEM, "plugin %s: out of memory for its version-4 tables",
                       path);
    *out = tables;
    *n = count;
    return CC_OK;
}

int cc_engine_set_load(cc_engine_set *set, const char *spec, cc_error *err) {
    char path[PATH_MAX];
    const char *prefix;
    int rc = cc_plugin_spec_split(spec, path, sizeof path, &prefix, err);
    if (rc) return rc;
    /* A name without a slash is a file here, not one for the library search path. */
    char here[PATH_MAX + 2];
    const char *open_as = path;
    if (!strchr(path, '/') && strlen(path) + 3 <= sizeof here) {
        snprintf(here, sizeof here, "./%s", path);
        open_as = here;
    }
    void *handle = dlopen(open_as, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        return cc_fail(err, CC_ERR_ARG, "plugin %s cannot be loaded: %s", path,
                       why ? why : "(no reason given)");
    }
    /* dlsym returns a data pointer; POSIX lets it be converted to a function pointer. */
    void *abi_sym = dlsym(handle, CC_PLUGIN_ABI_SYMBOL);
    void *engines_sym = dlsym(handle, CC_PLUGIN_ENGINES_SYMBOL);
    const cc_engine *const *list = NULL;
    cc_engine **converted = NULL; /* a version-4 or 5 plugin's tables, converted; NULL-terminated */
    size_t n = 0;
    if (!abi_sym || !engines_sym) {
        rc = cc_fail(err, CC_ERR_ARG,
                     "plugin %s does not export %s (is CC_PLUGIN(...) in its sources, and the "
                     "symbols visible?)",
                     path, !abi_sym ? CC_PLUGIN_ABI_SYMBOL "()" : CC_PLUGIN_ENGINES_SYMBOL "()");
        goto refused;
    }
    cc_plugin_abi_fn abi;
    cc_plugin_engines_fn engines;
    memcpy(&abi, &abi_sym, sizeof abi);
    memcpy(&engines, &engines_sym, sizeof engines);
    int version = abi();
    if (version != CC_PLUGIN_ABI_VERSION && version != CC_PLUGIN_ABI_V5 &&
        version != CC_PLUGIN_ABI_V4) {
        rc = cc_fail(err, CC_ERR_UNSUPPORTED,
                     "plugin %s was built for plugin ABI %d; this cellcheck speaks %d and still "
                     "loads %d (rebuild it against this cellcheck's headers)",
                     path, version, CC_PLUGIN_ABI_VERSION, CC_PLUGIN_ABI_OLDEST);
        goto refused;
    }
    if (version == CC_PLUGIN_ABI_V4) {
        /* The same export, answering for version 4 with tables of the frozen layout: each is
         * converted to the current one, which the set owns. */
        if ((rc = convert_v4(path, (const void *)engines(CC_PLUGIN_ABI_V4), &converted, &n, err)))
            goto refused;
        list = (const cc_engine *const *)converted;
    } else if (version == CC_PLUGIN_ABI_V5) {
        /* Its tables end before the fields version 6 added: read only what it has. */
        if ((rc = convert_v5(path, engines(CC_PLUGIN_ABI_V5), &converted, &n, err)))
            goto refused;
        list = (const cc_engine *const *)converted;
    } else {
        list = engines(CC_PLUGIN_ABI_VERSION);
        while (list && list[n]) n++;
    }
    if (n == 0) {
        rc = cc_fail(err, CC_ERR_ARG, "plugin %s has no engines", path);
        goto refused;
    }
    if (prefix) {
        /* Renamed copies; a version-4 plugin's converted tables are copied on and let go. */
        cc_engine **renamed;
        if ((rc = cc_plugin_rename(path, prefix, list, n, &renamed, err))) goto refused;
        free_converted(converted);
        converted = renamed;
        list = (const cc_engine *const *)converted;
    }
    for (size_t i = 0; i < n; i++) {
        if ((rc = check_table(path, list[i], i, err))) goto refused;
        const cc_engine *clash = cc_engine_set_find(set, list[i]->name);
        const char *by = NULL;
        if (clash) {
            by = cc_engine_set_origin(set, clash);
            if (!by) by = "a built-in engine";
        }
        for (size_t j = 0; !by && j < i; j++)
            if (strcmp(list[j]->name, list[i]->name) == 0) by = "another engine of this plugin";
        if (by) {
            rc = cc_fail(err, CC_ERR_ARG, "plugin %s: engine name %s is taken already (by %s)",
                         path, list[i]->name, by);
            goto refused;
        }
    }
    void **handles = realloc(set->handles, (set->plugins + 1) * sizeof *handles);
    if (handles) set->handles = handles;
    char **paths = handles ? realloc(set->paths, (set->plugins + 1) * sizeof *paths) : NULL;
    if (paths) set->paths = paths;
    cc_engine ***tables = paths ? realloc(set->converted, (set->plugins + 1) * sizeof *tables)
                                : NULL;
    if (tables) set->converted = tables;
    char **prefixes = tables ? realloc(set->prefixes, (set->plugins + 1) * sizeof *prefixes) : NULL;
    if (prefixes) set->prefixes = prefixes;
    char *copy = prefixes ? strdup(path) : NULL;
    char *prefix_copy = copy && prefix ? strdup(prefix) : NULL;
    if (!copy || (prefix && !prefix_copy) || (rc = grow(set, n, err))) {
        free(copy);
        free(prefix_copy);
        if (!rc) rc = cc_fail(err, CC_ERR_NOMEM, "plugin %s: out of memory", path);
        goto refused;
    }
    set->handles[set->plugins] = handle;
    set->converted[set->plugins] = converted;
    set->prefixes[set->plugins] = prefix_copy;
    set->paths[set->plugins++] = copy;
    for (size_t i = 0; i < n; i++) {
        set->engines[set->count] = list[i];
        set->origins[set->count++] = copy;
    }
    set->engines[set->count] = NULL;
    return CC_OK;
refused:
    free_converted(converted);
    dlclose(handle);
    return rc;
}

int cc_engine_set_load_file(cc_engine_set *set, const char *spec, cc_error *err) {
    char path[PATH_MAX], absolute[PATH_MAX], whole[PATH_MAX + CC_PLUGIN_PREFIX_MAX + 2];
    const char *prefix;
    int rc = cc_plugin_spec_split(spec, path, sizeof path, &prefix, err);
    if (rc) return rc;
    if (!realpath(path, absolute))
        return cc_fail(err, CC_ERR_ARG, "plugin %s cannot be loaded: no such file", path);
    /* The same library under the same prefix named twice (CELLCHECK_PLUGINS and --plugin, as a
     * printed reproducer does) is loaded once. */
    for (size_t i = 0; i < set->plugins; i++)
        if (strcmp(set->paths[i], absolute) == 0 &&
            strcmp(set->prefixes[i] ? set->prefixes[i] : "", prefix ? prefix : "") == 0)
            return CC_OK;
    snprintf(whole, sizeof whole, "%s%s%s", absolute, prefix ? ":" : "", prefix ? prefix : "");
    return cc_engine_set_load(set, whole, err);
}

void cc_shell_word(char *buf, size_t size, const char *word) {
    if (!size) return;
    int plain = *word != '\0';
    for (const char *p = word; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+/=,:@%", *p) != NULL;
    size_t used = 0;
    if (plain) {
        snprintf(buf, size, "%s", word);
        return;
    }
    /* 'word', each ' written as '\'' */
    buf[used++] = '\'';
    for (const char *p = word; *p && used + 5 < size; p++) {
        if (*p == '\'') {
            memcpy(buf + used, "'\\''", 4);
            used += 4;
        } else {
            buf[used++] = *p;
        }
    }
    if (used + 1 < size) buf[used++] = '\'';
    buf[used < size ? used : size - 1] = '\0';
}

int cc_engine_set_export(const cc_engine_set *set, cc_error *err) {
    if (set->plugins == 0) return CC_OK;
    char *list = cc_engine_set_plugin_list(set);
    int failed = !list || setenv("CELLCHECK_PLUGINS", list, 1) != 0;
    free(list);
    return failed ? cc_fail(err, CC_ERR_NOMEM, "cannot export CELLCHECK_PLUGINS") : CC_OK;
}

void cc_plugin_args(char *buf, size_t size) {
    size_t used = 0;
    if (size) buf[0] = '\0';
    const char *plugins = getenv("CELLCHECK_PLUGINS");
    char *list = plugins ? strdup(plugins) : NULL;
    const char *specs[256];
    size_t n = list ? cc_plugin_list_split(list, specs, 256) : 0;
    for (size_t i = 0; i < n && used < size; i++) {
        char quoted[2 * PATH_MAX];
        cc_shell_word(quoted, sizeof quoted, specs[i]);
        int w = snprintf(buf + used, size - used, " --plugin %s", quoted);
        if (w < 0) break;
        used += (size_t)w;
    }
    free(list);
}

int cc_engine_set_load_list(cc_engine_set *set, const char *list, cc_error *err) {
    if (!list) return CC_OK;
    char *copy = strdup(list);
    if (!copy) return cc_fail(err, CC_ERR_NOMEM, "out of memory for the plugin list");
    int rc = CC_OK;
    const char *specs[256];
    size_t n = cc_plugin_list_split(copy, specs, 256);
    for (size_t i = 0; i < n && !rc; i++) rc = cc_engine_set_load(set, specs[i], err);
    free(copy);
    return rc;
}

char *cc_engine_set_plugin_list(const cc_engine_set *set) {
    size_t len = 1;
    for (size_t i = 0; i < set->plugins; i++)
        len += strlen(set->paths[i]) + 2 + (set->prefixes && set->prefixes[i] ? strlen(set->prefixes[i]) : 0);
    char *out = malloc(len);
    if (!out) return NULL;
    out[0] = '\0';
    for (size_t i = 0; i < set->plugins; i++) {
        if (i) strcat(out, ":");
        strcat(out, set->paths[i]);
        if (set->prefixes && set->prefixes[i]) {
            strcat(out, ":");
            strcat(out, set->prefixes[i]);
        }
    }
    return out;
}

void cc_engine_set_free(cc_engine_set *set) {
    for (size_t i = 0; i < set->plugins; i++) {
        dlclose(set->handles[i]);
        free_converted(set->converted[i]);
        free(set->paths[i]);
        if (set->prefixes) free(set->prefixes[i]);
    }
    free(set->prefixes);
    free(set->converted);
    free(set->handles);
    free(set->paths);
    free(set->engines);
    free(set->origins);
    memset(set, 0, sizeof *set);
}
