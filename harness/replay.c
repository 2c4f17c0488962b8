/* Replaying one case alone in a new process (see replay.h). */
#define _POSIX_C_SOURCE 200809L
#include "harness/replay.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "harness/campaign.h"

extern char **environ;

#define ENV_ENGINE "CELLCHECK_REPLAY_ENGINE"
#define ENV_CASE "CELLCHECK_REPLAY_CASE"

cc_replay_verdict cc_replay_alone(const char *engine, const char *case_line, char *why,
                                  size_t why_size) {
    size_t n = 0;
    while (environ[n]) n++;
    char **env = calloc(n + 3, sizeof *env);
    size_t le = strlen(ENV_ENGINE) + strlen(engine) + 2, lc = strlen(ENV_CASE) + strlen(case_line) + 2;
    char *e1 = malloc(le), *e2 = malloc(lc);
    cc_replay_verdict v = CC_REPLAY_UNKNOWN;
    if (!env || !e1 || !e2) {
        snprintf(why, why_size, "out of memory");
        goto done;
    }
    snprintf(e1, le, "%s=%s", ENV_ENGINE, engine);
    snprintf(e2, lc, "%s=%s", ENV_CASE, case_line);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], ENV_ENGINE "=", sizeof ENV_ENGINE) &&
            strncmp(environ[i], ENV_CASE "=", sizeof ENV_CASE))
            env[k++] = environ[i];
    env[k++] = e1;
    env[k++] = e2;
    env[k] = NULL;
    char exe[] = "/proc/self/exe";
    char *argv[] = {exe, NULL};
    pid_t pid;
    fflush(NULL);
    int rc = posix_spawn(&pid, exe, NULL, NULL, argv, env);
    if (rc) {
        snprintf(why, why_size, "cannot start a new process: %s", strerror(rc));
        goto done;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(why, why_size, "waiting for the new process: %s", strerror(errno));
            goto done;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) <= 1) {
        v = WEXITSTATUS(status) == 0 ? CC_REPLAY_PASSED : CC_REPLAY_FAILED;
        snprintf(why, why_size, "%s", v == CC_REPLAY_PASSED ? "passed alone" : "failed alone");
    } else {
        snprintf(why, why_size, "the new process ended with status %d", status);
    }
done:
    free(env);
    free(e1);
    free(e2);
    return v;
}

int cc_replay_hook(const cc_engine *(*find)(const char *name, void *arg), void *arg, int *status) {
    const char *name = getenv(ENV_ENGINE), *line = getenv(ENV_CASE);
    if (!name || !line) return 0;
    *status = CC_REPLAY_UNKNOWN;
    const cc_engine *engine = find(name, arg);
    cc_case c;
    cc_check_result res;
    cc_error err;
    if (!engine) {
        fprintf(stderr, "replay: no engine named '%s' in this executable\n", name);
    } else if (case_parse(line, &c, &err) || cc_case_check(engine, &c, &res, &err)) {
        fprintf(stderr, "replay: %s\n", err.msg);
    } else {
        *status = res.outcome == CC_OUTCOME_FAIL ? CC_REPLAY_FAILED : CC_REPLAY_PASSED;
    }
    return 1;
}
