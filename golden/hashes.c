/* hashes.txt: "name <64 hex digits>" per line, read for verifying and updating. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden/internal.h"
#include "oracle/gridio.h"

void golden_hashes_free(golden_hashes *h) {
    free(h->lines);
    h->lines = NULL;
    h->count = h->capacity = 0;
}

golden_hash_line *golden_hashes_find(golden_hashes *h, const char *name) {
    for (size_t i = 0; i < h->count; i++)
        if (strcmp(h->lines[i].name, name) == 0) return &h->lines[i];
    return NULL;
}

static int hash_line_parse(void *state, char *line, int number, cc_error *err) {
    golden_hashes *h = state;
    char name[GOLDEN_NAME_MAX], hex[GOLDEN_HASH_HEX + 1];
    char *sep = line;
    while (*sep && !golden_is_space(*sep)) sep++;
    size_t name_len = (size_t)(sep - line);
    while (golden_is_space(*sep)) sep++;
    size_t hex_len = strlen(sep);
    if (name_len == 0 || name_len >= sizeof name || hex_len != 2 * GOLDEN_HASH_BYTES)
        return cc_fail(err, CC_ERR_ARG, "%s:%d: expected 'name <64 hex digits>'", h->path, number);
    memcpy(name, line, name_len);
    name[name_len] = '\0';
    memcpy(hex, sep, hex_len + 1);
    for (size_t i = 0; i < hex_len; i++)
        if (!((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f')))
            return cc_fail(err, CC_ERR_ARG, "%s:%d: '%s' is not 64 lowercase hex digits", h->path,
                           number, hex);
    if (golden_hashes_find(h, name))
        return cc_fail(err, CC_ERR_ARG, "%s:%d: '%s' has two hashes", h->path, number, name);
    void *lines = h->lines;
    int rc = golden_grow(&lines, &h->capacity, h->count, sizeof *h->lines, err);
    h->lines = lines;
    if (rc) return cc_prefix(err, "%s", h->path);
    golden_hash_line *l = &h->lines[h->count++];
    memcpy(l->name, name, name_len + 1);
    memcpy(l->hex, hex, sizeof l->hex);
    l->used = 0;
    return CC_OK;
}

int golden_hashes_load(const char *dir, golden_hashes *h, int *missing, cc_error *err) {
    memset(h, 0, sizeof *h);
    if (missing) *missing = 0;
    int rc = golden_join_path(h->path, sizeof h->path, dir, HASHES_FILE, err);
    if (rc) return rc;
    if (missing && access(h->path, F_OK) != 0 && errno == ENOENT) {
        *missing = 1;
        return CC_OK;
    }
    char *text;
    size_t len;
    if ((rc = cc_read_file(h->path, &text, &len, err))) return rc;
    rc = strlen(text) == len ? golden_for_each_line(text, hash_line_parse, h, err)
                             : cc_fail(err, CC_ERR_ARG, "%s holds a NUL byte", h->path);
    free(text);
    if (rc) golden_hashes_free(h);
    return rc;
}
