/* Call sequences from the contract's state machine, checked call by call against the oracle. */
#include "harness/sequence.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_set.h"
#include "fuzz/draw.h"
#include "harness/check.h"
#include "harness/limits.h"
#include "harness/report.h"
#include "oracle/cells.h"
#include "oracle/oracle.h"
#include "supervise/supervisor.h"

/* ---- Drawing and text ------------------------------------------------------------------- */

void cc_sequence_draw(const cc_case *c, int64_t max_k, cc_call_sequence *out) {
    memset(out, 0, sizeof *out);
    cc_param_stream ps;
    cc_error err;
    if (case_param_init(&ps, c->seed, "calls", &err)) return;
    if (max_k < 1) max_k = 1;
    int len = 6 + (int)case_param_uniform(&ps, 11);
    uint32_t grids = 1;
    int b_live = 0, stored = 0;
    out->op[out->n++] = (cc_call_op){.kind = CC_OP_LOAD_NEW, .grid = 0};
    while (out->n < len - 1) {
        cc_call_op op = {0};
        uint32_t roll = case_param_uniform(&ps, 100);
        if (roll < 32) {
            op.kind = CC_OP_STEP;
            /* Mostly a few steps; now and then none, or the most allowed. */
            uint32_t r = case_param_uniform(&ps, 8);
            op.k = r == 0 ? 0 : r == 7 ? max_k : 1 + (int64_t)case_param_uniform(&ps, 3);
            if (op.k > max_k) op.k = max_k;
        } else if (roll < 62) {
            op.kind = CC_OP_STORE;
            stored = 1;
        } else if (roll < 80) {
            uint32_t r = case_param_uniform(&ps, 4);
            op.kind = r == 0 ? CC_OP_LOAD_NEW : r == 1 ? CC_OP_LOAD_SAME
                      : r == 2 ? CC_OP_LOAD_ROWS : CC_OP_LOAD_STORED;
            if (op.kind == CC_OP_LOAD_STORED && !stored) op.kind = CC_OP_LOAD_SAME;
            if (op.kind == CC_OP_LOAD_NEW || op.kind == CC_OP_LOAD_ROWS) op.grid = grids++;
        } else if (!b_live) {
            op.kind = CC_OP_B_CREATE;
            b_live = 1;
        } else {
            uint32_t r = case_param_uniform(&ps, 3);
            op.kind = r == 0 ? CC_OP_B_STEP : r == 1 ? CC_OP_B_STORE : CC_OP_B_DESTROY;
            if (op.kind == CC_OP_B_STEP) op.k = 1 + (int64_t)case_param_uniform(&ps, 2);
            if (op.kind == CC_OP_B_DESTROY) b_live = 0;
        }
        out->op[out->n++] = op;
    }
    out->op[out->n++] = (cc_call_op){.kind = CC_OP_STORE};
}

int32_t cc_sequence_draw_buffers(const cc_case *c) {
    cc_param_stream ps;
    cc_error err;
    if (case_param_init(&ps, c->seed, "buffers", &err)) return 0;
    const uint32_t roll = case_param_uniform(&ps, 4);
    if (roll == 0) return 0;
    if (roll == 1) return CC_BUFFERS_GUARD;
    return 1 + (int32_t)case_param_uniform(&ps, CC_BUFFERS_ALIGN);
}

static int format_op(const cc_call_op *op, char *buf, size_t size) {
    switch (op->kind) {
    case CC_OP_LOAD_NEW: return snprintf(buf, size, "load#%" PRIu32, op->grid);
    case CC_OP_LOAD_SAME: return snprintf(buf, size, "load=same");
    case CC_OP_LOAD_ROWS: return snprintf(buf, size, "load=rows#%" PRIu32, op->grid);
    case CC_OP_LOAD_STORED: return snprintf(buf, size, "load=stored");
    case CC_OP_STEP: return snprintf(buf, size, "step(%" PRId64 ")", op->k);
    case CC_OP_STORE: return snprintf(buf, size, "store");
    case CC_OP_B_CREATE: return snprintf(buf, size, "B.create");
    case CC_OP_B_STEP: return snprintf(buf, size, "B.step(%" PRId64 ")", op->k);
    case CC_OP_B_STORE: return snprintf(buf, size, "B.store");
    case CC_OP_B_DESTROY: return snprintf(buf, size, "B.destroy");
    case CC_OP_LOAD_LASTROW: return snprintf(buf, size, "load=lastrow");
    case CC_OP_LOAD_MIDDLE: return snprintf(buf, size, "load=middle");
    case CC_OP_RECREATE: return snprintf(buf, size, "recreate");
    case CC_OP_B_TWIN_LASTROW: return snprintf(buf, size, "B.twin=lastrow");
    case CC_OP_B_TWIN_MIDDLE: return snprintf(buf, size, "B.twin=middle");
    }
    return snprintf(buf, size, "?");
}

