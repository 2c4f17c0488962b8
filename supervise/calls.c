/* The supervisor's calls (supervisor.h): each is a request to the worker and its reply, within
 * the limits of limits.c; load's and store's grids travel through the shared file, fenced by
 * guard bands and checked here. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oracle/case.h"
#include "oracle/cells.h"
#include "oracle/rule.h"
#include "supervise/supervisor_internal.h"

#define TICK_MS 20   /* how often a call in flight is looked at */
#define SPIN_S 50e-6 /* how long a call is waited on without sleeping */

static int fault_of_status(cc_supervisor *sv, int status, const call_info *ci, cc_error *err) {
    int broke = sv_sandbox_fault(sv, status, ci, err);
    if (broke) return broke;
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        return cc_fail(err, CC_ERR_CRASHED, "%s: crashed (%s, %s) in %s after %.2f s",
                       ci->engine, sigabbrev_np(sig) ? sigabbrev_np(sig) : "signal",
                       strsignal(sig), ci->what, ci->elapsed_s);
    }
    (void)sv;
    return cc_fail(err, CC_ERR_EXITED,
                   "%s: exited with status %d in %s after %.2f s, without answering",
                   ci->engine, WIFEXITED(status) ? WEXITSTATUS(status) : -1, ci->what,
                   ci->elapsed_s);
}

int sv_exchange(cc_supervisor *sv, sv_request *req, sv_reply *rep, void *extra,
                size_t extra_size, call_info *ci, cc_error *err) {
    req->shm_bytes = sv->map_bytes;
    sv->stats.calls++;
    double start = sv_now_s(), last_note = start;
    if (sv_write_full(sv->sock, req, sizeof *req)) {
        /* The worker is gone already: its status says how. */
        int st;
        ci->elapsed_s = 0;
        sv_end_faulted(sv, 0, &st);
        return fault_of_status(sv, st, ci, err);
    }
    uint8_t *buf = (uint8_t *)rep;
    size_t want = sizeof *rep, got = 0;
    int in_extra = 0;
    /* Most calls answer within microseconds: a short spin spares them a sleep and a wake-up. */
    double spin_until = start + SPIN_S;
    for (;;) {
        struct pollfd p = {.fd = sv->sock, .events = POLLIN};
        int spinning = sv_now_s() < spin_until;
        int n = poll(&p, 1, spinning ? 0 : TICK_MS);
        double t = sv_now_s();
        ci->elapsed_s = t - start;
        if (n == 0 && spinning) {
            sched_yield(); /* where the worker shares this core, it runs now */
            continue;
        }
        if (n > 0) {
            ssize_t r = read(sv->sock, buf + got, want - got);
            if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (r <= 0) {
                int st;
                sv_end_faulted(sv, 0, &st);
                return fault_of_status(sv, st, ci, err);
            }
            got += (size_t)r;
            if (got < want) continue;
            if (!in_extra && extra && rep->rc == CC_OK) {
                in_extra = 1;
                buf = extra;
                want = extra_size;
                got = 0;
                continue;
            }
            break;
        }
        int st;
        pid_t done = waitpid(sv->pid, &st, WNOHANG);
        if (done == sv->pid) {
            sv_end_faulted(sv, 1, NULL);
            return fault_of_status(sv, st, ci, err);
        }
        double rss = sv_worker_rss(sv);
        if (rss > sv_memory_limit(sv)) return sv_end_for_memory(sv, rss, ci, err);
        if (ci->elapsed_s > ci->limit_s)
            return ci->limit_asked ? sv_end_at_wait(sv, ci, err) : sv_end_for_time(sv, ci, err);
        if (sv->opt.progress && t - last_note >= sv->opt.progress_every_s) {
            last_note = t;
            fprintf(sv->opt.progress, "in flight: %s%s%s: %s for %.0f s (limit %.0f s)\n",
                    ci->engine, sv->label[0] ? ": " : "", sv->label, ci->what, ci->elapsed_s,
                    ci->limit_s);
            fflush(sv->opt.progress);
        }
    }
    ci->elapsed_s = sv_now_s() - start;
    sv->stats.call_seconds += ci->elapsed_s;
    sv->stats.engine_seconds += rep->engine_s;
    /* Short calls are not measured again: a tick measures any call that lasts one. */
    double rss = ci->memory_after || ci->elapsed_s * 1e3 >= TICK_MS ? sv_worker_rss(sv) : 0;
    return rss > sv_memory_limit(sv) ? sv_end_for_memory(sv, rss, ci, err) : CC_OK;
}

