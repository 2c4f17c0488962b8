/* The supervisor: the only way code above the engines reaches an engine. Engine code (a table's
 * functions, a plugin's constructors) runs only in worker processes of this executable, started
 * again with cc_worker_hook's flag; this process holds the cases, the oracle, the time and memory
 * limits, and the verdicts, and never calls an engine.
 *
 *     cc_supervisor *sv;
 *     cc_supervisor_open(plugins, nplugins, &opt, &sv, &err);   // a worker describes the engines
 *     const cc_engine *e = cc_supervisor_find(sv, "cpu.ref");    // a description: name, caps
 *     cc_context *ctx;
 *     cc_call_create(e, &rule, w, h, &ctx, &err);                // runs in the worker
 *     cc_call_load(ctx, cells, &err); cc_call_step(ctx, k, &err); cc_call_store(ctx, out, &err);
 *     cc_call_destroy(ctx, &err);
 *
 * A description's function pointers are stubs that only refuse: a direct call in this process
 * cannot reach engine code. A worker that crashes, exits, overruns its time limit or its memory
 * limit is ended (its process group: SIGTERM, then SIGKILL) and the call returns the fault's code
 * (CC_ERR_CRASHED, CC_ERR_EXITED, CC_ERR_TIMEOUT, CC_ERR_MEMORY_LIMIT) with a message naming the
 * call, the signal or status and the time; a CC_ERR_DEVICE from a GPU engine retires its worker
 * too (the CUDA context is poisoned). The next call starts a fresh worker; contexts of the ended
 * worker are lost (their calls fail, their destroy only frees). load, store and the grids they
 * carry are checked here: a load that changes its input, a store that writes outside the grid,
 * leaves a cell unwritten or writes a value that is not 0 or 1 returns CC_ERR_CONTRACT. A worker
 * that tries what its sandbox forbids (supervise/sandbox.h) is ended and the call returns
 * CC_ERR_SANDBOX naming what it tried. */
#ifndef CELLCHECK_SUPERVISE_SUPERVISOR_H
#define CELLCHECK_SUPERVISE_SUPERVISOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "engines/engine_set.h"
#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cc_supervisor cc_supervisor;

/* Defaults of the limits (each documented in the README and settable by --time-limit and
 * --memory-margin). */
#define CC_SUPERVISOR_TIME_FLOOR_S 60.0
#define CC_SUPERVISOR_TIME_SCALE 20.0
#define CC_SUPERVISOR_MEMORY_MARGIN (1024.0 * 1024.0 * 1024.0)
#define CC_SUPERVISOR_GRACE_S 2.0
/* MALLOC_PERTURB_ in every worker (unless the environment sets its own): memory from malloc
 * reads 0x5a until written, freed memory 0xa5. */
#define CC_WORKER_HEAP_PERTURB "165"

typedef struct cc_supervisor_options {
    /* Every call may run this long; a step may run longer by time_scale times its cell-neighbour
     * visits at the slowest rate the engine showed on steps of 5 ms or more (1e7 visits a second
     * before it showed any); create, load, store and destroy by time_scale times 10 ns a cell. */
    double time_floor_s;
    double time_scale;
    /* A worker may hold its resident memory at start, plus 1.5 times what its live contexts need
     * by the engines' estimates (cc_engine.memory; else two bytes a cell for a CPU engine), plus
     * this margin. With no context live, more than half the margin kept is named a leak. */
    double memory_margin;
    double grace_s;   /* between SIGTERM and SIGKILL */
    /* 1 (default): on 4 cores or more, a worker's OpenMP team leaves one core to this process
     * (OMP_NUM_THREADS one less than the cores, unless the environment sets it). Benchmarks set
     * 0, so an engine is timed on every core, as it would run alone. */
    int spare_core;
    /* 1 (default): MALLOC_PERTURB_=CC_WORKER_HEAP_PERTURB in the worker unless the environment
     * sets it. Benchmarks set 0: an engine is timed as it runs, without the fill. */
    int poison_heap;
    /* 1 (default): every worker runs in the sandbox (supervise/sandbox.h); 0: none, with the
     * caller's environment (--sandbox off). */
    int sandbox;
    /* 1: every worker is one rank of an engine under a launcher (cellcheck ranks, one process a
     * host's device, started by srun or mpirun): it keeps this host's network, over which the
     * ranks on other hosts are reached, so the sandbox's network part is not in force and
     * cc_supervisor_sandbox says so. 0 (default): no rank. */
    int launcher_rank;
    FILE *progress;   /* where in-flight lines go ("in flight: ... for 12 s"), or NULL */
    double progress_every_s;
} cc_supervisor_options;