int cc_sequence_format(const cc_call_sequence *s, char *buf, size_t size) {
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < s->n; i++) {
        char one[48];
        format_op(&s->op[i], one, sizeof one);
        int k = snprintf(buf + used, size > used ? size - used : 0, "%s%s", i ? " " : "", one);
        if (k < 0 || used + (size_t)k >= size) return CC_ERR_ARG;
        used += (size_t)k;
    }
    return CC_OK;
}

/* "(K)" at p: K in 0 .. 2^62. */
static int parse_count(const char *p, const char *end, int64_t *k) {
    if (end - p < 3 || *p != '(' || end[-1] != ')') return -1;
    int64_t v = 0;
    for (const char *q = p + 1; q < end - 1; q++) {
        if (!isdigit((unsigned char)*q) || v > (INT64_C(1) << 62) / 10) return -1;
        v = v * 10 + (*q - '0');
    }
    *k = v;
    return 0;
}

static int parse_grid(const char *p, const char *end, uint32_t *j) {
    if (end - p < 2 || *p != '#') return -1;
    uint64_t v = 0;
    for (const char *q = p + 1; q < end; q++) {
        if (!isdigit((unsigned char)*q) || v > 100000000) return -1;
        v = v * 10 + (uint64_t)(*q - '0');
    }
    *j = (uint32_t)v;
    return 0;
}

int cc_sequence_parse(const char *text, cc_call_sequence *out, cc_error *err) {
    memset(out, 0, sizeof *out);
    const char *p = text ? text : "";
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        const char *end = p;
        while (*end && *end != ' ') end++;
        size_t len = (size_t)(end - p);
        if (out->n == CC_SEQUENCE_OPS_MAX)
            return cc_fail(err, CC_ERR_ARG, "call sequence: more than %d calls",
                           CC_SEQUENCE_OPS_MAX);
        cc_call_op op = {0};
        int bad = 0;
#define IS(word) (len == strlen(word) && strncmp(p, word, len) == 0)
#define STARTS(word) (len >= strlen(word) && strncmp(p, word, strlen(word)) == 0)
        if (IS("load=same")) op.kind = CC_OP_LOAD_SAME;
        else if (IS("load=lastrow")) op.kind = CC_OP_LOAD_LASTROW;
        else if (IS("load=middle")) op.kind = CC_OP_LOAD_MIDDLE;
        else if (IS("recreate")) op.kind = CC_OP_RECREATE;
        else if (IS("B.twin=lastrow")) op.kind = CC_OP_B_TWIN_LASTROW;
        else if (IS("B.twin=middle")) op.kind = CC_OP_B_TWIN_MIDDLE;
        else if (IS("load=stored")) op.kind = CC_OP_LOAD_STORED;
        else if (STARTS("load=rows")) op.kind = CC_OP_LOAD_ROWS, bad = parse_grid(p + 9, end, &op.grid);
        else if (STARTS("load")) op.kind = CC_OP_LOAD_NEW, bad = parse_grid(p + 4, end, &op.grid);
        else if (STARTS("step")) op.kind = CC_OP_STEP, bad = parse_count(p + 4, end, &op.k);
        else if (IS("store")) op.kind = CC_OP_STORE;
        else if (IS("B.create")) op.kind = CC_OP_B_CREATE;
        else if (STARTS("B.step")) op.kind = CC_OP_B_STEP, bad = parse_count(p + 6, end, &op.k);
        else if (IS("B.store")) op.kind = CC_OP_B_STORE;
        else if (IS("B.destroy")) op.kind = CC_OP_B_DESTROY;
        else bad = 1;
#undef IS
#undef STARTS
        if (bad)
            return cc_fail(err, CC_ERR_ARG,
                           "call sequence: '%.*s' is not a call (load#J, load=same, load=rows#J, "
                           "load=stored, load=lastrow, load=middle, step(K), store, recreate, "
                           "B.create, B.twin=lastrow, B.twin=middle, B.step(K), B.store, "
                           "B.destroy)",
                           (int)(len > 40 ? 40 : len), p);
        out->op[out->n++] = op;
        p = end;
    }
    if (out->n == 0) return cc_fail(err, CC_ERR_ARG, "call sequence: no calls");
    return CC_OK;
}

