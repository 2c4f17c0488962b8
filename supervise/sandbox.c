/* Entering the sandbox (sandbox.h): a user and network namespace, the limits, no new privileges,
 * Landlock over the filesystem, then the seccomp filter (sandbox_filter.c), in that order: each
 * step needs what the later ones forbid. */
#define _GNU_SOURCE
#include "supervise/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "supervise/sandbox_filter.h"

/* Landlock's interface (linux/landlock.h), spelled out: the build machine's headers may predate
 * the kernel it runs on. */
#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_EXECUTE (1ull << 0)
#define LL_WRITE_FILE (1ull << 1)
#define LL_READ_FILE (1ull << 2)
#define LL_READ_DIR (1ull << 3)
#define LL_ABI1_ALL ((1ull << 13) - 1) /* execute .. make_sym */
#define LL_REFER (1ull << 13)          /* ABI 2 */
#define LL_TRUNCATE (1ull << 14)       /* ABI 3 */
#define LL_SCOPE_ABSTRACT_UNIX (1ull << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ull << 1)        /* ABI 6 */
#define LL_FILE_RIGHTS (LL_EXECUTE | LL_WRITE_FILE | LL_READ_FILE | LL_TRUNCATE)

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

typedef struct ll_ruleset_attr {
    uint64_t handled_access_fs, handled_access_net, scoped;
} ll_ruleset_attr;

typedef struct __attribute__((packed)) ll_path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} ll_path_beneath;

/* The system's read-only paths a worker needs: the loader's and the libraries' (the CUDA driver
 * and toolkit under /usr), /proc and /sys (the driver's and OpenMP's reads). A process's /proc
 * entries that need ptrace rights (environ, mem) stay closed: Landlock denies them toward any
 * process outside the sandbox. */
static const char *const system_reads[] = {
    "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc/ld.so.cache", "/etc/ld.so.conf",
    "/etc/ld.so.conf.d", "/etc/localtime", "/proc", "/sys",
};
/* Device nodes read and written; /dev/nvidia* is added by name. */
static const char *const device_nodes[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random",
                                           "/dev/urandom"};

static void note(cc_sandbox_state *st, const char *fmt, ...) {
    size_t used = strlen(st->why);
    if (used + 1 >= sizeof st->why) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->why + used, sizeof st->why - used, fmt, ap);
    va_end(ap);
}

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The user and network namespaces of worker `pid` (a rank joining rank 0's): its loopback is up
 * already. As their owner, this process may enter them. */
static int join_namespaces(cc_sandbox_state *st, pid_t pid) {
    static const char *const kinds[] = {"user", "net"};
    static const int types[] = {CLONE_NEWUSER, CLONE_NEWNET};
    for (int i = 0; i < 2; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/ns/%s", (int)pid, kinds[i]);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || setns(fd, types[i]) != 0) {
            note(st, "network namespace: joining worker %d's %s namespace: %s (sockets of every "
                     "family refused instead); ",
                 (int)pid, kinds[i], strerror(errno));
            if (fd >= 0) close(fd);
            return -1;
        }
        close(fd);
    }
    return 0;
}

/* Its own user namespace (the same ids mapped, so files keep their owners) and network namespace
 * with its loopback up: sockets reach only this worker. */
static int enter_namespaces(cc_sandbox_state *st, pid_t join) {
    if (join > 0) return join_namespaces(st, join);
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
        note(st, "network namespace: unshare: %s (sockets of every family refused instead); ",
             strerror(errno));
        return -1;
    }
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT)
        note(st, "setgroups: %s; ", strerror(errno));
    if (write_file("/proc/self/uid_map", map) != 0) note(st, "uid_map: %s; ", strerror(errno));
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    if (write_file("/proc/self/gid_map", map) != 0) note(st, "gid_map: %s; ", strerror(errno));
    /* The loopback up, for engines whose libraries talk to themselves (NCCL's bootstrap). */
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s >= 0) {
        struct ifreq ifr;
        memset(&ifr, 0, sizeof ifr);
        snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
        if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
            ifr.ifr_flags |= IFF_UP;
            if (ioctl(s, SIOCSIFFLAGS, &ifr) != 0) note(st, "loopback up: %s; ", strerror(errno));
        }
        close(s);
    }
    return 0;
}

