/* Verifying the goldens: the oracle against hashes.txt and snapshots/, with stale entries
 * found; an engine against hashes.txt (see golden.h). Verifying never writes. */
#define _POSIX_C_SOURCE 200809L

#include "golden/golden.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>

#include "golden/internal.h"
#include "oracle/gridio.h"

/* Keeps the first failing case of report for certificates. */
static void keep_first(golden_report *report, const golden_entry *e, const char *what,
                       const char *detail) {
    if (report->failed != 1) return;
    snprintf(report->first_case, sizeof report->first_case, "%s %s", e->name, e->line);
    snprintf(report->first_detail, sizeof report->first_detail, "%s%.300s", what, detail);
}

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
    int rc = golden_join_path(dir, sizeof dir, cat->dir, SNAPSHOT_DIR, err);
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
        /* A temporary of an update that was killed: not a snapshot; the next update removes it. */
        if (golden_is_temporary(name)) {
            if (log) fprintf(log, "note: %s/%s was left by an interrupted update; ignored\n", dir, name);
            continue;
        }
        size_t len = strlen(name);
        char base[GOLDEN_NAME_MAX];
        const golden_entry *e = NULL;
        if (len > 4 && strcmp(name + len - 4, ".rle") == 0 && len - 4 < sizeof base) {
            memcpy(base, name, len - 4);
            base[len - 4] = '\0';
            e = golden_find_entry(cat, base);
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
    /* Checked first, reported last: each case's own failures are told as well. */
    cc_error name_err = {0};
    int misnamed = golden_check_generation_name(cat, &name_err);
    golden_hashes hashes;
    int rc = golden_hashes_load(cat->dir, &hashes, NULL, err);
    if (rc) return cc_prefix(err, "golden verify (run the update command to create it)");
    for (size_t i = 0; i < cat->count; i++) {
        const golden_entry *e = &cat->entries[i];
        report->checked++;
        golden_hash_line *expected = golden_hashes_find(&hashes, e->name);
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
    golden_hashes_free(&hashes);
    if ((rc = check_stale_snapshots(cat, log, &stale_snapshots, err))) return rc;
    if (misnamed) {
        /* A file that cannot be read for the name is a failed case too. */
        if (report->failed) name_err.code = CC_ERR_MISMATCH;
        if (err) *err = name_err;
        return cc_prefix(err, "golden verify (%zu of %zu cases failed, %zu stale hashes, %zu stale "
                              "snapshots)",
                         report->failed, report->checked, stale_hashes, stale_snapshots);
    }
    if (report->failed || stale_hashes || stale_snapshots)
        return cc_fail(err, CC_ERR_MISMATCH,
                       "golden verify: %zu of %zu cases failed, %zu stale hashes, %zu stale "
                       "snapshots",
                       report->failed, report->checked, stale_hashes, stale_snapshots);
    return CC_OK;
}

int golden_verify_engine(const golden_catalogue *cat, const cc_engine *engine, FILE *log,
                         golden_report *report, cc_error *err) {
    return golden_verify_engine_shard(cat, engine, log, 0, 1, report, err);
}

int golden_verify_engine_shard(const golden_catalogue *cat, const cc_engine *engine, FILE *log,
                               uint32_t index, uint32_t count, golden_report *report,
                               cc_error *err) {
    memset(report, 0, sizeof *report);
    if (count < 1 || index >= count)
        return cc_fail(err, CC_ERR_ARG, "golden: shard %u of %u does not exist", (unsigned)index,
                       (unsigned)count);
    golden_hashes hashes;
    int rc = golden_hashes_load(cat->dir, &hashes, NULL, err);
    if (rc) return rc;
    for (size_t i = index; i < cat->count; i += count) {
        const golden_entry *e = &cat->entries[i];
        golden_hash_line *expected = golden_hashes_find(&hashes, e->name);
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
            keep_first(report, e, "", case_err.msg);
            report_failure(log, e, "%s", case_err.msg);
            continue;
        }
        char hex[GOLDEN_HASH_HEX], detail[256];
        golden_hash_grid(&result, hex);
        cc_grid_free(&result);
        if (!expected) {
            report->failed++;
            keep_first(report, e, "", "hashes.txt has no hash for this case");
            report_failure(log, e, "%s", "hashes.txt has no hash for this case");
        } else if (strcmp(expected->hex, hex) != 0) {
            report->failed++;
            snprintf(detail, sizeof detail, "expected %s, %s gives %s", expected->hex, engine->name,
                     hex);
            keep_first(report, e, "hash mismatch: ", detail);
            report_failure(log, e, "hash mismatch: %s", detail);
        } else {
            report->passed++;
        }
    }
    golden_hashes_free(&hashes);
    if (report->failed)
        return cc_fail(err, CC_ERR_MISMATCH, "%s: %zu of %zu golden cases failed", engine->name,
                       report->failed, report->checked);
    return CC_OK;
}
