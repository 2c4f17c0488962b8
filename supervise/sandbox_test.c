/* The sandbox on this machine: each probe runs in a child that enters it and tries one thing.
 * What is denied fails with the errno the engine would see, what is forbidden ends the child by
 * SIGSYS with a report naming the call, and what a worker needs (its scratch directory, threads)
 * still works. The same probes outside the sandbox succeed, so each check can fail. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "supervise/sandbox.h"
#include "testing/check.h"

typedef struct place {
    char outside[256]; /* a directory outside the scratch one, with a secret in it */
    char scratch[256];
    int port;          /* a listener on 127.0.0.1 */
} place;

typedef struct outcome {
    int status;        /* the child's wait status */
    int result;        /* what the probe wrote: 0 or an errno; -1 when nothing */
    uint32_t parts;
    cc_sandbox_report report; /* magic 0: none */
} outcome;

static void *nothing(void *arg) { return arg; }

static void *wait_gate(void *fd) {
    char c;
    return read(*(int *)fd, &c, 1) == 1 ? NULL : fd;
}

/* One attempt; returns 0 when it succeeded, else its errno. */
static int probe(const char *what, const place *p) {
    char path[300];
    if (!strcmp(what, "read-outside")) {
        snprintf(path, sizeof path, "%s/secret", p->outside);
        int fd = open(path, O_RDONLY);
        return fd >= 0 ? 0 : errno;
    }
    if (!strcmp(what, "write-outside") || !strcmp(what, "write-scratch")) {
        snprintf(path, sizeof path, "%s/written", what[6] == 'o' ? p->outside : p->scratch);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        return fd >= 0 ? 0 : errno;
    }
    if (!strcmp(what, "parent-environ")) {
        snprintf(path, sizeof path, "/proc/%d/environ", (int)getppid());
        int fd = open(path, O_RDONLY);
        return fd >= 0 ? 0 : errno;
    }
    if (!strcmp(what, "thread")) {
        pthread_t t;
        int rc = pthread_create(&t, NULL, nothing, NULL);
        if (!rc) pthread_join(t, NULL);
        return rc;
    }
    if (!strcmp(what, "tcp")) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s < 0) return errno;
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)p->port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return connect(s, (struct sockaddr *)&a, sizeof a) == 0 ? 0 : errno;
    }
    if (!strcmp(what, "unix-socket")) return socket(AF_UNIX, SOCK_STREAM, 0) >= 0 ? 0 : errno;
    if (!strcmp(what, "unix-dgram")) return socket(AF_UNIX, SOCK_DGRAM, 0) >= 0 ? 0 : errno;
    if (!strcmp(what, "unix-seqpacket"))
        return socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0) >= 0 ? 0 : errno;
    if (!strcmp(what, "name-thread")) { /* another thread's name: /proc/self/task/TID/comm */
        int gate[2];
        pthread_t t;
        if (pipe(gate) || pthread_create(&t, NULL, wait_gate, &gate[0])) return EAGAIN;
        int rc = pthread_setname_np(t, "cc-named");
        if (write(gate[1], "x", 1) != 1) rc = EIO;
        pthread_join(t, NULL);
        return rc;
    }
    if (!strcmp(what, "exec")) {
        char *argv[] = {"sh", "-c", "true", NULL};
        execv("/bin/sh", argv);
        return errno;
    }
    if (!strcmp(what, "fork")) {
        pid_t pid = fork();
        if (pid == 0) _exit(0);
        return pid > 0 ? 0 : errno;
    }
    if (!strcmp(what, "kill-parent")) return kill(getppid(), SIGUSR1) == 0 ? 0 : errno;
    return EINVAL;
}