/* Starts a worker unless one runs: spawned, then its start-up answered (the plugins loaded). */
int sv_start_worker(cc_supervisor *sv, cc_error *err) {
    if (sv->pid > 0) return CC_OK;
    int rc = sv_spawn_worker(sv, err);
    if (rc) return rc;
    /* The worker loads the plugins before it answers: a constructor that crashes shows here. */
    sv_request req = {.op = SV_OP_HELLO};
    sv_reply rep;
    call_info ci = {.engine = "worker", .limit_s = sv->opt.time_floor_s};
    snprintf(ci.what, sizeof ci.what, "start-up");
    sv->rss_start = 0;
    sv->live_need = 1e18; /* no memory limit until it has started */
    sv->live = 0;
    int code = sv_exchange(sv, &req, &rep, NULL, 0, &ci, err);
    sv->live_need = 0;
    if (code) {
        int32_t at = ((sv_header *)(void *)sv->map)->loading_plugin;
        if (at >= 0 && (size_t)at < sv->nplugins)
            return cc_prefix(err, "loading plugin %s", sv->plugins[at]);
        return code;
    }
    if (rep.rc) {
        *err = rep.err;
        sv_retire_worker(sv);
        return rep.rc;
    }
    double rss = sv_worker_rss(sv);
    sv->rss_start = sv->rss_idle = rss > 0 ? rss : 0;
    sv_sandbox_note(sv, &rep);
    return CC_OK;
}

int sv_call(cc_supervisor *sv, sv_request *req, sv_reply *rep, void *extra, size_t extra_size,
            call_info *ci, cc_error *err) {
    memset(rep, 0, sizeof *rep);
    int rc = sv_start_worker(sv, err);
    if (rc) return rc;
    req->timing = sv->timing;
    req->buffers = sv->buffers;
    if ((rc = sv_exchange(sv, req, rep, extra, extra_size, ci, err))) return rc;
    if (rep->rc) *err = rep->err;
    return rep->rc;
}

/* ---- Calls ------------------------------------------------------------------------------ */

static double cells_of(int32_t w, int32_t h) { return (double)w * (double)h; }

void sv_call_info(const sv_engine *e, call_info *ci, double cells, const char *fmt, ...) {
    memset(ci, 0, sizeof *ci);
    ci->engine = e->name;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ci->what, sizeof ci->what, fmt, ap);
    va_end(ap);
    ci->limit_s = sv_time_limit(e->sv, cells);
}

int cc_call_available(const cc_engine *engine, cc_error *err) {
    sv_engine *e = sv_remote_of(engine);
    if (!e) return sv_stub_refuse(err);
    if (!(e->has & SV_HAS_AVAILABLE)) return CC_OK;
    sv_request req = {.op = SV_OP_AVAILABLE, .engine = e->index};
    sv_reply rep;
    call_info ci;
    sv_call_info(e, &ci, 0, "available()");
    return sv_call(e->sv, &req, &rep, NULL, 0, &ci, err);
}

int cc_call_devices(const cc_engine *engine, int32_t *count, cc_error *err) {
    *count = 1;
    sv_engine *e = sv_remote_of(engine);
    if (!e) return sv_stub_refuse(err);
    if (!(e->has & SV_HAS_DEVICES)) return CC_OK;
    sv_request req = {.op = SV_OP_DEVICES, .engine = e->index};
    sv_reply rep;
    call_info ci;
    sv_call_info(e, &ci, 0, "devices()");
    int rc = sv_call(e->sv, &req, &rep, NULL, 0, &ci, err);
    if (rc == CC_OK) *count = (int32_t)rep.count;
    return rc;
}

int cc_call_timing_available(const cc_engine *engine, cc_error *err) {
    sv_engine *e = sv_remote_of(engine);
    if (!e) return sv_stub_refuse(err);
    sv_request req = {.op = SV_OP_TIMING, .engine = e->index};
    sv_reply rep;
    call_info ci;
    sv_call_info(e, &ci, 0, "the timing disturbance's check");
    return sv_call(e->sv, &req, &rep, NULL, 0, &ci, err);
}

