/* One case past 2^32 cells at a time among a user's cellcheck processes (cc_limit_large_turn):
 * while this process holds the turn, a second process that asks for it says it is waiting and
 * gets it only once the first lets it go; a turn let go is taken again at once, without a word; a
 * process killed while holding it holds nothing; with nowhere to put the lock there is no turn,
 * and the note says why. */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/limits.h"
#include "testing/check.h"

/* In a child: asks for the turn as who, what it says to said_path, then 'y' (got it) or 'n' on
 * fd; holds it until killed where hold is set. A turn never let go ends it by its alarm. The
 * parent's turn, inherited, is closed first (a worker is exec'd, which closes it: O_CLOEXEC). */
static pid_t ask_in_child(const char *who, const char *said_path, int fd, int hold,
                          int inherited) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    alarm(20);
    if (inherited >= 0) close(inherited);
    FILE *said = fopen(said_path, "w");
    char why[320];
    int turn = said ? cc_limit_large_turn(who, said, why, sizeof why) : -1;
    if (said) fclose(said);
    char c = turn >= 0 ? 'y' : 'n';
    if (write(fd, &c, 1) != 1) _exit(2);
    while (hold) pause();
    _exit(0);
}

static int answer(int fd, int timeout_ms) {
    struct pollfd p = {fd, POLLIN, 0};
    char c = 0;
    if (poll(&p, 1, timeout_ms) != 1 || read(fd, &c, 1) != 1) return 0;
    return c;
}

int main(void) {
    checks t = {"large_turn_test", 0, 0};
    const char *tmp = getenv("TEST_TMPDIR");
    char dir[512], lock[700], said[700];
    snprintf(dir, sizeof dir, "%s/large_turn_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!CHECK(&t, mkdtemp(dir) != NULL)) return check_summary(&t);
    setenv("XDG_CACHE_HOME", dir, 1);
    snprintf(lock, sizeof lock, "%s/cellcheck/large-case.lock", dir);
    snprintf(said, sizeof said, "%s/second.out", dir);

    char note[320] = "";
    int held = cc_limit_large_turn("first", stdout, note, sizeof note);
    CHECKF(&t, held >= 0, "no turn: %s", note);
    CHECKF(&t, access(lock, F_OK) == 0, "no lock at %s", lock);

    int got[2];
    if (!CHECK(&t, pipe(got) == 0)) return check_summary(&t);
    pid_t second = ask_in_child("second", said, got[1], 0, held);
    CHECKF(&t, answer(got[0], 700) == 0, "the second had the turn while the first held it");
    cc_limit_large_turn_end(held);
    CHECKF(&t, answer(got[0], 10000) == 'y', "the second did not get the turn once it was free");
    int status = 0;
    waitpid(second, &status, 0);
    CHECK(&t, WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char text[600] = "";
    FILE *f = fopen(said, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f) fclose(f);
    CHECKF(&t, strstr(text, "note: second: waiting for another cellcheck's case past 2^32 cells") &&
                   strstr(text, lock),
           "the second did not say it waited, and on what: '%s'", text);

    /* Let go: taken again at once, and nothing said. */
    FILE *quiet = tmpfile();
    int again = quiet ? cc_limit_large_turn("third", quiet, note, sizeof note) : -1;
    CHECKF(&t, again >= 0 && ftell(quiet) == 0, "a free turn was not taken quietly: %s", note);
    cc_limit_large_turn_end(again);

    /* A holder killed: the kernel lets the turn go with it. */
    pid_t killed = ask_in_child("killed", said, got[1], 1, -1);
    CHECK(&t, answer(got[0], 10000) == 'y');
    kill(killed, SIGKILL);
    waitpid(killed, &status, 0);
    rewind(quiet);
    int after = cc_limit_large_turn("fourth", quiet, note, sizeof note);
    CHECKF(&t, after >= 0 && ftell(quiet) == 0, "a killed holder's turn was not free: %s", note);
    cc_limit_large_turn_end(after);
    if (quiet) fclose(quiet);

    /* Nowhere to put it. */
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    CHECK(&t, cc_limit_large_turn("fifth", stdout, note, sizeof note) == -1);
    CHECKF(&t, strstr(note, "no XDG_CACHE_HOME or HOME") != NULL, "note: %s", note);
    return check_summary(&t);
}
