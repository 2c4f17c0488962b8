/* The golden catalogue: loading, verifying against hashes.txt and snapshots/, and the update that
 * rewrites them whole or not at all. */
#define _POSIX_C_SOURCE 200809L

#include "golden/golden.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "oracle/gridio.h"
#include "oracle/oracle.h"

#define HASHES_FILE "hashes.txt"
#define SNAPSHOT_DIR "snapshots"

/* ---- small string and path helpers ---------------------------------------------------------- */

static int copy_text(char *dst, size_t size, const char *src, cc_error *err) {
    size_t n = strlen(src);
    if (n >= size)
        return cc_fail(err, CC_ERR_ARG, "'%.60s...' is too long (%zu characters)", src, n);
    memcpy(dst, src, n + 1);
    return CC_OK;
}

static int join_path(char *dst, size_t size, const char *a, const char *b, cc_error *err) {
    int n = snprintf(dst, size, "%s/%s", a, b);
    if (n < 0 || (size_t)n >= size) return cc_fail(err, CC_ERR_ARG, "path %s/%s is too long", a, b);
    return CC_OK;
}

/* The directory part of path, lexically: "a/b/c" -> "a/b", "c" -> ".", "/c" -> "/". */
static int parent_dir(const char *path, char *out, size_t size, cc_error *err) {
    if (strcmp(path, ".") == 0) return copy_text(out, size, "..", err);
    const char *slash = strrchr(path, '/');
    if (!slash) return copy_text(out, size, ".", err);
    if (slash == path) return copy_text(out, size, "/", err);
    size_t n = (size_t)(slash - path);
    if (n >= size) return cc_fail(err, CC_ERR_ARG, "path %s is too long", path);
    memcpy(out, path, n);
    out[n] = '\0';
    return CC_OK;
}

