/* What golden verify detects and refuses: a tampered hash, snapshot, pattern or catalogue; a case
 * cut from the generation in force; malformed catalogues, each with its message. */
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

static void test_tamper_detected(checks *t) {
    char root[ROOT_MAX], catalogue[GOLDEN_PATH_MAX], hashes[GOLDEN_PATH_MAX],
        snapshot[GOLDEN_PATH_MAX], stale[GOLDEN_PATH_MAX];
    if (!CHECKF(t, make_mini(t, root, sizeof root, catalogue, sizeof catalogue) == 0,
                "cannot set up a temporary catalogue"))
        return;
    snprintf(hashes, sizeof hashes, "%s/golden/current/hashes.txt", root);
    snprintf(snapshot, sizeof snapshot, "%s/golden/current/snapshots/life_blinker_5x5.rle", root);
    snprintf(stale, sizeof stale, "%s/golden/current/snapshots/gone.rle", root);
    golden_report report;
    CHECKF(t, verify_dir(catalogue, &report, "no goldens in force yet") != CC_OK,
           "verify passed before any update");
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "update of the small catalogue failed");
    CHECKF(t, verify_dir(catalogue, &report, "fresh") == CC_OK && report.passed == MINI_COUNT,
           "a fresh update does not verify");
    for (size_t i = 0; i < MINI_COUNT; i++) {
        golden_catalogue cat;
        cc_error err = {0};
        char mine[GOLDEN_HASH_HEX], committed[GOLDEN_HASH_HEX];
        if (golden_load(catalogue, &cat, &err)) break;
        cc_grid g;
        if (golden_oracle_result(&cat, &cat.entries[i], &g, &err) == CC_OK) {
            golden_hash_grid(&g, mine);
            CHECKF(t, committed_hash(mini_names[i], committed) == 0 && strcmp(mine, committed) == 0,
                   "%s: hash differs from the committed one", mini_names[i]);
            cc_grid_free(&g);
        }
        golden_free(&cat);
    }

    char *good_hashes = read_text(hashes);
    char *good_snapshot = read_text(snapshot);
    if (!CHECKF(t, good_hashes && good_snapshot, "update wrote no hashes or snapshot")) {
        free(good_hashes);
        free(good_snapshot);
        return;
    }

    /* One hex digit of one hash changed. */
    char *bad = strdup(good_hashes);
    char *at = strstr(bad, "life_glider_8x8 ") + strlen("life_glider_8x8 ") + 10;
    *at = *at == '0' ? '1' : '0';
    write_text(hashes, bad);
    int rc = verify_dir(catalogue, &report, "one hash digit changed");
    CHECKF(t, rc == CC_ERR_MISMATCH && report.failed == 1, "a changed hash digit went unnoticed");

    /* update puts it right and says what changed; the tampered generation carries the name of
     * the right one, so the right one is written under a second name. */
    char before_name[256] = "", after_name[256] = "", link[GOLDEN_PATH_MAX];
    snprintf(link, sizeof link, "%s/golden/current", root);
    ssize_t before_len = readlink(link, before_name, sizeof before_name - 1);
    FILE *log = tmpfile();
    CHECKF(t, update_dir(catalogue, log) == CC_OK, "update after tampering failed");
    ssize_t after_len = readlink(link, after_name, sizeof after_name - 1);
    CHECKF(t, before_len > 0 && after_len == before_len + 2 &&
                  strncmp(before_name, after_name, (size_t)before_len) == 0,
           "the repaired generation is %.*s, the tampered one %.*s", (int)after_len, after_name,
           (int)before_len, before_name);
    rewind(log);
    char line[512];
    int saw_change = 0;
    while (fgets(line, sizeof line, log))
        saw_change |= strncmp(line, "changed life_glider_8x8 ", 24) == 0;
    fclose(log);
    CHECKF(t, saw_change, "update did not report the changed hash");
    char *restored = read_text(hashes);
    CHECKF(t, restored && strcmp(restored, good_hashes) == 0, "update did not restore hashes.txt");
    free(restored);

    /* A hash missing, and a hash for a case that is not in the catalogue. */
    strcpy(bad, good_hashes);
    char *gl = strstr(bad, "life_glider_8x8 ");
    char *eol = strchr(gl, '\n');
    memmove(gl, eol + 1, strlen(eol + 1) + 1);
    write_text(hashes, bad);
    CHECKF(t,
           verify_dir(catalogue, &report, "a hash missing") == CC_ERR_MISMATCH &&
               report.failed == 1,
           "a missing hash went unnoticed");
    size_t len = strlen(good_hashes);
    char *extra = malloc(len + 128);
    snprintf(extra, len + 128, "%sno_such_case %064d\n", good_hashes, 0);
    write_text(hashes, extra);
    CHECKF(t,
           verify_dir(catalogue, &report, "a stale hash") == CC_ERR_MISMATCH && report.failed == 0,
           "a stale hash went unnoticed");
    free(extra);
    write_text(hashes, good_hashes);

    /* A snapshot with the blinker in its other phase, and a snapshot nobody owns. */
    write_text(snapshot, "x = 5, y = 5, rule = B3/S23:T5,5\n$3o!\n");
    CHECKF(t,
           verify_dir(catalogue, &report, "a snapshot changed") == CC_ERR_MISMATCH &&
               report.failed == 1,
           "a changed snapshot went unnoticed");
    write_text(snapshot, good_snapshot);
    write_text(stale, good_snapshot);
    CHECKF(t, verify_dir(catalogue, &report, "a stale snapshot") == CC_ERR_MISMATCH,
           "a stale snapshot went unnoticed");
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK && access(stale, F_OK) != 0,
           "update did not remove the stale snapshot");
    CHECKF(t, verify_dir(catalogue, &report, "restored") == CC_OK,
           "restored goldens do not verify");
    /* What a killed update leaves: a temporary beside the snapshots. verify ignores it (it used to
     * fail as a stale snapshot until removed by hand); the next update removes it. */
    char temporary[GOLDEN_PATH_MAX + 16];
    snprintf(temporary, sizeof temporary, "%s.tmp.Xy12Zq", snapshot);
    write_text(temporary, "x = 5, y = 5, rule = B3/S23:T5,5\n$3o");
    CHECKF(t, verify_dir(catalogue, &report, "a killed update's temporary") == CC_OK,
           "a killed update's temporary fails verify");
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK && access(temporary, F_OK) != 0,
           "update did not remove a killed update's temporary");
    free(bad);
    free(good_hashes);
    free(good_snapshot);
    printf("tampering detected\n");
}

