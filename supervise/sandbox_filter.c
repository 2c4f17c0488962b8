/* The sandbox's seccomp filter through libseccomp, and the SIGSYS handler that names a forbidden
 * call before the worker dies (sandbox.h; the report's words are sandbox_report.c's). */
#define _GNU_SOURCE
#include "supervise/sandbox_filter.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "supervise/sandbox_report.h"

/* Calls that end the worker: a new program, a new process (clone without CLONE_THREAD is a fork;
 * threads stay allowed), new namespaces or mounts, another process's memory, io_uring (whose
 * operations no filter sees). */
static const char *const forbidden[] = {
    "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev",
    "tkill", "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "io_uring_setup",
    "io_uring_enter", "io_uring_register", "unshare", "setns", "mount", "umount2", "pivot_root",
    "chroot", "setsid", "kcmp", "move_mount", "open_tree", "fsopen", "fsmount",
};
/* Signals: allowed toward the worker itself (its first argument, the process, is its own pid;
 * raise and the threads' signals pass), forbidden toward any other. */
static const char *const signal_calls[] = {"kill", "tgkill", "rt_sigqueueinfo",
                                           "rt_tgsigqueueinfo"};

/* Writes what was tried, then makes the same kind of call again: with SIGSYS blocked in its own
 * handler the kernel ends the process by SIGSYS, whatever the engine did to its signals. */
static void on_sigsys(int sig, siginfo_t *info, void *context) {
    (void)sig;
    cc_sandbox_report r;
    memset(&r, 0, sizeof r);
    r.magic = CC_SANDBOX_REPORT_MAGIC;
    r.syscall = info->si_syscall;
#if defined(__x86_64__)
    const greg_t *g = ((ucontext_t *)context)->uc_mcontext.gregs;
    r.args[0] = (uint64_t)g[REG_RDI];
    r.args[1] = (uint64_t)g[REG_RSI];
    r.args[2] = (uint64_t)g[REG_RDX];
    r.args[3] = (uint64_t)g[REG_R10];
    r.args[4] = (uint64_t)g[REG_R8];
    r.args[5] = (uint64_t)g[REG_R9];
#else
    (void)context;
#endif
    ssize_t put = write(CC_SANDBOX_REPORT_FD, &r, sizeof r);
    (void)put;
    syscall(SYS_ptrace, 0, 0, 0, 0);
    _exit(128 + SIGSYS); /* not reached */
}

static int rule(scmp_filter_ctx ctx, uint32_t action, const char *name, unsigned n,
                const struct scmp_arg_cmp *cmp) {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) return 0; /* not a call of this architecture */
    return seccomp_rule_add_array(ctx, action, nr, n, cmp);
}

static int add_rules(scmp_filter_ctx ctx, int in_namespace, int cuda_driver,
                     int rank_datagrams) {
    int rc = 0;
    for (size_t i = 0; !rc && i < sizeof forbidden / sizeof *forbidden; i++)
        rc = rule(ctx, SCMP_ACT_TRAP, forbidden[i], 0, NULL);
    /* A fork through clone; clone3's flags are out of a filter's sight, so it is refused as if
     * the kernel lacked it, and glibc's threads fall back to clone. */
    struct scmp_arg_cmp not_thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0);
    if (!rc) rc = rule(ctx, SCMP_ACT_TRAP, "clone", 1, &not_thread);
    if (!rc) rc = rule(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL);
    struct scmp_arg_cmp other = SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)getpid());
    for (size_t i = 0; !rc && i < sizeof signal_calls / sizeof *signal_calls; i++)
        rc = rule(ctx, SCMP_ACT_TRAP, signal_calls[i], 1, &other);
    /* The report's descriptor and SIGSYS's handler stay as they are. */
    struct scmp_arg_cmp fd0 = SCMP_A0(SCMP_CMP_EQ, CC_SANDBOX_REPORT_FD);
    struct scmp_arg_cmp fd1 = SCMP_A1(SCMP_CMP_EQ, CC_SANDBOX_REPORT_FD);
    struct scmp_arg_cmp range[2] = {SCMP_A0(SCMP_CMP_LE, CC_SANDBOX_REPORT_FD),
                                    SCMP_A1(SCMP_CMP_GE, CC_SANDBOX_REPORT_FD)};
    struct scmp_arg_cmp sigsys = SCMP_A0(SCMP_CMP_EQ, SIGSYS);
    if (!rc) rc = rule(ctx, SCMP_ACT_TRAP, "close", 1, &fd0);
    if (!rc) rc = rule(ctx, SCMP_ACT_TRAP, "dup2", 1, &fd1);
    if (!rc) rc = rule(ctx, SCMP_ACT_TRAP, "dup3", 1, &fd1);
    if (!rc) rc = rule(ctx, SCMP_ACT_TRAP, "close_range", 2, range);
    if (!rc) rc = rule(ctx, SCMP_ACT_TRAP, "rt_sigaction", 1, &sigsys);
    /* Sockets: no unix socket (one bound to a path is reachable from any network namespace; the
     * CUDA driver's probe for an MPS server takes the refusal as no server); IP sockets only
     * where the namespace leaves them nothing outside to reach. */
    struct scmp_arg_cmp unix_family = SCMP_A0(SCMP_CMP_EQ, AF_UNIX);
    /* With the CUDA driver, unix sockets of every type but SOCK_SEQPACKET (its own). */
    struct scmp_arg_cmp unix_not_seqpacket[2] = {
        SCMP_A0(SCMP_CMP_EQ, AF_UNIX), SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, 0)};
    if (!rc && cuda_driver) {
        for (int type = SOCK_STREAM; !rc && type <= SOCK_PACKET; type++) {
            if (type == SOCK_SEQPACKET || (rank_datagrams && type == SOCK_DGRAM)) continue;
            unix_not_seqpacket[1] = SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)type);
            rc = rule(ctx, SCMP_ACT_ERRNO(EACCES), "socket", 2, unix_not_seqpacket);
        }
        struct scmp_arg_cmp other_family = SCMP_A0(SCMP_CMP_NE, AF_UNIX);
        if (!rc && !in_namespace) rc = rule(ctx, SCMP_ACT_ERRNO(EACCES), "socket", 1, &other_family);
    } else if (!rc && in_namespace)
        rc = rule(ctx, SCMP_ACT_ERRNO(EACCES), "socket", 1, &unix_family);
    else if (!rc)
        rc = rule(ctx, SCMP_ACT_ERRNO(EACCES), "socket", 0, NULL);
    return rc;
}

void sandbox_filter_install(int in_namespace, int cuda_driver, int rank_datagrams,
                            sandbox_filter_result *out) {
    memset(out, 0, sizeof *out);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSYS, &sa, NULL) != 0) {
        snprintf(out->why, sizeof out->why, "SIGSYS handler: %s", strerror(errno));
        return;
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        snprintf(out->why, sizeof out->why, "seccomp_init failed");
        return;
    }
    int rc = add_rules(ctx, in_namespace, cuda_driver, rank_datagrams);
    if (rc) snprintf(out->why, sizeof out->why, "a rule: %s", strerror(-rc));
    else if ((rc = seccomp_load(ctx)) != 0)
        snprintf(out->why, sizeof out->why, "seccomp_load: %s", strerror(-rc));
    else out->loaded = 1;
    seccomp_release(ctx);
}
