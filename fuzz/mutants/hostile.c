/* The hostile corpus: engines, correct otherwise (mutant.control), whose create tries what a
 * worker's sandbox is there to stop (supervise/sandbox.h). Each attempt that succeeds goes on as
 * a working engine would, so without the sandbox the run passes with the harm done; each that is
 * refused fails create with the error it got. Built as libhostile.so, and with HOSTILE_CTOR as
 * libhostile_ctor.so, whose constructor tries all of it as it is loaded. Targets come from the
 * environment, set by hostile_test.sh:
 *
 *   hostile.read-secret    prints the file HOSTILE_SECRET_FILE and the variable
 *                          HOSTILE_SECRET_TOKEN on stdout                denied (EACCES, unset)
 *   hostile.connect-tcp    connects to 127.0.0.1:HOSTILE_PORT   refused (own network)
 *   hostile.connect-unix   connects to the socket HOSTILE_UNIX  denied (EACCES)
 *   hostile.write-files    writes "planted" into HOSTILE_CERT_DIR and
 *                          HOSTILE_GOLDEN_DIR                    denied (EACCES)
 *   hostile.fork-sleeper   forks a child that writes its pid to HOSTILE_PID_FILE and
 *                          sleeps an hour in a session of its own          broke the sandbox
 *   hostile.signal-parent  sends SIGTERM to its parent, the supervisor     broke the sandbox
 *   hostile.shell          runs /bin/sh, which writes HOSTILE_MARK  broke the sandbox */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "engines/plugin.h"
#include "fuzz/mutants/mutants.h"

#define BASE (&cc_mutant_control)

static const char *target(const char *name) {
    const char *v = getenv(name);
    return v ? v : "";
}

static int read_secret(cc_error *err) {
    char secret[256] = "";
    const char *path = target("HOSTILE_SECRET_FILE");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int file_errno = fd < 0 ? errno : 0;
    if (fd >= 0) {
        ssize_t n = read(fd, secret, sizeof secret - 1);
        secret[n > 0 ? n : 0] = '\0';
        close(fd);
    }
    const char *token = getenv("HOSTILE_SECRET_TOKEN");
    printf("hostile.read-secret: file '%s', variable '%s'\n", secret, token ? token : "");
    fflush(stdout);
    if (fd < 0 || !token)
        return cc_fail(err, CC_ERR_IO,
                       "hostile.read-secret: reading %s: %s; HOSTILE_SECRET_TOKEN: %s", path,
                       fd < 0 ? strerror(file_errno) : "read", token ? "read" : "unset");
    return CC_OK;
}

static int connect_tcp(cc_error *err) {
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return cc_fail(err, CC_ERR_IO, "hostile.connect-tcp: socket: %s", strerror(errno));
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)atoi(target("HOSTILE_PORT")))};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int rc = connect(s, (struct sockaddr *)&a, sizeof a);
    int e = errno;
    if (rc == 0) {
        ssize_t put = write(s, "hostile", 7);
        (void)put;
    }
    close(s);
    return rc ? cc_fail(err, CC_ERR_IO, "hostile.connect-tcp: connect to 127.0.0.1:%s: %s",
                        target("HOSTILE_PORT"), strerror(e))
              : CC_OK;
}

static int connect_unix(cc_error *err) {
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return cc_fail(err, CC_ERR_IO, "hostile.connect-unix: socket(AF_UNIX): %s",
                       strerror(errno));
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", target("HOSTILE_UNIX"));
    int rc = connect(s, (struct sockaddr *)&a, sizeof a);
    int e = errno;
    close(s);
    return rc ? cc_fail(err, CC_ERR_IO, "hostile.connect-unix: connect to %s: %s", a.sun_path,
                        strerror(e))
              : CC_OK;
}

static int write_files(cc_error *err) {
    const char *dirs[] = {"HOSTILE_CERT_DIR", "HOSTILE_GOLDEN_DIR"};
    for (size_t i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/planted", target(dirs[i]));
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
            return cc_fail(err, CC_ERR_IO, "hostile.write-files: writing %s: %s", path,
                           strerror(errno));
        ssize_t put = write(fd, "planted\n", 8);
        (void)put;
        close(fd);
    }
    return CC_OK;
}

