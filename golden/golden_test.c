/* The golden catalogue: the oracle reproduces every committed hash and snapshot, and the committed
 * catalogue is the one in force; hand-checked results (patterns, uniform grids) agree with the
 * committed hashes computed here directly with crypto_generichash; tampering is detected; update
 * reproduces the committed files and writes whole or not at all; an edited catalogue is noted and
 * the goldens in force verified; what a killed update leaves is ignored, then removed; malformed
 * catalogues are refused; engines are verified and their unsupported cases skipped. */
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
#include "harness/harness.h"
#include "oracle/gridio.h"
#include "oracle/oracle.h"
#include "testing/check.h"

#define CATALOGUE "golden/catalogue.txt"
/* The goldens in force, as the runfiles lay them out. */
#define IN_FORCE "golden/current"
/* Temporary roots are short, so every path under one fits in GOLDEN_PATH_MAX. */
#define ROOT_MAX 256

/* ---- helpers ------------------------------------------------------------------------------- */

static char *read_text(const char *path) {
    char *text = NULL;
    size_t len = 0;
    cc_error err = {0};
    if (cc_read_file(path, &text, &len, &err)) {
        printf("cannot read %s: %s\n", path, err.msg);
        return NULL;
    }
    return text;
}

static int write_text(const char *path, const char *text) {
    cc_error err = {0};
    if (cc_write_file_atomic(path, text, strlen(text), &err)) {
        printf("cannot write %s: %s\n", path, err.msg);
        return 1;
    }
    return 0;
}

static int copy_file(const char *from, const char *to) {
    char *text = read_text(from);
    if (!text) return 1;
    int rc = write_text(to, text);
    free(text);
    return rc;
}

static int same_file(const char *a, const char *b) {
    char *ta = read_text(a), *tb = read_text(b);
    int same = ta && tb && strcmp(ta, tb) == 0;
    free(ta);
    free(tb);
    return same;
}

/* Entries of dir named like a generation (".gen-..."). */
static size_t count_generations(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) n += strncmp(ent->d_name, ".gen-", 5) == 0;
    closedir(d);
    return n;
}

