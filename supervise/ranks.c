/* Engines that run as one process per device (engine.h's rank_id and rank_create): a context is
 * one context in each rank's worker, each worker kept by a supervisor of its own (the ranks'
 * supervisors, opened at the first such create), and every call goes to all ranks at once, since
 * an engine's calls are collective. Rank 0's id is handed to every rank; the workers after rank
 * 0's join its namespaces, so the ranks reach one another over a loopback that is theirs alone.
 * A rank that faults, or fails while the others wait on it, ends every rank: the call's verdict
 * is that rank's, named. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/slabs/slabs.h"
#include "supervise/supervisor_internal.h"

/* After one rank's call failed, how long the others may take to end theirs before their workers
 * are ended: a rank waiting on the failed one would wait until its time limit. */
#define GRACE_S 1.0

struct sv_ranked {
    int32_t ranks, w, h;
    cc_supervisor *owner;
    cc_context *rank[SV_RANKS_MAX];
    int32_t row0[SV_RANKS_MAX], rows[SV_RANKS_MAX];
};

typedef enum job_kind { JOB_CREATE, JOB_LOAD, JOB_STEP, JOB_STORE, JOB_DESTROY } job_kind;

/* Where a call's jobs say they ended: the caller sleeps until one does (a call takes
 * microseconds; a poll's tick would be most of it). */
typedef struct jobs_ended {
    pthread_mutex_t lock;
    pthread_cond_t changed;
} jobs_ended;

/* One rank's share of a call, run on a thread of its own. */
typedef struct rank_job {
    job_kind kind;
    cc_supervisor *sv;       /* the rank's supervisor */
    pid_t pid;               /* its worker as the call began */
    const cc_engine *engine; /* JOB_CREATE: the engine's description there */
    const cc_rule *rule;
    int32_t w, h;
    cc_rank rank;
    cc_context *c; /* the rank's context (JOB_CREATE: the one made) */
    const uint8_t *in;
    uint8_t *out;
    int64_t k;
    int timed, running, clock;
    double wait_s, ms;
    int rc;
    cc_error err;
    double ended_s;
    int ended_here; /* its worker was ended here, after another rank failed */
    atomic_int done;
    jobs_ended *ended; /* signalled when done is set */
} rank_job;

static void job_done(rank_job *j) {
    pthread_mutex_lock(&j->ended->lock);
    atomic_store(&j->done, 1);
    pthread_cond_broadcast(&j->ended->changed);
    pthread_mutex_unlock(&j->ended->lock);
}

static void *run_job(void *arg) {
    rank_job *j = arg;
    switch (j->kind) {
    case JOB_CREATE:
        j->rc = sv_worker_create(j->engine, j->rule, j->w, j->h, &j->rank, &j->c, &j->err);
        break;
    case JOB_LOAD: j->rc = sv_worker_load(j->c, j->in, &j->err); break;
    case JOB_STEP:
        if (j->timed) j->rc = sv_worker_timed_step(j->c, j->k, &j->ms, &j->clock, &j->err);
        else if (j->wait_s > 0)
            j->rc = sv_worker_step_within(j->c, j->k, j->wait_s, &j->running, &j->err);
        else j->rc = sv_worker_step(j->c, j->k, &j->err);
        break;
    case JOB_STORE: j->rc = sv_worker_store(j->c, j->out, &j->err); break;
    case JOB_DESTROY:
        j->rc = sv_worker_destroy(j->c, &j->err);
        j->c = NULL;
        break;
    }
    j->ended_s = sv_now_s();
    job_done(j);
    return NULL;
}

/* Runs the n jobs at once. Once one has failed, the others get GRACE_S to end by themselves,
 * then their workers are ended (their process groups killed). Returns 1 when any was. The ranks
 * ran side by side: owner's counts take the call's wall time, and the engine's time of its
 * slowest rank. */
