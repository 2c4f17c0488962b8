/* The worker side of the supervisor: every main that runs engines calls cc_worker_hook first, so
 * that the supervisor can start the executable again as a worker (supervisor.h). */
#ifndef CELLCHECK_SUPERVISE_WORKER_H
#define CELLCHECK_SUPERVISE_WORKER_H

#include "engines/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* When argv asks for a worker (the supervisor's own flag, never a user's), serves requests until
 * the supervisor closes the socket and returns 1 with *status the process's exit status; returns
 * 0 otherwise, and the program goes on. builtins: the engines this executable has besides the
 * registry's (NULL-terminated; NULL for none); plugins named on the worker's command line are
 * loaded here, and only here. */
int cc_worker_hook(int argc, char **argv, const cc_engine *const *builtins, int *status);

#ifdef __cplusplus
}
#endif

#endif
