/* Replaying one case alone in a new process, to tell an engine's bug from a dependence on what
 * the process did before (a static left set by an earlier context, a counter, a cache).
 *
 * The failing process starts its own executable again (/proc/self/exe) with the engine's name
 * and the case line in CELLCHECK_REPLAY_ENGINE and CELLCHECK_REPLAY_CASE; every main that runs
 * checks (the test drivers, cellcheck) calls cc_replay_hook first, which checks that one case
 * and exits with its verdict. */
#ifndef CELLCHECK_HARNESS_REPLAY_H
#define CELLCHECK_HARNESS_REPLAY_H

#include "engines/engine.h"
#include "oracle/error.h"

typedef enum cc_replay_verdict {
    CC_REPLAY_PASSED = 0, /* the case passed alone */
    CC_REPLAY_FAILED = 1, /* it failed alone too */
    CC_REPLAY_UNKNOWN = 2 /* the new process could not tell (it could not start, or erred) */
} cc_replay_verdict;

/* Runs case_line on the engine named engine in a new process of this executable. */
cc_replay_verdict cc_replay_alone(const char *engine, const char *case_line, char *why,
                                  size_t why_size);

/* In a replaying process: finds the engine by name (find, with arg), checks the case, and
 * returns 1 with *status set to the exit status (0 passed, 1 failed, 2 could not tell). Returns
 * 0 in any other process, which goes on as usual. */
int cc_replay_hook(const cc_engine *(*find)(const char *name, void *arg), void *arg, int *status);

#endif
