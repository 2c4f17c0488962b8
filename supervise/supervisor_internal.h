/* What the supervisor's files share (not an interface: callers include supervisor.h): the
 * supervisor's state, its engine descriptions and contexts, and the functions one file uses of
 * another. From the bottom up, each calling only those below it: lifecycle.c, the worker's
 * lifecycle (spawned, ended, restarted; the shared grid mapped; the descriptions); limits.c, the
 * time and memory limits a call runs under, a pool's allowance and the leak check; calls.c, the
 * request/reply exchange, the worker's start-up and each call; open.c, opening and closing;
 * ranks.c, a context of an engine that runs as ranks, over one worker per device, each kept by a
 * supervisor of its own; dispatch.c, the interface's calls, each to the one worker or to the
 * ranks. */
#ifndef CELLCHECK_SUPERVISE_SUPERVISOR_INTERNAL_H
#define CELLCHECK_SUPERVISE_SUPERVISOR_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "supervise/protocol.h"
#include "supervise/sandbox.h"
#include "supervise/supervisor.h"

typedef struct sv_engine {
    cc_engine table; /* first: callers hold &table */
    cc_supervisor *sv;
    uint32_t index;
    uint32_t has;
    double slowest_spv; /* seconds per visit, slowest step seen of RATE_MIN_SECONDS or more */
    char name[64], summary[SV_TEXT_MAX], limits[SV_TEXT_MAX];
    char build[SV_TEXT_MAX]; /* its plugin's build string, "" where none */
} sv_engine;

typedef struct sv_ranked sv_ranked; /* ranks.c */

typedef struct sv_context {
    cc_context base; /* first */
    uint64_t generation; /* of the worker that holds it */
    uint32_t id;
    double host_need;
    sv_ranked *ranked; /* an engine that runs as ranks: a context in each rank's worker */
} sv_context;

/* The most ranks (worker processes) one context of an engine runs as. */
#define SV_RANKS_MAX 64

struct cc_supervisor {
    cc_supervisor_options opt;
    char **plugins;  /* absolute paths */
    char **specs;    /* as the workers load them: the path, with :PREFIX where one was given */
    char **prefixes; /* per plugin: into specs, its prefix, or NULL */
    size_t nplugins;
    sv_engine **engines;
    size_t count;
    cc_engine_set set;
    char exe[PATH_MAX];
    /* The worker, when pid > 0. */
    pid_t pid;
    int statm; /* its /proc/PID/statm, or -1 */
    double page;
    int sock;
    int shm;
    uint8_t *map;
    size_t map_bytes;
    uint64_t generation;
    double rss_start, rss_idle;
    double live_need;
    double need_max; /* the largest context's estimate this worker created */
    int live;
    int team, team_wanted; /* OMP_NUM_THREADS the worker started with, and for the next one
                            * (0: the environment's, or the spare-core default) */
    uint32_t timing;       /* CC_TIMING_* every call carries to the worker (0: undisturbed) */
    int32_t buffers;       /* CC_BUFFERS_* every call carries to the worker (0: the shared grid) */
    uint64_t created, destroyed;
    /* The worker's sandbox (opt.sandbox): its scratch directory ("" when none), the pipe its
     * report of a forbidden call comes through (-1), the report read when it died (report_seen);
     * the parts in force in every worker so far (sandbox_workers of them) and why one was not. */
    char scratch[PATH_MAX];
    int scratch_lock; /* held while the scratch directory is in use (sandbox.h) */
    int report;
    int report_seen;
    cc_sandbox_report broke;
    uint32_t sandbox_parts;
    uint64_t sandbox_workers;
    char sandbox_why[SV_TEXT_MAX];
    char label[256];
    cc_supervisor_stats stats;
    /* A rank's supervisor (ranks.c): after the first, the pid of rank 0's worker, whose
     * namespaces its worker joins; -1 for rank 0's own; 0 for no rank. */
    pid_t join;
    /* The supervisors of the ranks, for engines that run as one process per device: opened
     * at the first such create, ranks[0] rank 0's; NULL until then. */
    cc_supervisor **ranks;
    int nranks;
};

