/* Checking one case against the oracle, and locating where a failing case diverges. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/campaign.h"
#include "harness/internal.h"
#include "harness/png.h"
#include "oracle/oracle.h"

/* What store leaves in cells it never wrote: neither 0 nor 1, so it cannot pass for a cell. */
#define UNWRITTEN 0xa5

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

/* Cells where a differs from b; the first (row-major) in *first when any. */
static uint64_t count_differing(const uint8_t *a, const uint8_t *b, size_t n, size_t *first) {
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

/* Stores the engine's grid into out (poisoned first, so unwritten cells show). */
static int store_poisoned(cc_context *ctx, cc_grid *out, cc_error *err) {
    memset(out->cells, UNWRITTEN, cc_grid_cells(out));
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
    } else if ((rc = store_poisoned(ctx, &got, &eng_err))) {
        fail_result(res, CC_FAILURE_ENGINE_ERROR, "store after load failed: %.400s", eng_err.msg);
    } else if ((res->differing = count_differing(got.cells, init.cells, n, &first)) != 0) {
        fail_result(res, CC_FAILURE_ROUND_TRIP,
                    "store right after load differs from the loaded grid in %llu cells, first "
                    "(%d,%d): stored %d, loaded %d",
                    (unsigned long long)res->differing, (int)(first % (size_t)c->w),
                    (int)(first / (size_t)c->w), got.cells[first], init.cells[first]);
    } else if ((rc = cc_engine_step(ctx, c->steps, &eng_err))) {
        fail_result(res, CC_FAILURE_ENGINE_ERROR, "step(%lld) failed: %.400s", (long long)c->steps,
                    eng_err.msg);
    } else if ((rc = store_poisoned(ctx, &got, &eng_err))) {
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
    res->differing = count_differing(got.cells, init.cells, n, &first);
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

/* ---- Where a failing case diverges ------------------------------------------------------- */

static void record(cc_divergence *d, int64_t step, const cc_grid *engine_grid,
                   const cc_grid *oracle_grid) {
    size_t first = 0;
    d->known = 1;
    d->first_step = step;
    d->differing_first =
        count_differing(engine_grid->cells, oracle_grid->cells, cc_grid_cells(oracle_grid), &first);
    d->x = (int32_t)(first % (size_t)oracle_grid->w);
    d->y = (int32_t)(first / (size_t)oracle_grid->w);
    d->engine_value = engine_grid->cells[first];
    d->oracle_value = oracle_grid->cells[first];
}

static void write_png(const char *report_dir, const char *engine_name, const cc_case *c,
                      const char *tag, int64_t step, const cc_grid *engine_grid,
                      const cc_grid *oracle_grid, cc_divergence *d) {
    if (!report_dir || !report_dir[0]) return;
    char seed[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(c->seed, seed);
    char path[sizeof d->png];
    int len = snprintf(path, sizeof path, "%s/%s-%.16s%s-%dx%d-step%lld.png", report_dir,
                       engine_name, seed, tag, (int)c->w, (int)c->h, (long long)step);
    if (len < 0 || (size_t)len >= sizeof path) {
        snprintf(d->note, sizeof d->note, "report directory path too long for a picture");
        return;
    }
    cc_error err;
    if (png_write_diff(path, engine_grid, oracle_grid, &err) == CC_OK)
        snprintf(d->png, sizeof d->png, "%s", path);
    else
        snprintf(d->note, sizeof d->note, "no picture: %.400s", err.msg);
}

/* A fresh engine instance loaded with init; NULL (and a note) on failure. */
static cc_context *fresh(const cc_engine *engine, const cc_case *c, const cc_grid *init,
                   cc_divergence *d) {
    cc_context *ctx = NULL;
    cc_error e;
    cc_error_clear(&e);
    if (cc_engine_create(engine, &c->rule, c->w, c->h, &ctx, &e)) {
        snprintf(d->note, sizeof d->note, "create failed during analysis: %.400s", e.msg);
        return NULL;
    }
    if (cc_engine_load(ctx, init->cells, &e)) {
        snprintf(d->note, sizeof d->note, "load failed during analysis: %.400s", e.msg);
        cc_engine_destroy(ctx);
        return NULL;
    }
    return ctx;
}

int fuzz_divergence(const cc_engine *engine, const cc_case *c, const char *report_dir,
                    const char *tag, cc_divergence *d, cc_error *err) {
    memset(d, 0, sizeof *d);
    d->first_step = -1;
    cc_grid init = {0}, oracle = {0}, next = {0}, got = {0};
    int rc = case_grid(c, &init, err);
    if (!rc) rc = cc_grid_copy(&oracle, &init, err);
    if (!rc) rc = cc_grid_alloc(&next, c->w, c->h, err);
    if (!rc) rc = cc_grid_alloc(&got, c->w, c->h, err);
    if (rc) goto done;
    cc_error e;
    cc_error_clear(&e);

    /* The end: step(steps) in one call against the oracle's final grid. */
    cc_context *ctx = fresh(engine, c, &init, d);
    if (!ctx) goto done;
    if (cc_engine_step(ctx, c->steps, &e) || store_poisoned(ctx, &got, &e)) {
        snprintf(d->note, sizeof d->note, "step(%lld) or store failed: %.400s", (long long)c->steps,
                 e.msg);
        cc_engine_destroy(ctx);
        goto done;
    }
    cc_engine_destroy(ctx);
    if ((rc = cc_grid_copy(&next, &init, err))) goto done;
    if ((rc = oracle_run(&c->rule, &next, c->steps, err))) goto done;
    d->differing_end = count_differing(got.cells, next.cells, cc_grid_cells(&got), NULL);

    /* Right after load, then one step at a time on one instance. */
    if (!(ctx = fresh(engine, c, &init, d))) goto done;
    for (int64_t j = 0; j <= c->steps; j++) {
        if (j > 0) {
            if (cc_engine_step(ctx, 1, &e)) {
                snprintf(d->note, sizeof d->note, "step(1) number %lld failed: %.400s", (long long)j,
                         e.msg);
                break;
            }
            if ((rc = oracle_step(&c->rule, &oracle, &next, err))) break;
            uint8_t *t = oracle.cells;
            oracle.cells = next.cells;
            next.cells = t;
        }
        if (store_poisoned(ctx, &got, &e)) {
            snprintf(d->note, sizeof d->note, "store after step %lld failed: %.400s", (long long)j,
                     e.msg);
            break;
        }
        if (!cc_grid_equal(&got, &oracle)) {
            record(d, j, &got, &oracle);
            write_png(report_dir, engine->name, c, tag, j, &got, &oracle, d);
            break;
        }
    }
    cc_engine_destroy(ctx);
    if (rc || d->known || d->note[0]) goto done;

    /* Every single step agreed: find the first j where step(j) in one call does not. */
    d->single_steps_agree = 1;
    memcpy(oracle.cells, init.cells, cc_grid_cells(&init));
    for (int64_t j = 1; j <= c->steps; j++) {
        if ((rc = oracle_step(&c->rule, &oracle, &next, err))) break;
        uint8_t *t = oracle.cells;
        oracle.cells = next.cells;
        next.cells = t;
        if (!(ctx = fresh(engine, c, &init, d))) break;
        int bad = cc_engine_step(ctx, j, &e) || store_poisoned(ctx, &got, &e);
        cc_engine_destroy(ctx);
        if (bad) {
            snprintf(d->note, sizeof d->note, "step(%lld) or store failed: %.400s", (long long)j,
                     e.msg);
            break;
        }
        if (!cc_grid_equal(&got, &oracle)) {
            record(d, j, &got, &oracle);
            write_png(report_dir, engine->name, c, tag, j, &got, &oracle, d);
            break;
        }
    }
    if (!rc && !d->known && !d->note[0])
        snprintf(d->note, sizeof d->note,
                 "the failure did not reproduce during analysis (a nondeterministic engine?)");
done:
    cc_grid_free(&init);
    cc_grid_free(&oracle);
    cc_grid_free(&next);
    cc_grid_free(&got);
    return rc;
}

/* ---- Shrinking -------------------------------------------------------------------------- */

static int32_t axis_multiple(int32_t m) { return m > 1 ? m : 1; }

/* Candidate values below v, most aggressive first: floor, about half (twice, so that a failure
 * tied to odd or even values can halve too), v minus two multiples, v minus one. Returns how
 * many were written. */
#define SMALLER_MAX 5
static int smaller_values(int64_t v, int64_t floor_value, int64_t multiple,
                          int64_t out[SMALLER_MAX]) {
    int n = 0;
    int64_t half = (v / 2 + multiple - 1) / multiple * multiple;
    int64_t cands[SMALLER_MAX] = {floor_value, half, half + multiple, v - 2 * multiple,
                                  v - multiple};
    for (int i = 0; i < SMALLER_MAX; i++) {
        int64_t x = cands[i];
        if (x < floor_value || x >= v) continue;
        int dup = 0;
        for (int k = 0; k < n; k++) dup |= out[k] == x;
        if (!dup) out[n++] = x;
    }
    return n;
}

static cc_case with_radius(const cc_case *c, int32_t r) {
    cc_case s = *c;
    s.rule.radius = r;
    int32_t max = cc_rule_max_count(&s.rule);
    fuzz_set_clamp(&s.rule.survive, max);
    fuzz_set_clamp(&s.rule.birth, max);
    return s;
}

int cc_case_shrink(const cc_engine *engine, const cc_case *c, cc_failure_kind kind, int max_tries,
                   cc_case *smallest, int *tries, cc_error *err) {
    cc_case cur = *c;
    int used = 0;
    const cc_engine_caps resolved = cc_engine_caps_resolved(engine);
    const cc_engine_caps *caps = &resolved;
    int32_t wm = axis_multiple(caps->w_multiple), hm = axis_multiple(caps->h_multiple);
    int improved = 1;
    while (improved && used < max_tries) {
        improved = 0;
        cc_case cands[4 * SMALLER_MAX];
        int n = 0;
        int64_t vals[SMALLER_MAX];
        int k = smaller_values(cur.steps, kind == CC_FAILURE_MISMATCH ? 1 : 0, 1, vals);
        for (int i = 0; i < k; i++) {
            cands[n] = cur;
            cands[n++].steps = vals[i];
        }
        if (cur.rule.shape != CC_SHAPE_HEX) {
            int32_t rmin = caps->radius_min > 1 ? caps->radius_min : 1;
            k = smaller_values(cur.rule.radius, rmin, 1, vals);
            for (int i = 0; i < k; i++) cands[n++] = with_radius(&cur, (int32_t)vals[i]);
        }
        k = smaller_values(cur.w, fuzz_side_min(cur.rule.radius, wm), wm, vals);
        for (int i = 0; i < k; i++) {
            cands[n] = cur;
            cands[n++].w = (int32_t)vals[i];
        }
        k = smaller_values(cur.h, fuzz_side_min(cur.rule.radius, hm), hm, vals);
        for (int i = 0; i < k; i++) {
            cands[n] = cur;
            cands[n++].h = (int32_t)vals[i];
        }
        for (int i = 0; i < n && used < max_tries; i++) {
            cc_error skip;
            if (cc_engine_check(engine, &cands[i].rule, cands[i].w, cands[i].h, &skip)) continue;
            used++;
            cc_check_result res;
            int rc = cc_case_check(engine, &cands[i], &res, err);
            if (rc) {
                *smallest = cur;
                *tries = used;
                return rc;
            }
            if (res.outcome == CC_OUTCOME_FAIL && res.kind == kind) {
                cur = cands[i];
                improved = 1;
                break;
            }
        }
    }
    *smallest = cur;
    *tries = used;
    return CC_OK;
}