static int set_limits(cc_sandbox_state *st) {
    struct rlimit none = {0, 0}, files;
    int ok = setrlimit(RLIMIT_CORE, &none) == 0;
    if (!ok) note(st, "limits: RLIMIT_CORE: %s; ", strerror(errno));
    if (getrlimit(RLIMIT_FSIZE, &files) == 0) {
        if (files.rlim_max == RLIM_INFINITY || files.rlim_max > CC_SANDBOX_FILE_BYTES)
            files.rlim_max = CC_SANDBOX_FILE_BYTES;
        if (files.rlim_cur == RLIM_INFINITY || files.rlim_cur > files.rlim_max)
            files.rlim_cur = files.rlim_max;
        if (setrlimit(RLIMIT_FSIZE, &files) != 0) {
            note(st, "limits: RLIMIT_FSIZE: %s; ", strerror(errno));
            ok = 0;
        }
    }
    /* RLIMIT_NPROC is not set: it counts every process of the user on the machine (all of
     * root's, in CI), so no bound fits; fork is refused by the filter instead. */
    return ok ? 0 : -1;
}

/* One path beneath rule; a path that does not exist is skipped. Returns -1 with errno on a
 * failure other than a missing path. */
static int allow(int ruleset, const char *path, uint64_t access, uint64_t handled) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? 0 : -1;
    struct stat s;
    if (fstat(fd, &s) == 0 && !S_ISDIR(s.st_mode)) access &= LL_FILE_RIGHTS;
    ll_path_beneath rule = {.allowed_access = access & handled, .parent_fd = fd};
    long rc = syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc == 0 ? 0 : -1;
}

/* The GPU's device nodes, read and written: /dev/nvidia0, nvidiactl, nvidia-uvm, ... and the
 * nvidia-caps directory. */
static int allow_gpu_nodes(int ruleset, uint64_t rw, uint64_t handled) {
    DIR *d = opendir("/dev");
    if (!d) return 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "nvidia", 6) != 0) continue;
        char path[300];
        snprintf(path, sizeof path, "/dev/%s", e->d_name);
        rc = allow(ruleset, path, rw, handled);
    }
    closedir(d);
    return rc;
}

static int cuda_driver_here(void) { return access("/dev/nvidiactl", F_OK) == 0; }

/* Landlock: what the worker may read, and write, and nothing else. */
static int enter_landlock(const cc_sandbox_spec *spec, cc_sandbox_state *st) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    if (abi < 1) {
        note(st, "filesystem: Landlock is not in this kernel (%s); ", strerror(errno));
        return -1;
    }
    st->landlock_abi = (int)abi;
    ll_ruleset_attr attr = {.handled_access_fs = LL_ABI1_ALL};
    size_t attr_size = sizeof attr.handled_access_fs;
    if (abi >= 2) attr.handled_access_fs |= LL_REFER;
    if (abi >= 3) attr.handled_access_fs |= LL_TRUNCATE;
    if (abi >= 4) attr_size = 2 * sizeof(uint64_t); /* TCP is the network namespace's */
    if (abi >= 6) {
        /* A rank on a GPU leaves abstract names to its ranks' namespace: NCCL's proxy sockets go
         * between ranks, each in a Landlock domain of its own. */
        attr.scoped = (spec->rank && cuda_driver_here() ? 0 : LL_SCOPE_ABSTRACT_UNIX) |
                      LL_SCOPE_SIGNAL;
        attr_size = sizeof attr;
    }
    const uint64_t handled = attr.handled_access_fs;
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
    if (ruleset < 0) {
        note(st, "filesystem: landlock_create_ruleset: %s; ", strerror(errno));
        return -1;
    }
    const uint64_t read = LL_EXECUTE | LL_READ_FILE | LL_READ_DIR;
    const uint64_t rw = LL_READ_FILE | LL_WRITE_FILE | LL_TRUNCATE;
    const char *failed = NULL;
    for (size_t i = 0; !failed && i < sizeof system_reads / sizeof *system_reads; i++)
        if (allow(ruleset, system_reads[i], read, handled)) failed = system_reads[i];
    for (size_t i = 0; !failed && i < spec->nread; i++)
        if (spec->read_paths[i] && allow(ruleset, spec->read_paths[i], read, handled))
            failed = spec->read_paths[i];
    for (size_t i = 0; !failed && i < sizeof device_nodes / sizeof *device_nodes; i++)
        if (allow(ruleset, device_nodes[i], rw, handled)) failed = device_nodes[i];
    if (!failed && allow_gpu_nodes(ruleset, rw, handled)) failed = "/dev/nvidia*";
    /* The worker's own threads' files: the CUDA driver names its threads by writing their comm
     * (refused, it does not start); /proc/self resolves to this process before the rule. */
    if (!failed && allow(ruleset, "/proc/self/task", rw | LL_READ_DIR, handled))
        failed = "/proc/self/task";
    if (!failed && allow(ruleset, spec->scratch, handled, handled)) failed = spec->scratch;
    if (failed) {
        note(st, "filesystem: Landlock rule for %s: %s; ", failed, strerror(errno));
        close(ruleset);
        return -1;
    }
    long rc = syscall(SYS_landlock_restrict_self, ruleset, 0);
    int saved = errno;
    close(ruleset);
    if (rc != 0) {
        note(st, "filesystem: landlock_restrict_self: %s; ", strerror(saved));
        return -1;
    }
    return 0;
}

