/* Replaying one case alone in a fresh worker process (see replay.h). */
#include "harness/replay.h"

#include <stdio.h>

#include "harness/check.h"
#include "supervise/supervisor.h"

cc_replay_verdict cc_replay_alone(const cc_engine *engine, const cc_case *c, char *why,
                                  size_t why_size) {
    cc_supervisor *sv = cc_supervisor_of(engine);
    if (!sv) {
        snprintf(why, why_size, "the engine is not run by a supervisor");
        return CC_REPLAY_UNKNOWN;
    }
    cc_supervisor_restart(sv);
    cc_check_result res;
    cc_error err;
    cc_error_clear(&err);
    if (cc_case_check(engine, c, &res, &err)) {
        snprintf(why, why_size, "the replay could not run: %.120s", err.msg);
        return CC_REPLAY_UNKNOWN;
    }
    cc_replay_verdict v = res.outcome == CC_OUTCOME_FAIL ? CC_REPLAY_FAILED : CC_REPLAY_PASSED;
    snprintf(why, why_size, "%s", v == CC_REPLAY_PASSED ? "passed alone" : "failed alone");
    return v;
}
