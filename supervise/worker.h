/* The worker side of the supervisor: every main that runs engines calls cc_worker_hook first, so
 * that the supervisor can start the executable again as a worker (supervisor.h). */
#ifndef CELLCHECK_SUPERVISE_WORKER_H
#define CELLCHECK_SUPERVISE_WORKER_H

#include "engines/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The OpenMP spin count (GOMP_SPINCOUNT) of cellcheck's processes unless the environment sets it
 * or OMP_WAIT_POLICY: about 0.1 ms on the runner's Xeon. cpu.ref's certify on the 16-core runner
 * took 1.01x and 1.05x its time before workers with it in every process, 1.07x to 1.17x with the
 * default in the supervising process. */
#define SV_SHORT_SPIN "3000"

/* When argv asks for a worker (the supervisor's own flag, never a user's), serves requests until
 * the supervisor closes the socket and returns 1 with *status the process's exit status; returns
 * 0 otherwise, and the program goes on (started again first, with GOMP_SPINCOUNT set to
 * SV_SHORT_SPIN, when the environment chose no spin count or wait policy). builtins: the engines
 * this executable has besides the registry's (NULL-terminated; NULL for none); plugins named on
 * the worker's command line are loaded here, and only here. */
int cc_worker_hook(int argc, char **argv, const cc_engine *const *builtins, int *status);

#ifdef __cplusplus
}
#endif

#endif