static int valid_name(const char *name) {
    if (!*name) return 0;
    for (const char *p = name; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return 0;
    }
    return name[0] != '.';
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Splits text into lines in place; calls fn for every line that is not blank or a comment. */
typedef int (*line_fn)(void *state, char *line, int number, cc_error *err);

static int for_each_line(char *text, line_fn fn, void *state, cc_error *err) {
    int number = 0;
    char *p = text;
    while (*p) {
        char *end = strchr(p, '\n');
        char *next = end ? end + 1 : p + strlen(p);
        if (end) *end = '\0';
        number++;
        char *line = p;
        while (is_space(*line)) line++;
        size_t len = strlen(line);
        while (len > 0 && is_space(line[len - 1])) line[--len] = '\0';
        if (len > 0 && line[0] != '#') {
            int rc = fn(state, line, number, err);
            if (rc) return rc;
        }
        p = next;
    }
    return CC_OK;
}

/* ---- the catalogue ------------------------------------------------------------------------- */

typedef struct load_state {
    golden_catalogue *cat;
    size_t capacity;
} load_state;

static const golden_entry *find_entry(const golden_catalogue *cat, const char *name) {
    for (size_t i = 0; i < cat->count; i++)
        if (strcmp(cat->entries[i].name, name) == 0) return &cat->entries[i];
    return NULL;
}

static int resolve_pattern(const golden_catalogue *cat, const char *pattern, char *out, size_t size,
                           cc_error *err) {
    if (pattern[0] == '/') return copy_text(out, size, pattern, err);
    return join_path(out, size, cat->root, pattern, err);
}

/* "rule=R in=FILE steps=K", each once, nothing else. */
static int parse_pattern_case(const golden_catalogue *cat, char *text, golden_entry *e,
                              cc_error *err) {
    int have_rule = 0, have_in = 0, have_steps = 0;
    char *save = NULL;
    for (char *tok = strtok_r(text, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (strncmp(tok, "rule=", 5) == 0 && !have_rule) {
            int rc = cc_rule_parse(tok + 5, &e->rule, err);
            if (rc) return cc_prefix(err, "rule");
            have_rule = 1;
        } else if (strncmp(tok, "in=", 3) == 0 && !have_in) {
            if (!tok[3]) return cc_fail(err, CC_ERR_ARG, "in= names no file");
            int rc = copy_text(e->pattern, sizeof e->pattern, tok + 3, err);
            if (rc) return rc;
            have_in = 1;
        } else if (strncmp(tok, "steps=", 6) == 0 && !have_steps) {
            char *end;
            errno = 0;
            if (!(tok[6] >= '0' && tok[6] <= '9'))
                return cc_fail(err, CC_ERR_ARG, "steps '%s' is not a whole number", tok + 6);
            long long steps = strtoll(tok + 6, &end, 10);
            if (*end || errno)
                return cc_fail(err, CC_ERR_ARG, "steps '%s' is not a whole number", tok + 6);
            e->steps = steps;
            have_steps = 1;
        } else {
            return cc_fail(err, CC_ERR_ARG,
                           "'%s' is unexpected (a pattern case is rule=R in=FILE steps=K, each "
                           "once)",
                           tok);
        }
    }
    if (!have_rule || !have_in || !have_steps)
        return cc_fail(err, CC_ERR_ARG, "a pattern case needs rule=, in= and steps=");
    char path[GOLDEN_PATH_MAX];
    int rc = resolve_pattern(cat, e->pattern, path, sizeof path, err);
    if (rc) return rc;
    cc_grid g;
    if ((rc = cc_grid_read_file(path, &g, NULL, NULL, err))) return rc;
    e->w = g.w;
    e->h = g.h;
    cc_grid_free(&g);
    int32_t min = 2 * e->rule.radius + 1;
    if (e->w < min || e->h < min)
        return cc_fail(err, CC_ERR_ARG, "%s is %dx%d, smaller than 2r+1 = %d on a side", path,
                       (int)e->w, (int)e->h, (int)min);
    return CC_OK;
}

static int load_line(void *state, char *line, int number, cc_error *err) {
    load_state *st = state;
    golden_catalogue *cat = st->cat;
    if (cat->count == st->capacity) {
        size_t capacity = st->capacity ? 2 * st->capacity : 64;
        golden_entry *grown = realloc(cat->entries, capacity * sizeof *grown);
        if (!grown) return cc_fail(err, CC_ERR_NOMEM, "cannot grow the catalogue");
        cat->entries = grown;
        st->capacity = capacity;
    }
    golden_entry *e = &cat->entries[cat->count];
    memset(e, 0, sizeof *e);
    e->line_number = number;
    char *rest = line;
    while (*rest && !is_space(*rest)) rest++;
    size_t name_len = (size_t)(rest - line);
    while (is_space(*rest)) rest++;
    if (name_len >= sizeof e->name)
        return cc_fail(err, CC_ERR_ARG, "%s:%d: name '%.*s' is longer than %d characters",
                       cat->path, number, (int)name_len, line, GOLDEN_NAME_MAX - 1);
    memcpy(e->name, line, name_len);
    e->name[name_len] = '\0';
    if (!valid_name(e->name))
        return cc_fail(err, CC_ERR_ARG,
                       "%s:%d: name '%s' must be letters, digits, '_', '-' or '.' and not start "
                       "with '.'",
                       cat->path, number, e->name);
    if (find_entry(cat, e->name))
        return cc_fail(err, CC_ERR_ARG, "%s:%d: name '%s' is used twice", cat->path, number,
                       e->name);
    if (!*rest)
        return cc_fail(err, CC_ERR_ARG, "%s:%d: '%s' has no case line after its name", cat->path,
                       number, e->name);
    int rc = copy_text(e->line, sizeof e->line, rest, err);
    if (rc) return cc_prefix(err, "%s:%d", cat->path, number);
    char work[GOLDEN_LINE_MAX];
    memcpy(work, e->line, sizeof work);
    if (strstr(work, " in=") || strncmp(work, "in=", 3) == 0) {
        e->kind = GOLDEN_PATTERN;
        rc = parse_pattern_case(cat, work, e, err);
    } else {
        e->kind = GOLDEN_SEEDED;
        rc = case_parse(work, &e->seeded, err);
        if (!rc) {
            e->rule = e->seeded.rule;
            e->w = e->seeded.w;
            e->h = e->seeded.h;
            e->steps = e->seeded.steps;
        }
    }
    if (rc) return cc_prefix(err, "%s:%d (%s)", cat->path, number, e->name);
    cat->count++;
    return CC_OK;
}

int golden_load(const char *catalogue_path, golden_catalogue *cat, cc_error *err) {
    memset(cat, 0, sizeof *cat);
    int rc = copy_text(cat->path, sizeof cat->path, catalogue_path, err);
    if (!rc) rc = parent_dir(cat->path, cat->dir, sizeof cat->dir, err);
    if (!rc) rc = parent_dir(cat->dir, cat->root, sizeof cat->root, err);
    if (rc) return rc;
    char *text;
    size_t len;
    if ((rc = cc_read_file(catalogue_path, &text, &len, err))) return rc;
    if (strlen(text) != len) {
        free(text);
        return cc_fail(err, CC_ERR_ARG, "%s holds a NUL byte", catalogue_path);
    }
    load_state st = {cat, 0};
    rc = for_each_line(text, load_line, &st, err);
    free(text);
    if (!rc && cat->count == 0) rc = cc_fail(err, CC_ERR_ARG, "%s names no cases", catalogue_path);
    if (rc) golden_free(cat);
    return rc;
}

void golden_free(golden_catalogue *cat) {
    if (!cat) return;
    free(cat->entries);
    cat->entries = NULL;
    cat->count = 0;
}

int golden_catalogue_path(const char *root, char *buf, size_t size, cc_error *err) {
    return join_path(buf, size, root, "golden/catalogue.txt", err);
}

/* ---- running a case ------------------------------------------------------------------------ */

int golden_initial_grid(const golden_catalogue *cat, const golden_entry *e, cc_grid *out,
                        cc_error *err) {
    if (e->kind == GOLDEN_SEEDED) {
        int rc = case_grid(&e->seeded, out, err);
        return rc ? cc_prefix(err, "%s", e->name) : CC_OK;
    }
    char path[GOLDEN_PATH_MAX];
    int rc = resolve_pattern(cat, e->pattern, path, sizeof path, err);
    if (!rc) rc = cc_grid_read_file(path, out, NULL, NULL, err);
    if (rc) return cc_prefix(err, "%s", e->name);
    if (out->w != e->w || out->h != e->h) {
        cc_grid_free(out);
        return cc_fail(err, CC_ERR_IO, "%s: %s changed size while in use", e->name, path);
    }
    return CC_OK;
}

int golden_oracle_result(const golden_catalogue *cat, const golden_entry *e, cc_grid *out,
                         cc_error *err) {
    int rc = golden_initial_grid(cat, e, out, err);
    if (rc) return rc;
    if ((rc = oracle_run(&e->rule, out, e->steps, err))) {
        cc_grid_free(out);
        return cc_prefix(err, "%s: oracle", e->name);
    }
    return CC_OK;
}

int golden_engine_result(const golden_catalogue *cat, const golden_entry *e,
                         const cc_engine *engine, cc_grid *out, cc_error *err) {
    int rc = cc_engine_check(engine, &e->rule, e->w, e->h, err);
    if (rc) return rc;
    if ((rc = golden_initial_grid(cat, e, out, err))) return rc;
    cc_context *ctx = NULL;
    if ((rc = cc_engine_create(engine, &e->rule, e->w, e->h, &ctx, err))) {
        cc_grid_free(out);
        return rc;
    }
    if (!(rc = cc_engine_load(ctx, out->cells, err)) && !(rc = cc_engine_step(ctx, e->steps, err)))
        rc = cc_engine_store(ctx, out->cells, err);
    cc_engine_destroy(ctx);
    if (rc) {
        cc_grid_free(out);
        return cc_prefix(err, "%s: %s", e->name, engine->name);
    }
    return CC_OK;
}

void golden_hash_grid(const cc_grid *g, char hex[GOLDEN_HASH_HEX]) {
    unsigned char digest[GOLDEN_HASH_BYTES];
    /* No sodium_init needed: it only selects faster BLAKE2b code, the digest is the same. */
    crypto_generichash(digest, sizeof digest, g->cells, (unsigned long long)cc_grid_cells(g), NULL,
                       0);
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < GOLDEN_HASH_BYTES; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[2 * GOLDEN_HASH_BYTES] = '\0';
}

int golden_has_snapshot(const golden_entry *e) {
    return e->w <= GOLDEN_SNAPSHOT_SIDE_MAX && e->h <= GOLDEN_SNAPSHOT_SIDE_MAX;
}

int golden_snapshot_path(const golden_catalogue *cat, const golden_entry *e, char *buf, size_t size,
                         cc_error *err) {
    int n = snprintf(buf, size, "%s/%s/%s.rle", cat->dir, SNAPSHOT_DIR, e->name);
    if (n < 0 || (size_t)n >= size)
        return cc_fail(err, CC_ERR_ARG, "snapshot path for %s is too long", e->name);
    return CC_OK;
}

/* ---- hashes.txt ---------------------------------------------------------------------------- */

typedef struct hash_line {
    char name[GOLDEN_NAME_MAX];
    char hex[GOLDEN_HASH_HEX];
    int used; /* matched by a catalogue case */
} hash_line;

typedef struct hash_file {
    char path[GOLDEN_PATH_MAX];
    hash_line *lines;
    size_t count, capacity;
} hash_file;

static void hash_file_free(hash_file *h) {
    free(h->lines);
    h->lines = NULL;
    h->count = h->capacity = 0;
}

static hash_line *hash_find(hash_file *h, const char *name) {
    for (size_t i = 0; i < h->count; i++)
        if (strcmp(h->lines[i].name, name) == 0) return &h->lines[i];
    return NULL;
}

static int hash_line_parse(void *state, char *line, int number, cc_error *err) {
    hash_file *h = state;
    char name[GOLDEN_NAME_MAX], hex[GOLDEN_HASH_HEX + 1];
    char *sep = line;
    while (*sep && !is_space(*sep)) sep++;
    size_t name_len = (size_t)(sep - line);
    while (is_space(*sep)) sep++;
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
    if (hash_find(h, name))
        return cc_fail(err, CC_ERR_ARG, "%s:%d: '%s' has two hashes", h->path, number, name);
    if (h->count == h->capacity) {
        size_t capacity = h->capacity ? 2 * h->capacity : 64;
        hash_line *grown = realloc(h->lines, capacity * sizeof *grown);
        if (!grown) return cc_fail(err, CC_ERR_NOMEM, "cannot grow the hash list");
        h->lines = grown;
        h->capacity = capacity;
    }
    hash_line *l = &h->lines[h->count++];
    memcpy(l->name, name, name_len + 1);
    memcpy(l->hex, hex, sizeof l->hex);
    l->used = 0;
    return CC_OK;
}

/* Loads dir/hashes.txt. *missing (may be NULL) says it does not exist, which is then not an
 * error. */
static int hash_file_load(const golden_catalogue *cat, hash_file *h, int *missing, cc_error *err) {
    memset(h, 0, sizeof *h);
    if (missing) *missing = 0;
    int rc = join_path(h->path, sizeof h->path, cat->dir, HASHES_FILE, err);
    if (rc) return rc;
    if (missing && access(h->path, F_OK) != 0 && errno == ENOENT) {
        *missing = 1;
        return CC_OK;
    }
    char *text;
    size_t len;
    if ((rc = cc_read_file(h->path, &text, &len, err))) return rc;
    rc = strlen(text) == len ? for_each_line(text, hash_line_parse, h, err)
                             : cc_fail(err, CC_ERR_ARG, "%s holds a NUL byte", h->path);
    free(text);
    if (rc) hash_file_free(h);
    return rc;
}

/* ---- verifying ----------------------------------------------------------------------------- */

static void report_failure(FILE *log, const golden_entry *e, const char *fmt, const char *detail) {
    if (!log) return;
    fprintf(log, "FAIL %s: ", e->name);
    fprintf(log, fmt, detail);
    fprintf(log, "\n  case: %s %s\n", e->name, e->line);
}

/* Compares the result with the snapshot file; 1 when they agree, else 0 with why in detail. */
static int snapshot_agrees(const golden_catalogue *cat, const golden_entry *e,
                           const cc_grid *result, char *detail, size_t size) {
    char path[GOLDEN_PATH_MAX];
    cc_error err = {0};
    if (golden_snapshot_path(cat, e, path, sizeof path, &err)) {
        snprintf(detail, size, "%s", err.msg);
        return 0;
    }
    cc_grid snap;
    cc_rule rule;
    int has_rule = 0;
    if (cc_grid_read_file(path, &snap, &rule, &has_rule, &err)) {
        snprintf(detail, size, "snapshot unreadable: %s", err.msg);
        return 0;
    }
    int ok = 1;
    if (snap.w != result->w || snap.h != result->h) {
        snprintf(detail, size, "snapshot %s is %dx%d, the result %dx%d", path, (int)snap.w,
                 (int)snap.h, (int)result->w, (int)result->h);
        ok = 0;
    } else if (!cc_grid_equal(&snap, result)) {
        size_t differ = 0;
        for (size_t i = 0; i < cc_grid_cells(result); i++)
            differ += (snap.cells[i] != 0) != (result->cells[i] != 0);
        snprintf(detail, size, "snapshot %s differs from the oracle's result in %zu cells", path,
                 differ);
        ok = 0;
    } else if (!has_rule || !cc_rule_equal(&rule, &e->rule)) {
        snprintf(detail, size, "snapshot %s does not name the case's rule", path);
        ok = 0;
    }
    cc_grid_free(&snap);
    return ok;
}

/* Files in snapshots/ that no case of the catalogue should have; counted into *stale. */
static int check_stale_snapshots(const golden_catalogue *cat, FILE *log, size_t *stale,
                                 cc_error *err) {
    char dir[GOLDEN_PATH_MAX];
    int rc = join_path(dir, sizeof dir, cat->dir, SNAPSHOT_DIR, err);
    if (rc) return rc;
    *stale = 0;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT) return CC_OK;
        return cc_fail(err, CC_ERR_IO, "cannot list %s: %s", dir, strerror(errno));
    }
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        const char *name = ent->d_name;
        if (name[0] == '.') continue;
        size_t len = strlen(name);
        char base[GOLDEN_NAME_MAX];
        const golden_entry *e = NULL;
        if (len > 4 && strcmp(name + len - 4, ".rle") == 0 && len - 4 < sizeof base) {
            memcpy(base, name, len - 4);
            base[len - 4] = '\0';
            e = find_entry(cat, base);
        }
        if (!e || !golden_has_snapshot(e)) {
            (*stale)++;
            if (log)
                fprintf(log, "FAIL %s/%s: no case of the catalogue has this snapshot\n", dir, name);
        }
    }
    closedir(d);
    return CC_OK;
}