static void run(const char *what, const place *p, int sandboxed, outcome *o) {
    memset(o, 0, sizeof *o);
    o->result = -1;
    int result[2], report[2];
    if (pipe(result) || pipe(report)) return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(result[0]);
        close(report[0]);
        dup2(report[1], CC_SANDBOX_REPORT_FD);
        cc_sandbox_state st = {0};
        if (sandboxed) {
            cc_error err;
            if (cc_sandbox_enter(&(cc_sandbox_spec){.scratch = p->scratch}, &st, &err)) _exit(3);
        }
        int r[2] = {(int)st.parts, probe(what, p)};
        if (write(result[1], r, sizeof r) != (ssize_t)sizeof r) _exit(4);
        _exit(0);
    }
    close(result[1]);
    close(report[1]);
    waitpid(pid, &o->status, 0);
    int r[2];
    if (read(result[0], r, sizeof r) == (ssize_t)sizeof r) {
        o->parts = (uint32_t)r[0];
        o->result = r[1];
    }
    if (read(report[0], &o->report, sizeof o->report) != (ssize_t)sizeof o->report)
        memset(&o->report, 0, sizeof o->report);
    close(result[0]);
    close(report[0]);
}

static volatile sig_atomic_t usr1_seen;
static void on_usr1(int sig) {
    (void)sig;
    usr1_seen = 1;
}

/* A probe the sandbox denies: the errno it gets (want), and 0 outside the sandbox. */
static void denied(checks *t, const char *what, const place *p, int want) {
    outcome in, out;
    run(what, p, 1, &in);
    run(what, p, 0, &out);
    CHECKF(t, in.result == want, "%s in the sandbox: %s, expected %s", what,
           in.result < 0 ? "no result" : strerror(in.result), strerror(want));
    CHECKF(t, out.result == 0, "%s outside the sandbox: %s", what,
           out.result < 0 ? "no result" : strerror(out.result));
}

/* A probe the sandbox forbids: the child dies by SIGSYS, its report naming the call. */
static void forbidden(checks *t, const char *what, const place *p, const char *words) {
    outcome o;
    run(what, p, 1, &o);
    char text[200] = "";
    if (o.report.magic == CC_SANDBOX_REPORT_MAGIC)
        cc_sandbox_report_describe(&o.report, getpid(), text, sizeof text);
    CHECKF(t, WIFSIGNALED(o.status) && WTERMSIG(o.status) == SIGSYS && strstr(text, words),
           "%s: status %#x, report '%s', expected death by SIGSYS naming '%s'", what, o.status,
           text, words);
    printf("  %s: ended by SIGSYS: %s\n", what, text);
}

