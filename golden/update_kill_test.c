/* golden update killed at random moments: a child updates a small catalogue in a loop, switching
 * between two versions of it (cases changed, removed and added), and is SIGKILLed 200 times. After
 * each kill the goldens in force must be one version's as a whole (the catalogue copy, hashes.txt
 * and every snapshot, byte for byte what an update of that version writes, and no other snapshot),
 * and verify must pass on them. The next update removes what the killed ones left. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "golden/golden.h"
#include "oracle/gridio.h"
#include "testing/check.h"

#define KILLS 200
#define SNAPSHOTS_MAX 16
#define SEED(n) "seed=00000000000000000000000000000000000000000000000000000000000000" n

/* Two versions of one catalogue: B changes glider's and life's steps, drops blinker, adds life_b;
 * big has no snapshot. */
static const char version_a[] =
    "glider rule=B3/S23 in=golden/patterns/glider.rle steps=4\n"
    "blinker rule=B3/S23 in=golden/patterns/blinker.rle steps=3\n"
    "life rule=B3/S23 size=64x48 steps=6 density=0.3000 " SEED("01") "\n"
    "ltl rule=R3,C2,M0,S15..23,B14..17,NM size=60x50 steps=3 density=0.2500 " SEED("02") "\n"
    "hex rule=B2/S34H size=40x30 steps=5 density=0.3000 " SEED("03") "\n"
    "big rule=B3/S23 size=200x150 steps=4 density=0.3000 " SEED("04") "\n";
static const char version_b[] =
    "glider rule=B3/S23 in=golden/patterns/glider.rle steps=8\n"
    "life rule=B3/S23 size=64x48 steps=7 density=0.3000 " SEED("01") "\n"
    "ltl rule=R3,C2,M0,S15..23,B14..17,NM size=60x50 steps=3 density=0.2500 " SEED("02") "\n"
    "life_b rule=B36/S23 size=50x50 steps=5 density=0.3000 " SEED("05") "\n"
    "hex rule=B2/S34H size=40x30 steps=5 density=0.3000 " SEED("03") "\n"
    "big rule=B3/S23 size=200x150 steps=5 density=0.3000 " SEED("04") "\n";

/* What an update of one version writes. */
typedef struct goldens {
    char *catalogue, *hashes;
    size_t snapshots;
    char names[SNAPSHOTS_MAX][GOLDEN_NAME_MAX + 8];
    char *snapshot[SNAPSHOTS_MAX];
} goldens;

static char *read_or_null(const char *path) {
    char *text;
    size_t len;
    cc_error err;
    return cc_read_file(path, &text, &len, &err) ? NULL : text;
}

static int write_text(const char *path, const char *text) {
    cc_error err = {0};
    if (cc_write_file_atomic(path, text, strlen(text), &err)) {
        printf("cannot write %s: %s\n", path, err.msg);
        return 1;
    }
    return 0;
}

static void goldens_free(goldens *g) {
    free(g->catalogue);
    free(g->hashes);
    for (size_t i = 0; i < g->snapshots; i++) free(g->snapshot[i]);
    memset(g, 0, sizeof *g);
}

/* Reads the goldens of generation directory gen; 0 when something is missing or too many. */
static int goldens_read(const char *gen, goldens *g) {
    memset(g, 0, sizeof *g);
    char path[GOLDEN_PATH_MAX + 2 * GOLDEN_NAME_MAX];
    snprintf(path, sizeof path, "%s/catalogue.txt", gen);
    g->catalogue = read_or_null(path);
    snprintf(path, sizeof path, "%s/hashes.txt", gen);
    g->hashes = read_or_null(path);
    snprintf(path, sizeof path, "%s/snapshots", gen);
    DIR *d = opendir(path);
    struct dirent *ent;
    int ok = d && g->catalogue && g->hashes;
    while (ok && (ent = readdir(d)) != NULL) {
        if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
        if (g->snapshots == SNAPSHOTS_MAX || strlen(ent->d_name) >= sizeof g->names[0]) {
            ok = 0;
            break;
        }
        snprintf(g->names[g->snapshots], sizeof g->names[0], "%s", ent->d_name);
        snprintf(path, sizeof path, "%s/snapshots/%s", gen, ent->d_name);
        g->snapshot[g->snapshots] = read_or_null(path);
        ok = g->snapshot[g->snapshots++] != NULL;
    }
    if (d) closedir(d);
    return ok;
}