static size_t count_files(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL)
        if (ent->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* A fresh directory with golden/ and golden/patterns/ under it. */
static int make_tree(char *root, size_t size) {
    const char *base = getenv("TEST_TMPDIR");
    snprintf(root, size, "%s/golden_test.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(root)) return 1;
    char path[GOLDEN_PATH_MAX];
    snprintf(path, sizeof path, "%s/golden", root);
    if (mkdir(path, 0755)) return 1;
    snprintf(path, sizeof path, "%s/golden/patterns", root);
    return mkdir(path, 0755) != 0;
}

static int copy_patterns(const char *root) {
    const char *names[] = {"glider.rle", "glider_10x7.rle", "blinker.rle", "rpentomino.rle",
                           "gosper_gun.rle"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char from[GOLDEN_PATH_MAX], to[GOLDEN_PATH_MAX];
        snprintf(from, sizeof from, "golden/patterns/%s", names[i]);
        snprintf(to, sizeof to, "%s/golden/patterns/%s", root, names[i]);
        if (copy_file(from, to)) return 1;
    }
    return 0;
}

/* The committed hash of a case, read here without golden.c's parser. */
static int committed_hash(const char *name, char hex[GOLDEN_HASH_HEX]) {
    char *text = read_text(IN_FORCE "/hashes.txt");
    if (!text) return 1;
    int found = 0;
    size_t n = strlen(name);
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        if (strncmp(line, name, n) == 0 && line[n] == ' ') {
            memcpy(hex, line + n + 1, GOLDEN_HASH_HEX - 1);
            hex[GOLDEN_HASH_HEX - 1] = '\0';
            found = 1;
            break;
        }
        line = end ? end + 1 : NULL;
    }
    free(text);
    return !found;
}

/* crypto_generichash of bytes, computed here directly. */
static void direct_hash(const uint8_t *bytes, size_t len, char hex[GOLDEN_HASH_HEX]) {
    unsigned char digest[32];
    crypto_generichash(digest, sizeof digest, bytes, len, NULL, 0);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

static void uniform_hash(size_t cells, uint8_t value, char hex[GOLDEN_HASH_HEX]) {
    uint8_t *bytes = malloc(cells);
    memset(bytes, value, cells);
    direct_hash(bytes, cells, hex);
    free(bytes);
}

static const golden_entry *entry(checks *t, const golden_catalogue *cat, const char *name) {
    const golden_entry *found = NULL;
    for (size_t i = 0; i < cat->count && !found; i++)
        if (strcmp(cat->entries[i].name, name) == 0) found = &cat->entries[i];
    CHECKF(t, found != NULL, "the catalogue has no case %s", name);
    return found;
}

/* The glider bo$2bo$3o! shifted by (sx, sy) on a w x h torus. */
static void glider_at(cc_grid *g, int32_t w, int32_t h, int32_t sx, int32_t sy) {
    static const int32_t cells[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
    cc_error err = {0};
    cc_grid_alloc(g, w, h, &err);
    for (int i = 0; i < 5; i++) g->cells[((cells[i][1] + sy) % h) * w + (cells[i][0] + sx) % w] = 1;
}

/* ---- the committed goldens ----------------------------------------------------------------- */

static void test_oracle_reproduces_committed(checks *t) {
    golden_catalogue cat;
    cc_error err = {0};
    if (!CHECKF(t, golden_open(CATALOGUE, &cat, stdout, &err) == CC_OK,
                "opening the catalogue in force: %s", err.msg))
        return;
    /* A committed edit of catalogue.txt without its update would leave its cases unchecked. */
    CHECKF(t, !cat.edited,
           "golden/catalogue.txt is not the catalogue in force: run `cellcheck golden update` and "
           "commit what it writes");
    CHECKF(t, cat.count >= 40, "the catalogue has only %zu cases", cat.count);
    golden_report report;
    int rc = golden_verify_oracle(&cat, stdout, &report, &err);
    CHECKF(t, rc == CC_OK, "golden verify: %s", err.msg);
    CHECKF(t, report.passed == cat.count && report.failed == 0, "%zu of %zu passed", report.passed,
           cat.count);
    size_t snapshots = 0;
    for (size_t i = 0; i < cat.count; i++) snapshots += golden_has_snapshot(&cat.entries[i]);
    CHECKF(t, snapshots >= 20 && snapshots == count_files(IN_FORCE "/snapshots"),
           "%zu snapshots expected, %zu files", snapshots, count_files(IN_FORCE "/snapshots"));
    printf("oracle reproduces %zu committed hashes and %zu snapshots\n", report.passed, snapshots);
    golden_free(&cat);
}

static void expect_result(checks *t, const golden_catalogue *cat, const char *name,
                          const cc_grid *expected) {
    const golden_entry *e = entry(t, cat, name);
    if (!e) return;
    cc_grid result;
    cc_error err = {0};
    if (!CHECKF(t, golden_oracle_result(cat, e, &result, &err) == CC_OK, "%s: %s", name, err.msg))
        return;
    CHECKF(t, cc_grid_equal(&result, expected),
           "%s: the oracle's result is not the hand-built grid", name);
    char want[GOLDEN_HASH_HEX], have[GOLDEN_HASH_HEX];
    direct_hash(expected->cells, cc_grid_cells(expected), want);
    CHECKF(t, committed_hash(name, have) == 0 && strcmp(want, have) == 0,
           "%s: committed hash is not the hash of the hand-built grid", name);
    cc_grid_free(&result);
}

static void expect_uniform(checks *t, const char *name, size_t cells, uint8_t value) {
    char want[GOLDEN_HASH_HEX], have[GOLDEN_HASH_HEX];
    uniform_hash(cells, value, want);
    CHECKF(t, committed_hash(name, have) == 0 && strcmp(want, have) == 0,
           "%s: committed hash is not the hash of %zu cells all %s", name, cells,
           value ? "alive" : "dead");
}

static void test_hand_checked(checks *t) {
    golden_catalogue cat;
    cc_error err = {0};
    if (!CHECKF(t, golden_load(CATALOGUE, &cat, &err) == CC_OK, "loading the catalogue: %s",
                err.msg))
        return;
    cc_grid g;
    /* A glider moves (1, 1) every 4 steps. */
    glider_at(&g, 8, 8, 1, 1);
    expect_result(t, &cat, "life_glider_8x8", &g);
    cc_grid_free(&g);
    /* 44 steps: (11, 11), which is (1, 4) on a 10 x 7 torus, across both edges. */
    glider_at(&g, 10, 7, 1, 4);
    expect_result(t, &cat, "life_glider_10x7_wrap", &g);
    cc_grid_free(&g);
    /* The blinker starts as a row at y = 1 and has period 2: after 3 steps it is a column. */
    cc_grid_alloc(&g, 5, 5, &err);
    g.cells[0 * 5 + 1] = g.cells[1 * 5 + 1] = g.cells[2 * 5 + 1] = 1;
    expect_result(t, &cat, "life_blinker_5x5", &g);
    cc_grid_free(&g);

    /* Uniform grids: dead stays dead; all-alive Life dies (8 neighbours); Majority keeps all 80;
     * Bosco M1 all alive counts 121 > 58 and dies; birth on 0 fills a dead grid. */
    expect_uniform(t, "life_dead_16x16", 16 * 16, 0);
    expect_uniform(t, "life_alive_16x16", 16 * 16, 0);
    expect_uniform(t, "table6_r16_dead_33x33", 33 * 33, 0);
    expect_uniform(t, "majority_r04_alive_20x20", 20 * 20, 1);
    expect_uniform(t, "bosco_m1_alive_24x24", 24 * 24, 0);
    expect_uniform(t, "birth0_dead_9x9", 9 * 9, 1);

    /* At 33 x 33 and r = 16 every cell sees the whole torus: with P alive, a live cell counts
     * P-1, a dead one P. Tangy Ramen (S170..296, B170..300) makes everything alive when
     * 171 <= P <= 296. */
    const golden_entry *e = entry(t, &cat, "table6_r16_33x33");
    if (e && golden_initial_grid(&cat, e, &g, &err) == CC_OK) {
        size_t p = cc_grid_population(&g);
        CHECKF(t, p >= 171 && p <= 296 && e->steps == 1, "table6_r16_33x33: population %zu", p);
        expect_uniform(t, "table6_r16_33x33", 33 * 33, 1);
        cc_grid_free(&g);
    }

    /* Life as B3/S23 (M0) and as M1 S3..4 B3 is the same rule: same seed, same hash. */
    char m0[GOLDEN_HASH_HEX], m1[GOLDEN_HASH_HEX];
    CHECKF(t,
           committed_hash("life_m0_40x40", m0) == 0 && committed_hash("life_m1_40x40", m1) == 0 &&
               strcmp(m0, m1) == 0,
           "Life under M0 and M1 disagree");
    e = entry(t, &cat, "life_m0_40x40");
    if (e && golden_oracle_result(&cat, e, &g, &err) == CC_OK) {
        CHECKF(t, cc_grid_population(&g) > 0, "life_m0_40x40 died out: a weak check");
        cc_grid_free(&g);
    }

    /* Zero steps: the result is the initial grid. */
    e = entry(t, &cat, "table6_r08_zero_steps_64x64");
    cc_grid initial;
    if (e && golden_initial_grid(&cat, e, &initial, &err) == CC_OK) {
        CHECKF(t, cc_grid_population(&initial) > 0, "zero-step case starts empty");
        expect_result(t, &cat, "table6_r08_zero_steps_64x64", &initial);
        cc_grid_free(&initial);
    }

    /* golden_hash_grid is crypto_generichash over the cells, nothing else. */
    cc_grid_alloc(&g, 7, 3, &err);
    for (int i = 0; i < 21; i++) g.cells[i] = (uint8_t)(i % 3 == 0);
    char via_golden[GOLDEN_HASH_HEX], direct[GOLDEN_HASH_HEX];
    golden_hash_grid(&g, via_golden);
    direct_hash(g.cells, 21, direct);
    CHECKF(t, strcmp(via_golden, direct) == 0, "golden_hash_grid %s, direct %s", via_golden,
           direct);
    cc_grid_free(&g);
    golden_free(&cat);
    printf("hand-checked results agree\n");
}

/* ---- tampering, update ----------------------------------------------------------------------- */

/* A small catalogue in a fresh tree, with its hashes written by update. */
static const char *const mini_names[] = {"life_glider_8x8", "life_blinker_5x5", "life_dead_16x16",
                                         "table6_r01_3x7", "hex_b2s34_3x5"};
#define MINI_COUNT (sizeof mini_names / sizeof mini_names[0])

static int make_mini(checks *t, char *root, size_t size, char *catalogue, size_t catalogue_size) {
    golden_catalogue full;
    cc_error err = {0};
    if (make_tree(root, size) || copy_patterns(root)) return 1;
    if (golden_load(CATALOGUE, &full, &err)) return 1;
    char text[MINI_COUNT * (GOLDEN_NAME_MAX + GOLDEN_LINE_MAX + 2) + 1];
    size_t used = 0;
    for (size_t i = 0; i < MINI_COUNT; i++) {
        const golden_entry *e = entry(t, &full, mini_names[i]);
        if (e)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s %s\n", e->name, e->line);
    }
    golden_free(&full);
    snprintf(catalogue, catalogue_size, "%s/golden/catalogue.txt", root);
    return write_text(catalogue, text);
}

static int verify_dir(const char *catalogue, golden_report *report, const char *what) {
    golden_catalogue cat;
    cc_error err = {0};
    if (golden_open(catalogue, &cat, stdout, &err)) {
        printf("loading %s: %s\n", catalogue, err.msg);
        return -1;
    }
    printf("-- verify (%s):\n", what);
    int rc = golden_verify_oracle(&cat, stdout, report, &err);
    golden_free(&cat);
    return rc;
}

static int update_dir(const char *catalogue, FILE *log) {
    golden_catalogue cat;
    cc_error err = {0};
    int rc = golden_load(catalogue, &cat, &err);
    if (!rc) rc = golden_update(&cat, log, &err);
    if (rc) printf("update %s: %s\n", catalogue, err.msg);
    golden_free(&cat);
    return rc;
}

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

/* Removes the line that starts with "name " from the file at path. */
static int cut_line(const char *path, const char *name) {
    char *text = read_text(path);
    if (!text) return 1;
    char key[GOLDEN_NAME_MAX + 2];
    snprintf(key, sizeof key, "%s ", name);
    char *at = strstr(text, key);
    while (at && at != text && at[-1] != '\n') at = strstr(at + 1, key);
    int rc = 1;
    if (at) {
        char *eol = strchr(at, '\n');
        memmove(at, eol ? eol + 1 : at + strlen(at), strlen(eol ? eol + 1 : at + strlen(at)) + 1);
        rc = write_text(path, text);
    }
    free(text);
    return rc;
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

/* ---- an edited catalogue, what a killed update leaves ----------------------------------------- */

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

/* ---- malformed catalogues -------------------------------------------------------------------- */

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

/* ---- engines ------------------------------------------------------------------------------- */

/* A test engine over the oracle: Moore only, r 1..2, M0 only; "lazy" never steps. */
typedef struct oracle_engine {
    cc_rule rule;
    cc_grid grid;
    int lazy;
} oracle_engine;

static int oe_available(cc_error *err) {
    (void)err;
    return CC_OK;
}
static int oe_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    oracle_engine *e = ctx;
    memcpy(e->grid.cells, cells, cc_grid_cells(&e->grid));
    return CC_OK;
}
static int oe_step(void *ctx, int64_t k, cc_error *err) {
    oracle_engine *e = ctx;
    return e->lazy ? CC_OK : oracle_run(&e->rule, &e->grid, k, err);
}
static int oe_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    oracle_engine *e = ctx;
    memcpy(cells, e->grid.cells, cc_grid_cells(&e->grid));
    return CC_OK;
}
static void oe_destroy(void *ctx) {
    oracle_engine *e = ctx;
    cc_grid_free(&e->grid);
    free(e);
}

extern const cc_engine test_good_engine, test_lazy_engine;

static int oe_create(const cc_engine *self, int lazy, const cc_rule *rule, int32_t w, int32_t h,
                     void **ctx, cc_error *err) {
    int rc = cc_engine_check(self, rule, w, h, err);
    if (rc) return rc;
    oracle_engine *e = calloc(1, sizeof *e);
    if (!e) return cc_fail(err, CC_ERR_NOMEM, "test engine");
    if ((rc = cc_grid_alloc(&e->grid, w, h, err))) {
        free(e);
        return rc;
    }
    e->rule = *rule;
    e->lazy = lazy;
    *ctx = e;
    return CC_OK;
}
static int good_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return oe_create(&test_good_engine, 0, rule, w, h, ctx, err);
}
static int lazy_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return oe_create(&test_lazy_engine, 1, rule, w, h, ctx, err);
}

