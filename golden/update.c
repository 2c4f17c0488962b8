/* Updating the goldens: every result first, then a whole new generation beside the catalogue,
 * then one rename of `current`, then what is no longer read is removed (see golden.h). */
#define _POSIX_C_SOURCE 200809L

#include "golden/golden.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golden/internal.h"
#include "oracle/gridio.h"

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

static size_t count_entries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) n += strcmp(ent->d_name, ".") && strcmp(ent->d_name, "..");
    closedir(d);
    return n;
}

/* Whether gen holds exactly the files, byte for byte, and nothing else. */
static int generation_holds(const char *gen, const golden_gen_file *files, size_t n, size_t snapshots) {
    char path[GOLDEN_PATH_MAX + sizeof files->name + 2];
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", gen, files[i].name);
        char *text;
        size_t len;
        cc_error ignored;
        if (cc_read_file(path, &text, &len, &ignored)) return 0;
        int same = len == files[i].len && memcmp(text, files[i].data, len) == 0;
        free(text);
        if (!same) return 0;
    }
    snprintf(path, sizeof path, "%s/%s", gen, SNAPSHOT_DIR);
    return count_entries(gen) == 3 && count_entries(path) == snapshots;
}

static void sync_dir(const char *dir) {
    int fd = open(dir, O_RDONLY);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

/* The new generation gen_dir, written whole; on failure what was written is removed. */
static int write_generation(const char *gen_dir, const golden_gen_file *files, size_t n, cc_error *err) {
    char path[GOLDEN_PATH_MAX + sizeof files->name + 2];
    snprintf(path, sizeof path, "%s/%s", gen_dir, SNAPSHOT_DIR);
    int rc = CC_OK;
    if (mkdir(gen_dir, 0777) != 0 || mkdir(path, 0777) != 0)
        rc = cc_fail(err, CC_ERR_IO, "cannot create %s: %s", path, strerror(errno));
    /* Snapshots, then hashes.txt, then the catalogue copy; each file is synced, and so is its
     * directory, before `current` names them. */
    for (size_t i = n; i-- > 0 && !rc;) {
        snprintf(path, sizeof path, "%s/%s", gen_dir, files[i].name);
        rc = cc_write_file_atomic(path, files[i].data, files[i].len, err);
    }
    if (rc) golden_remove_tree(gen_dir);
    return rc;
}

/* Points golden_dir/current at name in one rename. */
static int switch_current(const char *golden_dir, const char *name, cc_error *err) {
    char link[GOLDEN_PATH_MAX], temp[GOLDEN_PATH_MAX];
    int rc = golden_join_path(link, sizeof link, golden_dir, CURRENT_LINK, err);
    if (!rc) rc = golden_join_path(temp, sizeof temp, golden_dir, CURRENT_TEMP, err);
    if (rc) return rc;
    sync_dir(golden_dir); /* the new generation's own entry first */
    unlink(temp);
    if (symlink(name, temp) != 0 || rename(temp, link) != 0) {
        int e = errno;
        unlink(temp);
        return cc_fail(err, CC_ERR_IO, "cannot point %s at %s: %s", link, name, strerror(e));
    }
    sync_dir(golden_dir);
    return CC_OK;
}

/* After the switch: every generation but the one in force, temporaries of killed updates, and
 * hashes.txt and snapshots/ of the layout before generations. */
static void remove_leftovers(const char *golden_dir, const char *in_force, FILE *log) {
    enum { BATCH = 32 };
    char doomed[BATCH][GOLDEN_PATH_MAX];
    size_t count;
    do {
        count = 0;
        DIR *d = opendir(golden_dir);
        if (!d) return;
        struct dirent *ent;
        while (count < BATCH && (ent = readdir(d)) != NULL) {
            const char *name = ent->d_name;
            if ((golden_is_generation(name) && strcmp(name, in_force) != 0) ||
                golden_is_temporary(name) || strcmp(name, CURRENT_TEMP) == 0 ||
                strcmp(name, HASHES_FILE) == 0 || strcmp(name, SNAPSHOT_DIR) == 0) {
                int m = snprintf(doomed[count], GOLDEN_PATH_MAX, "%s/%s", golden_dir, name);
                if (m > 0 && m < GOLDEN_PATH_MAX) count++;
            }
        }
        closedir(d);
        for (size_t i = 0; i < count; i++) {
            golden_remove_tree(doomed[i]);
            struct stat st;
            if (lstat(doomed[i], &st) == 0) {
                if (log) fprintf(log, "could not remove %s\n", doomed[i]);
                return;
            }
            if (log) fprintf(log, "removed %s (no longer read)\n", doomed[i]);
        }
    } while (count == BATCH);
}

/* What changed against the hashes in force before, to log. */
static void log_changes(const golden_catalogue *cat, const update_result *results,
                        golden_hashes *old, int old_missing, FILE *log) {
    size_t added = 0, changed = 0, removed = 0, same = 0, snapshots = 0;
    for (size_t i = 0; i < cat->count; i++) {
        const golden_entry *e = &cat->entries[i];
        snapshots += results[i].snapshot != NULL;
        golden_hash_line *before = old_missing ? NULL : golden_hashes_find(old, e->name);
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
    for (size_t i = 0; i < old->count; i++)
        if (!old->lines[i].used) {
            removed++;
            if (log) fprintf(log, "removed %s %s\n", old->lines[i].name, old->lines[i].hex);
        }
    if (log)
        fprintf(log, "golden update: %zu cases: %zu added, %zu changed, %zu removed, %zu unchanged; "
                     "%zu snapshots\n",
                cat->count, added, changed, removed, same, snapshots);
}

/* The update lock of golden_dir, taken without waiting: *fd holds it until closed (the kernel
 * lets it go when the process ends, however it ends, so a killed update never leaves it held). */
static int take_update_lock(const char *golden_dir, int *fd, int *denied, cc_error *err) {
    char path[GOLDEN_PATH_MAX];
    int rc = golden_join_path(path, sizeof path, golden_dir, UPDATE_LOCK, err);
    if (rc) return rc;
    *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    *denied = *fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM);
    if (*fd < 0)
        return cc_fail(err, CC_ERR_IO, "cannot open the update lock %s: %s", path,
                       strerror(errno));
    while (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EINTR) continue;
        int e = errno;
        close(*fd);
        *fd = -1;
        if (e == EWOULDBLOCK)
            return cc_fail(err, CC_ERR_IO,
                           "another golden update is running in %s (it holds %s); run this one "
                           "again when it has ended",
                           golden_dir, path);
        return cc_fail(err, CC_ERR_IO, "cannot lock %s: %s", path, strerror(e));
    }
    return CC_OK;
}