void cc_supervisor_options_init(cc_supervisor_options *opt);

/* Starts a worker of this executable (its main must call cc_worker_hook first), which loads the
 * plugins (paths made absolute) and describes every engine it knows. A plugin that is refused,
 * or whose loading ends the worker (a constructor that crashes or exits), is refused here with
 * its path and why. opt NULL: the defaults. */
int cc_supervisor_open(const char *const *plugins, size_t nplugins,
                       const cc_supervisor_options *opt, cc_supervisor **out, cc_error *err);
void cc_supervisor_close(cc_supervisor *sv);

/* Changes the limits (and the progress stream) of an open supervisor. */
void cc_supervisor_set_options(cc_supervisor *sv, const cc_supervisor_options *opt);
cc_supervisor_options cc_supervisor_get_options(const cc_supervisor *sv);

/* The engines the workers know, as descriptions (origins: the plugins' absolute paths). The set
 * belongs to the supervisor: never cc_engine_set_free it. */
const cc_engine_set *cc_supervisor_set(const cc_supervisor *sv);
const cc_engine *cc_supervisor_find(const cc_supervisor *sv, const char *name);

/* The supervisor behind a description; NULL for any other table (an engine's own). */
cc_supervisor *cc_supervisor_of(const cc_engine *engine);
/* How a description's plugin says it was built (its CC_PLUGIN_BUILD string, engines/plugin.h),
 * read in the worker; "" for a built-in engine, a plugin without one, or another table. */
const char *cc_supervised_build(const cc_engine *engine);

/* Ends the current worker, so the next call starts in a fresh process (a case replayed alone,
 * another engine's certification). Live contexts are lost. */
void cc_supervisor_restart(cc_supervisor *sv);

/* The OpenMP team the next calls run with: threads (OMP_NUM_THREADS, whatever the environment
 * says), or 0 for the worker's default. A worker of another team is retired when no context is
 * live (the next call starts one of this team); while a context is live the change waits. Returns
 * the team the next call runs with (0: the default). NULL: 0. */
int cc_supervisor_team(cc_supervisor *sv, int threads);

/* The timing disturbance the next calls run under: CC_TIMING_* bits (oracle/case.h, a case's
 * timing=), or 0 for none. Each call carries it to the worker, which puts the background work on
 * the engine's devices before it and hands load and store its own host buffers (supervise/
 * worker.c, engines/cuda/common/timing.h). NULL: nothing. */
void cc_supervisor_timing(cc_supervisor *sv, uint32_t timing);

/* Where the worker puts load's input and store's output for the engine in the next calls:
 * CC_BUFFERS_* (oracle/case.h, a case's buffers=), or 0 for the shared grid itself. The worker
 * copies the grid and its guard bands in and out, so the checks here see what the engine did;
 * a fault or a contract breach names the placement. NULL: nothing. */
void cc_supervisor_buffers(cc_supervisor *sv, int32_t buffers);

/* What the work in flight is, for progress lines ("case 17 of 2000: rule=... size=..."). */
void cc_supervisor_label(cc_supervisor *sv, const char *label);

typedef struct cc_supervisor_stats {
    uint64_t workers_started; /* worker processes started */
    uint64_t calls;           /* requests answered or faulted */
    uint64_t faults;          /* workers ended by a fault */
    double kept_bytes_max;    /* the most memory a worker kept with no context live (a pool,
                               * or a leak the limit has not reached yet) */
    double call_seconds;      /* wall time of the calls answered, seen from here */
    double engine_seconds;    /* of that, the time the worker spent serving them (the engine's
                               * entry points); the rest is the exchange between the two */
} cc_supervisor_stats;
void cc_supervisor_stats_get(const cc_supervisor *sv, cc_supervisor_stats *out);
/* Starts kept_bytes_max again from 0 (certify, before each engine). */
void cc_supervisor_kept_reset(cc_supervisor *sv);