static int run_all(cc_supervisor *owner, rank_job *jobs, int n) {
    pthread_t thread[SV_RANKS_MAX];
    int started[SV_RANKS_MAX];
    double engine_before[SV_RANKS_MAX];
    jobs_ended ended_at;
    pthread_condattr_t attr;
    pthread_mutex_init(&ended_at.lock, NULL);
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* sv_now_s's clock */
    pthread_cond_init(&ended_at.changed, &attr);
    pthread_condattr_destroy(&attr);
    const double start = sv_now_s();
    for (int i = 0; i < n; i++) engine_before[i] = jobs[i].sv->stats.engine_seconds;
    for (int i = 0; i < n; i++) {
        jobs[i].pid = jobs[i].sv->pid;
        jobs[i].ended = &ended_at;
        atomic_store(&jobs[i].done, 0);
        started[i] = pthread_create(&thread[i], NULL, run_job, &jobs[i]) == 0;
        if (!started[i]) {
            jobs[i].rc = cc_fail(&jobs[i].err, CC_ERR_NOMEM, "no thread to call rank %d", i);
            jobs[i].ended_s = sv_now_s();
            job_done(&jobs[i]);
        }
    }
    double failed_at = -1.0;
    int ended = 0;
    pthread_mutex_lock(&ended_at.lock);
    for (;;) {
        int pending = 0;
        for (int i = 0; i < n; i++) {
            if (!atomic_load(&jobs[i].done)) pending++;
            else if ((jobs[i].rc != CC_OK || jobs[i].running) && failed_at < 0)
                failed_at = sv_now_s();
        }
        if (!pending) break;
        if (failed_at >= 0 && !ended && sv_now_s() - failed_at > GRACE_S) {
            for (int i = 0; i < n; i++)
                if (!atomic_load(&jobs[i].done) && jobs[i].pid > 0) {
                    jobs[i].ended_here = 1;
                    kill(-jobs[i].pid, SIGKILL);
                }
            ended = 1;
        }
        if (failed_at >= 0 && !ended) {
            /* Woken by the next job to end, or when the grace has run out. */
            const double until = failed_at + GRACE_S + 1e-3;
            struct timespec ts = {(time_t)until, (long)((until - (double)(time_t)until) * 1e9)};
            pthread_cond_timedwait(&ended_at.changed, &ended_at.lock, &ts);
        } else {
            pthread_cond_wait(&ended_at.changed, &ended_at.lock);
        }
    }
    pthread_mutex_unlock(&ended_at.lock);
    double slowest = 0;
    for (int i = 0; i < n; i++) {
        if (started[i]) pthread_join(thread[i], NULL);
        const double engine = jobs[i].sv->stats.engine_seconds - engine_before[i];
        if (engine > slowest) slowest = engine;
    }
    pthread_cond_destroy(&ended_at.changed);
    pthread_mutex_destroy(&ended_at.lock);
    owner->stats.calls++;
    owner->stats.call_seconds += sv_now_s() - start;
    owner->stats.engine_seconds += slowest;
    return ended;
}

/* The failure a call is judged by: of the ranks that failed by themselves, a fault before an
 * error (a rank whose peer crashed sees its connection end first), the earliest first. -1: none
 * failed. */
static int first_failure(const rank_job *jobs, int n) {
    int pick = -1;
    for (int i = 0; i < n; i++) {
        if (jobs[i].rc == CC_OK || jobs[i].ended_here) continue;
        if (pick < 0) {
            pick = i;
            continue;
        }
        const int fault = cc_code_is_fault(jobs[i].rc);
        const int fault_pick = cc_code_is_fault(jobs[pick].rc);
        if (fault > fault_pick || (fault == fault_pick && jobs[i].ended_s < jobs[pick].ended_s))
            pick = i;
    }
    for (int i = 0; pick < 0 && i < n; i++)
        if (jobs[i].rc != CC_OK) pick = i;
    return pick;
}

static int faulted(const rank_job *jobs, int n) {
    for (int i = 0; i < n; i++)
        if (cc_code_is_fault(jobs[i].rc)) return 1;
    return 0;
}

/* The verdict of a failed call, naming its rank; a fault (or ranks ended here) ends every rank,
 * so their contexts are lost together. */
static int judged(cc_supervisor *owner, const rank_job *jobs, int n, int ended, cc_error *err) {
    const int pick = first_failure(jobs, n);
    if (pick < 0) return CC_OK;
    const rank_job *j = &jobs[pick];
    int others = 0;
    for (int i = 0; i < n; i++) others += i != pick && jobs[i].rc != CC_OK && !jobs[i].ended_here;
    char also[96] = "";
    if (ended) snprintf(also, sizeof also, "; the other ranks were ended with it");
    else if (others) snprintf(also, sizeof also, "; %d other rank%s failed too", others,
                              others == 1 ? "" : "s");
    const int32_t first = cc_slabs_first_row(j->h, n, pick);
    const int32_t last = cc_slabs_first_row(j->h, n, pick + 1) - 1;
    cc_fail(err, j->rc, "rank %d of %d (device %d, rows %d..%d): %.700s%s", pick, n, pick,
            (int)first, (int)last, j->err.msg, also);
    if (ended || faulted(jobs, n)) sv_ranks_retire(owner);
    return j->rc;
}