static int update_locked(const golden_catalogue *cat, FILE *log, const char *read_only,
                         cc_error *err);

int golden_update(const golden_catalogue *cat, FILE *log, cc_error *err) {
    if (!cat->text) return cc_fail(err, CC_ERR_ARG, "golden update: the catalogue has no text");
    int lock = -1, denied = 0;
    int rc = take_update_lock(cat->golden, &lock, &denied, err);
    /* A checkout this user cannot write: an update with nothing to change needs no lock (it
     * writes nothing); one that would change something is refused below, naming why. */
    if (rc && denied) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return update_locked(cat, log, why, err);
    }
    if (rc) return cc_prefix(err, "golden update: nothing written");
    rc = update_locked(cat, log, NULL, err);
    close(lock);
    return rc;
}

/* read_only: why the goldens cannot be written here (NULL: they can, and the lock is held). */
static int update_locked(const golden_catalogue *cat, FILE *log, const char *read_only,
                         cc_error *err) {
    update_result *results = calloc(cat->count, sizeof *results);
    golden_gen_file *files = calloc(cat->count + 2, sizeof *files);
    if (!results || !files) {
        free(results);
        free(files);
        return cc_fail(err, CC_ERR_NOMEM, "cannot allocate %zu results", cat->count);
    }
    int rc = CC_OK;
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
        }
        cc_grid_free(&result);
    }
    char *hash_text = NULL;
    size_t hash_len = 0, n = 0, snapshots = 0;
    if (!rc) rc = format_hashes(cat, results, &hash_text, &hash_len, err);
    if (rc) {
        free(files);
        free_results(results, cat->count);
        return cc_prefix(err, "golden update: nothing written");
    }
    files[n++] = (golden_gen_file){CATALOGUE_FILE, cat->text, cat->text_len};
    files[n++] = (golden_gen_file){HASHES_FILE, hash_text, hash_len};
    for (size_t i = 0; i < cat->count; i++) {
        if (!results[i].snapshot) continue;
        golden_gen_file *f = &files[n++];
        snprintf(f->name, sizeof f->name, "%s/%s.rle", SNAPSHOT_DIR, cat->entries[i].name);
        f->data = results[i].snapshot;
        f->len = results[i].snapshot_len;
        snapshots++;
    }

    /* What is in force now: the generation to compare with, and the hashes for the change log. */
    char gen_now[GOLDEN_PATH_MAX], name_now[GOLDEN_PATH_MAX], name[GOLDEN_PATH_MAX],
        gen_dir[GOLDEN_PATH_MAX];
    int found = 0, old_missing = 0;
    golden_hashes old = {0};
    rc = golden_in_force(cat->golden, gen_now, sizeof gen_now, name_now, sizeof name_now, &found,
                         err);
    if (!rc && found && !name_now[0])
        rc = cc_fail(err, CC_ERR_ARG,
                     "%s/%s is a plain directory, not the link an update replaces (a copy of the "
                     "goldens?); update the source tree",
                     cat->golden, CURRENT_LINK);
    if (!rc && found) rc = golden_hashes_load(gen_now, &old, &old_missing, err);
    /* hashes.txt of the layout before generations only tells what changed: unreadable, it is
     * taken as absent. */
    if (!rc && !found && golden_hashes_load(cat->golden, &old, &old_missing, NULL)) old_missing = 1;
    if (rc) {
        free(hash_text);
        free(files);
        free_results(results, cat->count);
        return cc_prefix(err, "golden update: nothing written");
    }

    golden_generation_name(files, n, name, sizeof name);
    int unchanged = found && strcmp(name, name_now) == 0 &&
                    generation_holds(gen_now, files, n, snapshots);
    if (!unchanged && read_only) {
        rc = cc_fail(err, CC_ERR_IO,
                     "golden update: the goldens would change, and %s cannot be written here "
                     "(%s); nothing written",
                     cat->golden, read_only);
    } else if (!unchanged) {
        /* The generation in force may carry this name with other bytes (edited by hand): the new
         * one then takes a second name, so the one in force is never touched. */
        if (found && strcmp(name, name_now) == 0) strncat(name, "-2", sizeof name - strlen(name) - 1);
        rc = golden_join_path(gen_dir, sizeof gen_dir, cat->golden, name, err);
        if (!rc) {
            golden_remove_tree(gen_dir); /* a generation a killed update left under this name */
            rc = write_generation(gen_dir, files, n, err);
        }
        if (!rc) rc = switch_current(cat->golden, name, err);
        if (rc) {
            golden_remove_tree(gen_dir);
            cc_prefix(err, "golden update: the goldens in force are unchanged");
        }
    }
    if (!rc) {
        if (!read_only) remove_leftovers(cat->golden, unchanged ? name_now : name, log);
        log_changes(cat, results, &old, old_missing, log);
        if (log)
            fprintf(log, "golden update: %s/%s -> %s%s%s\n", cat->golden, CURRENT_LINK,
                    unchanged ? name_now : name, unchanged ? " (unchanged, nothing written)" : "",
                    read_only ? "; read-only here, so no lock was taken" : "");
    }
    golden_hashes_free(&old);
    free(hash_text);
    free(files);
    free_results(results, cat->count);
    return rc;
}
