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
void sandbox_filter_install(int in_namespace, int cuda_driver, sandbox_filter_result *out);

#endif
