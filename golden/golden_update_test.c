/* golden update: one at a time under its lock; it reproduces the committed files and writes whole
 * or not at all; an edited catalogue is noted and the goldens in force verified; what a killed
 * update leaves is ignored, then removed. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "golden/golden.h"
#include "golden/test_trees.h"
#include "oracle/gridio.h"
#include "oracle/oracle.h"
#include "testing/check.h"

/* While the update lock is held, an update is refused at once and writes nothing. */
static void test_update_lock(checks *t) {
    char root[ROOT_MAX], catalogue[GOLDEN_PATH_MAX], path[GOLDEN_PATH_MAX];
    if (!CHECKF(t, make_mini(t, root, sizeof root, catalogue, sizeof catalogue) == 0,
                "cannot set up a temporary catalogue"))
        return;
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "update of the small catalogue failed");
    char before[256] = "", after[256] = "", link[GOLDEN_PATH_MAX];
    snprintf(link, sizeof link, "%s/golden/current", root);
    ssize_t n_before = readlink(link, before, sizeof before - 1);
    CHECK(t, cut_line(catalogue, "life_glider_8x8") == 0); /* an update would change the goldens */
    snprintf(path, sizeof path, "%s/golden/.update.lock", root);
    int fd = open(path, O_RDWR);
    if (!CHECKF(t, fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0, "cannot take %s", path)) return;
    golden_catalogue cat;
    cc_error err = {0};
    int rc = golden_load(catalogue, &cat, &err);
    if (!rc) rc = golden_update(&cat, NULL, &err);
    golden_free(&cat);
    CHECKF(t, rc != CC_OK && strstr(err.msg, "another golden update is running") != NULL &&
                  strstr(err.msg, "nothing written") != NULL,
           "an update under a held lock was not refused as the loser (rc %d: %s)", rc, err.msg);
    ssize_t n_after = readlink(link, after, sizeof after - 1);
    CHECKF(t, n_before > 0 && n_after == n_before && strcmp(before, after) == 0,
           "the refused update changed the goldens in force (%s -> %s)", before, after);
    close(fd);
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "update once the lock is free failed");
    n_after = readlink(link, after, sizeof after - 1);
    CHECKF(t, n_after > 0 && strcmp(before, after) != 0, "the update after the lock changed nothing");
}

static void test_update_reproduces_committed(checks *t) {
    char root[ROOT_MAX], catalogue[GOLDEN_PATH_MAX], path[GOLDEN_PATH_MAX];
    if (!CHECKF(t, make_tree(root, sizeof root) == 0 && copy_patterns(root) == 0,
                "cannot set up a temporary tree"))
        return;
    snprintf(catalogue, sizeof catalogue, "%s/golden/catalogue.txt", root);
    copy_file(CATALOGUE, catalogue);
    CHECKF(t, update_dir(catalogue, stdout) == CC_OK, "update failed");
    snprintf(path, sizeof path, "%s/golden/current/hashes.txt", root);
    CHECKF(t, same_file(path, IN_FORCE "/hashes.txt"),
           "update writes a hashes.txt unlike the committed one");
    snprintf(path, sizeof path, "%s/golden/current/catalogue.txt", root);
    CHECKF(t, same_file(path, CATALOGUE) && same_file(path, IN_FORCE "/catalogue.txt"),
           "the generation's catalogue copy is not the catalogue");
    golden_catalogue cat;
    cc_error err = {0};
    if (golden_load(CATALOGUE, &cat, &err)) return;
    size_t compared = 0;
    for (size_t i = 0; i < cat.count; i++) {
        if (!golden_has_snapshot(&cat.entries[i])) continue;
        char committed[GOLDEN_PATH_MAX];
        snprintf(committed, sizeof committed, IN_FORCE "/snapshots/%s.rle", cat.entries[i].name);
        snprintf(path, sizeof path, "%s/golden/current/snapshots/%s.rle", root,
                 cat.entries[i].name);
        CHECKF(t, same_file(path, committed), "snapshot %s differs from the committed one",
               cat.entries[i].name);
        compared++;
    }
    snprintf(path, sizeof path, "%s/golden/current/snapshots", root);
    CHECKF(t, count_files(path) == compared, "update wrote %zu snapshots, %zu expected",
           count_files(path), compared);
    snprintf(path, sizeof path, "%s/golden", root);
    /* catalogue.txt, patterns/, current and its one generation. */
    CHECKF(t, count_files(path) == 3 && count_generations(path) == 1,
           "update left stray files in %s", path);
    golden_free(&cat);
    printf("update reproduces the committed hashes and %zu snapshots\n", compared);
}