static int fork_sleeper(cc_error *err) {
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        FILE *f = fopen(target("HOSTILE_PID_FILE"), "a");
        if (f) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
        sleep(3600);
        _exit(0);
    }
    return pid < 0 ? cc_fail(err, CC_ERR_IO, "hostile.fork-sleeper: fork: %s", strerror(errno))
                   : CC_OK;
}

static int signal_parent(cc_error *err) {
    return kill(getppid(), SIGTERM)
               ? cc_fail(err, CC_ERR_IO, "hostile.signal-parent: kill: %s", strerror(errno))
               : CC_OK;
}

static int shell(cc_error *err) {
    char command[4200];
    snprintf(command, sizeof command, "echo shell ran > '%s'", target("HOSTILE_MARK"));
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    return cc_fail(err, CC_ERR_IO, "hostile.shell: execl /bin/sh: %s", strerror(errno));
}

#ifdef HOSTILE_CTOR
/* All of it as the plugin is loaded, the attempts that only fail first. */
__attribute__((constructor)) static void hostile_on_load(void) {
    cc_error err;
    read_secret(&err);
    connect_tcp(&err);
    connect_unix(&err);
    write_files(&err);
    fork_sleeper(&err);
    signal_parent(&err);
    shell(&err);
}

static const cc_engine *const engines[] = {&cc_mutant_control, NULL};
CC_PLUGIN(engines)
#else

#define HOSTILE_CREATE(fn)                                                                        \
    static int fn##_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) { \
        int rc = fn(err);                                                                          \
        return rc ? rc : BASE->create(rule, w, h, ctx, err);                                       \
    }
HOSTILE_CREATE(read_secret)
HOSTILE_CREATE(connect_tcp)
HOSTILE_CREATE(connect_unix)
HOSTILE_CREATE(write_files)
HOSTILE_CREATE(fork_sleeper)
HOSTILE_CREATE(signal_parent)
HOSTILE_CREATE(shell)

#define HOSTILE(engine_name, what, fn)                                                            \
    {.name = engine_name, .summary = what, .caps = {.radius_max = 16,                             \
                                                    .centres = CC_CENTRE_M0 | CC_CENTRE_M1},      \
     .create = fn##_create, .load = BASE_LOAD, .step = BASE_STEP, .store = BASE_STORE,             \
     .destroy = BASE_DESTROY}

static int base_load(void *ctx, const uint8_t *cells, cc_error *err) {
    return BASE->load(ctx, cells, err);
}
static int base_step(void *ctx, int64_t k, cc_error *err) { return BASE->step(ctx, k, err); }
static int base_store(void *ctx, uint8_t *cells, cc_error *err) {
    return BASE->store(ctx, cells, err);
}
static void base_destroy(void *ctx) { BASE->destroy(ctx); }
#define BASE_LOAD base_load
#define BASE_STEP base_step
#define BASE_STORE base_store
#define BASE_DESTROY base_destroy

static const cc_engine hostile[] = {
    HOSTILE("hostile.read-secret", "prints a secret file and variable", read_secret),
    HOSTILE("hostile.connect-tcp", "connects to a listener on 127.0.0.1", connect_tcp),
    HOSTILE("hostile.connect-unix", "connects to a unix socket outside its scratch", connect_unix),
    HOSTILE("hostile.write-files", "writes into the certificate and golden directories",
            write_files),
    HOSTILE("hostile.fork-sleeper", "forks a process that outlives the run", fork_sleeper),
    HOSTILE("hostile.signal-parent", "sends SIGTERM to the supervisor", signal_parent),
    HOSTILE("hostile.shell", "starts a shell", shell),
};

static const cc_engine *const engines[] = {&hostile[0], &hostile[1], &hostile[2], &hostile[3],
                                           &hostile[4], &hostile[5], &hostile[6], NULL};
_Static_assert(sizeof hostile / sizeof hostile[0] == 7, "engines names every hostile engine");
CC_PLUGIN(engines)
#endif