int golden_verify_oracle(const golden_catalogue *cat, FILE *log, golden_report *report,
                         cc_error *err) {
    memset(report, 0, sizeof *report);
    hash_file hashes;
    int rc = hash_file_load(cat, &hashes, NULL, err);
    if (rc) return cc_prefix(err, "golden verify (run the update command to create it)");
    for (size_t i = 0; i < cat->count; i++) {
        const golden_entry *e = &cat->entries[i];
        report->checked++;
        hash_line *expected = hash_find(&hashes, e->name);
        if (expected) expected->used = 1;
        cc_grid result;
        cc_error case_err = {0};
        if (golden_oracle_result(cat, e, &result, &case_err)) {
            report->failed++;
            report_failure(log, e, "%s", case_err.msg);
            continue;
        }
        char hex[GOLDEN_HASH_HEX], detail[GOLDEN_PATH_MAX + 256];
        golden_hash_grid(&result, hex);
        int ok = 1;
        if (!expected) {
            report_failure(log, e, "%s", "hashes.txt has no hash for this case");
            ok = 0;
        } else if (strcmp(expected->hex, hex) != 0) {
            snprintf(detail, sizeof detail, "expected %s, the oracle gives %s", expected->hex, hex);
            report_failure(log, e, "hash mismatch: %s", detail);
            ok = 0;
        }
        if (golden_has_snapshot(e) && !snapshot_agrees(cat, e, &result, detail, sizeof detail)) {
            report_failure(log, e, "%s", detail);
            ok = 0;
        }
        cc_grid_free(&result);
        if (ok)
            report->passed++;
        else
            report->failed++;
    }
    size_t stale_hashes = 0, stale_snapshots = 0;
    for (size_t i = 0; i < hashes.count; i++)
        if (!hashes.lines[i].used) {
            stale_hashes++;
            if (log)
                fprintf(log, "FAIL %s: hashes.txt names '%s', which is not in the catalogue\n",
                        hashes.path, hashes.lines[i].name);
        }
    hash_file_free(&hashes);
    if ((rc = check_stale_snapshots(cat, log, &stale_snapshots, err))) return rc;
    if (report->failed || stale_hashes || stale_snapshots)
        return cc_fail(err, CC_ERR_MISMATCH,
                       "golden verify: %zu of %zu cases failed, %zu stale hashes, %zu stale "
                       "snapshots",
                       report->failed, report->checked, stale_hashes, stale_snapshots);
    return CC_OK;
}

