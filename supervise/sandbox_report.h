/* What a worker that broke the sandbox tried (sandbox.h): the report its SIGSYS handler writes
 * before it dies, and its words. Shared by the filter that writes it and the supervisor that
 * reads it. */
#ifndef CELLCHECK_SUPERVISE_SANDBOX_REPORT_H
#define CELLCHECK_SUPERVISE_SANDBOX_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where a worker that broke the sandbox writes its report before it dies (AFL's forkserver uses
 * 198 and 199; this is clear of both, and of the few descriptors a worker inherits). */
#define CC_SANDBOX_REPORT_FD 197

/* The system call and its first arguments. */
#define CC_SANDBOX_REPORT_MAGIC 0x58424e53u /* "SNBX" */
typedef struct cc_sandbox_report {
    uint32_t magic;
    int32_t syscall;
    uint64_t args[6];
} cc_sandbox_report;

/* "execve(2)", "kill(2) toward pid 812 (the supervisor) with SIGTERM", "clone(2) of a new
 * process (fork)": supervisor, the supervisor's pid, for the words. */
void cc_sandbox_report_describe(const cc_sandbox_report *r, pid_t supervisor, char *buf,
                                size_t size);

#ifdef __cplusplus
}
#endif

#endif