/* ---- Running ---------------------------------------------------------------------------- */

static int is_b_op(cc_call_op_kind k) {
    return (k >= CC_OP_B_CREATE && k <= CC_OP_B_DESTROY) || k == CC_OP_B_TWIN_LASTROW ||
           k == CC_OP_B_TWIN_MIDDLE;
}

/* Grid J of the case: the case with its seed derived for J, the case's density and kind. */
static int grid_j(const cc_case *c, uint32_t j, cc_grid *g, cc_error *err) {
    if (j == 0) return case_grid(c, g, err);
    cc_case d = *c;
    case_seed_derive(c->seed, 0x6c6f6164ull + j, d.seed); /* "load" + J */
    return case_grid(&d, g, err);
}

/* The second context's case: within the engine's caps, small, from the case's seed. */
static int second_case(const cc_engine *engine, const cc_case *c, cc_case *out, cc_error *err) {
    uint8_t seed[CC_SEED_BYTES];
    case_seed_derive(c->seed, 0x7365636f6e64ull, seed); /* "second" */
    int rc = cc_case_draw_small(engine, seed, out, err);
    return rc ? cc_prefix(err, "drawing B's case") : CC_OK;
}

typedef struct side {
    cc_context *ctx;
    cc_grid model;  /* the oracle's state of the context */
    cc_grid loaded; /* what it last loaded */
    cc_grid stored; /* what it last stored */
    int has_loaded, has_stored;
    int ready; /* loaded since it was created: it may step and store */
} side;

/* g: the grid last loaded, with one cell flipped: in the middle of the last row, or at the
 * centre (a near-duplicate that a cache keyed on part of the input takes for the original). */
static int near_duplicate(const cc_grid *loaded, int last_row, cc_grid *g, cc_error *err) {
    int rc = cc_grid_copy(g, loaded, err);
    if (rc) return rc;
    const size_t x = (size_t)g->w / 2, y = last_row ? (size_t)g->h - 1 : (size_t)g->h / 2;
    g->cells[y * (size_t)g->w + x] ^= 1u;
    return CC_OK;
}

static void side_free(side *s) {
    if (s->ctx) cc_call_destroy(s->ctx, NULL);
    cc_grid_free(&s->model);
    cc_grid_free(&s->loaded);
    cc_grid_free(&s->stored);
    memset(s, 0, sizeof *s);
}

static void seq_fail(cc_sequence_result *res, cc_failure_kind kind, int at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void seq_fail(cc_sequence_result *res, cc_failure_kind kind, int at, const char *fmt, ...) {
    res->failed = 1;
    res->kind = kind;
    res->at = at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->detail, sizeof res->detail, fmt, ap);
    va_end(ap);
}

/* A call that failed, in the words the one-case check uses. */
static void call_failed(cc_sequence_result *res, int at, int rc, const char *call,
                        const cc_error *e) {
    cc_failure_kind kind = cc_failure_kind_of_code(rc);
    if (kind == CC_FAILURE_ENGINE_ERROR)
        seq_fail(res, kind, at, "%s (call %d) failed: %.400s", call, at + 1, e->msg);
    else
        seq_fail(res, kind, at, "%.480s", e->msg);
}

static int load_into(side *s, const cc_grid *g, cc_error *err) {
    int rc = cc_grid_copy(&s->model, g, err);
    if (!rc) rc = cc_grid_copy(&s->loaded, g, err);
    if (!rc) s->has_loaded = s->ready = 1;
    return rc;
}