int sv_call_rank_id(const cc_engine *engine, uint8_t *id, cc_error *err) {
    sv_engine *e = sv_remote_of(engine);
    if (!e) return sv_stub_refuse(err);
    sv_request req = {.op = SV_OP_RANK_ID, .engine = e->index};
    sv_reply rep;
    call_info ci;
    sv_call_info(e, &ci, 0, "rank_id()");
    int rc = sv_call(e->sv, &req, &rep, NULL, 0, &ci, err);
    if (rc == CC_OK) memcpy(id, rep.text, CC_RANK_ID_BYTES);
    return rc;
}

/* The ranks' supervisors 0 .. ranks - 1, each with a worker started, in rank order: the workers
 * after rank 0's join its namespaces, so one started again since makes them start again. One rank
 * alone is no rank to its sandbox (join 0): it talks to no one, so its worker keeps the network
 * part a GPU rank's gives up for NCCL's sockets. */
static int team_ready(cc_supervisor *sv, int32_t ranks, cc_error *err) {
    if (!sv->ranks && !(sv->ranks = calloc(SV_RANKS_MAX, sizeof *sv->ranks)))
        return cc_fail(err, CC_ERR_NOMEM, "out of memory for the ranks' supervisors");
    cc_supervisor_options opt = sv->opt;
    opt.progress = NULL;
    for (int32_t r = 0; r < ranks; r++) {
        const pid_t join = ranks == 1 ? 0 : r == 0 ? -1 : sv->ranks[0]->pid;
        cc_supervisor *sub = sv->ranks[r];
        int rc;
        if (!sub) {
            if ((rc = sv_open((const char *const *)sv->specs, sv->nplugins, &opt, join,
                              &sv->ranks[r], err)))
                return cc_prefix(err, "starting rank %d's worker", (int)r);
            if (r >= sv->nranks) sv->nranks = r + 1;
            sub = sv->ranks[r];
        } else {
            const int other_mode = !sub->opt.sandbox != !opt.sandbox;
            sub->opt = opt;
            if (other_mode || sub->join != join) sv_retire_worker(sub);
            sub->join = join;
        }
        cc_supervisor_team(sub, sv->team_wanted);
        sub->timing = sv->timing;
        sub->buffers = sv->buffers;
        if ((rc = sv_start_worker(sub, err))) return cc_prefix(err, "rank %d's worker", (int)r);
    }
    return CC_OK;
}

int sv_ranks_create(sv_engine *e, const cc_rule *rule, int32_t w, int32_t h, int32_t count,
                    sv_context *sc, cc_error *err) {
    cc_supervisor *sv = e->sv;
    if (count > SV_RANKS_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: %d ranks asked for; at most %d run here",
                       e->name, (int)count, SV_RANKS_MAX);
    const int32_t ranks = count < h ? count : h;
    int rc = team_ready(sv, ranks, err);
    if (rc) return rc;
    rank_job *jobs = calloc((size_t)ranks, sizeof *jobs);
    sv_ranked *rk = calloc(1, sizeof *rk);
    if (!jobs || !rk) {
        free(jobs);
        free(rk);
        return cc_fail(err, CC_ERR_NOMEM, "out of memory for %d ranks", (int)ranks);
    }
    /* One rank joins no one: no id is made (an NCCL id sets up a bootstrap root in rank 0's
     * worker that waits for ranks that never come). */
    uint8_t id[CC_RANK_ID_BYTES] = {0};
    const cc_engine *first = cc_supervisor_find(sv->ranks[0], e->name);
    if (!first) rc = cc_fail(err, CC_ERR_ARG, "%s: rank 0's worker does not know it", e->name);
    else if (ranks > 1 && (rc = sv_call_rank_id(first, id, err))) {
        cc_prefix(err, "rank 0 of %d", (int)ranks);
        if (cc_code_is_fault(rc)) sv_ranks_retire(sv);
    }
    for (int32_t r = 0; rc == CC_OK && r < ranks; r++) {
        rank_job *j = &jobs[r];
        j->kind = JOB_CREATE;
        j->sv = sv->ranks[r];
        j->engine = cc_supervisor_find(j->sv, e->name);
        if (!j->engine)
            rc = cc_fail(err, CC_ERR_ARG, "%s: rank %d's worker does not know it", e->name, r);
        j->rule = rule;
        j->w = w;
        j->h = h;
        j->rank.rank = r;
        j->rank.ranks = ranks;
        j->rank.device = r;
        j->rank.row0 = cc_slabs_first_row(h, ranks, r);
        j->rank.rows = cc_slabs_first_row(h, ranks, r + 1) - j->rank.row0;
        memcpy(j->rank.id, id, sizeof id);
        rk->row0[r] = j->rank.row0;
        rk->rows[r] = j->rank.rows;
    }
    if (rc == CC_OK) {
        const int ended = run_all(sv, jobs, ranks);
        rc = judged(sv, jobs, ranks, ended, err);
        for (int32_t r = 0; r < ranks; r++) {
            cc_error ignored;
            if (rc) sv_worker_destroy(jobs[r].c, &ignored); /* lost contexts are only freed */
            else rk->rank[r] = jobs[r].c;
        }
    }
    free(jobs);
    if (rc) {
        free(rk);
        return rc;
    }
    rk->ranks = ranks;
    rk->w = w;
    rk->h = h;
    rk->owner = sv;
    sc->ranked = rk;
    return CC_OK;
}