int cc_sandbox_enter(const cc_sandbox_spec *spec, cc_sandbox_state *st, cc_error *err) {
    memset(st, 0, sizeof *st);
    if (!spec || !spec->scratch || spec->scratch[0] != '/' || (spec->nread && !spec->read_paths))
        return cc_fail(err, CC_ERR_ARG, "sandbox: no scratch directory (an absolute path) given");
    if (spec->open_network)
        note(st, "network: open: a rank under a launcher reaches the ranks on other hosts over "
                 "this host's network; ");
    else st->namespace = enter_namespaces(st, spec->join) == 0;
    const int sockets = st->namespace || spec->open_network;
    if (set_limits(st) == 0) st->parts |= CC_SANDBOX_LIMITS;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) st->parts |= CC_SANDBOX_PRIVILEGES;
    else note(st, "privileges: PR_SET_NO_NEW_PRIVS: %s; ", strerror(errno));
    /* The CUDA driver needs unix SOCK_SEQPACKET sockets (its probe for an MPS server, and a
     * socket bound to an abstract name that passes its UVM descriptor): refused, it does not start
     * (cudaErrorOperatingSystem, H200 runner, driver 580). Where it is, they stay open, and the
     * network part says it is narrowed: the namespace still hides every IP address, stream and
     * datagram unix sockets are still refused, abstract names are Landlock's scope. */
    const int cuda_driver = cuda_driver_here();
    const int rank_datagrams = cuda_driver && spec->rank && sockets;
    if ((st->parts & CC_SANDBOX_PRIVILEGES) && enter_landlock(spec, st) == 0)
        st->parts |= CC_SANDBOX_FILESYSTEM;
    sandbox_filter_result filter;
    sandbox_filter_install(sockets, cuda_driver, rank_datagrams, &filter);
    if (filter.loaded) {
        /* Without the namespace the filter refuses sockets of every family. */
        st->parts |= CC_SANDBOX_NETWORK | CC_SANDBOX_PROCESSES | CC_SANDBOX_SIGNALS;
        if (spec->open_network) {
            st->parts &= ~(uint32_t)CC_SANDBOX_NETWORK;
        } else if (rank_datagrams) {
            st->parts &= ~(uint32_t)CC_SANDBOX_NETWORK;
            /* Abstract names reach only the ranks' namespace; a path is the machine's. */
            note(st, "network: a GPU rank keeps unix datagram sockets for NCCL (one bound to a "
                     "path here is reachable); ");
        } else if (cuda_driver)
            note(st, "network: narrowed: unix SOCK_SEQPACKET sockets stay open for the CUDA "
                     "driver (its MPS probe and UVM descriptor socket); ");
    } else {
        note(st, "network, processes, signals: seccomp: %s; ", filter.why);
    }
    size_t n = strlen(st->why);
    if (n >= 2 && st->why[n - 2] == ';') st->why[n - 2] = '\0';
    return CC_OK;
}
