/* Replaying one case alone in a fresh worker process, to tell an engine's bug from a dependence
 * on what its worker did before (a static left set by an earlier context, a counter, a cache). */
#ifndef CELLCHECK_HARNESS_REPLAY_H
#define CELLCHECK_HARNESS_REPLAY_H

#include <stddef.h>

#include "engines/engine.h"
#include "oracle/case.h"

typedef enum cc_replay_verdict {
    CC_REPLAY_PASSED = 0, /* the case passed alone */
    CC_REPLAY_FAILED = 1, /* it failed alone too */
    CC_REPLAY_UNKNOWN = 2 /* it could not be told (the check could not run) */
} cc_replay_verdict;

/* Ends the engine's worker and checks c in a fresh one. */
cc_replay_verdict cc_replay_alone(const cc_engine *engine, const cc_case *c, char *why,
                                  size_t why_size);

#endif