/* What a call is, for its limits and its messages. */
typedef struct call_info {
    const char *engine;   /* for messages */
    int memory_after;     /* 1: measure the worker's memory after the answer too */
    char what[96];        /* "step(3)" */
    double limit_s;
    double elapsed_s;
    int limit_asked; /* 1: the limit is the caller's wait, not a hang: ended without a fault */
} call_info;

/* ---- The worker's lifecycle (lifecycle.c) ---- */

double sv_now_s(void);
/* The answer of a description's stubs, and of a call given a table that is not a description. */
int sv_stub_refuse(cc_error *err);
/* The description behind a table of this supervisor's, or NULL. */
sv_engine *sv_remote_of(const cc_engine *engine);
/* Spawns a worker (unless one runs) with this supervisor's environment and team; its start-up
 * is answered in calls.c. */
int sv_spawn_worker(cc_supervisor *sv, cc_error *err);
/* Fills e, engine index of sv, from the worker's description d. */
void sv_describe(sv_engine *e, cc_supervisor *sv, uint32_t index, const sv_description *d);
/* Ends the worker after a fault: its group killed and it reaped (unless the caller reaped it
 * already: reaped), then forgotten and counted. */
void sv_end_faulted(cc_supervisor *sv, int reaped, int *status);
/* Ends the worker (its process group) where the caller asked, not for a fault. */
void sv_end_asked(cc_supervisor *sv);
/* A worker that died (status) by its sandbox's hand: CC_ERR_SANDBOX naming what it tried (its
 * report, read as it was ended); else CC_OK. */
int sv_sandbox_fault(const cc_supervisor *sv, int status, const call_info *ci, cc_error *err);
/* Counts a started worker's sandbox from its answer to HELLO: the parts in force in every
 * worker so far, and why one was missing. */
void sv_sandbox_note(cc_supervisor *sv, const sv_reply *hello);
/* Waits up to the grace period for the worker to exit by itself. */
void sv_await_exit(cc_supervisor *sv);
/* Ends the worker politely: the socket closed, a grace period, then the group killed. */
void sv_retire_worker(cc_supervisor *sv);
/* The shared file at least bytes long, mapped. */
int sv_grow_shared(cc_supervisor *sv, size_t bytes, cc_error *err);

/* ---- Calls (calls.c) ---- */

/* Sends req and waits for its reply (and extra_size bytes after it), within ci->limit_s. A fault
 * ends the worker and returns its code. */
int sv_exchange(cc_supervisor *sv, sv_request *req, sv_reply *rep, void *extra, size_t extra_size,
                call_info *ci, cc_error *err);
/* One request to a running (or fresh) worker: the fault's code, or the engine's. */
int sv_call(cc_supervisor *sv, sv_request *req, sv_reply *rep, void *extra, size_t extra_size,
            call_info *ci, cc_error *err);

/* ci for a call of e's on `cells` cells (0: none), its name printf-formatted: its time limit. */
void sv_call_info(const sv_engine *e, call_info *ci, double cells, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Starts a worker unless one runs, and waits for its start-up (the plugins loaded). */
int sv_start_worker(cc_supervisor *sv, cc_error *err);
/* The calls of supervisor.h on this supervisor's one worker (supervisor.c picks them or the
 * ranks'). create with rank non-NULL is one rank's create (engine: its description in that
 * rank's supervisor): W x H checked, the context holding rank->rows rows. */
int sv_worker_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                     const cc_rank *rank, cc_context **out, cc_error *err);
int sv_worker_load(cc_context *c, const uint8_t *cells, cc_error *err);
int sv_worker_load_from(cc_context *c, const cc_grid_source *src, cc_error *err);
int sv_worker_step(cc_context *c, int64_t k, cc_error *err);
int sv_worker_step_within(cc_context *c, int64_t k, double wait_s, int *running,
                          cc_error *err);
int sv_worker_timed_step(cc_context *c, int64_t k, double *ms, int *engine_clock,
                         cc_error *err);
int sv_worker_store(cc_context *c, uint8_t *cells, cc_error *err);
int sv_worker_store_to(cc_context *c, cc_grid_reader reader, void *arg, cc_error *err);
int sv_worker_destroy(cc_context *c, cc_error *err);
void sv_worker_device_name(cc_context *c, char *buf, size_t size);

