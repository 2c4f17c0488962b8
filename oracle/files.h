/* Whole-file helpers shared by the tools. Only regular files are read (a FIFO, a device, a
 * directory is refused at once, without waiting for a writer), and never past the size they had
 * when opened. */
#ifndef CELLCHECK_ORACLE_FILES_H
#define CELLCHECK_ORACLE_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"

int cc_read_file(const char *path, char **text, size_t *len, cc_error *err);
/* The first max bytes at most of the regular file path; *size (may be NULL) its whole size. */
int cc_read_file_head(const char *path, size_t max, char **text, size_t *len, int64_t *size,
                      cc_error *err);
int cc_write_file_atomic(const char *path, const char *data, size_t len, cc_error *err);
/* The n files dir/names[i] written as one set named set: after a crash at any moment they are
 * all the old ones or all the new ones (dir/NAME are links through dir/.SET to a generation
 * directory, switched by one rename). At most 8 files. */
int cc_write_files_atomic(const char *dir, const char *set, int n, const char *const *names,
                          const char *const *data, const size_t *lens, cc_error *err);
/* Whether cc_write_files_atomic(dir, set, n, names) could write, checked before the work whose
 * results it will write: dir a writable directory, no directory or special file in the way of a
 * name or of .SET. CC_ERR_ARG naming the path. */
int cc_write_files_check(const char *dir, const char *set, int n, const char *const *names,
                         cc_error *err);
/* The directory path, made with its missing parents (as mkdir -p) so an output option may name
 * one that does not exist yet; then writable. CC_ERR_ARG naming the part in the way (a file, a
 * link to one) or the reason a part could not be made. */
int cc_make_directories(const char *path, cc_error *err);

/* This user's cache directory of cellcheck, into dir: $XDG_CACHE_HOME/cellcheck, else
 * $HOME/.cache/cellcheck (each only where it is an absolute path). Nothing is made. CC_ERR_ARG
 * where neither says where, or the path does not fit size. */
int cc_cache_dir(char *dir, size_t size, cc_error *err);

#endif
