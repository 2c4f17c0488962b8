/* The worker's sandbox (supervise/sandbox.h): no check of the engine, but a claim of the
 * certificate. Every part not in force where this engine's workers ran is a gap, named with
 * why: sandbox:absent where this machine cannot enforce it, sandbox:asked under --sandbox off. */
#include "harness/sections/section.h"

#include <string.h>

#include "supervise/sandbox.h"
#include "supervise/supervisor.h"

static void sandbox_parts(conformance_tally *t) {
    const cc_supervisor *sv = cc_supervisor_of(t->engine);
    if (!sv) {
        cc_gap_note(&t->gaps, CC_CHECK_SANDBOX, CC_GAP_ABSENT, 1,
                    "the engine ran in this process, without a worker or its sandbox");
        return;
    }
    char why[256], missing[160];
    uint32_t parts = cc_supervisor_sandbox(sv, why, sizeof why);
    if (parts == CC_SANDBOX_ALL) return;
    cc_sandbox_parts_describe(CC_SANDBOX_ALL & ~parts, missing, sizeof missing);
    if (!strcmp(why, "off"))
        cc_gap_note(&t->gaps, CC_CHECK_SANDBOX, CC_GAP_ASKED, 1,
                    "--sandbox off: the workers ran with the caller's rights and environment "
                    "(not in force: %s)",
                    missing);
    else
        cc_gap_note(&t->gaps, CC_CHECK_SANDBOX, CC_GAP_ABSENT, 1,
                    "not in force on this machine: %s (%.200s)", missing, why);
}

const conformance_section section_sandbox = {
    .progress = NULL,
    .flags = 0,
    .part_of = -1,
    .left_out_note = NULL,
    .run = sandbox_parts,
};
