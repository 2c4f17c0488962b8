/* The generation in force: resolving `current` once, opening the catalogue copy it holds, and
 * telling what a killed update left beside it (see golden.h). */
#define _POSIX_C_SOURCE 200809L

#include "golden/golden.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "golden/internal.h"
#include "oracle/gridio.h"

int golden_is_generation(const char *name) {
    return strncmp(name, GENERATION_PREFIX, strlen(GENERATION_PREFIX)) == 0 &&
           name[strlen(GENERATION_PREFIX)] != '\0';
}

void golden_generation_name(const golden_gen_file *files, size_t n, char *out, size_t size) {
    crypto_generichash_state state;
    unsigned char digest[16];
    crypto_generichash_init(&state, NULL, 0, sizeof digest);
    for (size_t i = 0; i < n; i++) {
        char head[sizeof files[i].name + 32];
        int m = snprintf(head, sizeof head, "%s%c%zu%c", files[i].name, 0, files[i].len, 0);
        crypto_generichash_update(&state, (const unsigned char *)head, (unsigned long long)m);
        crypto_generichash_update(&state, (const unsigned char *)files[i].data,
                                  (unsigned long long)files[i].len);
    }
    crypto_generichash_final(&state, digest, sizeof digest);
    char hex[2 * 8 + 1];
    sodium_bin2hex(hex, sizeof hex, digest, 8);
    snprintf(out, size, "%s%s", GENERATION_PREFIX, hex);
}

int golden_check_generation_name(const golden_catalogue *cat, cc_error *err) {
    const char *slash = strrchr(cat->dir, '/');
    const char *name = slash ? slash + 1 : cat->dir;
    if (!golden_is_generation(name)) return CC_OK; /* a plain copy, as in Bazel's runfiles */
    size_t cap = cat->count + 2, n = 0;
    golden_gen_file *files = calloc(cap, sizeof *files);
    char **owned = calloc(cap, sizeof *owned);
    int rc = files && owned ? CC_OK : cc_fail(err, CC_ERR_NOMEM, "cannot check %s", cat->dir);
    if (!rc) files[n++] = (golden_gen_file){CATALOGUE_FILE, cat->text, cat->text_len};
    for (size_t i = 0; !rc && i <= cat->count; i++) {
        golden_gen_file *f = &files[n];
        if (i == 0) {
            snprintf(f->name, sizeof f->name, "%s", HASHES_FILE);
        } else if (golden_has_snapshot(&cat->entries[i - 1])) {
            snprintf(f->name, sizeof f->name, "%s/%s.rle", SNAPSHOT_DIR, cat->entries[i - 1].name);
        } else {
            continue;
        }
        char path[GOLDEN_PATH_MAX + sizeof f->name + 2];
        snprintf(path, sizeof path, "%s/%s", cat->dir, f->name);
        rc = cc_read_file(path, &owned[n], &f->len, err);
        f->data = owned[n++];
    }
    if (!rc) {
        char want[GOLDEN_PATH_MAX], second[GOLDEN_PATH_MAX + 2];
        golden_generation_name(files, n, want, sizeof want);
        snprintf(second, sizeof second, "%s-2", want); /* the name an update takes beside it */
        if (strcmp(name, want) != 0 && strcmp(name, second) != 0)
            rc = cc_fail(err, CC_ERR_MISMATCH,
                         "the generation in force is not what its name says: %s's files (its "
                         "catalogue copy, hashes.txt and snapshots) hash to %s; they were changed "
                         "since an update wrote them (run `cellcheck golden update`, and review "
                         "the diff)",
                         cat->dir, want);
    }
    for (size_t i = 0; owned && i < n; i++) free(owned[i]);
    free(owned);
    free(files);
    return rc;
}