int golden_verify_engine(const golden_catalogue *cat, const cc_engine *engine, FILE *log,
                         golden_report *report, cc_error *err) {
    memset(report, 0, sizeof *report);
    hash_file hashes;
    int rc = hash_file_load(cat, &hashes, NULL, err);
    if (rc) return rc;
    for (size_t i = 0; i < cat->count; i++) {
        const golden_entry *e = &cat->entries[i];
        hash_line *expected = hash_find(&hashes, e->name);
        cc_grid result;
        cc_error case_err = {0};
        rc = golden_engine_result(cat, e, engine, &result, &case_err);
        if (rc == CC_ERR_UNSUPPORTED) {
            report->unsupported++;
            continue;
        }
        report->checked++;
        if (rc) {
            report->failed++;
            report_failure(log, e, "%s", case_err.msg);
            continue;
        }
        char hex[GOLDEN_HASH_HEX], detail[256];
        golden_hash_grid(&result, hex);
        cc_grid_free(&result);
        if (!expected) {
            report->failed++;
            report_failure(log, e, "%s", "hashes.txt has no hash for this case");
        } else if (strcmp(expected->hex, hex) != 0) {
            report->failed++;
            snprintf(detail, sizeof detail, "expected %s, %s gives %s", expected->hex, engine->name,
                     hex);
            report_failure(log, e, "hash mismatch: %s", detail);
        } else {
            report->passed++;
        }
    }
    hash_file_free(&hashes);
    if (report->failed)
        return cc_fail(err, CC_ERR_MISMATCH, "%s: %zu of %zu golden cases failed", engine->name,
                       report->failed, report->checked);
    return CC_OK;
}