/* ---- Opening (open.c) ---- */

/* cc_supervisor_open for a rank's supervisor: its workers join the namespaces of worker `join`
 * (-1: their own, rank 0's; 0: no rank's supervisor). */
int sv_open(const char *const *plugins, size_t nplugins, const cc_supervisor_options *opt,
            pid_t join, cc_supervisor **out, cc_error *err);
/* cc_supervisor_close of this supervisor's own worker and descriptions (not its ranks'). */
void sv_close(cc_supervisor *sv);

/* ---- Ranks (ranks.c): one context over one worker per device ---- */

/* Rank 0's id (CC_RANK_ID_BYTES into id), asked of a rank's supervisor (engine: its
 * description there). */
int sv_call_rank_id(const cc_engine *engine, uint8_t *id, cc_error *err);
/* A context of engine e (which has rank_id and rank_create) over `count` ranks: rank 0's id
 * handed to each, each rank's create at once. sc->ranked on success. */
int sv_ranks_create(sv_engine *e, const cc_rule *rule, int32_t w, int32_t h, int32_t count,
                    sv_context *sc, cc_error *err);
/* The calls of cc_call_*, on every rank at once: the grids are cut into the ranks' slabs and
 * put together again; a rank's fault ends every rank and names the rank. */
int sv_ranks_load(sv_context *sc, const uint8_t *cells, const cc_grid_source *src,
                  cc_error *err);
int sv_ranks_step(sv_context *sc, int timed, int64_t k, double wait_s, int *running, double *ms,
                  int *engine_clock, cc_error *err);
int sv_ranks_store(sv_context *sc, uint8_t *cells, cc_grid_reader reader, void *arg,
                   cc_error *err);
int sv_ranks_destroy(sv_context *sc, cc_error *err);
void sv_ranks_device_name(sv_context *sc, char *buf, size_t size);
/* Every rank's worker ended (cc_supervisor_restart); the ranks' supervisors closed (close). */
void sv_ranks_retire(cc_supervisor *sv);
void sv_ranks_close(cc_supervisor *sv);
/* The ranks' workers counted into stats; their sandbox's parts into *parts and why. */
void sv_ranks_stats(const cc_supervisor *sv, cc_supervisor_stats *stats);
void sv_ranks_sandbox(const cc_supervisor *sv, uint32_t *parts, char *why, size_t size);

/* ---- Limits (limits.c) ---- */

/* The time limit of a call over this many cells (create, load, store, destroy; 0: the floor). */
double sv_time_limit(const cc_supervisor *sv, double cells);
/* The time limit of a step of this many cell-neighbour visits, at the engine's slowest rate. */
double sv_step_time_limit(const sv_engine *e, double visits);
/* Notes a step's rate, where it ran long enough to measure. */
void sv_step_rate_note(sv_engine *e, double visits, double elapsed_s);
/* Ends a worker whose call ran past its time limit (SIGTERM, the grace period, SIGKILL to its
 * group) and returns CC_ERR_TIMEOUT. */
int sv_end_for_time(cc_supervisor *sv, const call_info *ci, cc_error *err);
/* Ends the worker at a wait the caller asked for (call_info.limit_asked): CC_ERR_TIMEOUT, not
 * counted as a fault. */
int sv_end_at_wait(cc_supervisor *sv, const call_info *ci, cc_error *err);
/* Resident private memory of the worker, in bytes; negative when it cannot be read. */
double sv_worker_rss(cc_supervisor *sv);
/* The memory the worker may hold now. */
double sv_memory_limit(const cc_supervisor *sv);
/* Ends a worker past its memory limit, naming a leak when the memory outlived the contexts;
 * returns CC_ERR_MEMORY_LIMIT. */
int sv_end_for_memory(cc_supervisor *sv, double rss, const call_info *ci, cc_error *err);
/* After the last live context's destroy (which returned rc): what the worker kept is measured,
 * and memory kept past a pool's allowance and the margin is a leak that ends it. */
int sv_idle_check(cc_supervisor *sv, int rc, const call_info *ci, cc_error *err);

#endif