int cc_sequence_run(const cc_engine *engine, const cc_case *c, const cc_call_sequence *s,
                    cc_sequence_result *res, cc_error *err) {
    memset(res, 0, sizeof *res);
    res->kind = CC_FAILURE_NONE;
    side a = {0}, b = {0};
    cc_case bc;
    const cc_case *b_case = &bc; /* B's case: the drawn second one, or the first's for a twin */
    int have_bc = 0, rc = CC_OK;
    cc_grid g = {0}, got = {0};
    cc_error e;
    cc_error_clear(&e);
    char call[64];
    /* The case's OpenMP team (threads=N), timing disturbance (timing=) and caller's buffers
     * (buffers=), for the whole sequence. */
    cc_supervisor_team(cc_supervisor_of(engine), c->threads);
    cc_supervisor_timing(cc_supervisor_of(engine), c->timing);
    cc_supervisor_buffers(cc_supervisor_of(engine), c->buffers);
    int ec = cc_call_create(engine, &c->rule, c->w, c->h, &a.ctx, &e);
    if (ec) {
        if (ec == CC_ERR_NOMEM) return cc_fail(err, CC_ERR_NOMEM, "%s", e.msg);
        call_failed(res, -1, ec, "create", &e);
        return CC_OK;
    }
    for (int i = 0; i < s->n && !rc && !res->failed; i++) {
        const cc_call_op *op = &s->op[i];
        side *sd = is_b_op(op->kind) ? &b : &a;
        const cc_case *sc = sd == &b ? b_case : c;
        format_op(op, call, sizeof call);
        cc_case_label(engine, "call sequence", c);
        switch (op->kind) {
        case CC_OP_LOAD_NEW:
        case CC_OP_LOAD_SAME:
        case CC_OP_LOAD_ROWS:
        case CC_OP_LOAD_STORED:
        case CC_OP_LOAD_LASTROW:
        case CC_OP_LOAD_MIDDLE:
            if ((op->kind == CC_OP_LOAD_SAME || op->kind == CC_OP_LOAD_ROWS ||
                 op->kind == CC_OP_LOAD_LASTROW || op->kind == CC_OP_LOAD_MIDDLE) &&
                !a.has_loaded)
                rc = cc_fail(err, CC_ERR_ARG, "call sequence: %s before any load", call);
            else if (op->kind == CC_OP_LOAD_STORED && !a.has_stored)
                rc = cc_fail(err, CC_ERR_ARG, "call sequence: %s before any store", call);
            else if (op->kind == CC_OP_LOAD_NEW) rc = grid_j(c, op->grid, &g, err);
            else if (op->kind == CC_OP_LOAD_SAME) rc = cc_grid_copy(&g, &a.loaded, err);
            else if (op->kind == CC_OP_LOAD_STORED) rc = cc_grid_copy(&g, &a.stored, err);
            else if (op->kind == CC_OP_LOAD_LASTROW || op->kind == CC_OP_LOAD_MIDDLE)
                rc = near_duplicate(&a.loaded, op->kind == CC_OP_LOAD_LASTROW, &g, err);
            else if (!(rc = grid_j(c, op->grid, &g, err))) {
                size_t w = (size_t)c->w;
                for (int32_t y = 0; y < c->h; y += 2)
                    memcpy(g.cells + (size_t)y * w, a.loaded.cells + (size_t)y * w, w);
            }
            if (!rc && (rc = load_into(&a, &g, err)) == CC_OK &&
                (ec = cc_call_load(a.ctx, g.cells, &e)))
                call_failed(res, i, ec, call, &e);
            break;
        case CC_OP_STEP:
        case CC_OP_B_STEP:
            if (!sd->ctx || !sd->ready) {
                rc = cc_fail(err, CC_ERR_ARG, "call sequence: %s before %s", call,
                             sd == &b ? "B.create" : "any load");
                break;
            }
            if ((ec = cc_call_step(sd->ctx, op->k, &e))) call_failed(res, i, ec, call, &e);
            else if ((rc = oracle_run(&sc->rule, &sd->model, op->k, err))) cc_prefix(err, "oracle");
            break;
        case CC_OP_STORE:
        case CC_OP_B_STORE: {
            if (!sd->ctx || !sd->ready) {
                rc = cc_fail(err, CC_ERR_ARG, "call sequence: %s before %s", call,
                             sd == &b ? "B.create" : "any load");
                break;
            }
            if ((rc = cc_grid_alloc(&got, sc->w, sc->h, err))) break;
            if ((ec = cc_call_store(sd->ctx, got.cells, &e))) {
                call_failed(res, i, ec, call, &e);
                break;
            }
            size_t first = 0, n = cc_grid_cells(&got);
            uint64_t d = cc_cells_count_differing(got.cells, sd->model.cells, n, &first);
            if (d) {
                res->differing = d;
                seq_fail(res, CC_FAILURE_CALL_SEQUENCE, i,
                         "%s (call %d) differs from the oracle in %" PRIu64 " cells, first (%d,%d): "
                         "engine %d, oracle %d",
                         call, i + 1, d, (int)(first % (size_t)sc->w), (int)(first / (size_t)sc->w),
                         got.cells[first], sd->model.cells[first]);
                break;
            }
            rc = cc_grid_copy(&sd->stored, &got, err);
            sd->has_stored = !rc;
            break;
        }
        case CC_OP_B_CREATE:
        case CC_OP_B_TWIN_LASTROW:
        case CC_OP_B_TWIN_MIDDLE: {
            const int twin = op->kind != CC_OP_B_CREATE;
            if (b.ctx) {
                rc = cc_fail(err, CC_ERR_ARG, "call sequence: %s with B live", call);
                break;
            }
            if (twin && !a.has_loaded) {
                rc = cc_fail(err, CC_ERR_ARG, "call sequence: %s before any load", call);
                break;
            }
            if (!twin && !have_bc && (rc = second_case(engine, c, &bc, err))) break;
            have_bc |= !twin;
            b_case = twin ? c : &bc;
            if ((ec = cc_call_create(engine, &b_case->rule, b_case->w, b_case->h, &b.ctx, &e))) {
                b.ctx = NULL;
                if (ec == CC_ERR_NOMEM) rc = cc_fail(err, CC_ERR_NOMEM, "%s", e.msg);
                else call_failed(res, i, ec, call, &e);
                break;
            }
            rc = twin ? near_duplicate(&a.loaded, op->kind == CC_OP_B_TWIN_LASTROW, &g, err)
                      : case_grid(&bc, &g, err);
            if (!rc && !(rc = load_into(&b, &g, err)) && (ec = cc_call_load(b.ctx, g.cells, &e)))
                call_failed(res, i, ec, "B.load", &e);
            break;
        }
        case CC_OP_RECREATE:
            /* The same case's context again: what the last one computed must not leak in. */
            ec = cc_call_destroy(a.ctx, &e);
            a.ctx = NULL;
            a.ready = 0;
            if (ec) {
                call_failed(res, i, ec, "destroy", &e);
                break;
            }
            if ((ec = cc_call_create(engine, &c->rule, c->w, c->h, &a.ctx, &e))) {
                a.ctx = NULL;
                if (ec == CC_ERR_NOMEM) rc = cc_fail(err, CC_ERR_NOMEM, "%s", e.msg);
                else call_failed(res, i, ec, call, &e);
            }
            break;
        case CC_OP_B_DESTROY:
            if (!b.ctx) {
                rc = cc_fail(err, CC_ERR_ARG, "call sequence: B.destroy with no B");
                break;
            }
            ec = cc_call_destroy(b.ctx, &e);
            b.ctx = NULL;
            side_free(&b);
            if (ec) call_failed(res, i, ec, call, &e);
            break;
        }
    }
    if (a.ctx) {
        ec = cc_call_destroy(a.ctx, &e);
        a.ctx = NULL;
        if (ec && !rc && !res->failed) call_failed(res, s->n, ec, "destroy", &e);
    }
    side_free(&a);
    side_free(&b);
    cc_grid_free(&g);
    cc_grid_free(&got);
    return rc;
}

