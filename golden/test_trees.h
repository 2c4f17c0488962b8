/* Scratch golden trees for the golden tests: files read, written, copied and counted, a fresh tree
 * with the committed patterns, a small catalogue updated in it, and the committed hashes read
 * without golden's own parser. Test code: what fails prints why and returns non-zero. Its
 * includers define _POSIX_C_SOURCE 200809L (mkdtemp) before any include. */
#ifndef CELLCHECK_GOLDEN_TEST_TREES_H
#define CELLCHECK_GOLDEN_TEST_TREES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golden/golden.h"
#include "oracle/gridio.h"
#include "testing/check.h"

#define CATALOGUE "golden/catalogue.txt"
/* The goldens in force, as the runfiles lay them out. */
#define IN_FORCE "golden/current"
/* Temporary roots are short, so every path under one fits in GOLDEN_PATH_MAX. */
#define ROOT_MAX 256

static inline char *read_text(const char *path) {
    char *text = NULL;
    size_t len = 0;
    cc_error err = {0};
    if (cc_read_file(path, &text, &len, &err)) {
        printf("cannot read %s: %s\n", path, err.msg);
        return NULL;
    }
    return text;
}

static inline int write_text(const char *path, const char *text) {
    cc_error err = {0};
    if (cc_write_file_atomic(path, text, strlen(text), &err)) {
        printf("cannot write %s: %s\n", path, err.msg);
        return 1;
    }
    return 0;
}

static inline int copy_file(const char *from, const char *to) {
    char *text = read_text(from);
    if (!text) return 1;
    int rc = write_text(to, text);
    free(text);
    return rc;
}

static inline int same_file(const char *a, const char *b) {
    char *ta = read_text(a), *tb = read_text(b);
    int same = ta && tb && strcmp(ta, tb) == 0;
    free(ta);
    free(tb);
    return same;
}

/* Entries of dir named like a generation (".gen-..."). */
static inline size_t count_generations(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) n += strncmp(ent->d_name, ".gen-", 5) == 0;
    closedir(d);
    return n;
}

static inline size_t count_files(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL)
        if (ent->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* A fresh directory with golden/ and golden/patterns/ under it. */
static inline int make_tree(char *root, size_t size) {
    const char *base = getenv("TEST_TMPDIR");
    snprintf(root, size, "%s/golden_test.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(root)) return 1;
    char path[GOLDEN_PATH_MAX];
    snprintf(path, sizeof path, "%s/golden", root);
    if (mkdir(path, 0755)) return 1;
    snprintf(path, sizeof path, "%s/golden/patterns", root);
    return mkdir(path, 0755) != 0;
}

static inline int copy_patterns(const char *root) {
    const char *names[] = {"glider.rle", "glider_10x7.rle", "blinker.rle", "rpentomino.rle",
                           "gosper_gun.rle"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char from[GOLDEN_PATH_MAX], to[GOLDEN_PATH_MAX];
        snprintf(from, sizeof from, "golden/patterns/%s", names[i]);
        snprintf(to, sizeof to, "%s/golden/patterns/%s", root, names[i]);
        if (copy_file(from, to)) return 1;
    }
    return 0;
}

/* The committed hash of a case, read here without golden.c's parser. */
static inline int committed_hash(const char *name, char hex[GOLDEN_HASH_HEX]) {
    char *text = read_text(IN_FORCE "/hashes.txt");
    if (!text) return 1;
    int found = 0;
    size_t n = strlen(name);
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        if (strncmp(line, name, n) == 0 && line[n] == ' ') {
            memcpy(hex, line + n + 1, GOLDEN_HASH_HEX - 1);
            hex[GOLDEN_HASH_HEX - 1] = '\0';
            found = 1;
            break;
        }
        line = end ? end + 1 : NULL;
    }
    free(text);
    return !found;
}

static inline const golden_entry *entry(checks *t, const golden_catalogue *cat, const char *name) {
    const golden_entry *found = NULL;
    for (size_t i = 0; i < cat->count && !found; i++)
        if (strcmp(cat->entries[i].name, name) == 0) found = &cat->entries[i];
    CHECKF(t, found != NULL, "the catalogue has no case %s", name);
    return found;
}

/* A small catalogue in a fresh tree, with its hashes written by update. */
static const char *const mini_names[] = {"life_glider_8x8", "life_blinker_5x5", "life_dead_16x16",
                                         "table6_r01_3x7", "hex_b2s34_3x5"};

#define MINI_COUNT (sizeof mini_names / sizeof mini_names[0])

static inline int make_mini(checks *t, char *root, size_t size, char *catalogue, size_t catalogue_size) {
    golden_catalogue full;
    cc_error err = {0};
    if (make_tree(root, size) || copy_patterns(root)) return 1;
    if (golden_load(CATALOGUE, &full, &err)) return 1;
    char text[MINI_COUNT * (GOLDEN_NAME_MAX + GOLDEN_LINE_MAX + 2) + 1];
    size_t used = 0;
    for (size_t i = 0; i < MINI_COUNT; i++) {
        const golden_entry *e = entry(t, &full, mini_names[i]);
        if (e)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s %s\n", e->name, e->line);
    }
    golden_free(&full);
    snprintf(catalogue, catalogue_size, "%s/golden/catalogue.txt", root);
    return write_text(catalogue, text);
}

static inline int verify_dir(const char *catalogue, golden_report *report, const char *what) {
    golden_catalogue cat;
    cc_error err = {0};
    if (golden_open(catalogue, &cat, stdout, &err)) {
        printf("loading %s: %s\n", catalogue, err.msg);
        return -1;
    }
    printf("-- verify (%s):\n", what);
    int rc = golden_verify_oracle(&cat, stdout, report, &err);
    golden_free(&cat);
    return rc;
}

static inline int update_dir(const char *catalogue, FILE *log) {
    golden_catalogue cat;
    cc_error err = {0};
    int rc = golden_load(catalogue, &cat, &err);
    if (!rc) rc = golden_update(&cat, log, &err);
    if (rc) printf("update %s: %s\n", catalogue, err.msg);
    golden_free(&cat);
    return rc;
}

/* Removes the line that starts with "name " from the file at path. */
static inline int cut_line(const char *path, const char *name) {
    char *text = read_text(path);
    if (!text) return 1;
    char key[GOLDEN_NAME_MAX + 2];
    snprintf(key, sizeof key, "%s ", name);
    char *at = strstr(text, key);
    while (at && at != text && at[-1] != '\n') at = strstr(at + 1, key);
    int rc = 1;
    if (at) {
        char *eol = strchr(at, '\n');
        memmove(at, eol ? eol + 1 : at + strlen(at), strlen(eol ? eol + 1 : at + strlen(at)) + 1);
        rc = write_text(path, text);
    }
    free(text);
    return rc;
}

#endif
