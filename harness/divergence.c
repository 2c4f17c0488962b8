/* Where a failing case first diverges: right after load, then step(1) repeated, then step(j) in
 * one call; the difference picture of that step. */
#include <stdio.h>
#include <string.h>

#include "harness/divergence.h"

#include "harness/check.h"
#include "harness/png.h"
#include "harness/progress.h"
#include "oracle/cells.h"
#include "oracle/oracle.h"
#include "supervise/supervisor.h"

static void record(cc_divergence *d, int64_t step, const cc_grid *engine_grid,
                   const cc_grid *oracle_grid) {
    size_t first = 0;
    d->known = 1;
    d->first_step = step;
    d->differing_first =
        cc_cells_count_differing(engine_grid->cells, oracle_grid->cells, cc_grid_cells(oracle_grid), &first);
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

/* One oracle step from *cur, the result left in *cur. */
static int oracle_advance(const cc_rule *rule, cc_grid *cur, cc_grid *next, cc_error *err) {
    int rc = oracle_step(rule, cur, next, err);
    uint8_t *t = cur->cells;
    cur->cells = next->cells;
    next->cells = t;
    return rc;
}

/* 1, with the divergence recorded and pictured, when the engine's grid at step j differs. */
static int diverged(cc_divergence *d, const char *report_dir, const char *engine_name,
                    const cc_case *c, const char *tag, int64_t j, const cc_grid *got,
                    const cc_grid *oracle) {
    if (cc_grid_equal(got, oracle)) return 0;
    record(d, j, got, oracle);
    write_png(report_dir, engine_name, c, tag, j, got, oracle, d);
    return 1;
}

/* A fresh engine instance loaded with init; NULL (and a note) on failure. */
static cc_context *fresh(const cc_engine *engine, const cc_case *c, const cc_grid *init,
                   cc_divergence *d) {
    cc_context *ctx = NULL;
    cc_error e;
    cc_error_clear(&e);
    if (cc_call_create(engine, &c->rule, c->w, c->h, &ctx, &e)) {
        snprintf(d->note, sizeof d->note, "create failed during analysis: %.400s", e.msg);
        return NULL;
    }
    if (cc_call_load(ctx, init->cells, &e)) {
        snprintf(d->note, sizeof d->note, "load failed during analysis: %.400s", e.msg);
        cc_call_destroy(ctx, NULL);
        return NULL;
    }
    return ctx;
}

/* The next j whose step(j) in one call is tried: every j up to 64, then about 5 % more each
 * time (each try steps j from the start: trying every j of a 65539-step case would cost 2^31
 * steps), and k itself. */
static int64_t next_probe(int64_t j, int64_t k) {
    int64_t n = j < 64 ? j + 1 : j + j / 20;
    return n > k ? k : n;
}

int harness_divergence(const cc_engine *engine, const cc_case *c, const char *report_dir,
                    const char *tag, cc_divergence *d, cc_error *err) {
    const double until = cc_now_seconds() + CC_DIVERGENCE_BUDGET_S;
    memset(d, 0, sizeof *d);
    /* The case's timing disturbance (timing=) and caller's buffers (buffers=) for every run of
     * the search. */
    cc_supervisor_timing(cc_supervisor_of(engine), c->timing);
    cc_supervisor_buffers(cc_supervisor_of(engine), c->buffers);
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
    if (cc_call_step(ctx, c->steps, &e) || cc_call_store(ctx, got.cells, &e)) {
        snprintf(d->note, sizeof d->note, "step(%lld) or store failed: %.400s", (long long)c->steps,
                 e.msg);
        cc_call_destroy(ctx, NULL);
        goto done;
    }
    cc_call_destroy(ctx, NULL);
    if ((rc = cc_grid_copy(&next, &init, err))) goto done;
    if ((rc = oracle_run(&c->rule, &next, c->steps, err))) goto done;
    d->differing_end = cc_cells_count_differing(got.cells, next.cells, cc_grid_cells(&got), NULL);

    /* Right after load, then one step at a time on one instance. */
    if (!(ctx = fresh(engine, c, &init, d))) goto done;
    for (int64_t j = 0; j <= c->steps; j++) {
        if (j > 0) {
            if (cc_call_step(ctx, 1, &e)) {
                snprintf(d->note, sizeof d->note, "step(1) number %lld failed: %.400s", (long long)j,
                         e.msg);
                break;
            }
            if ((rc = oracle_advance(&c->rule, &oracle, &next, err))) break;
        }
        if (cc_call_store(ctx, got.cells, &e)) {
            snprintf(d->note, sizeof d->note, "store after step %lld failed: %.400s", (long long)j,
                     e.msg);
            break;
        }
        if (diverged(d, report_dir, engine->name, c, tag, j, &got, &oracle)) break;
        if (j < c->steps && cc_now_seconds() > until) {
            snprintf(d->note, sizeof d->note,
                     "single steps agreed up to step %lld; the search stopped there, past its "
                     "%.0f s", (long long)j, CC_DIVERGENCE_BUDGET_S);
            break;
        }
    }
    cc_call_destroy(ctx, NULL);
    if (rc || d->known || d->note[0]) goto done;

    /* Every single step agreed: find the first j where step(j) in one call does not. */
    d->single_steps_agree = 1;
    memcpy(oracle.cells, init.cells, cc_grid_cells(&init));
    for (int64_t j = 1, at = 0; j <= c->steps; j = j == c->steps ? j + 1 : next_probe(j, c->steps)) {
        for (; at < j && !rc; at++) rc = oracle_advance(&c->rule, &oracle, &next, err);
        if (rc) break;
        if (!(ctx = fresh(engine, c, &init, d))) break;
        int bad = cc_call_step(ctx, j, &e) || cc_call_store(ctx, got.cells, &e);
        cc_call_destroy(ctx, NULL);
        if (bad) {
            snprintf(d->note, sizeof d->note, "step(%lld) or store failed: %.400s", (long long)j,
                     e.msg);
            break;
        }
        if (diverged(d, report_dir, engine->name, c, tag, j, &got, &oracle)) break;
        if (j < c->steps && cc_now_seconds() > until) {
            snprintf(d->note, sizeof d->note,
                     "step(j) in one call agreed up to j = %lld; the search stopped there, past "
                     "its %.0f s", (long long)j, CC_DIVERGENCE_BUDGET_S);
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