/* Whether have is exactly want: the same catalogue copy, hashes and set of snapshots. */
static int goldens_equal(const goldens *have, const goldens *want) {
    if (strcmp(have->catalogue, want->catalogue) || strcmp(have->hashes, want->hashes) ||
        have->snapshots != want->snapshots)
        return 0;
    for (size_t i = 0; i < have->snapshots; i++) {
        size_t j = 0;
        while (j < want->snapshots && strcmp(have->names[i], want->names[j])) j++;
        if (j == want->snapshots || strcmp(have->snapshot[i], want->snapshot[j])) return 0;
    }
    return 1;
}

/* A fresh root with golden/patterns/ holding the two patterns the versions use. */
static int make_root(const char *base, const char *name, char *root, size_t size) {
    snprintf(root, size, "%s/%s", base, name);
    char path[GOLDEN_PATH_MAX];
    snprintf(path, sizeof path, "%s/golden", root);
    if (mkdir(root, 0755) || mkdir(path, 0755)) return 1;
    snprintf(path, sizeof path, "%s/golden/patterns", root);
    if (mkdir(path, 0755)) return 1;
    const char *patterns[] = {"glider.rle", "blinker.rle"};
    for (int i = 0; i < 2; i++) {
        char from[GOLDEN_PATH_MAX];
        snprintf(from, sizeof from, "golden/patterns/%s", patterns[i]);
        snprintf(path, sizeof path, "%s/golden/patterns/%s", root, patterns[i]);
        char *text = read_or_null(from);
        int rc = !text || write_text(path, text);
        free(text);
        if (rc) return 1;
    }
    return 0;
}

static int update(const char *catalogue, const char *text) {
    golden_catalogue cat;
    cc_error err = {0};
    int rc = write_text(catalogue, text);
    if (!rc) rc = golden_load(catalogue, &cat, &err);
    if (!rc) {
        rc = golden_update(&cat, NULL, &err);
        golden_free(&cat);
    }
    if (rc) printf("update of %s: %s\n", catalogue, err.msg);
    return rc;
}

static int verify(const char *catalogue, cc_error *err) {
    golden_catalogue cat;
    golden_report report;
    int rc = golden_open(catalogue, &cat, NULL, err);
    if (rc) return rc;
    rc = golden_verify_oracle(&cat, NULL, &report, err);
    golden_free(&cat);
    return rc;
}

/* Entries of dir beside catalogue.txt, patterns, current, the generation in force and the update
 * lock: what killed updates left. */