/* A call's jobs, one a rank, of this kind on each rank's context. */
static rank_job *jobs_for(const sv_ranked *rk, job_kind kind, cc_error *err) {
    rank_job *jobs = calloc((size_t)rk->ranks, sizeof *jobs);
    if (!jobs) {
        cc_fail(err, CC_ERR_NOMEM, "out of memory for a call of %d ranks", (int)rk->ranks);
        return NULL;
    }
    for (int32_t r = 0; r < rk->ranks; r++) {
        jobs[r].kind = kind;
        jobs[r].sv = rk->owner->ranks[r];
        jobs[r].c = rk->rank[r];
        jobs[r].h = rk->h;
    }
    return jobs;
}

static int run_judged(const sv_ranked *rk, rank_job *jobs, cc_error *err) {
    const int ended = run_all(rk->owner, jobs, rk->ranks);
    return judged(rk->owner, jobs, rk->ranks, ended, err);
}

int sv_ranks_load(sv_context *sc, const uint8_t *cells, const cc_grid_source *src,
                  cc_error *err) {
    sv_ranked *rk = sc->ranked;
    const size_t n = (size_t)rk->w * (size_t)rk->h;
    uint8_t *whole = NULL;
    int rc = CC_OK;
    if (src) {
        /* The source writes a whole grid; the ranks' slabs are cut from it. */
        if (!(whole = malloc(n)))
            return cc_fail(err, CC_ERR_NOMEM, "no memory for a grid of %zu cells to cut into "
                                              "ranks' slabs", n);
        if ((rc = src->fill(src->arg, whole, n, err))) {
            free(whole);
            return rc;
        }
        cells = whole;
    }
    rank_job *jobs = jobs_for(rk, JOB_LOAD, err);
    if (!jobs) rc = err->code;
    for (int32_t r = 0; jobs && r < rk->ranks; r++)
        jobs[r].in = cells + (size_t)rk->row0[r] * (size_t)rk->w;
    if (jobs) rc = run_judged(rk, jobs, err);
    if (rc == CC_OK) sc->base.loaded = 1;
    free(jobs);
    free(whole);
    return rc;
}

int sv_ranks_step(sv_context *sc, int timed, int64_t k, double wait_s, int *running, double *ms,
                  int *engine_clock, cc_error *err) {
    sv_ranked *rk = sc->ranked;
    rank_job *jobs = jobs_for(rk, JOB_STEP, err);
    if (!jobs) return err->code;
    for (int32_t r = 0; r < rk->ranks; r++) {
        jobs[r].k = k;
        jobs[r].timed = timed;
        jobs[r].wait_s = wait_s;
    }
    const double start = sv_now_s();
    const int ended = run_all(rk->owner, jobs, rk->ranks);
    /* A rank still running at the wait was ended there, and the others' calls with it (their
     * streams to it broken, or they were ended here): only a fault from before the wait is a
     * verdict. */
    int at_wait = 0;
    for (int32_t r = 0; r < rk->ranks; r++) at_wait |= jobs[r].running;
    for (int32_t r = 0; at_wait && r < rk->ranks; r++)
        if (jobs[r].rc != CC_OK &&
            (!cc_code_is_fault(jobs[r].rc) || jobs[r].ended_s >= start + 0.99 * wait_s))
            jobs[r].rc = CC_OK;
    int rc = judged(rk->owner, jobs, rk->ranks, ended && !at_wait, err);
    int still = 0, clock = 1;
    double slowest = 0;
    for (int32_t r = 0; r < rk->ranks; r++) {
        still |= jobs[r].running;
        clock &= jobs[r].clock;
        if (jobs[r].ms > slowest) slowest = jobs[r].ms;
    }
    free(jobs);
    if (rc) return rc;
    /* A rank still running at the wait was ended: so are the others, with the context. */
    if (running && (*running = still)) sv_ranks_retire(rk->owner);
    /* The step took as long as its slowest rank. */
    if (ms) *ms = slowest;
    if (engine_clock) *engine_clock = clock;
    return CC_OK;
}