/* A case cut alike from the generation's catalogue copy, hashes.txt and snapshots (and from
 * catalogue.txt) leaves goldens that agree with each other: only the generation's name, the hash
 * of its files as the update wrote them, tells. */
static void test_case_cut_from_generation(checks *t) {
    char root[ROOT_MAX], catalogue[GOLDEN_PATH_MAX], path[GOLDEN_PATH_MAX];
    if (!CHECKF(t, make_mini(t, root, sizeof root, catalogue, sizeof catalogue) == 0,
                "cannot set up a temporary catalogue"))
        return;
    golden_report report;
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "update of the small catalogue failed");
    snprintf(path, sizeof path, "%s/golden/current/catalogue.txt", root);
    int cut = cut_line(path, "life_blinker_5x5");
    snprintf(path, sizeof path, "%s/golden/current/hashes.txt", root);
    cut |= cut_line(path, "life_blinker_5x5");
    snprintf(path, sizeof path, "%s/golden/current/snapshots/life_blinker_5x5.rle", root);
    cut |= unlink(path);
    cut |= cut_line(catalogue, "life_blinker_5x5");
    if (!CHECKF(t, cut == 0, "cannot cut the case from the generation")) return;
    golden_catalogue cat;
    cc_error err = {0};
    int rc = golden_open(catalogue, &cat, stdout, &err);
    if (!CHECKF(t, rc == CC_OK, "cannot open the cut generation: %s", err.msg)) return;
    rc = golden_verify_oracle(&cat, stdout, &report, &err);
    golden_free(&cat);
    CHECKF(t, rc != CC_OK && strstr(err.msg, "not what its name says") != NULL,
           "a case cut from the generation went unnoticed (rc %d: %s)", rc, err.msg);
    CHECKF(t, report.passed == MINI_COUNT - 1 && report.failed == 0,
           "the cases left should pass on their own: %zu passed, %zu failed", report.passed,
           report.failed);
    /* An update puts it right: the new generation is named by its files. */
    CHECKF(t, update_dir(catalogue, NULL) == CC_OK, "update after the cut failed");
    CHECKF(t, verify_dir(catalogue, &report, "after the cut, updated") == CC_OK,
           "the updated generation does not verify");
}