int cc_call_memory(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                   cc_memory *need, cc_error *err) {
    memset(need, 0, sizeof *need);
    sv_engine *e = sv_remote_of(engine);
    if (!e) {
        sv_stub_refuse(err);
        return 0;
    }
    if (!(e->has & SV_HAS_MEMORY)) return 0;
    sv_request req = {.op = SV_OP_MEMORY, .engine = e->index, .rule = *rule, .w = w, .h = h};
    sv_reply rep;
    call_info ci;
    sv_call_info(e, &ci, 0, "memory()");
    if (sv_call(e->sv, &req, &rep, NULL, 0, &ci, err)) return 0;
    if (!rep.stated) return 0;
    *need = rep.memory;
    return 1;
}

/* A context's engine, or an error when its worker has ended since it was made. */
static sv_engine *live_engine(cc_context *c, cc_error *err) {
    sv_engine *e = c ? sv_remote_of(c->engine) : NULL;
    if (!e) {
        sv_stub_refuse(err);
        return NULL;
    }
    sv_context *sc = (sv_context *)(void *)c;
    if (sc->generation != e->sv->generation || e->sv->pid <= 0) {
        cc_fail(err, CC_ERR_ARG, "%s: this context was lost with its worker, which ended",
                e->name);
        return NULL;
    }
    return e;
}

static int retire_on_device_error(sv_engine *e, int rc) {
    /* A CUDA error poisons the context for the whole process: the next call gets a fresh one
     * (a plugin's GPU engine may not say it needs a GPU, so any engine's device error counts). */
    if (rc == CC_ERR_DEVICE && e->sv->pid > 0) {
        sv_retire_worker(e->sv);
        e->sv->stats.faults++;
    }
    return rc;
}

/* create ran out of memory (err) in a worker whose earlier contexts are all destroyed: the same
 * create again in a fresh worker tells the machine's limit (it fails there too: err as it is)
 * from memory those contexts left behind, on the device or the host, which a pool's reuse would
 * not leave (it succeeds there: a leak, CC_ERR_MEMORY_LIMIT). No context is left either way. */
static int create_again_fresh(sv_engine *e, sv_request *req, call_info *ci,
                              cc_error *err) {
    cc_supervisor *sv = e->sv;
    const unsigned long long made = sv->created;
    cc_error first = *err, again;
    sv_retire_worker(sv);
    sv_reply rep;
    int rc = sv_start_worker(sv, &again);
    if (!rc) {
        sv->live++;
        rc = sv_call(sv, req, &rep, NULL, 0, ci, &again);
        if (sv->pid > 0) sv->live--;
        /* What it made is ended with its worker: the next call starts another. */
        sv_retire_worker(sv);
    }
    if (rc) return rc == CC_ERR_NOMEM ? CC_ERR_NOMEM : (*err = again, rc);
    return cc_fail(err, CC_ERR_MEMORY_LIMIT,
                   "%s: leaked memory across cases: create (%dx%d) ran out of memory in a worker "
                   "after %llu contexts were created and destroyed (%.300s), and the same create "
                   "succeeded in a fresh worker: memory on the device or the host outlived its "
                   "contexts",
                   e->name, (int)req->w, (int)req->h, made, first.msg);
}

int sv_worker_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                     const cc_rank *rank, cc_context **out, cc_error *err) {
    *out = NULL;
    sv_engine *e = sv_remote_of(engine);
    if (!e) return sv_stub_refuse(err);
    /* The contract's checks need no engine code: a case outside the caps never reaches one. */
    int rc = cc_engine_check(engine, rule, w, h, err);
    if (rc) return rc;
    sv_context *sc = calloc(1, sizeof *sc);
    if (!sc) return cc_fail(err, CC_ERR_NOMEM, "out of memory for a context");
    cc_supervisor *sv = e->sv;
    if ((rc = sv_start_worker(sv, err))) {
        free(sc);
        return rc;
    }
    sv_request req = {.op = rank ? SV_OP_RANK_CREATE : SV_OP_CREATE, .engine = e->index,
                      .rule = *rule, .w = w, .h = h};
    if (rank) req.rank = *rank;
    const int32_t rows = rank ? rank->rows : h;
    sv_reply rep;
    call_info ci;
    if (rank)
        sv_call_info(e, &ci, cells_of(w, rows), "rank_create (%dx%d, rank %d of %d)", (int)w,
                     (int)h, (int)rank->rank, (int)rank->ranks);
    else
        sv_call_info(e, &ci, cells_of(w, h), "create (%dx%d)", (int)w, (int)h);
    ci.memory_after = 1;
    /* While create runs, the worker's header holds what it is counted for. */
    sv->live++;
    rc = sv_call(sv, &req, &rep, NULL, 0, &ci, err);
    ((sv_header *)(void *)sv->map)->creating_host_bytes = 0.0;
    if (rc == CC_ERR_NOMEM && sv->pid > 0 && sv->live == 1 && sv->created > 0) {
        sv->live--;
        free(sc);
        return create_again_fresh(e, &req, &ci, err);
    }
    if (rc) {
        if (sv->pid > 0) sv->live--;
        free(sc);
        return retire_on_device_error(e, rc);
    }
    double need = rep.memory.host_bytes;
    sv->live_need += need;
    if (need > sv->need_max) sv->need_max = need;
    sv->created++;
    sc->base.engine = engine;
    sc->base.ctx = NULL;
    sc->base.rule = *rule;
    sc->base.w = w;
    sc->base.h = rows;
    sc->generation = sv->generation;
    sc->id = rep.ctx;
    sc->host_need = need;
    *out = &sc->base;
    return CC_OK;
}

