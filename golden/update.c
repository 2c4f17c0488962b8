/* Updating the goldens: every result first, then temporaries, then renames, hashes.txt last, so
 * hashes.txt and snapshots/ change whole or not at all (see golden.h). */
#define _POSIX_C_SOURCE 200809L

#include "golden/golden.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golden/internal.h"
#include "oracle/gridio.h"

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
            if (golden_is_temporary(name)) { /* left by an update that was killed */
                snprintf(doomed[count++], GOLDEN_PATH_MAX, "%s/%s", dir, name);
                continue;
            }
            if (len <= 4 || strcmp(name + len - 4, ".rle") != 0 || len - 4 >= GOLDEN_NAME_MAX)
                continue;
            char base[GOLDEN_NAME_MAX];
            memcpy(base, name, len - 4);
            base[len - 4] = '\0';
            const golden_entry *e = golden_find_entry(cat, base);
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

    golden_hashes old;
    int old_missing = 0;
    if ((rc = golden_hashes_load(cat, &old, &old_missing, err))) {
        free_results(results, cat->count);
        return cc_prefix(err, "golden update: nothing written: the current hashes");
    }

    char snap_dir[GOLDEN_PATH_MAX];
    pending_file *files = calloc(snapshots + 1, sizeof *files);
    size_t nfiles = 0;
    if (!files) rc = cc_fail(err, CC_ERR_NOMEM, "cannot allocate the file list");
    if (!rc) rc = golden_join_path(snap_dir, sizeof snap_dir, cat->dir, SNAPSHOT_DIR, err);
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
        rc = golden_join_path(f->final, sizeof f->final, cat->dir, HASHES_FILE, err);
        if (!rc) rc = write_temp(f, hash_text, hash_len, err);
    }
    free(hash_text);
    if (rc) {
        if (files) discard_temps(files, nfiles);
        free(files);
        free_results(results, cat->count);
        golden_hashes_free(&old);
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
        golden_hash_line *before = old_missing ? NULL : golden_hashes_find(&old, e->name);
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
    golden_hashes_free(&old);
    free_results(results, cat->count);
    return rc;
}