static void expect_refused(checks *t, const char *root, const char *text, const char *needle) {
    char catalogue[GOLDEN_PATH_MAX];
    snprintf(catalogue, sizeof catalogue, "%s/golden/catalogue.txt", root);
    write_text(catalogue, text);
    golden_catalogue cat;
    cc_error err = {0};
    int rc = golden_load(catalogue, &cat, &err);
    CHECKF(t, rc != CC_OK, "accepted: %s", text);
    if (rc == CC_OK) {
        golden_free(&cat);
        return;
    }
    CHECKF(t, strstr(err.msg, needle) != NULL, "message '%s' does not mention '%s'", err.msg,
           needle);
}

static void test_malformed_refused(checks *t) {
    char root[ROOT_MAX];
    if (!CHECKF(t, make_tree(root, sizeof root) == 0 && copy_patterns(root) == 0,
                "cannot set up a temporary tree"))
        return;
    const char *seed = "seed=0000000000000000000000000000000000000000000000000000000000000001";
    char text[1024];
    snprintf(text, sizeof text,
             "a rule=B3/S23 size=8x8 steps=1 density=0.5 %s\n"
             "a rule=B3/S23 size=9x9 steps=1 density=0.5 %s\n",
             seed, seed);
    expect_refused(t, root, text, "catalogue.txt:2");
    snprintf(text, sizeof text,
             "# comment\n\nbad/name rule=B3/S23 size=8x8 steps=1 density=0.5 %s\n", seed);
    expect_refused(t, root, text, "catalogue.txt:3");
    expect_refused(t, root, "lonely\n", "no case line");
    snprintf(text, sizeof text,
             "small rule=R3,C2,M0,S1..2,B1..2,NM size=5x9 steps=1 density=0.5 %s\n", seed);
    expect_refused(t, root, text, "2r+1");
    expect_refused(t, root, "p rule=B3/S23 in=golden/patterns/missing.rle steps=1\n",
                   "missing.rle");
    expect_refused(t, root, "p rule=B3/S23 in=golden/patterns/glider.rle steps=1 colour=red\n",
                   "colour=red");
    expect_refused(t, root, "p rule=B3/S23 in=golden/patterns/glider.rle\n", "steps=");
    expect_refused(t, root, "p rule=B3/S23 in=golden/patterns/glider.rle steps=-1\n", "steps");
    expect_refused(t, root,
                   "p rule=R3,C2,M0,S1..2,B1..2,NM in=golden/patterns/blinker.rle steps=1\n",
                   "smaller than 2r+1");
    expect_refused(t, root, "# only comments\n", "no cases");

    /* A malformed hashes.txt stops verify with its line number. */
    char catalogue[GOLDEN_PATH_MAX], hashes[GOLDEN_PATH_MAX];
    snprintf(catalogue, sizeof catalogue, "%s/golden/catalogue.txt", root);
    snprintf(hashes, sizeof hashes, "%s/golden/hashes.txt", root);
    write_text(catalogue, "p rule=B3/S23 in=golden/patterns/glider.rle steps=1\n");
    write_text(hashes, "# header\np 1234\n"); /* read here from the catalogue's own directory */
    golden_catalogue cat;
    cc_error err = {0};
    if (golden_load(catalogue, &cat, &err) == CC_OK) {
        golden_report report;
        int rc = golden_verify_oracle(&cat, NULL, &report, &err);
        CHECKF(t, rc == CC_ERR_ARG && strstr(err.msg, "hashes.txt:2"),
               "malformed hashes.txt: %d %s", rc, err.msg);
        golden_free(&cat);
    }

    printf("malformed catalogues refused\n");
}

int main(void) {
    checks t = {"golden_verify_test", 0, 0};
    test_tamper_detected(&t);
    test_case_cut_from_generation(&t);
    test_malformed_refused(&t);
    return check_summary(&t);
}