static size_t grid_bytes(const cc_context *c) { return (size_t)c->w * (size_t)c->h; }

/* "load", or under a placement of the caller's buffers "load (buffers=7: 7 bytes past a 64-byte
 * boundary)": a fault or breach that only that placement shows names it. */
static void placed_call(const cc_supervisor *sv, const char *call, char *out, size_t size) {
    char where[CC_BUFFERS_TEXT_MAX];
    case_buffers_describe(sv->buffers, where, sizeof where);
    if (where[0]) snprintf(out, size, "%.8s (%.80s)", call, where);
    else snprintf(out, size, "%s", call);
}

/* Bytes of a guard band that are no longer SV_GUARD_BYTE, and the first (or last) of them. */
static size_t guard_changed(const uint8_t *band, size_t n, size_t *where, int last) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (band[i] != SV_GUARD_BYTE) {
            if (count == 0 || last) *where = i;
            count++;
        }
    return count;
}

static int check_guards(const sv_engine *e, const char *call_name, size_t n, cc_supervisor *sv,
                        cc_error *err) {
    size_t where = 0;
    size_t before = guard_changed(sv->map + SV_HEADER_BYTES, SV_GUARD_BYTES, &where, 0);
    if (before)
        return cc_fail(err, CC_ERR_CONTRACT,
                       "%s: %s wrote before the grid: %zu of the %u bytes before it changed, the "
                       "first %zu bytes before it",
                       e->name, call_name, before, SV_GUARD_BYTES, (size_t)SV_GUARD_BYTES - where);
    size_t after = guard_changed(sv->map + SV_GRID_OFFSET + n, SV_GUARD_BYTES, &where, 1);
    if (after)
        return cc_fail(err, CC_ERR_CONTRACT,
                       "%s: %s wrote past the grid: %zu of the %u bytes after its %zu cells "
                       "changed, up to %zu bytes past its end",
                       e->name, call_name, after, SV_GUARD_BYTES, n, where + 1);
    return CC_OK;
}

/* Room for a grid of n cells in the shared file, with fresh guard bands at both ends. */
static int stage_grid(cc_supervisor *sv, size_t n, cc_error *err) {
    int rc = sv_grow_shared(sv, SV_GRID_OFFSET + n + SV_GUARD_BYTES, err);
    if (rc) return rc;
    memset(sv->map + SV_HEADER_BYTES, SV_GUARD_BYTE, SV_GUARD_BYTES);
    memset(sv->map + SV_GRID_OFFSET + n, SV_GUARD_BYTE, SV_GUARD_BYTES);
    return CC_OK;
}