/* ---- Shrinking and reports -------------------------------------------------------------- */

static int same_way(const cc_sequence_result *a, const cc_sequence_result *b) {
    return a->failed && b->failed && a->kind == b->kind;
}

int cc_sequence_shrink(const cc_engine *engine, const cc_case *c, const cc_call_sequence *s,
                       const cc_sequence_result *res, int max_tries, cc_call_sequence *out,
                       int *tries, cc_error *err) {
    *out = *s;
    *tries = 0;
    /* What follows the failing call never ran: cut it first. */
    if (res->at >= 0 && res->at + 1 < out->n) out->n = res->at + 1;
    int changed = 1;
    while (changed && *tries < max_tries) {
        changed = 0;
        for (int i = out->n - 1; i >= 0 && *tries < max_tries; i--) {
            cc_call_sequence cand = *out;
            memmove(&cand.op[i], &cand.op[i + 1], (size_t)(cand.n - i - 1) * sizeof cand.op[0]);
            cand.n--;
            if (cand.n == 0) continue;
            cc_sequence_result r;
            (*tries)++;
            int rc = cc_sequence_run(engine, c, &cand, &r, err);
            if (rc == CC_ERR_ARG) continue; /* a call the contract has no meaning for */
            if (rc) return rc;
            if (same_way(&r, res)) {
                if (r.at + 1 < cand.n) cand.n = r.at + 1;
                *out = cand;
                changed = 1;
            }
        }
        for (int i = 0; i < out->n && *tries < max_tries; i++) {
            cc_call_op *op = &out->op[i];
            if ((op->kind != CC_OP_STEP && op->kind != CC_OP_B_STEP) || op->k <= 1) continue;
            cc_call_sequence cand = *out;
            cand.op[i].k = op->k / 2;
            cc_sequence_result r;
            (*tries)++;
            int rc = cc_sequence_run(engine, c, &cand, &r, err);
            if (rc && rc != CC_ERR_ARG) return rc;
            if (!rc && same_way(&r, res)) {
                *out = cand;
                changed = 1;
            }
        }
    }
    return CC_OK;
}

