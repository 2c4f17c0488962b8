/* Grid files by extension: ".rle" for Golly RLE (oracle/rle.c), ".mc" for Golly's macrocell
 * (oracle/macrocell.c, read only), ".txt" for rows of 0 and 1
 * (oracle/gridtext.c), through the whole-file helpers of oracle/files.c. */
#define _POSIX_C_SOURCE 200809L /* access */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/gridio.h"
#include "oracle/files.h"
#include "oracle/gridtext.h"
#include "oracle/macrocell.h"
#include "oracle/rle.h"

/* *kind: 'r' for ".rle", 'm' for ".mc" (read only), 't' for ".txt", in any case; any other
 * name is refused. */
static int file_kind(const char *path, int *kind, cc_error *err) {
    size_t n = strlen(path);
    char low[5] = "";
    for (size_t i = 0; n >= 4 && i < 4; i++) {
        char c = path[n - 4 + i];
        low[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    *kind = strcmp(low, ".rle") == 0 ? 'r' : strcmp(low + 1, ".mc") == 0 ? 'm'
          : strcmp(low, ".txt") == 0 ? 't' : 0;
    if (!*kind)
        return cc_fail(err, CC_ERR_ARG,
                       "%s: unknown grid file extension (expected .rle, .mc or .txt)", path);
    return CC_OK;
}

int cc_grid_check_name(const char *path, cc_error *err) {
    int kind;
    return file_kind(path, &kind, err);
}

int cc_grid_check_output(const char *path, cc_error *err) {
    int kind;
    int rc = file_kind(path, &kind, err);
    if (rc) return rc;
    if (kind == 'm')
        return cc_fail(err, CC_ERR_ARG,
                       "%s: macrocell files are read, not written (write .rle or .txt)", path);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    /* The file is written as ".NAME.tmp.XXXXXX" beside it first, then renamed. */
    if (strlen(base) + sizeof ".tmp.XXXXXX" > NAME_MAX)
        return cc_fail(err, CC_ERR_ARG,
                       "file name too long (%zu characters; at most %d): %s", strlen(base),
                       (int)(NAME_MAX - sizeof ".tmp.XXXXXX"), path);
    if (strlen(path) >= PATH_MAX)
        return cc_fail(err, CC_ERR_ARG, "path too long (%zu characters; at most %d): %s",
                       strlen(path), PATH_MAX - 1, path);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cc_fail(err, CC_ERR_ARG, "cannot write %s: it exists and is %s", path,
                       S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    if (access(dir, W_OK) != 0)
        return cc_fail(err, CC_ERR_IO, "cannot write %s: %s is not a writable directory", path,
                       dir);
    return CC_OK;
}

/* The RLE header is looked for in this much of a file at most. */
#define HEADER_WINDOW (1u << 20)

/* The file's bytes, refused by its size when its kind or its header cannot justify them: a huge
 * file is never read whole to learn that it is wrong. */
static int read_bounded(const char *path, int kind, char **text, size_t *len, cc_error *err) {
    int64_t size = 0, max;
    int rc = cc_read_file_head(path, HEADER_WINDOW, text, len, &size, err);
    if (rc || size <= (int64_t)*len) return rc; /* read whole */
    if (kind == 'r') {
        rc = cc_rle_bytes_max(*text, *len, &max, err);
        if (rc) cc_prefix(err, "loading %s (in its first %u bytes)", path, HEADER_WINDOW);
    } else if (kind == 'm') {
        max = CC_MC_BYTES_MAX;
    } else {
        max = 2 * CC_GRID_FILE_CELLS_MAX + CC_RLE_SLACK_BYTES;
    }
    free(*text);
    *text = NULL;
    if (rc) return rc;
    if (size > max)
        return cc_fail(err, CC_ERR_ARG,
                       "loading %s: the file is %lld bytes, more than %s can hold (at most %lld "
                       "bytes); not read",
                       path, (long long)size,
                       kind == 'r'   ? "the pattern its RLE header names"
                       : kind == 'm' ? "a macrocell file read here"
                                     : "a text grid file",
                       (long long)max);
    return cc_read_file(path, text, len, err);
}

int cc_grid_read_file_meta(const char *path, cc_grid *out, cc_rule *rule, cc_grid_meta *meta,
                           cc_error *err) {
    if (!path || !out || !meta)
        return cc_fail(err, CC_ERR_ARG, "cc_grid_read_file: NULL argument");
    out->w = out->h = 0;
    out->cells = NULL;
    memset(meta, 0, sizeof *meta);
    int kind;
    char *text;
    size_t len;
    int rc = file_kind(path, &kind, err);
    if (rc || (rc = read_bounded(path, kind, &text, &len, err))) return rc;
    rc = kind == 'r'   ? cc_rle_parse_meta(text, len, out, rule, meta, err)
         : kind == 'm' ? cc_mc_parse(text, len, out, rule, meta, err)
                       : cc_text_parse(text, len, out, err);
    free(text);
    if (rc) return cc_prefix(err, "loading %s", path);
    return CC_OK;
}

int cc_grid_read_file(const char *path, cc_grid *out, cc_rule *rule, int *has_rule,
                      cc_error *err) {
    cc_grid_meta meta;
    if (has_rule) *has_rule = 0;
    int rc = cc_grid_read_file_meta(path, out, rule, &meta, err);
    if (rc) return rc;
    if (meta.unbounded) {
        cc_grid_free(out);
        return cc_fail(err, CC_ERR_ARG,
                       "loading %s: an unbounded pattern (its rule has no :T or :P topology), "
                       "and no grid was stated to run it on",
                       path);
    }
    if (has_rule) *has_rule = meta.has_rule;
    return CC_OK;
}

int cc_grid_write_file(const char *path, const cc_grid *g, const cc_rule *rule, cc_error *err) {
    if (!path || !g) return cc_fail(err, CC_ERR_ARG, "cc_grid_write_file: NULL argument");
    int kind;
    char *text;
    size_t len;
    int rc = file_kind(path, &kind, err);
    if (rc) return rc;
    rc = kind == 'r' ? cc_rle_format(g, rule, &text, &len, err)
                     : cc_text_format(g, &text, &len, err);
    if (rc) return cc_prefix(err, "writing %s", path);
    rc = cc_write_file_atomic(path, text, len, err);
    free(text);
    return rc;
}
