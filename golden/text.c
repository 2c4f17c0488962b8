/* The golden library's lines and paths (see internal.h). */
#define _POSIX_C_SOURCE 200809L

#include "golden/internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int golden_copy_text(char *dst, size_t size, const char *src, cc_error *err) {
    size_t n = strlen(src);
    if (n >= size)
        return cc_fail(err, CC_ERR_ARG, "'%.60s...' is too long (%zu characters)", src, n);
    memcpy(dst, src, n + 1);
    return CC_OK;
}

int golden_join_path(char *dst, size_t size, const char *a, const char *b, cc_error *err) {
    int n = snprintf(dst, size, "%s/%s", a, b);
    if (n < 0 || (size_t)n >= size) return cc_fail(err, CC_ERR_ARG, "path %s/%s is too long", a, b);
    return CC_OK;
}

int golden_is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int golden_grow(void **items, size_t *capacity, size_t count, size_t size, cc_error *err) {
    if (count < *capacity) return CC_OK;
    size_t grown = *capacity ? 2 * *capacity : 64;
    void *p = grown <= SIZE_MAX / size ? realloc(*items, grown * size) : NULL;
    if (!p) return cc_fail(err, CC_ERR_NOMEM, "cannot grow a list to %zu items", grown);
    *items = p;
    *capacity = grown;
    return CC_OK;
}

int golden_for_each_line(char *text, golden_line_fn fn, void *state, cc_error *err) {
    int number = 0;
    char *p = text;
    while (*p) {
        char *end = strchr(p, '\n');
        char *next = end ? end + 1 : p + strlen(p);
        if (end) *end = '\0';
        number++;
        char *line = p;
        while (golden_is_space(*line)) line++;
        size_t len = strlen(line);
        while (len > 0 && golden_is_space(line[len - 1])) line[--len] = '\0';
        if (len > 0 && line[0] != '#') {
            int rc = fn(state, line, number, err);
            if (rc) return rc;
        }
        p = next;
    }
    return CC_OK;
}