int sv_ranks_store(sv_context *sc, uint8_t *cells, cc_grid_reader reader, void *arg,
                   cc_error *err) {
    sv_ranked *rk = sc->ranked;
    const size_t n = (size_t)rk->w * (size_t)rk->h;
    uint8_t *whole = NULL;
    if (reader) {
        if (!(whole = malloc(n)))
            return cc_fail(err, CC_ERR_NOMEM, "no memory for a grid of %zu cells to put the "
                                              "ranks' slabs together in", n);
        cells = whole;
    }
    rank_job *jobs = jobs_for(rk, JOB_STORE, err);
    int rc = jobs ? CC_OK : err->code;
    for (int32_t r = 0; jobs && r < rk->ranks; r++)
        jobs[r].out = cells + (size_t)rk->row0[r] * (size_t)rk->w;
    if (jobs) rc = run_judged(rk, jobs, err);
    if (rc == CC_OK && reader) rc = reader(arg, whole, n, err);
    free(jobs);
    free(whole);
    return rc;
}

int sv_ranks_destroy(sv_context *sc, cc_error *err) {
    sv_ranked *rk = sc->ranked;
    rank_job *jobs = jobs_for(rk, JOB_DESTROY, err);
    int rc = jobs ? run_judged(rk, jobs, err) : err->code;
    if (!jobs) /* each context still freed, its worker left to end with the team */
        for (int32_t r = 0; r < rk->ranks; r++) sv_worker_destroy(rk->rank[r], NULL);
    free(jobs);
    free(rk);
    sc->ranked = NULL;
    return rc;
}

void sv_ranks_device_name(sv_context *sc, char *buf, size_t size) {
    sv_worker_device_name(sc->ranked->rank[0], buf, size);
}

void sv_ranks_retire(cc_supervisor *sv) {
    for (int r = 0; r < sv->nranks; r++)
        if (sv->ranks[r]) sv_retire_worker(sv->ranks[r]);
}

void sv_ranks_close(cc_supervisor *sv) {
    for (int r = 0; r < sv->nranks; r++) sv_close(sv->ranks[r]);
    free(sv->ranks);
    sv->ranks = NULL;
    sv->nranks = 0;
}

void sv_ranks_stats(const cc_supervisor *sv, cc_supervisor_stats *stats) {
    for (int r = 0; r < sv->nranks; r++) {
        const cc_supervisor_stats *s = sv->ranks[r] ? &sv->ranks[r]->stats : NULL;
        if (!s) continue;
        /* Their calls' times are counted where the ranks' calls were made (run_all). */
        stats->workers_started += s->workers_started;
        stats->faults += s->faults;
        if (s->kept_bytes_max > stats->kept_bytes_max) stats->kept_bytes_max = s->kept_bytes_max;
    }
}

void sv_ranks_sandbox(const cc_supervisor *sv, uint32_t *parts, char *why, size_t size) {
    for (int r = 0; r < sv->nranks; r++) {
        const cc_supervisor *sub = sv->ranks[r];
        if (!sub || !sub->sandbox_workers || !sv->opt.sandbox) continue;
        /* The first rank that lacks a part says why, after what this supervisor's worker said. */
        const int fewer = (*parts & ~sub->sandbox_parts) != 0;
        *parts &= sub->sandbox_parts;
        const size_t used = why ? strlen(why) : 0;
        if (why && fewer && sub->sandbox_why[0] && used + 1 < size)
            snprintf(why + used, size - used, "%srank %d: %s", used ? "; " : "", r,
                     sub->sandbox_why);
    }
}