int golden_in_force(const char *golden_dir, char *gen, size_t gen_size, char *name,
                    size_t name_size, int *found, cc_error *err) {
    *found = 0;
    name[0] = '\0';
    char link[GOLDEN_PATH_MAX];
    int rc = golden_join_path(link, sizeof link, golden_dir, CURRENT_LINK, err);
    if (rc) return rc;
    struct stat st;
    if (lstat(link, &st) != 0) {
        if (errno == ENOENT) return CC_OK;
        return cc_fail(err, CC_ERR_IO, "cannot read %s: %s", link, strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) { /* a copy laid out as plain files, as in Bazel's runfiles */
        *found = 1;
        return golden_copy_text(gen, gen_size, link, err);
    }
    if (!S_ISLNK(st.st_mode))
        return cc_fail(err, CC_ERR_IO, "%s is neither a link to a generation nor a directory", link);
    char target[GOLDEN_PATH_MAX];
    ssize_t len = readlink(link, target, sizeof target - 1);
    if (len < 0) return cc_fail(err, CC_ERR_IO, "cannot read the link %s: %s", link, strerror(errno));
    target[len] = '\0';
    /* Only a generation beside the link: readers pin exactly that directory. */
    if (strchr(target, '/') || !golden_is_generation(target))
        return cc_fail(err, CC_ERR_IO,
                       "%s links to '%s', not to a generation (%s...) beside it; run `cellcheck "
                       "golden update`",
                       link, target, GENERATION_PREFIX);
    if ((rc = golden_copy_text(name, name_size, target, err))) return rc;
    if ((rc = golden_join_path(gen, gen_size, golden_dir, target, err))) return rc;
    *found = 1;
    return CC_OK;
}

void golden_remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    enum { BATCH = 64 };
    char (*doomed)[GOLDEN_PATH_MAX] = malloc(BATCH * sizeof *doomed);
    if (!doomed) return;
    size_t count;
    do { /* in batches, so the directory is not changed while it is being read */
        count = 0;
        DIR *d = opendir(path);
        if (!d) break;
        struct dirent *ent;
        while (count < BATCH && (ent = readdir(d)) != NULL) {
            if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
            int n = snprintf(doomed[count], GOLDEN_PATH_MAX, "%s/%s", path, ent->d_name);
            if (n > 0 && n < GOLDEN_PATH_MAX) count++;
        }
        closedir(d);
        for (size_t i = 0; i < count; i++) golden_remove_tree(doomed[i]);
        /* Nothing went: stop rather than loop over what cannot be removed. */
        if (count > 0 && lstat(doomed[0], &st) == 0) break;
    } while (count == BATCH);
    free(doomed);
    rmdir(path);
}

/* Notes what is beside the generation in force and not read: generations and temporaries of
 * updates that were killed, and the files of the layout before generations. */
static void note_leftovers(const char *golden_dir, const char *in_force, FILE *log) {
    DIR *d = log ? opendir(golden_dir) : NULL;
    if (!d) return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        const char *name = ent->d_name;
        int generation = golden_is_generation(name) && strcmp(name, in_force) != 0;
        int temporary = golden_is_temporary(name) || strcmp(name, CURRENT_TEMP) == 0;
        int legacy = strcmp(name, HASHES_FILE) == 0 || strcmp(name, SNAPSHOT_DIR) == 0;
        if (generation || temporary)
            fprintf(log,
                    "note: %s/%s was left by an interrupted update and is not in force; ignored "
                    "(the next update removes it)\n",
                    golden_dir, name);
        else if (legacy)
            fprintf(log,
                    "note: %s/%s is of the layout before generations and is not read (the next "
                    "update removes it)\n",
                    golden_dir, name);
    }
    closedir(d);
}

int golden_open(const char *catalogue_path, golden_catalogue *cat, FILE *log, cc_error *err) {
    memset(cat, 0, sizeof *cat);
    char golden_dir[GOLDEN_PATH_MAX], root[GOLDEN_PATH_MAX], gen[GOLDEN_PATH_MAX],
        name[GOLDEN_PATH_MAX], copy[GOLDEN_PATH_MAX];
    int rc = golden_parent_dir(catalogue_path, golden_dir, sizeof golden_dir, err);
    if (!rc) rc = golden_parent_dir(golden_dir, root, sizeof root, err);
    int found = 0;
    if (!rc) rc = golden_in_force(golden_dir, gen, sizeof gen, name, sizeof name, &found, err);
    if (rc) return rc;
    char *edited = NULL;
    size_t edited_len = 0;
    cc_error read_err = {0};
    int unreadable = cc_read_file(catalogue_path, &edited, &edited_len, &read_err);
    if (!found) {
        free(edited);
        if (unreadable) {
            if (err) *err = read_err;
            return unreadable;
        }
        return cc_fail(err, CC_ERR_ARG,
                       "no goldens are in force beside %s (%s/%s is missing); run `cellcheck "
                       "golden update` to compute them",
                       catalogue_path, golden_dir, CURRENT_LINK);
    }
    char *text = NULL;
    size_t len = 0;
    rc = golden_join_path(copy, sizeof copy, gen, CATALOGUE_FILE, err);
    if (!rc) rc = cc_read_file(copy, &text, &len, err);
    if (!rc) rc = golden_parse(copy, text, len, gen, root, cat, err);
    if (!rc) rc = golden_copy_text(cat->golden, sizeof cat->golden, golden_dir, err);
    if (rc) {
        free(edited);
        golden_free(cat);
        return cc_prefix(err, "the catalogue in force");
    }
    cat->edited = unreadable || edited_len != len || memcmp(edited, cat->text, len) != 0;
    free(edited);
    if (cat->edited && log)
        fprintf(log,
                "note: %s %s the catalogue in force (%s); what is verified is the catalogue in "
                "force, whole; run `cellcheck golden update` to compute the goldens of the "
                "edited one\n",
                catalogue_path, unreadable ? "cannot be read, so it is not" : "differs from", copy);
    note_leftovers(golden_dir, name, log);
    return CC_OK;
}