/* ---- updating ------------------------------------------------------------------------------ */

typedef struct pending_file {
    char final[GOLDEN_PATH_MAX];
    char temp[GOLDEN_PATH_MAX];
    int written; /* temp exists */
} pending_file;

/* Writes data to a new temporary beside f->final. */
static int write_temp(pending_file *f, const char *data, size_t len, cc_error *err) {
    int n = snprintf(f->temp, sizeof f->temp, "%s.tmp.XXXXXX", f->final);
    if (n < 0 || (size_t)n >= sizeof f->temp)
        return cc_fail(err, CC_ERR_ARG, "path %s is too long", f->final);
    int fd = mkstemp(f->temp);
    if (fd < 0) return cc_fail(err, CC_ERR_IO, "cannot create %s: %s", f->temp, strerror(errno));
    f->written = 1;
    FILE *out = fdopen(fd, "wb");
    if (!out) {
        close(fd);
        return cc_fail(err, CC_ERR_IO, "cannot open %s: %s", f->temp, strerror(errno));
    }
    size_t done = fwrite(data, 1, len, out);
    int flushed = fflush(out) == 0 && fsync(fileno(out)) == 0;
    int closed = fclose(out) == 0;
    if (done != len || !flushed || !closed)
        return cc_fail(err, CC_ERR_IO, "cannot write %s: %s", f->temp, strerror(errno));
    /* mkstemp makes it private; goldens are ordinary source files. */
    if (chmod(f->temp, 0644) != 0)
        return cc_fail(err, CC_ERR_IO, "cannot chmod %s: %s", f->temp, strerror(errno));
    return CC_OK;
}

