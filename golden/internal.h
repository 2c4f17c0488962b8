/* What the parts of the golden library share: lines and paths, the catalogue's lookup, and
 * hashes.txt. Not for users of golden.h. */
#ifndef CELLCHECK_GOLDEN_INTERNAL_H
#define CELLCHECK_GOLDEN_INTERNAL_H

#include <stddef.h>

#include "golden/golden.h"
#include "oracle/error.h"

#define CATALOGUE_FILE "catalogue.txt"
#define HASHES_FILE "hashes.txt"
#define SNAPSHOT_DIR "snapshots"
/* In the catalogue's directory: the link naming the generation in force, the prefix of every
 * generation directory, and the new link an update renames over `current`. */
#define CURRENT_LINK "current"
#define GENERATION_PREFIX ".gen-"
#define CURRENT_TEMP ".current.tmp.link"
/* The file an update holds an exclusive flock on, from before it reads what is in force until
 * its leftovers are removed: a second update at the same time is refused, never interleaved. */
#define UPDATE_LOCK ".update.lock"

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
/* The directory part of path, lexically: "a/b/c" -> "a/b", "c" -> ".", "/c" -> "/". */
int golden_parent_dir(const char *path, char *out, size_t size, cc_error *err);

/* ---- the catalogue (catalogue.c) ---- */

/* The case named name, or NULL. */
const golden_entry *golden_find_entry(const golden_catalogue *cat, const char *name);
/* A pattern path as the catalogue writes it, made relative to the source root. */
int golden_resolve_pattern(const golden_catalogue *cat, const char *pattern, char *out,
                           size_t size, cc_error *err);

/* Parses the catalogue at path, read from text (len bytes), into cat, whose hashes and snapshots
 * are in dir and whose patterns are relative to root. Takes text (kept as cat->text). */
int golden_parse(const char *path, char *text, size_t len, const char *dir, const char *root,
                 golden_catalogue *cat, cc_error *err);

/* ---- generations (generation.c) ---- */

/* Whether an entry of the catalogue's directory is a generation directory, by its name. */
int golden_is_generation(const char *name);
/* The generation in force in golden_dir: its path into gen and the name `current` links to into
 * name ("" when `current` is a plain directory); *found is 0 when there is none. */
int golden_in_force(const char *golden_dir, char *gen, size_t gen_size, char *name,
                    size_t name_size, int *found, cc_error *err);
/* One file of a generation: its path inside it and its bytes. */
typedef struct golden_gen_file {
    char name[GOLDEN_NAME_MAX + sizeof SNAPSHOT_DIR + 8];
    const char *data;
    size_t len;
} golden_gen_file;
/* A generation's name: GENERATION_PREFIX and 16 hex digits of the BLAKE2b of its files (the
 * catalogue copy, hashes.txt, then the snapshots in catalogue order), names and bytes. */
void golden_generation_name(const golden_gen_file *files, size_t n, char *out, size_t size);
/* Removes path: a file or link, or a directory with everything under it (links inside are
 * removed, never followed). What cannot be removed stays. */
void golden_remove_tree(const char *path);

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

/* Loads dir/hashes.txt. *missing (may be NULL) says it does not exist, which is then not an
 * error. */
int golden_hashes_load(const char *dir, golden_hashes *h, int *missing, cc_error *err);
void golden_hashes_free(golden_hashes *h);
/* The line naming name, or NULL. */
golden_hash_line *golden_hashes_find(golden_hashes *h, const char *name);

#endif
