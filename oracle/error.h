/* Errors: every failing call returns a non-zero code and leaves a message that names the problem. */
#ifndef CELLCHECK_ORACLE_ERROR_H
#define CELLCHECK_ORACLE_ERROR_H

#include <stddef.h>

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

enum cc_code {
    CC_OK = 0,
    CC_ERR_ARG = 1,         /* a malformed argument, rule, case line or file */
    CC_ERR_UNSUPPORTED = 2, /* well formed, but outside what this engine or tool can do */
    CC_ERR_IO = 3,          /* reading or writing a file failed */
    CC_ERR_NOMEM = 4,       /* an allocation failed or a size overflows */
    CC_ERR_DEVICE = 5,      /* a CUDA or hardware call failed */
    CC_ERR_UNAVAILABLE = 6, /* the hardware an engine needs is not on this machine */
    CC_ERR_MISMATCH = 7,    /* an engine disagrees with the oracle or a golden hash */
    /* Faults of a worker process running engine code (supervise/supervisor.h): */
    CC_ERR_CRASHED = 8,      /* it died by a signal */
    CC_ERR_EXITED = 9,       /* it exited, whatever its status, without answering */
    CC_ERR_TIMEOUT = 10,     /* a call overran its time limit */
    CC_ERR_MEMORY_LIMIT = 11, /* it held more memory than its limit (or leaked across cases) */
    CC_ERR_CONTRACT = 12,    /* an engine broke the contract: wrote into load's input, wrote
                              * outside store's grid, left a cell unwritten */
    CC_ERR_SANDBOX = 13      /* its worker tried what the sandbox forbids (supervise/sandbox.h):
                              * a fork, an exec, a signal to another process, ptrace */
};

/* A message longer than this is cut in the middle (" ... "), keeping its start and its end. */
#define CC_ERROR_MSG_MAX 512

typedef struct cc_error {
    int code;
    char msg[CC_ERROR_MSG_MAX];
} cc_error;

/* Records code and a printf-style message in err (which may be NULL) and returns code. */
int cc_fail(cc_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Prefixes the message already in err with context ("loading glider.rle: ..."); returns err->code. */
int cc_prefix(cc_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

void cc_error_clear(cc_error *err);

const char *cc_code_name(int code);

#ifdef __cplusplus
}
#endif

#endif