static void discard_temps(pending_file *files, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (files[i].written) {
            unlink(files[i].temp);
            files[i].written = 0;
        }
}

typedef struct update_result {
    char hex[GOLDEN_HASH_HEX];
    char *snapshot; /* RLE text, or NULL */
    size_t snapshot_len;
} update_result;

static void free_results(update_result *results, size_t count) {
    if (!results) return;
    for (size_t i = 0; i < count; i++) free(results[i].snapshot);
    free(results);
}

static int ensure_dir(const char *path, cc_error *err) {
    if (mkdir(path, 0755) == 0 || errno == EEXIST) return CC_OK;
    return cc_fail(err, CC_ERR_IO, "cannot create %s: %s", path, strerror(errno));
}

/* Removes snapshots/<x>.rle for names with no snapshot in the new set. */
static void remove_stale_snapshots(const golden_catalogue *cat, const char *dir, FILE *log) {
    enum { BATCH = 32 };
    char doomed[BATCH][GOLDEN_PATH_MAX];
    size_t count;
    do { /* in batches, so the directory is not changed while it is being read */
        count = 0;
        DIR *d = opendir(dir);
        if (!d) return;
        struct dirent *ent;
        while (count < BATCH && (ent = readdir(d)) != NULL) {
            const char *name = ent->d_name;
            size_t len = strlen(name);
            if (len <= 4 || strcmp(name + len - 4, ".rle") != 0 || len - 4 >= GOLDEN_NAME_MAX)
                continue;
            char base[GOLDEN_NAME_MAX];
            memcpy(base, name, len - 4);
            base[len - 4] = '\0';
            const golden_entry *e = find_entry(cat, base);
            if (e && golden_has_snapshot(e)) continue;
            snprintf(doomed[count++], GOLDEN_PATH_MAX, "%s/%s", dir, name);
        }
        closedir(d);
        for (size_t i = 0; i < count; i++) {
            if (unlink(doomed[i]) == 0) {
                if (log) fprintf(log, "removed stale snapshot %s\n", doomed[i]);
            } else {
                if (log)
                    fprintf(log, "could not remove stale snapshot %s: %s\n", doomed[i],
                            strerror(errno));
                return;
            }
        }
    } while (count == BATCH);
}