static void test_update_whole_or_nothing(checks *t) {
    char root[ROOT_MAX], catalogue[GOLDEN_PATH_MAX], hashes[GOLDEN_PATH_MAX],
        doomed[GOLDEN_PATH_MAX], snapdir[GOLDEN_PATH_MAX], snapshot[GOLDEN_PATH_MAX];
    if (!CHECKF(t, make_mini(t, root, sizeof root, catalogue, sizeof catalogue) == 0,
                "cannot set up a temporary catalogue"))
        return;
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "first update failed");
    snprintf(hashes, sizeof hashes, "%s/golden/current/hashes.txt", root);
    snprintf(snapdir, sizeof snapdir, "%s/golden/current/snapshots", root);
    snprintf(snapshot, sizeof snapshot, "%s/golden/current/snapshots/life_glider_8x8.rle", root);
    char *before_hashes = read_text(hashes), *before_snapshot = read_text(snapshot);
    size_t before_files = count_files(snapdir);

    /* Change a case so its result changes, add one whose pattern vanishes before update runs. */
    char *text = read_text(catalogue);
    size_t len = text ? strlen(text) : 0;
    char *more = malloc(len + 256);
    snprintf(more, len + 256, "%s%s", text ? text : "",
             "zz_doomed rule=B3/S23 in=golden/patterns/doomed.rle steps=1\n");
    char *steps = strstr(more, "glider.rle steps=4");
    if (steps) steps[strlen("glider.rle steps=")] = '8';
    write_text(catalogue, more);
    snprintf(doomed, sizeof doomed, "%s/golden/patterns/doomed.rle", root);
    copy_file("golden/patterns/glider.rle", doomed);
    golden_catalogue cat;
    cc_error err = {0};
    int rc = golden_load(catalogue, &cat, &err);
    CHECKF(t, rc == CC_OK, "loading: %s", err.msg);
    unlink(doomed);
    if (!rc) {
        rc = golden_update(&cat, NULL, &err);
        printf("update with a vanished pattern: %s\n", err.msg);
        CHECKF(t, rc != CC_OK, "update succeeded although a case could not be computed");
        golden_free(&cat);
    }
    char *after_hashes = read_text(hashes), *after_snapshot = read_text(snapshot);
    CHECKF(t, before_hashes && after_hashes && strcmp(before_hashes, after_hashes) == 0,
           "a failed update changed hashes.txt");
    CHECKF(t, before_snapshot && after_snapshot && strcmp(before_snapshot, after_snapshot) == 0,
           "a failed update changed a snapshot");
    CHECKF(t, count_files(snapdir) == before_files, "a failed update left files in %s", snapdir);
    snprintf(snapdir, sizeof snapdir, "%s/golden", root);
    CHECKF(t, count_generations(snapdir) == 1, "a failed update left a generation in %s",
           snapdir);
    free(text);
    free(more);
    free(before_hashes);
    free(after_hashes);
    free(before_snapshot);
    free(after_snapshot);
    printf("a failed update writes nothing\n");
}

