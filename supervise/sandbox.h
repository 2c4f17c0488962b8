/* The sandbox every worker enters before any engine or plugin code runs (its plugins' constructors
 * included), and what the supervisor does for it: the worker's clean environment, its private
 * scratch directory, and the reading of what a worker that broke the sandbox tried.
 *
 * The parts, each by the kernel's own mechanism where this machine has it:
 *   network      its own network namespace (a private loopback; nothing outside is reachable),
 *                and no new unix sockets (seccomp: socket(AF_UNIX) fails with EACCES), since a
 *                network namespace does not hide unix sockets bound to a path; without the
 *                namespace, socket() fails for every family
 *   filesystem   Landlock: system libraries, /proc and /sys, the executable, the plugins and the
 *                paths named read-only; the GPU's device nodes and /dev/null-like nodes read and
 *                written; a private scratch directory (HOME, TMPDIR, the CUDA JIT cache) read and
 *                written; nothing else (not the home directory, the checkout, the certificate or
 *                golden directories)
 *   environment  only an allowlist of variables (cc_sandbox_env_allowed): never the caller's
 *   processes    no fork, exec or new namespace (seccomp); the worker leads its process group
 *   signals      no signal, ptrace or memory access toward another process (seccomp; Landlock's
 *                scopes as well where the kernel has them)
 *   privileges   PR_SET_NO_NEW_PRIVS
 *   limits       no core dumps, files up to CC_SANDBOX_FILE_BYTES
 * A system call the sandbox forbids outright (fork, exec, a signal to another process, ptrace,
 * io_uring, unshare) ends the worker by SIGSYS after it writes a cc_sandbox_report naming the
 * call to CC_SANDBOX_REPORT_FD; what the sandbox only denies (a file outside the allowed paths, a
 * unix socket) fails with an error the engine sees.
 *
 * A part this machine cannot enforce is left out, and cc_sandbox_enter says which and why:
 * certify names it as a gap. No function here exits; errors are codes with messages. */
#ifndef CELLCHECK_SUPERVISE_SANDBOX_H
#define CELLCHECK_SUPERVISE_SANDBOX_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "oracle/error.h"
#include "supervise/sandbox_report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cc_sandbox_part {
    CC_SANDBOX_NETWORK = 1u << 0,
    CC_SANDBOX_FILESYSTEM = 1u << 1,
    CC_SANDBOX_ENVIRONMENT = 1u << 2,
    CC_SANDBOX_PROCESSES = 1u << 3,
    CC_SANDBOX_SIGNALS = 1u << 4,
    CC_SANDBOX_PRIVILEGES = 1u << 5,
    CC_SANDBOX_LIMITS = 1u << 6,
    CC_SANDBOX_ALL = (1u << 7) - 1u
} cc_sandbox_part;

/* The variable that makes a worker a rank (cc_sandbox_spec.rank): "self" for rank 0, "open" for a
 * rank under a launcher (cc_sandbox_spec.open_network), else the pid whose namespaces it joins
 * (cc_sandbox_spec.join); the supervisor sets it and drops any the caller's environment holds. */
#define CC_SANDBOX_JOIN_ENV "CELLCHECK_RANK_NAMESPACES"

/* The largest file a worker may write (RLIMIT_FSIZE). */
#define CC_SANDBOX_FILE_BYTES (1ull << 30)

typedef struct cc_sandbox_spec {
    const char *scratch;           /* the private directory, read and written */
    const char *const *read_paths; /* files or directories read (and executed): the executable,
                                    * the plugins; paths that do not exist are skipped */
    size_t nread;
    /* 0: a user and network namespace of its own. Otherwise the pid of a worker whose
     * namespaces it joins instead: the ranks of one engine share one loopback (theirs alone),
     * as processes on one host of a cluster share its network. */
    pid_t join;
    /* 1: a rank of an engine that runs as one process per device (rank 0 with join 0). Where
     * the CUDA driver is, its unix datagram sockets stay open for NCCL's proxy between the ranks,
     * and abstract unix names are left to the ranks' shared namespace rather than Landlock's
     * scope: the network part is then not in force (a datagram socket bound to a path on this
     * machine is reachable), and why says so. */
    int rank;
    /* 1: a rank under a launcher, whose other ranks are on other hosts: no namespace of its own,
     * this host's network reachable (the network part not in force, and why says so). */
    int open_network;
} cc_sandbox_spec;

typedef struct cc_sandbox_state {
    uint32_t parts;   /* CC_SANDBOX_* in force (environment: the supervisor's to add) */
    int landlock_abi; /* 0: none */
    int namespace;    /* 1: its own user and network namespace */
    char why[512];    /* why each part not in force is not: "filesystem: Landlock is not in this
                       * kernel (ENOSYS); " ... */
} cc_sandbox_state;

/* Enters the sandbox: the calling process (single-threaded, as a worker is before it loads
 * anything) and everything it starts afterwards. Sets up what this machine allows and says in
 * *state what is in force; returns an error only for a malformed spec. Installs a SIGSYS handler
 * that writes a cc_sandbox_report to CC_SANDBOX_REPORT_FD. */
int cc_sandbox_enter(const cc_sandbox_spec *spec, cc_sandbox_state *state, cc_error *err);

/* ---- The supervisor's side ----------------------------------------------------------------- */

/* 1 when an environment entry ("NAME=value") may reach a worker: OMP_*, GOMP_*, CUDA_*, NCCL_*,
 * CELLCHECK_*, PATH, LD_LIBRARY_PATH, LANG, LC_ALL, TZ, MALLOC_PERTURB_, the sanitizers'
 * options, and the names listed in extra (comma-separated; CELLCHECK_WORKER_ENV's value, a
 * plugin's own settings; NULL: none). HOME, TMPDIR and CUDA_CACHE_PATH are the scratch
 * directory's. */
int cc_sandbox_env_allowed(const char *entry, const char *extra);

/* Makes a private scratch directory (mode 0700) under $TMPDIR, else /tmp, into path, and holds a
 * lock on it through *lock (a descriptor closed on exec) for as long as it is in use: one whose
 * lock nobody holds was left by a supervisor that was killed (cc_sandbox_scratch_sweep). */
int cc_sandbox_scratch_make(char *path, size_t size, int *lock, cc_error *err);
/* Removes it and everything in it (symbolic links are removed, never followed), then closes
 * lock (-1: none). */
int cc_sandbox_scratch_remove(const char *path, int lock, cc_error *err);
/* Removes this user's scratch directories under $TMPDIR (else /tmp) whose lock no process
 * holds: those of supervisors that were killed (a lock is let go with its process, in whatever
 * PID namespace it ran). */
void cc_sandbox_scratch_sweep(void);

/* "network, filesystem, ..." for the parts set (or "none"). */
void cc_sandbox_parts_describe(uint32_t parts, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
