/* How a plugin is named: PATH, or PATH:PREFIX for its engines under PREFIX.NAME, so that a twin
 * of an engine (a copy of its library, or the same library again) runs beside its original. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/plugin_spec.h"

int cc_plugin_path_check(const char *path, cc_error *err) {
    for (const char *p = path; *p; p++) {
        if (*p == ':')
            return cc_fail(err, CC_ERR_ARG,
                           "a plugin path may not hold ':', which separates the paths of "
                           "CELLCHECK_PLUGINS (link the library under another name): %s",
                           path);
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return cc_fail(err, CC_ERR_ARG,
                           "a plugin path may not hold a control character (byte 0x%02x): %s",
                           (unsigned)(unsigned char)*p, path);
    }
    return CC_OK;
}

/* A prefix holds no '.' and no '/', so that CELLCHECK_PLUGINS's entries tell it from a path. */
static int prefix_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '+';
}

static int is_prefix(const char *s) {
    if (!*s) return 0;
    for (; *s; s++)
        if (!prefix_char((unsigned char)*s)) return 0;
    return 1;
}

int cc_plugin_spec_split(const char *spec, char *path, size_t size, const char **prefix,
                         cc_error *err) {
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    *prefix = NULL;
    if (n == 0) return cc_fail(err, CC_ERR_ARG, "--plugin needs the path of a shared library: %s", spec);
    if (n >= size) return cc_fail(err, CC_ERR_ARG, "plugin path too long: %.80s...", spec);
    memcpy(path, spec, n);
    path[n] = '\0';
    int rc = cc_plugin_path_check(path, err);
    if (rc) return rc;
    if (!colon) return CC_OK;
    if (!is_prefix(colon + 1) || strlen(colon + 1) > CC_PLUGIN_PREFIX_MAX)
        return cc_fail(err, CC_ERR_ARG,
                       "plugin %s: '%s' after ':' is no prefix for its engines (1 to %d letters, "
                       "digits, _ - +; PATH:PREFIX loads them as PREFIX.NAME)",
                       path, colon + 1, CC_PLUGIN_PREFIX_MAX);
    *prefix = colon + 1;
    return CC_OK;
}

size_t cc_plugin_list_split(char *list, const char **specs, size_t max) {
    size_t n = 0;
    char *p = list;
    while (p && *p) {
        char *sep = strchr(p, ':');
        if (sep) *sep = '\0';
        if (*p && n > 0 && is_prefix(p) && !strchr(specs[n - 1], ':'))
            p[-1] = ':'; /* joined to the plugin before it: PATH:PREFIX */
        else if (*p && n < max)
            specs[n++] = p;
        p = sep ? sep + 1 : NULL;
    }
    return n;
}

int cc_plugin_rename(const char *path, const char *prefix, const cc_engine *const *list, size_t n,
                     cc_engine ***out, cc_error *err) {
    cc_engine **tables = calloc(n + 1, sizeof *tables);
    if (!tables) return cc_fail(err, CC_ERR_NOMEM, "plugin %s: out of memory", path);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(prefix) + 1 + strlen(list[i]->name);
        /* The table and its name in one block, freed as one. */
        tables[i] = malloc(sizeof *tables[i] + len + 1);
        if (!tables[i]) {
            for (size_t j = 0; j < i; j++) free(tables[j]);
            free(tables);
            return cc_fail(err, CC_ERR_NOMEM, "plugin %s: out of memory", path);
        }
        *tables[i] = *list[i];
        char *name = (char *)(tables[i] + 1);
        snprintf(name, len + 1, "%s.%s", prefix, list[i]->name);
        tables[i]->name = name;
    }
    *out = tables;
    return CC_OK;
}