/* The sandbox's parts (CC_SANDBOX_*) in force in every worker started so far, all of them when
 * none was started yet and the sandbox is on, 0 when off; why: what is not in force and why
 * ("" when everything is; "off" when off). NULL sv: 0. */
uint32_t cc_supervisor_sandbox(const cc_supervisor *sv, char *why, size_t size);

/* Is this code a fault of the worker (it crashed, exited, ran out of time or memory, or hit a
 * device error), as opposed to an error the engine returned? */
int cc_code_is_fault(int code);

/* ---- Calls: the entry points of engines/engine.h, run in the worker --------------------- */

int cc_call_available(const cc_engine *engine, cc_error *err);
/* The devices the engine would spread a grid over (cc_engine.devices; 1 without it). */
int cc_call_devices(const cc_engine *engine, int32_t *count, cc_error *err);
/* 1 when the engine runs as one process per device (engine.h's rank_id and rank_create): each
 * context is a context in cc_call_devices' count of workers (fewer when H is smaller), and every
 * call goes to all of them at once; a rank's fault ends them all and its verdict names the rank.
 * 0 otherwise. */
int cc_call_ranked(const cc_engine *engine);
/* For a process of a launcher's job that is one rank (cellcheck ranks): rank 0's id, made in this
 * supervisor's worker (CC_RANK_ID_BYTES into id), and this rank's context in its worker, for
 * W x H the whole grid, its load and store speaking the slab of *rank. The engine's other ranks
 * are other processes, which the caller hands the id to. */
int cc_call_rank_id(const cc_engine *engine, uint8_t *id, cc_error *err);
int cc_call_rank_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                        const cc_rank *rank, cc_context **out, cc_error *err);
/* CC_OK when the engine's worker can disturb its timing (cc_supervisor_timing): the disturbance
 * is built into this program and the engine's devices are there; else why not
 * (CC_ERR_UNAVAILABLE), or the worker's fault. */
int cc_call_timing_available(const cc_engine *engine, cc_error *err);
/* 1 and *need when the engine states its memory; 0 with *need zero when it does not (or its
 * worker could not answer: err says why). */
int cc_call_memory(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                   cc_memory *need, cc_error *err);
int cc_call_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                   cc_context **out, cc_error *err);
int cc_call_load(cc_context *c, const uint8_t *cells, cc_error *err);
int cc_call_step(cc_context *c, int64_t k, cc_error *err);
int cc_call_timed_step(cc_context *c, int64_t k, double *ms, int *engine_clock, cc_error *err);
/* step(k), waited for wait_s seconds at most: *running 0 when it answered (its result as
 * cc_call_step's); 1 when it was still running then, and its worker was ended (not a fault: the
 * context is lost with it, destroy only frees it). For counts no engine runs through in a
 * check's time, where an answer within the wait is what can be checked. */
int cc_call_step_within(cc_context *c, int64_t k, double wait_s, int *running, cc_error *err);
int cc_call_store(cc_context *c, uint8_t *cells, cc_error *err);
/* For grids too large to hold twice: the shared grid that load reads and store writes is the
 * only copy. A source writes load's cells into it (fill) and afterwards counts the cells that
 * differ from what it wrote (differing: the check that load left its input alone); a reader is
 * handed store's cells, checked 0 or 1, for the length of the call. */
typedef struct cc_grid_source {
    int (*fill)(void *arg, uint8_t *cells, size_t n, cc_error *err);
    int (*differing)(void *arg, const uint8_t *cells, size_t n, size_t *count, size_t *first,
                     cc_error *err);
    void *arg;
} cc_grid_source;
typedef int (*cc_grid_reader)(void *arg, const uint8_t *cells, size_t n, cc_error *err);
int cc_call_load_from(cc_context *c, const cc_grid_source *src, cc_error *err);
int cc_call_store_to(cc_context *c, cc_grid_reader reader, void *arg, cc_error *err);
/* Gives the shared grid's memory back after a grid past a few MiB (NULL: nothing). */
void cc_supervisor_shrink_shared(cc_supervisor *sv);
/* Frees c (NULL: nothing). The engine's destroy runs in the worker, and its fault is returned;
 * a context lost with its worker is only freed. */
int cc_call_destroy(cc_context *c, cc_error *err);
/* The device's name into buf ("" for a CPU engine). */
void cc_call_device_name(cc_context *c, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