static void test_edited_catalogue(checks *t) {
    char root[ROOT_MAX], catalogue[GOLDEN_PATH_MAX];
    if (!CHECKF(t, make_mini(t, root, sizeof root, catalogue, sizeof catalogue) == 0,
                "cannot set up a temporary catalogue"))
        return;
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "first update failed");
    char *text = read_text(catalogue);
    if (!text) return;
    size_t len = strlen(text);
    char *more = malloc(len + 128);
    snprintf(more, len + 128, "%sextra_glider rule=B3/S23 in=golden/patterns/glider.rle steps=1\n",
             text);
    write_text(catalogue, more);
    /* The goldens in force are still whole: verify passes on them and notes the edit. */
    golden_catalogue cat;
    cc_error err = {0};
    FILE *log = tmpfile();
    int rc = golden_open(catalogue, &cat, log, &err);
    CHECKF(t, rc == CC_OK && cat.edited && cat.count == MINI_COUNT,
           "an edited catalogue: rc %d, edited %d, %zu cases in force", rc, rc ? 0 : cat.edited,
           rc ? (size_t)0 : cat.count);
    rewind(log);
    char line[1024];
    int noted = 0;
    while (fgets(line, sizeof line, log)) noted |= strstr(line, "differs from") && strstr(line, "golden update");
    fclose(log);
    CHECKF(t, noted, "the edit is not noted with the command that computes it");
    if (!rc) golden_free(&cat);
    golden_report report;
    CHECKF(t, verify_dir(catalogue, &report, "edited catalogue") == CC_OK &&
                  report.passed == MINI_COUNT,
           "the goldens in force do not verify beside an edited catalogue");
    /* A catalogue removed by mistake: the goldens in force still verify. */
    unlink(catalogue);
    CHECKF(t, verify_dir(catalogue, &report, "catalogue removed") == CC_OK,
           "the goldens in force do not verify without catalogue.txt");
    write_text(catalogue, more);
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "update of the edited catalogue failed");
    rc = golden_open(catalogue, &cat, NULL, &err);
    CHECKF(t, rc == CC_OK && !cat.edited && cat.count == MINI_COUNT + 1,
           "after the update: rc %d, edited %d", rc, rc ? 0 : cat.edited);
    if (!rc) golden_free(&cat);
    free(text);
    free(more);
    printf("an edited catalogue is noted; the goldens in force verify\n");
}

static void test_leftovers(checks *t) {
    char root[ROOT_MAX], catalogue[GOLDEN_PATH_MAX], path[GOLDEN_PATH_MAX];
    if (!CHECKF(t, make_mini(t, root, sizeof root, catalogue, sizeof catalogue) == 0,
                "cannot set up a temporary catalogue"))
        return;
    /* The layout before generations, which an update takes over and removes. */
    snprintf(path, sizeof path, "%s/golden/hashes.txt", root);
    write_text(path, "life_glider_8x8 0000\n");
    snprintf(path, sizeof path, "%s/golden/snapshots", root);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/golden/snapshots/life_glider_8x8.rle", root);
    write_text(path, "x = 8, y = 8, rule = B3/S23:T8,8\n!\n");
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "update over the old layout failed");
    snprintf(path, sizeof path, "%s/golden", root);
    CHECKF(t, count_files(path) == 3, "the old layout's files were not removed from %s", path);
    /* A half-written generation, a generation with wrong hashes, a link being made. */
    const char *orphans[] = {".gen-0123456789abcdef", ".gen-feedfacefeedface"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/golden/%s", root, orphans[i]);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/golden/%s/hashes.txt", root, orphans[i]);
        if (i) write_text(path, "life_glider_8x8 not-a-hash\n");
    }
    snprintf(path, sizeof path, "%s/golden/.current.tmp.link", root);
    CHECKF(t, symlink(".gen-0123456789abcdef", path) == 0, "cannot make a link");
    golden_report report;
    FILE *log = tmpfile();
    golden_catalogue cat;
    cc_error err = {0};
    int rc = golden_open(catalogue, &cat, log, &err);
    if (!rc) rc = golden_verify_oracle(&cat, log, &report, &err);
    if (!rc) golden_free(&cat);
    CHECKF(t, rc == CC_OK, "what a killed update left fails verify: %s", err.msg);
    rewind(log);
    char line[1024];
    int notes = 0;
    while (fgets(line, sizeof line, log)) notes += strstr(line, "interrupted update") != NULL;
    fclose(log);
    CHECKF(t, notes == 3, "%d of 3 leftovers noted", notes);
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "update beside leftovers failed");
    snprintf(path, sizeof path, "%s/golden", root);
    char cmd[GOLDEN_PATH_MAX + 64];
    /* catalogue.txt, patterns, current, the generation and the update lock */
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 5", path);
    CHECKF(t, count_generations(path) == 1 && system(cmd) == 0,
           "the next update left leftovers in %s", path);
    printf("what a killed update leaves is ignored, then removed\n");
}

int main(void) {
    checks t = {"golden_update_test", 0, 0};
    test_update_lock(&t);
    test_update_reproduces_committed(&t);
    test_update_whole_or_nothing(&t);
    test_edited_catalogue(&t);
    test_leftovers(&t);
    return check_summary(&t);
}