int main(void) {
    checks checks_run = {.name = "sandbox_test"}, *t = &checks_run;
    place p;
    const char *tmp = getenv("TEST_TMPDIR");
    snprintf(p.outside, sizeof p.outside, "%s/outside-XXXXXX", tmp ? tmp : "/tmp");
    cc_error err;
    int lock;
    if (!mkdtemp(p.outside) || cc_sandbox_scratch_make(p.scratch, sizeof p.scratch, &lock, &err)) {
        fprintf(stderr, "sandbox_test: cannot make its directories\n");
        return 1;
    }
    char secret[300];
    snprintf(secret, sizeof secret, "%s/secret", p.outside);
    FILE *f = fopen(secret, "w");
    if (f) fclose(f);
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (listener < 0 || bind(listener, (struct sockaddr *)&a, sizeof a) || listen(listener, 8) ||
        getsockname(listener, (struct sockaddr *)&a, &len)) {
        fprintf(stderr, "sandbox_test: no listener: %s\n", strerror(errno));
        return 1;
    }
    p.port = ntohs(a.sin_port);
    signal(SIGUSR1, on_usr1);

    outcome o;
    run("write-scratch", &p, 1, &o);
    char parts[200];
    cc_sandbox_parts_describe(o.parts, parts, sizeof parts);
    printf("in force here: %s\n", parts);
    /* Everything but the environment (the supervisor's part) on this kernel (Landlock ABI 7,
     * namespaces and seccomp allowed, as sandbox-mechanisms notes). */
    CHECKF(t, o.parts == (CC_SANDBOX_ALL & ~CC_SANDBOX_ENVIRONMENT), "parts in force: %s", parts);
    CHECKF(t, o.result == 0, "writing in the scratch directory: %s",
           o.result < 0 ? "no result" : strerror(o.result));
    run("thread", &p, 1, &o);
    CHECKF(t, o.result == 0, "a thread in the sandbox: %s",
           o.result < 0 ? "no result" : strerror(o.result));

    denied(t, "read-outside", &p, EACCES);
    denied(t, "write-outside", &p, EACCES);
    denied(t, "parent-environ", &p, EACCES);
    denied(t, "unix-socket", &p, EACCES);
    denied(t, "unix-dgram", &p, EACCES);
    /* The CUDA driver's own needs (developing.md, "The workers' sandbox"): naming its threads
     * everywhere; seqpacket unix sockets only where the driver is. */
    run("name-thread", &p, 1, &o);
    CHECKF(t, o.result == 0, "naming another thread of the worker: %s",
           o.result < 0 ? "no result" : strerror(o.result));
    if (access("/dev/nvidiactl", F_OK) == 0) {
        run("unix-seqpacket", &p, 1, &o);
        CHECKF(t, o.result == 0, "a unix seqpacket socket where the CUDA driver is: %s",
               o.result < 0 ? "no result" : strerror(o.result));
    } else {
        denied(t, "unix-seqpacket", &p, EACCES);
    }
    run("tcp", &p, 1, &o);
    CHECKF(t, o.result == ECONNREFUSED || o.result == ENETUNREACH,
           "connect to 127.0.0.1 in the sandbox: %s",
           o.result < 0 ? "no result" : strerror(o.result));
    CHECKF(t, accept(listener, NULL, NULL) < 0 && errno == EAGAIN,
           "the listener got a connection from the sandbox");
    run("tcp", &p, 0, &o); /* the control: this one reaches it */
    CHECKF(t, o.result == 0 && accept(listener, NULL, NULL) >= 0, "connect outside the sandbox");

    forbidden(t, "exec", &p, "execve(2)");
    forbidden(t, "fork", &p, "clone(2) of a new process");
    forbidden(t, "kill-parent", &p, "kill(2) toward pid");
    CHECK(t, !usr1_seen);
    run("kill-parent", &p, 0, &o);
    CHECK(t, o.result == 0 && usr1_seen);

    CHECK(t, cc_sandbox_env_allowed("OMP_NUM_THREADS=3", NULL));
    CHECK(t, cc_sandbox_env_allowed("CUDA_VISIBLE_DEVICES=0", NULL));
    CHECK(t, cc_sandbox_env_allowed("PATH=/usr/bin", NULL));
    CHECK(t, !cc_sandbox_env_allowed("GITHUB_TOKEN=x", NULL));
    CHECK(t, !cc_sandbox_env_allowed("HOME=/root", NULL));
    CHECK(t, !cc_sandbox_env_allowed("PATHOLOGICAL=1", NULL));
    CHECK(t, !cc_sandbox_env_allowed("CUDA_CACHE_PATH=/root/.nv", NULL));
    CHECK(t, !cc_sandbox_env_allowed("LD_PRELOAD=/tmp/x.so", NULL));
    CHECK(t, cc_sandbox_env_allowed("MY_PLUGIN_MODE=fast", "OTHER,MY_PLUGIN_MODE"));
    CHECK(t, !cc_sandbox_env_allowed("MY_PLUGIN=fast", "OTHER,MY_PLUGIN_MODE"));

    /* A sweep leaves a scratch directory in use alone, and removes one whose supervisor is gone
     * (its lock let go without the removal, as a killed one lets it go). */
    char left[256];
    int left_lock;
    struct stat s;
    CHECK(t, cc_sandbox_scratch_make(left, sizeof left, &left_lock, &err) == CC_OK);
    close(left_lock);
    cc_sandbox_scratch_sweep();
    CHECKF(t, stat(p.scratch, &s) == 0, "the sweep removed a scratch directory in use");
    CHECKF(t, stat(left, &s) != 0 && errno == ENOENT, "the sweep left %s behind", left);
    CHECK(t, cc_sandbox_scratch_remove(p.scratch, lock, &err) == CC_OK);
    CHECK(t, stat(p.scratch, &s) != 0 && errno == ENOENT);
    printf("%s: %ld checks, %ld failed\n", t->name, t->run, t->failed);
    return t->failed != 0;
}