static int format_hashes(const golden_catalogue *cat, const update_result *results, char **text,
                         size_t *len, cc_error *err) {
    static const char header[] =
        "# BLAKE2b-256 of the oracle's final grid (W*H row-major 0/1 bytes) for each case of\n"
        "# catalogue.txt. Written only by the golden update command; review its diff.\n";
    size_t line = GOLDEN_NAME_MAX + GOLDEN_HASH_HEX + 2;
    size_t size = sizeof header + cat->count * line;
    char *buf = malloc(size);
    if (!buf) return cc_fail(err, CC_ERR_NOMEM, "cannot format hashes.txt");
    size_t used = (size_t)snprintf(buf, size, "%s", header);
    for (size_t i = 0; i < cat->count; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s %s\n", cat->entries[i].name,
                                 results[i].hex);
    *text = buf;
    *len = used;
    return CC_OK;
}

int golden_update(const golden_catalogue *cat, FILE *log, cc_error *err) {
    update_result *results = calloc(cat->count, sizeof *results);
    if (!results) return cc_fail(err, CC_ERR_NOMEM, "cannot allocate %zu results", cat->count);
    int rc = CC_OK;
    size_t snapshots = 0;
    /* Every result before any file is touched: a failing case changes nothing. */
    for (size_t i = 0; i < cat->count && !rc; i++) {
        const golden_entry *e = &cat->entries[i];
        cc_grid result;
        if ((rc = golden_oracle_result(cat, e, &result, err))) break;
        golden_hash_grid(&result, results[i].hex);
        if (golden_has_snapshot(e)) {
            rc = cc_rle_format(&result, &e->rule, &results[i].snapshot, &results[i].snapshot_len,
                               err);
            if (rc) cc_prefix(err, "%s: snapshot", e->name);
            snapshots++;
        }
        cc_grid_free(&result);
    }
    if (rc) {
        free_results(results, cat->count);
        return cc_prefix(err, "golden update: nothing written");
    }

    hash_file old;
    int old_missing = 0;
    if ((rc = hash_file_load(cat, &old, &old_missing, err))) {
        free_results(results, cat->count);
        return cc_prefix(err, "golden update: nothing written: the current hashes");
    }

    char snap_dir[GOLDEN_PATH_MAX];
    pending_file *files = calloc(snapshots + 1, sizeof *files);
    size_t nfiles = 0;
    if (!files) rc = cc_fail(err, CC_ERR_NOMEM, "cannot allocate the file list");
    if (!rc) rc = join_path(snap_dir, sizeof snap_dir, cat->dir, SNAPSHOT_DIR, err);
    if (!rc) rc = ensure_dir(snap_dir, err);
    for (size_t i = 0; i < cat->count && !rc; i++) {
        if (!results[i].snapshot) continue;
        pending_file *f = &files[nfiles++];
        rc = golden_snapshot_path(cat, &cat->entries[i], f->final, sizeof f->final, err);
        if (!rc) rc = write_temp(f, results[i].snapshot, results[i].snapshot_len, err);
    }
    char *hash_text = NULL;
    size_t hash_len = 0;
    if (!rc) rc = format_hashes(cat, results, &hash_text, &hash_len, err);
    if (!rc) {
        pending_file *f = &files[nfiles++];
        rc = join_path(f->final, sizeof f->final, cat->dir, HASHES_FILE, err);
        if (!rc) rc = write_temp(f, hash_text, hash_len, err);
    }
    free(hash_text);
    if (rc) {
        if (files) discard_temps(files, nfiles);
        free(files);
        free_results(results, cat->count);
        hash_file_free(&old);
        return cc_prefix(err, "golden update: nothing written");
    }
    /* Snapshots first, hashes.txt (the last entry) last: hashes.txt changes only once every
     * snapshot is in place. */
    for (size_t i = 0; i < nfiles && !rc; i++) {
        if (rename(files[i].temp, files[i].final) != 0) {
            rc = cc_fail(err, CC_ERR_IO, "golden update: renaming %s to %s failed: %s",
                         files[i].temp, files[i].final, strerror(errno));
            discard_temps(files + i, nfiles - i);
            break;
        }
        files[i].written = 0;
    }
    free(files);
    if (!rc) remove_stale_snapshots(cat, snap_dir, log);

    size_t added = 0, changed = 0, removed = 0, same = 0;
    for (size_t i = 0; i < cat->count; i++) {
        const golden_entry *e = &cat->entries[i];
        hash_line *before = old_missing ? NULL : hash_find(&old, e->name);
        if (before) before->used = 1;
        if (!before) {
            added++;
            if (log) fprintf(log, "added   %s %s\n", e->name, results[i].hex);
        } else if (strcmp(before->hex, results[i].hex) != 0) {
            changed++;
            if (log) fprintf(log, "changed %s %s -> %s\n", e->name, before->hex, results[i].hex);
        } else {
            same++;
        }
    }
    for (size_t i = 0; i < old.count; i++)
        if (!old.lines[i].used) {
            removed++;
            if (log) fprintf(log, "removed %s %s\n", old.lines[i].name, old.lines[i].hex);
        }
    if (log && !rc)
        fprintf(log,
                "golden update: %zu cases: %zu added, %zu changed, %zu removed, %zu unchanged; "
                "%zu snapshots written to %s\n",
                cat->count, added, changed, removed, same, snapshots, snap_dir);
    hash_file_free(&old);
    free_results(results, cat->count);
    return rc;
}
