/* Loading catalogue.txt: names, seeded case lines and pattern cases (see golden.h). */
#define _POSIX_C_SOURCE 200809L

#include "golden/golden.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden/internal.h"
#include "oracle/gridio.h"

int golden_parent_dir(const char *path, char *out, size_t size, cc_error *err) {
    if (strcmp(path, ".") == 0) return golden_copy_text(out, size, "..", err);
    const char *slash = strrchr(path, '/');
    if (!slash) return golden_copy_text(out, size, ".", err);
    if (slash == path) return golden_copy_text(out, size, "/", err);
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

typedef struct load_state {
    golden_catalogue *cat;
    size_t capacity;
} load_state;

const golden_entry *golden_find_entry(const golden_catalogue *cat, const char *name) {
    for (size_t i = 0; i < cat->count; i++)
        if (strcmp(cat->entries[i].name, name) == 0) return &cat->entries[i];
    return NULL;
}

int golden_resolve_pattern(const golden_catalogue *cat, const char *pattern, char *out, size_t size,
                           cc_error *err) {
    if (pattern[0] == '/') return golden_copy_text(out, size, pattern, err);
    return golden_join_path(out, size, cat->root, pattern, err);
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
            int rc = golden_copy_text(e->pattern, sizeof e->pattern, tok + 3, err);
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
    int rc = golden_resolve_pattern(cat, e->pattern, path, sizeof path, err);
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
    void *entries = cat->entries;
    int rc = golden_grow(&entries, &st->capacity, cat->count, sizeof *cat->entries, err);
    cat->entries = entries;
    if (rc) return cc_prefix(err, "the catalogue");
    golden_entry *e = &cat->entries[cat->count];
    memset(e, 0, sizeof *e);
    e->line_number = number;
    char *rest = line;
    while (*rest && !golden_is_space(*rest)) rest++;
    size_t name_len = (size_t)(rest - line);
    while (golden_is_space(*rest)) rest++;
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
    if (golden_find_entry(cat, e->name))
        return cc_fail(err, CC_ERR_ARG, "%s:%d: name '%s' is used twice", cat->path, number,
                       e->name);
    if (!*rest)
        return cc_fail(err, CC_ERR_ARG, "%s:%d: '%s' has no case line after its name", cat->path,
                       number, e->name);
    rc = golden_copy_text(e->line, sizeof e->line, rest, err);
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

int golden_parse(const char *path, char *text, size_t len, const char *dir, const char *root,
                 golden_catalogue *cat, cc_error *err) {
    memset(cat, 0, sizeof *cat);
    cat->text = text;
    cat->text_len = len;
    int rc = golden_copy_text(cat->path, sizeof cat->path, path, err);
    if (!rc) rc = golden_copy_text(cat->dir, sizeof cat->dir, dir, err);
    if (!rc) rc = golden_copy_text(cat->root, sizeof cat->root, root, err);
    if (!rc) rc = golden_parent_dir(path, cat->golden, sizeof cat->golden, err);
    if (!rc && strlen(text) != len) rc = cc_fail(err, CC_ERR_ARG, "%s holds a NUL byte", path);
    /* Lines are split in place, so the parser works on a copy and cat->text stays as read. */
    char *work = rc ? NULL : malloc(len + 1);
    if (!rc && !work) rc = cc_fail(err, CC_ERR_NOMEM, "cannot copy %s (%zu bytes)", path, len);
    if (!rc) {
        memcpy(work, text, len + 1);
        load_state st = {cat, 0};
        rc = golden_for_each_line(work, load_line, &st, err);
        free(work);
    }
    if (!rc && cat->count == 0) rc = cc_fail(err, CC_ERR_ARG, "%s names no cases", path);
    if (rc) golden_free(cat);
    return rc;
}

int golden_load(const char *catalogue_path, golden_catalogue *cat, cc_error *err) {
    memset(cat, 0, sizeof *cat);
    char dir[GOLDEN_PATH_MAX], root[GOLDEN_PATH_MAX];
    int rc = golden_parent_dir(catalogue_path, dir, sizeof dir, err);
    if (!rc) rc = golden_parent_dir(dir, root, sizeof root, err);
    if (rc) return rc;
    char *text;
    size_t len;
    if ((rc = cc_read_file(catalogue_path, &text, &len, err))) return rc;
    return golden_parse(catalogue_path, text, len, dir, root, cat, err);
}

void golden_free(golden_catalogue *cat) {
    if (!cat) return;
    free(cat->entries);
    free(cat->text);
    cat->entries = NULL;
    cat->text = NULL;
    cat->count = 0;
    cat->text_len = 0;
}

int golden_catalogue_path(const char *root, char *buf, size_t size, cc_error *err) {
    return golden_join_path(buf, size, root, "golden/catalogue.txt", err);
}

/* Where ci/install.sh puts the catalogue, relative to the directory of the installed programs. */
#define INSTALLED_CATALOGUE "../share/cellcheck/golden/catalogue.txt"

int golden_default_catalogue(const char *root, char *buf, size_t size, cc_error *err) {
    int rc = golden_catalogue_path(root, buf, size, err);
    if (rc || access(buf, R_OK) == 0) return rc;
    char here[GOLDEN_PATH_MAX];
    if ((rc = golden_copy_text(here, sizeof here, buf, err))) return rc;
    char exe[GOLDEN_PATH_MAX], bin[GOLDEN_PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0 || (size_t)len >= sizeof exe - 1)
        return cc_fail(err, CC_ERR_IO,
                       "cannot open %s (not in a source tree), and this program's own path is "
                       "unreadable, so its installed goldens cannot be found: give the catalogue",
                       here);
    exe[len] = '\0';
    if ((rc = golden_parent_dir(exe, bin, sizeof bin, err))) return rc;
    if ((rc = golden_join_path(buf, size, bin, INSTALLED_CATALOGUE, err))) return rc;
    if (access(buf, R_OK) == 0) return CC_OK;
    int missing = errno;
    return cc_fail(err, CC_ERR_IO,
                   "no golden catalogue: neither %s (a source tree) nor %s (an install) is "
                   "readable: %s",
                   here, buf, strerror(missing));
}
