/* What a check of one case is: its verdicts, failure kinds, call patterns and options
 * (check_result.h). */
#include "harness/check_result.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness/lightcone.h"
#include "supervise/supervisor.h"

const char *cc_failure_kind_name(cc_failure_kind kind) {
    switch (kind) {
    case CC_FAILURE_NONE: return "none";
    case CC_FAILURE_REFUSED_VALID: return "refused a case within its caps";
    case CC_FAILURE_ENGINE_ERROR: return "engine error";
    case CC_FAILURE_ROUND_TRIP: return "load/store round trip differs";
    case CC_FAILURE_MISMATCH: return "mismatch with the oracle";
    case CC_FAILURE_CALL_PATTERN: return "differs under a call pattern";
    case CC_FAILURE_CRASHED: return "crashed";
    case CC_FAILURE_EXITED: return "exited without answering";
    case CC_FAILURE_TIMED_OUT: return "timed out";
    case CC_FAILURE_OUT_OF_MEMORY: return "out of memory";
    case CC_FAILURE_DEVICE_ERROR: return "device error";
    case CC_FAILURE_CONTRACT: return "broke the contract";
    case CC_FAILURE_CALL_SEQUENCE: return "differs along a call sequence";
    case CC_FAILURE_SANDBOX: return "broke the sandbox";
    }
    return "unknown";
}

cc_failure_kind cc_failure_kind_of_code(int code) {
    switch (code) {
    case CC_ERR_CRASHED: return CC_FAILURE_CRASHED;
    case CC_ERR_EXITED: return CC_FAILURE_EXITED;
    case CC_ERR_TIMEOUT: return CC_FAILURE_TIMED_OUT;
    case CC_ERR_MEMORY_LIMIT: return CC_FAILURE_OUT_OF_MEMORY;
    case CC_ERR_DEVICE: return CC_FAILURE_DEVICE_ERROR;
    case CC_ERR_CONTRACT: return CC_FAILURE_CONTRACT;
    case CC_ERR_SANDBOX: return CC_FAILURE_SANDBOX;
    default: return CC_FAILURE_ENGINE_ERROR;
    }
}

int cc_failure_kind_is_fault(cc_failure_kind kind) {
    return kind == CC_FAILURE_CRASHED || kind == CC_FAILURE_EXITED ||
           kind == CC_FAILURE_TIMED_OUT || kind == CC_FAILURE_OUT_OF_MEMORY ||
           kind == CC_FAILURE_DEVICE_ERROR || kind == CC_FAILURE_SANDBOX;
}

void harness_fail_result(cc_check_result *res, cc_failure_kind kind, const char *fmt, ...) {
    res->outcome = CC_OUTCOME_FAIL;
    res->kind = kind;
    res->detail_cell = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->detail, sizeof res->detail, fmt, ap);
    va_end(ap);
}

void harness_result_cell(cc_check_result *res, int x, int y, int engine, int oracle) {
    size_t n = strlen(res->detail);
    if (n == 0 || n + 1 >= sizeof res->detail) return;
    snprintf(res->detail + n, sizeof res->detail - n, ", among them (%d,%d): engine %d, oracle %d",
             x, y, engine, oracle);
    res->detail_cell = (int)n;
}

/* A call that failed: a fault or a broken contract in the supervisor's words, which name the
 * call; an engine's own error after what was called. */
void harness_call_failed(cc_check_result *res, int rc, const char *what, const cc_error *e) {
    if (cc_code_is_fault(rc) || rc == CC_ERR_CONTRACT)
        harness_fail_result(res, cc_failure_kind_of_code(rc), "%.500s", e->msg);
    else
        harness_fail_result(res, CC_FAILURE_ENGINE_ERROR, "%.100s failed: %.400s", what, e->msg);
}

void cc_check_options_init(cc_check_options *opt) {
    memset(opt, 0, sizeof *opt);
    opt->patterns = CC_PATTERNS_ALL;
    opt->oracle_budget = CC_CHECK_DEFAULT_ORACLE_BUDGET;
    opt->pattern_budget = CC_CHECK_DEFAULT_PATTERN_BUDGET;
}

/* a of step(a) then step(k-a): 1..k-1, from the case seed, so a reproducer replays it. */
int64_t harness_split_point(const cc_case *c) {
    return c->steps < 2 ? 0 : 1 + (int64_t)(c->seed[1] % (uint64_t)(c->steps - 1));
}

void cc_pattern_describe(cc_pattern p, const cc_case *c, char *buf, size_t size) {
    long long k = (long long)c->steps, a = (long long)harness_split_point(c);
    switch (p) {
    case CC_PATTERN_ONE_CALL: snprintf(buf, size, "step(%lld)", k); return;
    case CC_PATTERN_SPLIT: snprintf(buf, size, "step(%lld) then step(%lld)", a, k - a); return;
    case CC_PATTERN_SINGLES: snprintf(buf, size, "step(1) %lld times", k); return;
    case CC_PATTERN_RELOAD:
        snprintf(buf, size, "load of another grid, step(1), then load and step(%lld)", k);
        return;
    case CC_PATTERN_TWO_LIVE:
        snprintf(buf, size, "step(%lld) then step(%lld) with a second context (another rule and "
                 "size) stepped in between", a, k - a);
        return;
    case CC_PATTERN_RECREATE:
        snprintf(buf, size, "step(%lld) after another context was created, stepped and destroyed", k);
        return;
    case CC_PATTERN_COUNT: break;
    }
    snprintf(buf, size, "pattern %d", (int)p);
}

void cc_check_result_describe(const cc_check_result *res, FILE *out) {
    if (res->lightcone) {
        char classes[160];
        cc_seam_classes_describe(res->seam_classes, classes, sizeof classes);
        fprintf(out, "  verified by light cones: %" PRIu64 " cells (%s)\n", res->verified, classes);
    } else {
        fprintf(out, "  verified on the whole grid: %" PRIu64 " cells\n", res->verified);
    }
    fprintf(out, "  call patterns that agreed:");
    int any = 0;
    for (int p = 1; p < CC_PATTERN_COUNT; p++)
        if (res->patterns_run & CC_PATTERN_BIT(p)) {
            static const char *const names[CC_PATTERN_COUNT] = {
                "", "split", "step(1) repeated", "second load", "two live contexts",
                "destroy then create"};
            fprintf(out, "%s %s", any++ ? "," : "", names[p]);
        }
    fprintf(out, "%s\n", any ? "" : " none (a single step, or too large for more)");
}