/* load's grid from the caller's cells, or written in place by a source (cc_grid_source). */
static int load_grid(cc_context *c, const uint8_t *cells, const cc_grid_source *src,
                     cc_error *err) {
    sv_engine *e = live_engine(c, err);
    if (!e) return err->code;
    cc_supervisor *sv = e->sv;
    size_t n = grid_bytes(c);
    /* The worker's contract checks the cells are 0 or 1. */
    int rc = stage_grid(sv, n, err);
    if (rc) return rc;
    uint8_t *grid = sv->map + SV_GRID_OFFSET;
    if (src) {
        if ((rc = src->fill(src->arg, grid, n, err))) return rc;
    } else {
        cc_cells_copy(grid, cells, n);
    }
    sv_context *sc = (sv_context *)(void *)c;
    sv_request req = {.op = SV_OP_LOAD, .ctx = sc->id};
    sv_reply rep;
    call_info ci;
    char call[sizeof ci.what];
    placed_call(sv, "load", call, sizeof call);
    sv_call_info(e, &ci, (double)n, "%s", call);
    rc = sv_call(sv, &req, &rep, NULL, 0, &ci, err);
    if (rc) return retire_on_device_error(e, rc);
    c->loaded = 1;
    /* load's input is the caller's: an engine that writes into it would change what the
     * oracle is given next. */
    size_t first = n, changed;
    if (src) {
        cc_error src_err;
        if ((rc = src->differing(src->arg, grid, n, &changed, &first, &src_err))) {
            *err = src_err;
            return rc;
        }
    } else {
        changed = cc_cells_count_differing(grid, cells, n, &first);
    }
    if (changed) {
        char loaded[32] = "";
        if (!src) snprintf(loaded, sizeof loaded, ", loaded %d", cells[first]);
        return cc_fail(err, CC_ERR_CONTRACT,
                       "%s: wrote into load's input%s: %zu cells changed, first (%d,%d): %d%s",
                       e->name, call + strlen("load"), changed, (int)(first % (size_t)c->w),
                       (int)(first / (size_t)c->w), grid[first], loaded);
    }
    return check_guards(e, call, n, sv, err);
}

int sv_worker_load(cc_context *c, const uint8_t *cells, cc_error *err) {
    return load_grid(c, cells, NULL, err);
}

int sv_worker_load_from(cc_context *c, const cc_grid_source *src, cc_error *err) {
    return load_grid(c, NULL, src, err);
}

static double visits_of(const cc_context *c, int64_t k) {
    return cells_of(c->w, c->h) * (double)(cc_rule_max_count(&c->rule) + 1) * (double)k;
}

static int stepped(sv_engine *e, cc_context *c, int op, int64_t k, double wait_s, double *ms,
                   int *engine_clock, cc_error *err) {
    int rc = cc_engine_check_steps(e->name, k, err);
    if (rc) return rc;
    if (!c->loaded)
        return cc_fail(err, CC_ERR_ARG, "%s: step before any grid was loaded", e->name);
    sv_context *sc = (sv_context *)(void *)c;
    sv_request req = {.op = (uint32_t)op, .ctx = sc->id, .k = k};
    sv_reply rep;
    call_info ci;
    sv_call_info(e, &ci, 0, "%sstep(%lld)", op == SV_OP_TIMED_STEP ? "timed " : "", (long long)k);
    double visits = visits_of(c, k);
    ci.limit_s = sv_step_time_limit(e, visits);
    if (wait_s > 0 && wait_s < ci.limit_s) {
        ci.limit_s = wait_s;
        ci.limit_asked = 1;
    }
    rc = sv_call(e->sv, &req, &rep, NULL, 0, &ci, err);
    if (rc) return ci.limit_asked && rc == CC_ERR_TIMEOUT ? rc : retire_on_device_error(e, rc);
    sv_step_rate_note(e, visits, ci.elapsed_s);
    if (ms) *ms = rep.ms;
    if (engine_clock) *engine_clock = rep.engine_clock;
    return CC_OK;
}

int sv_worker_step(cc_context *c, int64_t k, cc_error *err) {
    sv_engine *e = live_engine(c, err);
    if (!e) return err->code;
    return stepped(e, c, SV_OP_STEP, k, 0.0, NULL, NULL, err);
}

int sv_worker_step_within(cc_context *c, int64_t k, double wait_s, int *running,
                          cc_error *err) {
    *running = 0;
    sv_engine *e = live_engine(c, err);
    if (!e) return err->code;
    const uint64_t generation = e->sv->generation;
    int rc = stepped(e, c, SV_OP_STEP, k, wait_s, NULL, NULL, err);
    if (rc == CC_ERR_TIMEOUT && e->sv->generation != generation && e->sv->pid <= 0 &&
        wait_s > 0) {
        *running = 1;
        return CC_OK;
    }
    return rc;
}

int sv_worker_timed_step(cc_context *c, int64_t k, double *ms, int *engine_clock,
                         cc_error *err) {
    sv_engine *e = live_engine(c, err);
    if (!e) return err->code;
    return stepped(e, c, SV_OP_TIMED_STEP, k, 0.0, ms, engine_clock, err);
}