#define TEST_ENGINE(NAME, SUMMARY, CREATE)                                                         \
    {                                                                                              \
        .name = NAME, .summary = SUMMARY, .hardware = CC_HW_CPU,                                   \
        .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE),                                           \
                 .radius_min = 1,                                                                  \
                 .radius_max = 2,                                                                  \
                 .centres = CC_CENTRE_M0,                                                          \
                 .w_multiple = 1,                                                                  \
                 .h_multiple = 1},                                                                 \
        .available = oe_available, .create = CREATE, .load = oe_load, .step = oe_step,             \
        .store = oe_store, .destroy = oe_destroy                                                   \
    }
const cc_engine test_good_engine =
    TEST_ENGINE("test.good", "the oracle, Moore r 1..2 M0", good_create);
const cc_engine test_lazy_engine = TEST_ENGINE("test.lazy", "never steps", lazy_create);

static int test_supports(const golden_entry *e) {
    return e->rule.shape == CC_SHAPE_MOORE && e->rule.radius <= 2 && !e->rule.centre &&
           e->rule.topology == CC_TOPOLOGY_TORUS; /* the test engines state the torus */
}

static void test_engines(checks *t, const cc_engine *good, const cc_engine *lazy) {
    golden_catalogue cat;
    cc_error err = {0};
    if (!CHECKF(t, golden_open(CATALOGUE, &cat, stdout, &err) == CC_OK, "opening the catalogue: %s",
                err.msg))
        return;
    /* The lazy engine fails exactly the supported cases whose result differs from their start. */
    size_t supported = 0, changing = 0;
    for (size_t i = 0; i < cat.count; i++) {
        const golden_entry *e = &cat.entries[i];
        if (!test_supports(e)) continue;
        supported++;
        cc_grid start, end;
        if (golden_initial_grid(&cat, e, &start, &err) == CC_OK) {
            if (golden_oracle_result(&cat, e, &end, &err) == CC_OK) {
                changing += !cc_grid_equal(&start, &end);
                cc_grid_free(&end);
            }
            cc_grid_free(&start);
        }
    }
    golden_report report;
    int rc = golden_verify_engine(&cat, good, stdout, &report, &err);
    CHECKF(t, rc == CC_OK, "an engine equal to the oracle failed: %s", err.msg);
    CHECKF(t,
           report.checked == supported && report.passed == supported &&
               report.unsupported == cat.count - supported,
           "good engine: %zu checked, %zu passed, %zu unsupported; expected %zu supported of %zu",
           report.checked, report.passed, report.unsupported, supported, cat.count);
    printf("-- the lazy engine's failures:\n");
    rc = golden_verify_engine(&cat, lazy, stdout, &report, &err);
    CHECKF(t, rc == CC_ERR_MISMATCH && report.failed == changing && changing > 10,
           "an engine that never steps: rc %d, %zu failed of %zu, expected %zu", rc, report.failed,
           report.checked, changing);
    golden_free(&cat);
    printf("engines verified, unsupported cases skipped\n");
}

int main(int argc, char **argv) {
    /* The test engines run in workers of this executable, as every engine does. */
    const cc_engine *const tables[] = {&test_good_engine, &test_lazy_engine, NULL};
    cc_supervisor *sv;
    int status;
    if (cc_harness_supervise(argc, argv, tables, &sv, &status)) return status;
    checks t = {"golden_test", 0, 0};
    test_oracle_reproduces_committed(&t);
    test_hand_checked(&t);
    test_tamper_detected(&t);
    test_case_cut_from_generation(&t);
    test_update_lock(&t);
    test_update_reproduces_committed(&t);
    test_update_whole_or_nothing(&t);
    test_edited_catalogue(&t);
    test_leftovers(&t);
    test_malformed_refused(&t);
    test_engines(&t, cc_supervised(sv, &test_good_engine), cc_supervised(sv, &test_lazy_engine));
    cc_supervisor_close(sv);
    return check_summary(&t);
}
