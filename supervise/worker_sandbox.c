/* A worker entering its sandbox (worker_sandbox.h): what it may read is its executable, its
 * plugins and the directories its libraries are looked up in. */
#define _GNU_SOURCE
#include "supervise/worker_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine_set.h"

/* Moves *fd off CC_SANDBOX_REPORT_FD, where the report's descriptor goes. */
static int move_off(long *fd) {
    if (*fd != CC_SANDBOX_REPORT_FD) return 0;
    int moved = fcntl((int)*fd, F_DUPFD, CC_SANDBOX_REPORT_FD + 1);
    if (moved < 0) return -1;
    close((int)*fd);
    *fd = moved;
    return 0;
}

int worker_sandbox_enter(const char *arg, long *sock, long *shm, char *const *plugins,
                         int nplugins, cc_sandbox_state *state, cc_error *err) {
    memset(state, 0, sizeof *state);
    if (!strcmp(arg, "off")) return CC_OK;
    char *end;
    errno = 0;
    long report = strtol(arg, &end, 10);
    if (errno || *end != ':' || report < 0 || end[1] != '/')
        return cc_fail(err, CC_ERR_ARG, "worker: malformed sandbox argument '%s'", arg);
    const char *scratch = end + 1;
    if (move_off(sock) || move_off(shm) ||
        (report != CC_SANDBOX_REPORT_FD && dup2((int)report, CC_SANDBOX_REPORT_FD) < 0))
        return cc_fail(err, CC_ERR_IO, "worker: cannot place the sandbox's report: %s",
                       strerror(errno));
    if (report != CC_SANDBOX_REPORT_FD) close((int)report);
    fcntl(CC_SANDBOX_REPORT_FD, F_SETFD, FD_CLOEXEC);
    /* Read: the executable, the plugins, the library path's directories. */
    const char *libs = getenv("LD_LIBRARY_PATH");
    char *dirs = strdup(libs ? libs : "");
    size_t room = (size_t)nplugins + 2 + (dirs ? strlen(dirs) : 0);
    const char **reads = calloc(room, sizeof *reads);
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (!dirs || !reads || len <= 0) {
        free(dirs);
        free(reads);
        return cc_fail(err, CC_ERR_NOMEM, "worker: cannot list what its sandbox may read");
    }
    exe[len] = '\0';
    size_t n = 0;
    reads[n++] = exe;
    /* A plugin's file, without the :PREFIX its engines are renamed by. */
    char *files = calloc((size_t)nplugins + 1, PATH_MAX);
    for (int i = 0; files && i < nplugins; i++) {
        char *file = files + (size_t)i * PATH_MAX;
        const char *prefix;
        cc_error ignored;
        if (cc_plugin_spec_split(plugins[i], file, PATH_MAX, &prefix, &ignored) == CC_OK)
            reads[n++] = file;
    }
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save))
        if (d[0] == '/') reads[n++] = d;
    cc_sandbox_spec spec = {.scratch = scratch, .read_paths = reads, .nread = n};
    /* A rank after the first joins the first's namespaces (the supervisor names its pid). */
    const char *join = getenv(CC_SANDBOX_JOIN_ENV);
    if (join && *join) {
        spec.rank = 1;
        spec.open_network = strcmp(join, "open") == 0;
        if (strcmp(join, "self") != 0 && !spec.open_network)
            spec.join = (pid_t)strtol(join, NULL, 10);
    }
    int rc = cc_sandbox_enter(&spec, state, err);
    free(files);
    free(reads);
    free(dirs);
    return rc;
}