/* store's grid into the caller's cells, or handed to a reader in place (cc_grid_reader). */
static int store_grid(cc_context *c, uint8_t *cells, cc_grid_reader reader, void *arg,
                      cc_error *err) {
    sv_engine *e = live_engine(c, err);
    if (!e) return err->code;
    if (!c->loaded)
        return cc_fail(err, CC_ERR_ARG, "%s: store before any grid was loaded", e->name);
    cc_supervisor *sv = e->sv;
    size_t n = grid_bytes(c);
    int rc = stage_grid(sv, n, err);
    if (rc) return rc;
    cc_cells_fill(sv->map + SV_GRID_OFFSET, SV_UNWRITTEN, n);
    sv_context *sc = (sv_context *)(void *)c;
    sv_request req = {.op = SV_OP_STORE, .ctx = sc->id};
    sv_reply rep;
    call_info ci;
    char call[sizeof ci.what];
    placed_call(sv, "store", call, sizeof call);
    sv_call_info(e, &ci, (double)n, "%s", call);
    if ((rc = sv_call(sv, &req, &rep, NULL, 0, &ci, err))) return retire_on_device_error(e, rc);
    if ((rc = check_guards(e, call, n, sv, err))) return rc;
    const uint8_t *grid = sv->map + SV_GRID_OFFSET;
    size_t first = 0, bad = 0;
    if (reader) {
        /* Counted only when there is something to count: the grid may be past 2^32 cells. */
        first = cc_cells_first_not_binary(grid, n);
        for (size_t i = first; i < n; i++) bad += grid[i] > 1;
    } else {
        bad = cc_cells_copy_checked(cells, grid, n, &first);
    }
    if (bad) {
        int x = (int)(first % (size_t)c->w), y = (int)(first / (size_t)c->w);
        if (grid[first] == SV_UNWRITTEN)
            return cc_fail(err, CC_ERR_CONTRACT,
                           "%s: %s left cell (%d,%d) unwritten (%zu cells not 0 or 1)",
                           e->name, call, x, y, bad);
        return cc_fail(err, CC_ERR_CONTRACT,
                       "%s: %s wrote %d into cell (%d,%d), not 0 or 1 (%zu such cells)",
                       e->name, call, grid[first], x, y, bad);
    }
    return reader ? reader(arg, grid, n, err) : CC_OK;
}

int sv_worker_store(cc_context *c, uint8_t *cells, cc_error *err) {
    return store_grid(c, cells, NULL, NULL, err);
}

int sv_worker_store_to(cc_context *c, cc_grid_reader reader, void *arg, cc_error *err) {
    return store_grid(c, NULL, reader, arg, err);
}


int sv_worker_destroy(cc_context *c, cc_error *err) {
    if (!c) return CC_OK;
    sv_engine *e = sv_remote_of(c->engine);
    sv_context *sc = (sv_context *)(void *)c;
    int rc = CC_OK;
    cc_error local;
    if (!err) err = &local;
    if (e && sc->generation == e->sv->generation && e->sv->pid > 0) {
        cc_supervisor *sv = e->sv;
        sv_request req = {.op = SV_OP_DESTROY, .ctx = sc->id};
        sv_reply rep;
        call_info ci;
        sv_call_info(e, &ci, cells_of(c->w, c->h), "destroy");
        rc = sv_call(sv, &req, &rep, NULL, 0, &ci, err);
        if (rc == CC_OK || !cc_code_is_fault(rc)) {
            sv->live--;
            sv->live_need -= sc->host_need;
            sv->destroyed++;
            if (sv->live == 0) rc = sv_idle_check(sv, rc, &ci, err);
        }
        retire_on_device_error(e, rc);
    }
    free(sc);
    return rc;
}

void sv_worker_device_name(cc_context *c, char *buf, size_t size) {
    if (size) buf[0] = '\0';
    cc_error err;
    sv_engine *e = live_engine(c, &err);
    if (!e || !(e->has & SV_HAS_DEVICE_NAME)) return;
    sv_context *sc = (sv_context *)(void *)c;
    sv_request req = {.op = SV_OP_DEVICE_NAME, .ctx = sc->id};
    sv_reply rep;
    call_info ci;
    sv_call_info(e, &ci, 0, "device_name()");
    if (sv_call(e->sv, &req, &rep, NULL, 0, &ci, &err) == CC_OK) {
        rep.text[sizeof rep.text - 1] = '\0';
        snprintf(buf, size, "%s", rep.text);
    }
}
