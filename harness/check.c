/* Checking one case against the oracle: create, the load/store round trip, step(k), and the
 * comparison of the final grid. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/campaign.h"
#include "harness/internal.h"
#include "oracle/oracle.h"


const char *cc_failure_kind_name(cc_failure_kind kind) {
    switch (kind) {
    case CC_FAILURE_NONE: return "none";
    case CC_FAILURE_REFUSED_VALID: return "refused a case within its caps";
    case CC_FAILURE_ENGINE_ERROR: return "engine error";
    case CC_FAILURE_ROUND_TRIP: return "load/store round trip differs";
    case CC_FAILURE_MISMATCH: return "mismatch with the oracle";
    }
    return "unknown";
}

uint64_t harness_count_differing(const uint8_t *a, const uint8_t *b, size_t n, size_t *first) {
    uint64_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            if (count == 0 && first) *first = i;
            count++;
        }
    }
    return count;
}

static void fail_result(cc_check_result *res, cc_failure_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void fail_result(cc_check_result *res, cc_failure_kind kind, const char *fmt, ...) {
    res->outcome = CC_OUTCOME_FAIL;
    res->kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->detail, sizeof res->detail, fmt, ap);
    va_end(ap);
}

int harness_store_poisoned(cc_context *ctx, cc_grid *out, cc_error *err) {
    memset(out->cells, HARNESS_UNWRITTEN, cc_grid_cells(out));
    return cc_engine_store(ctx, out->cells, err);
}

int cc_case_check(const cc_engine *engine, const cc_case *c, cc_check_result *res, cc_error *err) {
    memset(res, 0, sizeof *res);
    cc_error caps_err, eng_err;
    cc_error_clear(&caps_err);
    cc_error_clear(&eng_err);
    int in_caps = cc_engine_check(engine, &c->rule, c->w, c->h, &caps_err) == CC_OK;
    cc_context *ctx = NULL;
    int rc = cc_engine_create(engine, &c->rule, c->w, c->h, &ctx, &eng_err);
    if (!in_caps) {
        /* The contract's create refused it with the limit named (engine.c); the engine never ran. */
        res->outcome = CC_OUTCOME_REFUSED;
        snprintf(res->detail, sizeof res->detail, "%s", eng_err.msg);
        return CC_OK;
    }
    if (rc != CC_OK) {
        fail_result(res, CC_FAILURE_REFUSED_VALID, "create refused a case within its caps: %s",
                    eng_err.msg[0] ? eng_err.msg : "(no message)");
        return CC_OK;
    }

    cc_grid init = {0}, got = {0};
    if ((rc = case_grid(c, &init, err)) || (rc = cc_grid_alloc(&got, c->w, c->h, err))) {
        cc_engine_destroy(ctx);
        cc_grid_free(&init);
        return rc;
    }
    size_t n = cc_grid_cells(&init), first = 0;
    if ((rc = cc_engine_load(ctx, init.cells, &eng_err))) {
        fail_result(res, CC_FAILURE_ENGINE_ERROR, "load failed: %.400s", eng_err.msg);
    } else if ((rc = harness_store_poisoned(ctx, &got, &eng_err))) {
        fail_result(res, CC_FAILURE_ENGINE_ERROR, "store after load failed: %.400s", eng_err.msg);
    } else if ((res->differing = harness_count_differing(got.cells, init.cells, n, &first)) != 0) {
        fail_result(res, CC_FAILURE_ROUND_TRIP,
                    "store right after load differs from the loaded grid in %llu cells, first "
                    "(%d,%d): stored %d, loaded %d",
                    (unsigned long long)res->differing, (int)(first % (size_t)c->w),
                    (int)(first / (size_t)c->w), got.cells[first], init.cells[first]);
    } else if ((rc = cc_engine_step(ctx, c->steps, &eng_err))) {
        fail_result(res, CC_FAILURE_ENGINE_ERROR, "step(%lld) failed: %.400s", (long long)c->steps,
                    eng_err.msg);
    } else if ((rc = harness_store_poisoned(ctx, &got, &eng_err))) {
        fail_result(res, CC_FAILURE_ENGINE_ERROR, "store after step(%lld) failed: %.400s",
                    (long long)c->steps, eng_err.msg);
    }
    cc_engine_destroy(ctx);
    if (res->outcome == CC_OUTCOME_FAIL) {
        cc_grid_free(&init);
        cc_grid_free(&got);
        return CC_OK;
    }
    /* The oracle, in place on the initial grid. */
    if ((rc = oracle_run(&c->rule, &init, c->steps, err))) {
        cc_prefix(err, "oracle");
        cc_grid_free(&init);
        cc_grid_free(&got);
        return rc;
    }
    res->differing = harness_count_differing(got.cells, init.cells, n, &first);
    if (res->differing) {
        fail_result(res, CC_FAILURE_MISMATCH,
                    "%llu of %zu cells differ from the oracle after %lld steps, first (%d,%d): "
                    "engine %d, oracle %d",
                    (unsigned long long)res->differing, n, (long long)c->steps,
                    (int)(first % (size_t)c->w), (int)(first / (size_t)c->w), got.cells[first],
                    init.cells[first]);
    } else {
        res->outcome = CC_OUTCOME_PASS;
    }
    cc_grid_free(&init);
    cc_grid_free(&got);
    return CC_OK;
}
