/* A set of files replaced as one (cc_write_files_atomic): written, replaced, converted from plain
 * files, and killed 200 times at random moments of a writing loop, after which the two files
 * always come from the same generation. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oracle/gridio.h"
#include "testing/check.h"

static const char *const names[] = {"certificate.md", "certificate.json"};

static int write_pair(const char *dir, long gen, cc_error *err) {
    char md[64], json[64];
    int a = snprintf(md, sizeof md, "md %ld\n", gen), b = snprintf(json, sizeof json, "json %ld\n", gen);
    const char *const texts[] = {md, json};
    const size_t lens[] = {(size_t)a, (size_t)b};
    return cc_write_files_atomic(dir, "certificate", 2, names, texts, lens, err);
}

/* The generation each file shows; -1 when absent. */
static void read_pair(const char *dir, long *md, long *json) {
    char path[1024], *text;
    size_t len;
    cc_error err;
    *md = *json = -1;
    snprintf(path, sizeof path, "%s/%s", dir, names[0]);
    if (!cc_read_file(path, &text, &len, &err)) {
        if (sscanf(text, "md %ld", md) != 1) *md = -2;
        free(text);
    }
    snprintf(path, sizeof path, "%s/%s", dir, names[1]);
    if (!cc_read_file(path, &text, &len, &err)) {
        if (sscanf(text, "json %ld", json) != 1) *json = -2;
        free(text);
    }
}

int main(void) {
    checks t = {"files_test", 0, 0};
    const char *base = getenv("TEST_TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/pair.XXXXXX", base && *base ? base : "/tmp");
    if (!CHECK(&t, mkdtemp(dir) != NULL)) return check_summary(&t);
    cc_error err;
    long md, json;

    /* Plain files of an older layout are taken over as they are, then replaced. */
    char path[1024];
    snprintf(path, sizeof path, "%s/certificate.md", dir);
    cc_write_file_atomic(path, "md 7\n", 5, &err);
    snprintf(path, sizeof path, "%s/certificate.json", dir);
    cc_write_file_atomic(path, "json 7\n", 7, &err);
    CHECKF(&t, write_pair(dir, 1, &err) == CC_OK, "%s", err.msg);
    read_pair(dir, &md, &json);
    CHECKF(&t, md == 1 && json == 1, "after the first write: md %ld, json %ld", md, json);
    CHECKF(&t, write_pair(dir, 2, &err) == CC_OK, "%s", err.msg);
    read_pair(dir, &md, &json);
    CHECKF(&t, md == 2 && json == 2, "after the second write: md %ld, json %ld", md, json);

    /* Killed at random moments of a loop of writes: never a mix. */
    srand(12345);
    int mixed = 0, kills = 0;
    long last = 2;
    for (int k = 0; k < 200; k++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (long g = 1000L * (k + 1);; g++)
                if (write_pair(dir, g, &err)) _exit(3);
        }
        struct timespec pause = {0, (long)(rand() % 3000) * 1000L};
        nanosleep(&pause, NULL);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        kills += WIFSIGNALED(status);
        read_pair(dir, &md, &json);
        if (md != json || md < 0) {
            mixed++;
            fprintf(stderr, "after kill %d: md %ld, json %ld\n", k, md, json);
        }
        if (md >= 0) last = md;
    }
    CHECKF(&t, kills == 200, "%d of 200 writers were killed while writing", kills);
    CHECKF(&t, mixed == 0, "%d of 200 kills left the pair mixed or missing", mixed);
    /* And the next write cleans what the killed ones left. */
    CHECKF(&t, write_pair(dir, 9, &err) == CC_OK, "%s", err.msg);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "test $(ls -a '%s' | grep -c '^\\.certificate\\.') -eq 1", dir);
    CHECKF(&t, system(cmd) == 0, "generations left behind in %s", dir);
    /* The generation directory takes its mode from the umask, as mkdir would: readable by others
     * under 022, not 0700 as mkdtemp makes it. */
    mode_t old_mask = umask(022);
    CHECKF(&t, write_pair(dir, 10, &err) == CC_OK, "%s", err.msg);
    umask(old_mask);
    snprintf(path, sizeof path, "%s/certificate.md", dir);
    struct stat st;
    CHECKF(&t, stat(path, &st) == 0 && (st.st_mode & 0777) == 0644, "certificate.md is %o",
           (unsigned)(st.st_mode & 0777));
    snprintf(path, sizeof path, "%s/.certificate", dir);
    char target[600];
    ssize_t tn = readlink(path, target, sizeof target - 1);
    if (CHECK(&t, tn > 0)) {
        target[tn] = '\0';
        char gen[1200];
        snprintf(gen, sizeof gen, "%s/%s", dir, target);
        CHECKF(&t, stat(gen, &st) == 0 && (st.st_mode & 0777) == 0755,
               "the generation directory %s is %o, not 0755", gen, (unsigned)(st.st_mode & 0777));
    }
    /* Output directories: made with their parents; a file in the way is named, not replaced. */
    char deep[1200];
    snprintf(deep, sizeof deep, "%s/out/a//b/", dir);
    CHECKF(&t, cc_make_directories(deep, &err) == CC_OK, "%s", err.msg);
    CHECKF(&t, stat(deep, &st) == 0 && S_ISDIR(st.st_mode), "%s was not made", deep);
    CHECKF(&t, cc_make_directories(deep, &err) == CC_OK, "made twice: %s", err.msg);
    snprintf(path, sizeof path, "%s/certificate.md/x", dir);
    int rc = cc_make_directories(path, &err);
    CHECKF(&t, rc == CC_ERR_ARG && strstr(err.msg, "certificate.md exists and is") &&
                   strstr(err.msg, "not a directory"),
           "a link to a file in the way: %d %s", rc, err.msg);
    snprintf(path, sizeof path, "%s/.certificate", dir);
    CHECKF(&t, cc_make_directories(path, &err) == CC_OK, "a link to a directory: %s", err.msg);
    CHECKF(&t, cc_make_directories("", &err) == CC_ERR_ARG, "an empty name was taken");

    printf("files_test: 200 kills, last generation read %ld, none mixed\n", last);
    return check_summary(&t);
}
