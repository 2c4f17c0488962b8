/* A worker entering its sandbox (worker.c's, not an interface). */
#ifndef CELLCHECK_SUPERVISE_WORKER_SANDBOX_H
#define CELLCHECK_SUPERVISE_WORKER_SANDBOX_H

#include "supervise/sandbox.h"

/* Enters the sandbox the worker's argument SANDBOX asks for ("off", or REPORT_FD:SCRATCH_DIR),
 * before any plugin is loaded: the report's descriptor moved to CC_SANDBOX_REPORT_FD (*sock and
 * *shm moved off it first), the executable and the plugins readable. "off": nothing, parts 0. */
int worker_sandbox_enter(const char *arg, long *sock, long *shm, char *const *plugins,
                         int nplugins, cc_sandbox_state *state, cc_error *err);

#endif