static int leftovers(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL) n++;
    if (d) closedir(d);
    return n - 7; /* ".", "..", the four, and the update lock */
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void) {
    checks t = {"update_kill_test", 0, 0};
    const char *tmp = getenv("TEST_TMPDIR");
    char base[512];
    snprintf(base, sizeof base, "%s/kill.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!CHECK(&t, mkdtemp(base) != NULL)) return check_summary(&t);

    /* What each version's update writes, from updates that nobody kills. */
    goldens want[2];
    const char *texts[2] = {version_a, version_b};
    for (int v = 0; v < 2; v++) {
        char root[640], catalogue[GOLDEN_PATH_MAX], gen[GOLDEN_PATH_MAX];
        if (!CHECK(&t, make_root(base, v ? "ref_b" : "ref_a", root, sizeof root) == 0))
            return check_summary(&t);
        snprintf(catalogue, sizeof catalogue, "%s/golden/catalogue.txt", root);
        snprintf(gen, sizeof gen, "%s/golden/current", root);
        if (!CHECK(&t, update(catalogue, texts[v]) == 0 && goldens_read(gen, &want[v])))
            return check_summary(&t);
    }
    CHECKF(&t, want[0].snapshots == 5 && want[1].snapshots == 5 &&
                   strcmp(want[0].hashes, want[1].hashes) != 0,
           "the versions should differ in hashes, with 5 snapshots each (%zu, %zu)",
           want[0].snapshots, want[1].snapshots);

    char root[640], catalogue[GOLDEN_PATH_MAX], current[GOLDEN_PATH_MAX],
        golden_dir[700];
    if (!CHECK(&t, make_root(base, "killed", root, sizeof root) == 0)) return check_summary(&t);
    snprintf(golden_dir, sizeof golden_dir, "%s/golden", root);
    snprintf(catalogue, sizeof catalogue, "%s/catalogue.txt", golden_dir);
    snprintf(current, sizeof current, "%s/current", golden_dir);
    /* How long an update takes here, so the kills fall anywhere in one. */
    double start = now();
    if (!CHECK(&t, update(catalogue, version_a) == 0 && update(catalogue, version_b) == 0))
        return check_summary(&t);
    double one = (now() - start) / 2;
    printf("one update takes %.1f ms here\n", one * 1e3);

    srand(20261124);
    int kills = 0, mixed = 0, failed_verify = 0, in_force[2] = {0, 0}, left = 0;
    for (int k = 0; k < KILLS; k++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            for (int v = 0;; v ^= 1)
                if (update(catalogue, texts[v])) _exit(3);
        }
        struct timespec pause;
        double wait = one * 2.0 * (double)rand() / RAND_MAX;
        pause.tv_sec = (time_t)wait;
        pause.tv_nsec = (long)((wait - (double)pause.tv_sec) * 1e9);
        nanosleep(&pause, NULL);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        kills += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;

        goldens have;
        int v = -1;
        if (goldens_read(current, &have))
            for (int w = 0; w < 2 && v < 0; w++)
                if (goldens_equal(&have, &want[w])) v = w;
        goldens_free(&have);
        if (v < 0) {
            mixed++;
            fprintf(stderr, "after kill %d: the goldens in force are neither version whole\n", k);
        } else {
            in_force[v]++;
        }
        cc_error err = {0};
        if (verify(catalogue, &err)) {
            failed_verify++;
            fprintf(stderr, "after kill %d: verify: %s\n", k, err.msg);
        }
        left += leftovers(golden_dir) > 0;
    }
    CHECKF(&t, kills == KILLS, "%d of %d updaters were killed while updating", kills, KILLS);
    CHECKF(&t, mixed == 0, "%d of %d kills left goldens that are neither version whole", mixed,
           KILLS);
    CHECKF(&t, failed_verify == 0, "verify failed after %d of %d kills", failed_verify, KILLS);
    /* Kills must land inside updates, or the test shows nothing. */
    CHECKF(&t, left >= KILLS / 10 && in_force[0] > 0 && in_force[1] > 0,
           "only %d kills fell inside an update (A %d, B %d in force)", left, in_force[0],
           in_force[1]);

    /* The next update removes every generation and temporary the killed ones left. */
    CHECK(&t, update(catalogue, version_a) == 0);
    CHECKF(&t, leftovers(golden_dir) == 0, "%d entries left in %s after a complete update",
           leftovers(golden_dir), golden_dir);
    cc_error err = {0};
    CHECKF(&t, verify(catalogue, &err) == 0, "verify after the last update: %s", err.msg);
    goldens_free(&want[0]);
    goldens_free(&want[1]);
    printf("update_kill_test: %d kills: %d left version A in force, %d version B, %d mixed, verify "
           "failed %d times; %d kills left a generation or temporary behind, which verify "
           "ignored and the next update removed\n",
           kills, in_force[0], in_force[1], mixed, failed_verify, left);
    return check_summary(&t);
}
