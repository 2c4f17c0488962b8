/* The sandbox's seccomp filter (sandbox.h): not an interface, sandbox.c's alone. */
#ifndef CELLCHECK_SUPERVISE_SANDBOX_FILTER_H
#define CELLCHECK_SUPERVISE_SANDBOX_FILTER_H

typedef struct sandbox_filter_result {
    int loaded;     /* 1: the filter is in force */
    char why[160];  /* else why not */
} sandbox_filter_result;

/* Installs the SIGSYS handler that reports a forbidden call, then the filter. in_namespace: the
 * worker has its own network namespace, where IP sockets reach nothing outside it; without it
 * socket() fails for every family but (with cuda_driver) unix. cuda_driver: unix sockets of type
 * SOCK_SEQPACKET stay open (the CUDA driver's own), every other unix socket fails. */
/* rank_datagrams (with cuda_driver): unix SOCK_DGRAM sockets stay open too (NCCL's proxy between
 * the ranks of an engine that runs as one process per device). */
void sandbox_filter_install(int in_namespace, int cuda_driver, int rank_datagrams,
                            sandbox_filter_result *out);

#endif