void cc_sequence_report(FILE *out, const char *command, const char *engine, const cc_case *c,
                        const cc_call_sequence *s, const cc_sequence_result *res,
                        const cc_call_sequence *shortest, int tries) {
    if (!out) out = stdout;
    char line[CC_CASE_TEXT_MAX], text[CC_SEQUENCE_TEXT_MAX], reproducer[CC_REPRODUCER_TEXT_MAX];
    if (case_format(c, line, sizeof line, NULL)) snprintf(line, sizeof line, "(unprintable)");
    fprintf(out, "FAILED: %s: %s: %s\n", engine, cc_failure_kind_name(res->kind), res->detail);
    fprintf(out, "  case: %s\n", line);
    cc_sequence_format(s, text, sizeof text);
    fprintf(out, "  calls: %s\n", text);
    if (shortest && shortest->n < s->n) {
        cc_sequence_format(shortest, text, sizeof text);
        fprintf(out, "  shortest failing sequence: %s (%d calls of %d, %d tries)\n", text,
                shortest->n, s->n, tries);
    }
    cc_reproducer_format(reproducer, sizeof reproducer, command, engine, line, text);
    fprintf(out, "  reproduce: %s\n", reproducer);
}

int cc_sequence_check_line(const cc_engine *engine, const char *case_line, const char *calls,
                           const char *command, FILE *out, cc_error *err) {
    if (!out) out = stdout;
    cc_case c;
    cc_call_sequence s;
    int rc = case_parse(case_line, &c, err);
    if (!rc) rc = cc_sequence_parse(calls, &s, err);
    if (rc) return rc;
    /* The limits of check --case: the steps of every call together, and the harness's grids
     * (a model, the last loaded and the last stored of each of two contexts, and a store's). */
    int64_t steps = 0;
    for (int i = 0; i < s.n; i++)
        if (s.op[i].k > 0 && steps < INT64_MAX - s.op[i].k) steps += s.op[i].k;
    if ((rc = cc_limit_work("check --calls", &c.rule, c.w, c.h, steps, CC_CHECK_WORK_MAX, err)) ||
        (rc = cc_limit_engine_memory("check --calls", engine, &c.rule, c.w, c.h, 7.0, err)))
        return rc;
    cc_error caps;
    if (cc_engine_check(engine, &c.rule, c.w, c.h, &caps))
        return cc_fail(err, CC_ERR_ARG, "the case is outside %s's caps: %s", engine->name,
                       caps.msg);
    cc_sequence_result res;
    if ((rc = cc_sequence_run(engine, &c, &s, &res, err))) return rc;
    if (!res.failed) {
        fprintf(out, "PASSED: %s: %d calls, every store agreed with the oracle\n", engine->name,
                s.n);
        return CC_OK;
    }
    cc_call_sequence shortest;
    int tries = 0;
    if (cc_failure_kind_is_fault(res.kind) ||
        cc_sequence_shrink(engine, &c, &s, &res, 64, &shortest, &tries, err))
        shortest = s;
    cc_sequence_report(out, command, engine->name, &c, &s, &res, &shortest, tries);
    return CC_ERR_MISMATCH;
}
