/* The words for a sandbox report (sandbox_report.h). */
#define _GNU_SOURCE /* sigabbrev_np */
#include "supervise/sandbox_report.h"

#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *signal_name(uint64_t sig) {
    const char *name = sig < 65 ? sigabbrev_np((int)sig) : NULL;
    return name ? name : "a signal";
}

void cc_sandbox_report_describe(const cc_sandbox_report *r, pid_t supervisor, char *buf,
                                size_t size) {
    char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, r->syscall);
    const char *call = name ? name : "a system call";
    char whom[64];
    int64_t pid = (int64_t)r->args[0];
    snprintf(whom, sizeof whom, "pid %lld%s", (long long)pid,
             pid == (int64_t)supervisor ? " (the supervisor)"
             : pid == 0                 ? " (its process group)"
             : pid == -1                ? " (every process)"
                                        : "");
    if (!strcmp(call, "kill") || !strcmp(call, "rt_sigqueueinfo"))
        snprintf(buf, size, "%s(2) toward %s with SIG%s", call, whom, signal_name(r->args[1]));
    else if (!strcmp(call, "tgkill") || !strcmp(call, "rt_tgsigqueueinfo"))
        snprintf(buf, size, "%s(2) toward %s with SIG%s", call, whom, signal_name(r->args[2]));
    else if (!strcmp(call, "clone") || !strcmp(call, "fork") || !strcmp(call, "vfork"))
        snprintf(buf, size, "%s(2) of a new process (fork)", call);
    else if (!strcmp(call, "ptrace"))
        snprintf(buf, size, "ptrace(2) request %llu toward pid %lld", (unsigned long long)r->args[0],
                 (long long)(int64_t)r->args[1]);
    else if (!strcmp(call, "execve") || !strcmp(call, "execveat"))
        snprintf(buf, size, "%s(2) of another program", call);
    else snprintf(buf, size, "%s(2)", call);
    free(name);
}
