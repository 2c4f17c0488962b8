/* What the parts of the golden library share: lines and paths, the catalogue's lookup, and
 * hashes.txt. Not for users of golden.h. */
#ifndef CELLCHECK_GOLDEN_INTERNAL_H
#define CELLCHECK_GOLDEN_INTERNAL_H

#include <stddef.h>

#include "golden/golden.h"
#include "oracle/error.h"

#define HASHES_FILE "hashes.txt"
#define SNAPSHOT_DIR "snapshots"

/* ---- lines and paths (text.c) ---- */

/* src into dst, refused when it does not fit. */
int golden_copy_text(char *dst, size_t size, const char *src, cc_error *err);
/* "a/b" into dst, refused when it does not fit. */
int golden_join_path(char *dst, size_t size, const char *a, const char *b, cc_error *err);
int golden_is_space(char c);
/* Room for one more item in *items (count used of *capacity, each size bytes): doubles it when
 * full. On failure *items is unchanged. */
int golden_grow(void **items, size_t *capacity, size_t count, size_t size, cc_error *err);

/* Splits text into lines in place; calls fn for every line that is not blank or a comment,
 * trimmed, with its 1-based number; stops at the first error fn returns. */
typedef int (*golden_line_fn)(void *state, char *line, int number, cc_error *err);
int golden_for_each_line(char *text, golden_line_fn fn, void *state, cc_error *err);

/* ---- the catalogue (catalogue.c) ---- */

/* The case named name, or NULL. */
const golden_entry *golden_find_entry(const golden_catalogue *cat, const char *name);
/* A pattern path as the catalogue writes it, made relative to the source root. */
int golden_resolve_pattern(const golden_catalogue *cat, const char *pattern, char *out,
                           size_t size, cc_error *err);

/* ---- hashes.txt (hashes.c) ---- */

typedef struct golden_hash_line {
    char name[GOLDEN_NAME_MAX];
    char hex[GOLDEN_HASH_HEX];
    int used; /* matched by a catalogue case */
} golden_hash_line;

typedef struct golden_hashes {
    char path[GOLDEN_PATH_MAX];
    golden_hash_line *lines;
    size_t count, capacity;
} golden_hashes;

/* Loads the catalogue's hashes.txt. *missing (may be NULL) says it does not exist, which is then
 * not an error. */
int golden_hashes_load(const golden_catalogue *cat, golden_hashes *h, int *missing, cc_error *err);
void golden_hashes_free(golden_hashes *h);
/* The line naming name, or NULL. */
golden_hash_line *golden_hashes_find(golden_hashes *h, const char *name);

#endif
