/* The supervisor's side (supervisor.h): workers started, asked, timed, measured and ended. */
#define _GNU_SOURCE
#include "supervise/supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oracle/cells.h"
#include "oracle/rule.h"
#include "supervise/protocol.h"

extern char **environ;

#define TICK_MS 20
#define SPIN_S 50e-6
#define DEFAULT_SECONDS_PER_VISIT 1e-7 /* 1e7 visits a second until the engine shows its rate */
#define SECONDS_PER_CELL 1e-8
#define RATE_MIN_SECONDS 0.005

typedef struct sv_engine {
    cc_engine table; /* first: callers hold &table */
    cc_supervisor *sv;
    uint32_t index;
    uint32_t has;
    double slowest_spv; /* seconds per visit, slowest step seen of RATE_MIN_SECONDS or more */
    char name[64], summary[SV_TEXT_MAX], limits[SV_TEXT_MAX];
} sv_engine;

typedef struct sv_context {
    cc_context base; /* first */
    uint64_t generation; /* of the worker that holds it */
    uint32_t id;
    double host_need;
} sv_context;

struct cc_supervisor {
    cc_supervisor_options opt;
    char **plugins;
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
    uint64_t created, destroyed;
    char label[256];
    cc_supervisor_stats stats;
};

void cc_supervisor_options_init(cc_supervisor_options *opt) {
    memset(opt, 0, sizeof *opt);
    opt->time_floor_s = CC_SUPERVISOR_TIME_FLOOR_S;
    opt->time_scale = CC_SUPERVISOR_TIME_SCALE;
    opt->memory_margin = CC_SUPERVISOR_MEMORY_MARGIN;
    opt->grace_s = CC_SUPERVISOR_GRACE_S;
    opt->progress_every_s = 10.0;
    opt->spare_core = 1;
    opt->poison_heap = 1;
}

int cc_code_is_fault(int code) {
    return code == CC_ERR_CRASHED || code == CC_ERR_EXITED || code == CC_ERR_TIMEOUT ||
           code == CC_ERR_MEMORY_LIMIT || code == CC_ERR_DEVICE;
}

/* The cores this process may run on (its affinity mask), or 1. */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- The stubs a description holds: engine code is never called here ------------------ */

static int stub_refuse(cc_error *err) {
    return cc_fail(err, CC_ERR_UNSUPPORTED,
                   "engine code runs only in a worker process: use the supervisor's calls");
}
static int stub_available(cc_error *err) { return stub_refuse(err); }
static int stub_create(const cc_rule *r, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)r, (void)w, (void)h;
    *ctx = NULL;
    return stub_refuse(err);
}
static int stub_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells;
    return stub_refuse(err);
}
static int stub_step(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k;
    return stub_refuse(err);
}
static int stub_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells;
    return stub_refuse(err);
}
static void stub_destroy(void *ctx) { (void)ctx; }
static int stub_timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    (void)ctx, (void)k, (void)ms;
    return stub_refuse(err);
}
static const char *stub_device_name(void *ctx) {
    (void)ctx;
    return NULL;
}
static int stub_devices(int32_t *count, cc_error *err) {
    *count = 1;
    return stub_refuse(err);
}
static void stub_memory(const cc_rule *r, int32_t w, int32_t h, cc_memory *need) {
    (void)r, (void)w, (void)h;
    memset(need, 0, sizeof *need);
}

cc_supervisor *cc_supervisor_of(const cc_engine *engine) {
    if (!engine || engine->create != stub_create) return NULL;
    return ((const sv_engine *)(const void *)engine)->sv;
}

static sv_engine *remote_of(const cc_engine *engine) {
    return cc_supervisor_of(engine) ? (sv_engine *)(void *)engine : NULL;
}

/* ---- The worker's process ------------------------------------------------------------- */


/* Resident private memory of the worker, in bytes, from its statm (kept open: a call's cost
 * is a few microseconds); negative when it cannot be read. */
static double worker_rss(cc_supervisor *sv) {
    if (sv->statm < 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/statm", (int)sv->pid);
        sv->statm = open(path, O_RDONLY | O_CLOEXEC);
        if (sv->statm < 0) return -1;
    }
    char buf[128];
    ssize_t n = pread(sv->statm, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = '\0';
    unsigned long size, resident, shared;
    if (sscanf(buf, "%lu %lu %lu", &size, &resident, &shared) != 3) return -1;
    return (double)(resident > shared ? resident - shared : 0) * (double)sv->page;
}

static void end_worker_now(cc_supervisor *sv, int *status) {
    /* The group first, grandchildren included, while the worker's pid still names it. */
    kill(-sv->pid, SIGKILL);
    int st = 0;
    while (waitpid(sv->pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (status) *status = st;
}

static void forget_worker(cc_supervisor *sv) {
    if (sv->sock >= 0) close(sv->sock);
    sv->sock = -1;
    if (sv->statm >= 0) close(sv->statm);
    sv->statm = -1;
    sv->pid = 0;
    sv->generation++;
    sv->live = 0;
    sv->live_need = 0;
    sv->need_max = 0;
}

/* Ends the worker after a fault: its group killed and it reaped (unless the caller reaped it
 * already), then forgotten and counted. */
static void end_faulted(cc_supervisor *sv, int reaped, int *status) {
    if (reaped) kill(-sv->pid, SIGKILL);
    else end_worker_now(sv, status);
    forget_worker(sv);
    sv->stats.faults++;
}

/* Gives the worker the grace period to exit by itself. */
static void await_exit(cc_supervisor *sv) {
    double until = now_s() + sv->opt.grace_s;
    int st;
    while (waitpid(sv->pid, &st, WNOHANG) == 0 && now_s() < until) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
}

/* Ends the worker politely: the socket closed, a grace period, then the group killed. */
static void retire_worker(cc_supervisor *sv) {
    if (sv->pid <= 0) return;
    close(sv->sock);
    sv->sock = -1;
    await_exit(sv);
    end_worker_now(sv, NULL);
    forget_worker(sv);
}

static int grow_shared(cc_supervisor *sv, size_t bytes, cc_error *err) {
    if (bytes <= sv->map_bytes) return CC_OK;
    /* Round up, so a campaign of growing grids remaps rarely. */
    size_t want = bytes + bytes / 4;
    if (ftruncate(sv->shm, (off_t)want) != 0)
        return cc_fail(err, CC_ERR_NOMEM, "cannot grow the shared grid file to %zu bytes: %s",
                       want, strerror(errno));
    if (sv->map) munmap(sv->map, sv->map_bytes);
    sv->map = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED, sv->shm, 0);
    if (sv->map == MAP_FAILED) {
        sv->map = NULL;
        sv->map_bytes = 0;
        return cc_fail(err, CC_ERR_NOMEM, "cannot map %zu shared bytes: %s", want,
                       strerror(errno));
    }
    sv->map_bytes = want;
    return CC_OK;
}

typedef struct call_info {
    const char *engine;   /* for messages */
    int memory_after;     /* 1: measure the worker's memory after the answer too */
    char what[96];        /* "step(3)" */
    double limit_s;
    double elapsed_s;
} call_info;

static int fault_of_status(cc_supervisor *sv, int status, const call_info *ci, cc_error *err) {
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

static double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

/* What an engine may keep with no context live: a pool (a caching allocator, a process-wide
 * buffer) holding up to its largest context's memory, once. A leak grows past it with the
 * contexts created; a pool does not. */
static double pool_allowance(const cc_supervisor *sv) { return 1.5 * sv->need_max; }

/* The memory the worker may hold now: its live contexts' and the one being created, and a
 * pool's. */
static double memory_limit(const cc_supervisor *sv) {
    double creating = ((const sv_header *)(const void *)sv->map)->creating_host_bytes;
    return sv->rss_start + sv->opt.memory_margin + 1.5 * (sv->live_need + creating) +
           pool_allowance(sv);
}

/* Ends a worker past its memory limit, naming a leak when the memory outlived the contexts. */
static int end_for_memory(cc_supervisor *sv, double rss, const call_info *ci, cc_error *err) {
    double kept = sv->rss_idle - sv->rss_start;
    int leak = sv->live == 0 || kept > pool_allowance(sv) + sv->opt.memory_margin / 2;
    if (leak)
        cc_fail(err, CC_ERR_MEMORY_LIMIT,
                       "%s: leaked memory across cases: the worker held %.0f MiB in %s, past its "
                       "limit of %.0f MiB; %.0f MiB were still held with no context live after "
                       "%llu creates and %llu destroys",
                       ci->engine, mib(rss), ci->what, mib(memory_limit(sv)),
                       mib(kept > 0 ? kept : rss - sv->rss_start), (unsigned long long)sv->created,
                       (unsigned long long)sv->destroyed);
    else
        cc_fail(err, CC_ERR_MEMORY_LIMIT,
                   "%s: out of memory: the worker held %.0f MiB in %s, past its limit of %.0f MiB "
                   "(%.0f at start + 1.5 x %.0f the engine's estimate for its %d live contexts + "
                   "1.5 x %.0f its largest context's, kept as a pool + a margin of %.0f)",
                   ci->engine, mib(rss), ci->what, mib(memory_limit(sv)), mib(sv->rss_start),
                   mib(sv->live_need), sv->live, mib(sv->need_max), mib(sv->opt.memory_margin));
    end_faulted(sv, 0, NULL);
    return CC_ERR_MEMORY_LIMIT;
}

/* Sends req and waits for its reply (and extra bytes after it), within ci->limit_s. A fault ends
 * the worker and returns its code. */
static int exchange(cc_supervisor *sv, sv_request *req, sv_reply *rep, void *extra,
                    size_t extra_size, call_info *ci, cc_error *err) {
    req->shm_bytes = sv->map_bytes;
    sv->stats.calls++;
    double start = now_s(), last_note = start;
    if (sv_write_full(sv->sock, req, sizeof *req)) {
        /* The worker is gone already: its status says how. */
        int st;
        ci->elapsed_s = 0;
        end_faulted(sv, 0, &st);
        return fault_of_status(sv, st, ci, err);
    }
    uint8_t *buf = (uint8_t *)rep;
    size_t want = sizeof *rep, got = 0;
    int in_extra = 0;
    /* Most calls answer within microseconds: a short spin spares them a sleep and a wake-up. */
    double spin_until = start + SPIN_S;
    for (;;) {
        struct pollfd p = {.fd = sv->sock, .events = POLLIN};
        int spinning = now_s() < spin_until;
        int n = poll(&p, 1, spinning ? 0 : TICK_MS);
        double t = now_s();
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
                end_faulted(sv, 0, &st);
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
            end_faulted(sv, 1, NULL);
            return fault_of_status(sv, st, ci, err);
        }
        double rss = worker_rss(sv);
        if (rss > memory_limit(sv)) return end_for_memory(sv, rss, ci, err);
        if (ci->elapsed_s > ci->limit_s) {
            /* A hung call cannot be stopped from inside: the group gets SIGTERM, a grace period,
             * then SIGKILL. */
            kill(-sv->pid, SIGTERM);
            await_exit(sv);
            end_faulted(sv, 0, NULL);
            return cc_fail(err, CC_ERR_TIMEOUT,
                           "%s: timed out in %s: no answer within its limit of %.1f s (a floor "
                           "of %.1f s, --time-limit, and 20x the work at the engine's slowest "
                           "rate); its process group was ended",
                           ci->engine, ci->what, ci->limit_s, sv->opt.time_floor_s);
        }
        if (sv->opt.progress && t - last_note >= sv->opt.progress_every_s) {
            last_note = t;
            fprintf(sv->opt.progress, "in flight: %s%s%s: %s for %.0f s (limit %.0f s)\n",
                    ci->engine, sv->label[0] ? ": " : "", sv->label, ci->what, ci->elapsed_s,
                    ci->limit_s);
            fflush(sv->opt.progress);
        }
    }
    ci->elapsed_s = now_s() - start;
    /* Short calls are not measured again: a tick measures any call that lasts one. */
    double rss = ci->memory_after || ci->elapsed_s * 1e3 >= TICK_MS ? worker_rss(sv) : 0;
    return rss > memory_limit(sv) ? end_for_memory(sv, rss, ci, err) : CC_OK;
}

static int start_worker(cc_supervisor *sv, cc_error *err) {
    if (sv->pid > 0) return CC_OK;
    /* Cleared before the worker exists: it writes the plugin it is loading there. */
    ((sv_header *)(void *)sv->map)->loading_plugin = -1;
    ((sv_header *)(void *)sv->map)->creating_host_bytes = 0.0;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0)
        return cc_fail(err, CC_ERR_IO, "cannot make a socket pair for a worker: %s",
                       strerror(errno));
    fcntl(pair[0], F_SETFD, FD_CLOEXEC);
    /* The shared file is inherited by each worker; this process keeps its own copy closed on
     * any other exec. */
    fcntl(sv->shm, F_SETFD, 0);
    size_t n = 5 + sv->nplugins + 1, nenv = 0;
    while (environ[nenv]) nenv++;
    char **argv = calloc(n, sizeof *argv);
    char **env = calloc(nenv + 3, sizeof *env);
    /* One core left to this process, when the environment does not size OpenMP's team: its
     * main thread waits on the worker's answer and steps the oracle, and a worker's team of
     * every core would make one of its threads a straggler (cpu.ref's certify on 16 cores:
     * 1.20x its time before workers with 16 threads, 1.06x with 15). */
    char threads[48];
    long cores = cc_cores_available();
    int spare = sv->opt.spare_core && cores >= 4;
    /* Every byte malloc hands the engine is garbage until written (glibc fills it with the
     * complement of this byte, and freed memory with the byte), so an engine that reads memory
     * it never wrote fails in a fresh worker too, not only where a heap was reused. */
    char perturb[] = "MALLOC_PERTURB_=" CC_WORKER_HEAP_PERTURB;
    int poison = sv->opt.poison_heap;
    if (env) {
        size_t k = 0;
        for (size_t i = 0; i < nenv; i++) {
            int omp = !strncmp(environ[i], "OMP_NUM_THREADS=", 16);
            if (omp) spare = 0;
            if (!strncmp(environ[i], "MALLOC_PERTURB_=", 16)) poison = 0;
            /* A team asked for by the checks (a case's threads=N) is the one in force. */
            if (!(omp && sv->team_wanted > 0)) env[k++] = environ[i];
        }
        snprintf(threads, sizeof threads, "OMP_NUM_THREADS=%ld", cores - 1);
        if (sv->team_wanted > 0)
            snprintf(threads, sizeof threads, "OMP_NUM_THREADS=%d", sv->team_wanted);
        if (spare || sv->team_wanted > 0) env[k++] = threads;
        sv->team = sv->team_wanted;
        if (poison) env[k++] = perturb;
    }
    char fds[3][32];
    snprintf(fds[0], sizeof fds[0], "%d", pair[1]);
    snprintf(fds[1], sizeof fds[1], "%d", sv->shm);
    snprintf(fds[2], sizeof fds[2], "%d", (int)getpid());
    int rc = CC_OK;
    if (!argv || !env) {
        rc = cc_fail(err, CC_ERR_NOMEM, "out of memory starting a worker");
        goto done;
    }
    argv[0] = sv->exe;
    argv[1] = (char *)SV_WORKER_FLAG;
    argv[2] = fds[0];
    argv[3] = fds[1];
    argv[4] = fds[2];
    for (size_t i = 0; i < sv->nplugins; i++) argv[5 + i] = sv->plugins[i];
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    fflush(NULL);
    pid_t pid;
    int e = posix_spawn(&pid, sv->exe, NULL, &attr, argv, env);
    posix_spawnattr_destroy(&attr);
    if (e) {
        rc = cc_fail(err, CC_ERR_IO, "cannot start a worker (%s): %s", sv->exe, strerror(e));
        goto done;
    }
    sv->pid = pid;
    sv->sock = pair[0];
    pair[0] = -1;
    sv->stats.workers_started++;
    sv->created = sv->destroyed = 0;
done:
    fcntl(sv->shm, F_SETFD, FD_CLOEXEC);
    close(pair[1]);
    if (pair[0] >= 0) close(pair[0]);
    free(argv);
    free(env);
    if (rc) return rc;
    /* The worker loads the plugins before it answers: a constructor that crashes shows here. */
    sv_request req = {.op = SV_OP_HELLO};
    sv_reply rep;
    call_info ci = {.engine = "worker", .limit_s = sv->opt.time_floor_s};
    snprintf(ci.what, sizeof ci.what, "start-up");
    sv->rss_start = 0;
    sv->live_need = 1e18; /* no memory limit until it has started */
    sv->live = 0;
    int code = exchange(sv, &req, &rep, NULL, 0, &ci, err);
    sv->live_need = 0;
    if (code) {
        int32_t at = ((sv_header *)(void *)sv->map)->loading_plugin;
        if (at >= 0 && (size_t)at < sv->nplugins)
            return cc_prefix(err, "loading plugin %s", sv->plugins[at]);
        return code;
    }
    if (rep.rc) {
        *err = rep.err;
        retire_worker(sv);
        return rep.rc;
    }
    double rss = worker_rss(sv);
    sv->rss_start = sv->rss_idle = rss > 0 ? rss : 0;
    return CC_OK;
}

/* One request to a running (or fresh) worker. */
static int call(cc_supervisor *sv, sv_request *req, sv_reply *rep, void *extra, size_t extra_size,
                call_info *ci, cc_error *err) {
    memset(rep, 0, sizeof *rep);
    int rc = start_worker(sv, err);
    if (rc) return rc;
    req->timing = sv->timing;
    if ((rc = exchange(sv, req, rep, extra, extra_size, ci, err))) return rc;
    if (rep->rc) *err = rep->err;
    return rep->rc;
}

/* ---- Opening ---------------------------------------------------------------------------- */

static int describe_all(cc_supervisor *sv, cc_error *err) {
    sv_request req = {.op = SV_OP_HELLO};
    sv_reply rep;
    call_info ci = {.engine = "worker", .limit_s = sv->opt.time_floor_s};
    snprintf(ci.what, sizeof ci.what, "describing the engines");
    int rc = call(sv, &req, &rep, NULL, 0, &ci, err);
    if (rc) return rc;
    size_t count = rep.count;
    sv->engines = calloc(count + 1, sizeof *sv->engines);
    sv->set.engines = calloc(count + 1, sizeof *sv->set.engines);
    sv->set.origins = calloc(count + 1, sizeof *sv->set.origins);
    if (!sv->engines || !sv->set.engines || !sv->set.origins)
        return cc_fail(err, CC_ERR_NOMEM, "out of memory for the engine descriptions");
    for (size_t i = 0; i < count; i++) {
        sv_description d;
        sv_request dr = {.op = SV_OP_DESCRIBE, .engine = (uint32_t)i};
        if ((rc = call(sv, &dr, &rep, &d, sizeof d, &ci, err))) return rc;
        sv_engine *e = calloc(1, sizeof *e);
        if (!e) return cc_fail(err, CC_ERR_NOMEM, "out of memory for an engine description");
        sv->engines[sv->count++] = e;
        d.name[sizeof d.name - 1] = d.summary[sizeof d.summary - 1] = '\0';
        d.limits[sizeof d.limits - 1] = '\0';
        memcpy(e->name, d.name, sizeof e->name);
        memcpy(e->summary, d.summary, sizeof e->summary);
        memcpy(e->limits, d.limits, sizeof e->limits);
        e->sv = sv;
        e->index = (uint32_t)i;
        e->has = d.has;
        e->table.name = e->name;
        e->table.summary = e->summary;
        e->table.hardware = (cc_hardware)d.hardware;
        e->table.caps = d.caps;
        e->table.caps.limits = d.has_limits ? e->limits : NULL;
        e->table.create = stub_create;
        e->table.load = stub_load;
        e->table.step = stub_step;
        e->table.store = stub_store;
        e->table.destroy = stub_destroy;
        e->table.available = (d.has & SV_HAS_AVAILABLE) ? stub_available : NULL;
        e->table.timed_step = (d.has & SV_HAS_TIMED_STEP) ? stub_timed_step : NULL;
        e->table.device_name = (d.has & SV_HAS_DEVICE_NAME) ? stub_device_name : NULL;
        e->table.memory = (d.has & SV_HAS_MEMORY) ? stub_memory : NULL;
        e->table.devices = (d.has & SV_HAS_DEVICES) ? stub_devices : NULL;
        sv->set.engines[sv->set.count] = &e->table;
        sv->set.origins[sv->set.count++] =
            d.plugin >= 0 && (size_t)d.plugin < sv->nplugins ? sv->plugins[d.plugin] : NULL;
    }
    sv->set.room = count + 1;
    sv->set.paths = sv->plugins;
    sv->set.plugins = sv->nplugins;
    return CC_OK;
}

int cc_supervisor_open(const char *const *plugins, size_t nplugins,
                       const cc_supervisor_options *opt, cc_supervisor **out, cc_error *err) {
    *out = NULL;
    cc_supervisor *sv = calloc(1, sizeof *sv);
    if (!sv) return cc_fail(err, CC_ERR_NOMEM, "out of memory for the supervisor");
    sv->sock = -1;
    sv->shm = -1;
    sv->statm = -1;
    sv->page = (double)sysconf(_SC_PAGESIZE);
    if (opt) sv->opt = *opt;
    else cc_supervisor_options_init(&sv->opt);
    int rc = CC_OK;
    ssize_t len = readlink("/proc/self/exe", sv->exe, sizeof sv->exe - 1);
    if (len <= 0) {
        rc = cc_fail(err, CC_ERR_IO, "cannot find this executable to start workers: %s",
                     strerror(errno));
        goto fail;
    }
    sv->exe[len] = '\0';
    sv->plugins = calloc(nplugins + 1, sizeof *sv->plugins);
    if (!sv->plugins) {
        rc = cc_fail(err, CC_ERR_NOMEM, "out of memory for the plugin list");
        goto fail;
    }
    for (size_t i = 0; i < nplugins; i++) {
        char absolute[PATH_MAX];
        if ((rc = cc_engine_set_check_plugin_path(plugins[i], err))) goto fail;
        if (!realpath(plugins[i], absolute)) {
            rc = cc_fail(err, CC_ERR_ARG, "plugin %s cannot be loaded: no such file", plugins[i]);
            goto fail;
        }
        /* One library named twice (CELLCHECK_PLUGINS and --plugin, as a reproducer run where
         * the environment still names its plugin) is loaded once. */
        int again = 0;
        for (size_t j = 0; j < sv->nplugins && !again; j++) again = !strcmp(sv->plugins[j], absolute);
        if (again) continue;
        if (!(sv->plugins[sv->nplugins++] = strdup(absolute))) {
            rc = cc_fail(err, CC_ERR_NOMEM, "out of memory for the plugin list");
            goto fail;
        }
    }
    sv->shm = memfd_create("cellcheck-grid", MFD_CLOEXEC);
    if (sv->shm < 0) {
        rc = cc_fail(err, CC_ERR_IO, "cannot make the shared grid file: %s", strerror(errno));
        goto fail;
    }
    if ((rc = grow_shared(sv, SV_GRID_OFFSET + SV_GUARD_BYTES + 4096, err))) goto fail;
    if ((rc = describe_all(sv, err))) goto fail;
    *out = sv;
    return CC_OK;
fail:
    cc_supervisor_close(sv);
    return rc;
}

void cc_supervisor_close(cc_supervisor *sv) {
    if (!sv) return;
    retire_worker(sv);
    for (size_t i = 0; i < sv->count; i++) free(sv->engines[i]);
    free(sv->engines);
    free(sv->set.engines);
    free(sv->set.origins);
    for (size_t i = 0; i < sv->nplugins; i++) free(sv->plugins[i]);
    free(sv->plugins);
    if (sv->map) munmap(sv->map, sv->map_bytes);
    if (sv->shm >= 0) close(sv->shm);
    free(sv);
}

void cc_supervisor_set_options(cc_supervisor *sv, const cc_supervisor_options *opt) {
    sv->opt = *opt;
}

cc_supervisor_options cc_supervisor_get_options(const cc_supervisor *sv) { return sv->opt; }

const cc_engine_set *cc_supervisor_set(const cc_supervisor *sv) { return &sv->set; }

const cc_engine *cc_supervisor_find(const cc_supervisor *sv, const char *name) {
    return cc_engine_set_find(&sv->set, name);
}

void cc_supervisor_restart(cc_supervisor *sv) { retire_worker(sv); }

int cc_supervisor_team(cc_supervisor *sv, int threads) {
    if (!sv) return 0;
    sv->team_wanted = threads > 0 ? threads : 0;
    /* OpenMP reads its team size once, at the worker's start: another team is another worker. */
    if (sv->pid > 0 && sv->team != sv->team_wanted && sv->live == 0) retire_worker(sv);
    return sv->pid > 0 ? sv->team : sv->team_wanted;
}

void cc_supervisor_timing(cc_supervisor *sv, uint32_t timing) {
    if (sv) sv->timing = timing;
}

void cc_supervisor_label(cc_supervisor *sv, const char *label) {
    snprintf(sv->label, sizeof sv->label, "%s", label ? label : "");
}

void cc_supervisor_kept_reset(cc_supervisor *sv) { sv->stats.kept_bytes_max = 0; }

void cc_supervisor_stats_get(const cc_supervisor *sv, cc_supervisor_stats *out) {
    *out = sv->stats;
}

/* ---- Calls ------------------------------------------------------------------------------ */

static double cells_of(int32_t w, int32_t h) { return (double)w * (double)h; }

static void info_for(const sv_engine *e, call_info *ci, double cells, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void info_for(const sv_engine *e, call_info *ci, double cells, const char *fmt, ...) {
    memset(ci, 0, sizeof *ci);
    ci->engine = e->name;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ci->what, sizeof ci->what, fmt, ap);
    va_end(ap);
    ci->limit_s = e->sv->opt.time_floor_s + e->sv->opt.time_scale * cells * SECONDS_PER_CELL;
}

int cc_call_available(const cc_engine *engine, cc_error *err) {
    sv_engine *e = remote_of(engine);
    if (!e) return stub_refuse(err);
    if (!(e->has & SV_HAS_AVAILABLE)) return CC_OK;
    sv_request req = {.op = SV_OP_AVAILABLE, .engine = e->index};
    sv_reply rep;
    call_info ci;
    info_for(e, &ci, 0, "available()");
    return call(e->sv, &req, &rep, NULL, 0, &ci, err);
}

int cc_call_devices(const cc_engine *engine, int32_t *count, cc_error *err) {
    *count = 1;
    sv_engine *e = remote_of(engine);
    if (!e) return stub_refuse(err);
    if (!(e->has & SV_HAS_DEVICES)) return CC_OK;
    sv_request req = {.op = SV_OP_DEVICES, .engine = e->index};
    sv_reply rep;
    call_info ci;
    info_for(e, &ci, 0, "devices()");
    int rc = call(e->sv, &req, &rep, NULL, 0, &ci, err);
    if (rc == CC_OK) *count = (int32_t)rep.count;
    return rc;
}

int cc_call_timing_available(const cc_engine *engine, cc_error *err) {
    sv_engine *e = remote_of(engine);
    if (!e) return stub_refuse(err);
    sv_request req = {.op = SV_OP_TIMING, .engine = e->index};
    sv_reply rep;
    call_info ci;
    info_for(e, &ci, 0, "the timing disturbance's check");
    return call(e->sv, &req, &rep, NULL, 0, &ci, err);
}

int cc_call_memory(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                   cc_memory *need, cc_error *err) {
    memset(need, 0, sizeof *need);
    sv_engine *e = remote_of(engine);
    if (!e) {
        stub_refuse(err);
        return 0;
    }
    if (!(e->has & SV_HAS_MEMORY)) return 0;
    sv_request req = {.op = SV_OP_MEMORY, .engine = e->index, .rule = *rule, .w = w, .h = h};
    sv_reply rep;
    call_info ci;
    info_for(e, &ci, 0, "memory()");
    if (call(e->sv, &req, &rep, NULL, 0, &ci, err)) return 0;
    if (!rep.stated) return 0;
    *need = rep.memory;
    return 1;
}

/* A context's engine, or an error when its worker has ended since it was made. */
static sv_engine *live_engine(cc_context *c, cc_error *err) {
    sv_engine *e = c ? remote_of(c->engine) : NULL;
    if (!e) {
        stub_refuse(err);
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
        retire_worker(e->sv);
        e->sv->stats.faults++;
    }
    return rc;
}

int cc_call_create(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                   cc_context **out, cc_error *err) {
    *out = NULL;
    sv_engine *e = remote_of(engine);
    if (!e) return stub_refuse(err);
    /* The contract's checks need no engine code: a case outside the caps never reaches one. */
    int rc = cc_engine_check(engine, rule, w, h, err);
    if (rc) return rc;
    sv_context *sc = calloc(1, sizeof *sc);
    if (!sc) return cc_fail(err, CC_ERR_NOMEM, "out of memory for a context");
    cc_supervisor *sv = e->sv;
    if ((rc = start_worker(sv, err))) {
        free(sc);
        return rc;
    }
    sv_request req = {.op = SV_OP_CREATE, .engine = e->index, .rule = *rule, .w = w, .h = h};
    sv_reply rep;
    call_info ci;
    info_for(e, &ci, cells_of(w, h), "create (%dx%d)", (int)w, (int)h);
    ci.memory_after = 1;
    /* While create runs, the worker's header holds what it is counted for. */
    sv->live++;
    rc = call(sv, &req, &rep, NULL, 0, &ci, err);
    ((sv_header *)(void *)sv->map)->creating_host_bytes = 0.0;
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
    sc->base.h = h;
    sc->generation = sv->generation;
    sc->id = rep.ctx;
    sc->host_need = need;
    *out = &sc->base;
    return CC_OK;
}

static size_t grid_bytes(const cc_context *c) { return (size_t)c->w * (size_t)c->h; }

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
    int rc = grow_shared(sv, SV_GRID_OFFSET + n + SV_GUARD_BYTES, err);
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
    info_for(e, &ci, (double)n, "load");
    rc = call(sv, &req, &rep, NULL, 0, &ci, err);
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
                       "%s: wrote into load's input: %zu cells changed, first (%d,%d): %d%s",
                       e->name, changed, (int)(first % (size_t)c->w), (int)(first / (size_t)c->w),
                       grid[first], loaded);
    }
    return check_guards(e, "load", n, sv, err);
}

int cc_call_load(cc_context *c, const uint8_t *cells, cc_error *err) {
    return load_grid(c, cells, NULL, err);
}

int cc_call_load_from(cc_context *c, const cc_grid_source *src, cc_error *err) {
    return load_grid(c, NULL, src, err);
}

static double visits_of(const cc_context *c, int64_t k) {
    return cells_of(c->w, c->h) * (double)(cc_rule_max_count(&c->rule) + 1) * (double)k;
}

static int stepped(sv_engine *e, cc_context *c, int op, int64_t k, double *ms, int *engine_clock,
                   cc_error *err) {
    int rc = cc_engine_check_steps(e->name, k, err);
    if (rc) return rc;
    if (!c->loaded)
        return cc_fail(err, CC_ERR_ARG, "%s: step before any grid was loaded", e->name);
    sv_context *sc = (sv_context *)(void *)c;
    sv_request req = {.op = (uint32_t)op, .ctx = sc->id, .k = k};
    sv_reply rep;
    call_info ci;
    info_for(e, &ci, 0, "%sstep(%lld)", op == SV_OP_TIMED_STEP ? "timed " : "", (long long)k);
    double visits = visits_of(c, k);
    double spv = e->slowest_spv > 0 ? e->slowest_spv : DEFAULT_SECONDS_PER_VISIT;
    ci.limit_s = e->sv->opt.time_floor_s + e->sv->opt.time_scale * visits * spv;
    rc = call(e->sv, &req, &rep, NULL, 0, &ci, err);
    if (rc) return retire_on_device_error(e, rc);
    if (ci.elapsed_s >= RATE_MIN_SECONDS && visits > 0 && ci.elapsed_s / visits > e->slowest_spv)
        e->slowest_spv = ci.elapsed_s / visits;
    if (ms) *ms = rep.ms;
    if (engine_clock) *engine_clock = rep.engine_clock;
    return CC_OK;
}

int cc_call_step(cc_context *c, int64_t k, cc_error *err) {
    sv_engine *e = live_engine(c, err);
    if (!e) return err->code;
    return stepped(e, c, SV_OP_STEP, k, NULL, NULL, err);
}

int cc_call_timed_step(cc_context *c, int64_t k, double *ms, int *engine_clock, cc_error *err) {
    sv_engine *e = live_engine(c, err);
    if (!e) return err->code;
    return stepped(e, c, SV_OP_TIMED_STEP, k, ms, engine_clock, err);
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
    info_for(e, &ci, (double)n, "store");
    if ((rc = call(sv, &req, &rep, NULL, 0, &ci, err))) return retire_on_device_error(e, rc);
    if ((rc = check_guards(e, "store", n, sv, err))) return rc;
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
                           "%s: store left cell (%d,%d) unwritten (%zu cells not 0 or 1)",
                           e->name, x, y, bad);
        return cc_fail(err, CC_ERR_CONTRACT,
                       "%s: store wrote %d into cell (%d,%d), not 0 or 1 (%zu such cells)",
                       e->name, grid[first], x, y, bad);
    }
    return reader ? reader(arg, grid, n, err) : CC_OK;
}

int cc_call_store(cc_context *c, uint8_t *cells, cc_error *err) {
    return store_grid(c, cells, NULL, NULL, err);
}

int cc_call_store_to(cc_context *c, cc_grid_reader reader, void *arg, cc_error *err) {
    return store_grid(c, NULL, reader, arg, err);
}

/* Gives back the shared grid's pages past the first small grid, after a huge one. */
void cc_supervisor_shrink_shared(cc_supervisor *sv) {
    if (!sv || !sv->map) return;
    size_t keep = SV_GRID_OFFSET + SV_GUARD_BYTES + 4096;
    if (sv->map_bytes <= keep + (64u << 20)) return;
    munmap(sv->map, sv->map_bytes);
    sv->map = NULL;
    sv->map_bytes = 0;
    cc_error err;
    if (ftruncate(sv->shm, 0) == 0) (void)grow_shared(sv, keep, &err);
}

int cc_call_destroy(cc_context *c, cc_error *err) {
    if (!c) return CC_OK;
    sv_engine *e = remote_of(c->engine);
    sv_context *sc = (sv_context *)(void *)c;
    int rc = CC_OK;
    cc_error local;
    if (!err) err = &local;
    if (e && sc->generation == e->sv->generation && e->sv->pid > 0) {
        cc_supervisor *sv = e->sv;
        sv_request req = {.op = SV_OP_DESTROY, .ctx = sc->id};
        sv_reply rep;
        call_info ci;
        info_for(e, &ci, cells_of(c->w, c->h), "destroy");
        rc = call(sv, &req, &rep, NULL, 0, &ci, err);
        if (rc == CC_OK || !cc_code_is_fault(rc)) {
            sv->live--;
            sv->live_need -= sc->host_need;
            sv->destroyed++;
            if (sv->live == 0) {
                double rss = worker_rss(sv);
                if (rss > 0) sv->rss_idle = rss;
                if (rss - sv->rss_start > sv->stats.kept_bytes_max)
                    sv->stats.kept_bytes_max = rss - sv->rss_start;
                /* Memory still held with nothing live, past a pool's and the margin: a leak
                 * across cases. */
                if (!rc && rss - sv->rss_start > pool_allowance(sv) + sv->opt.memory_margin)
                    rc = end_for_memory(sv, rss, &ci, err);
            }
        }
        retire_on_device_error(e, rc);
    }
    free(sc);
    return rc;
}

void cc_call_device_name(cc_context *c, char *buf, size_t size) {
    if (size) buf[0] = '\0';
    cc_error err;
    sv_engine *e = live_engine(c, &err);
    if (!e || !(e->has & SV_HAS_DEVICE_NAME)) return;
    sv_context *sc = (sv_context *)(void *)c;
    sv_request req = {.op = SV_OP_DEVICE_NAME, .ctx = sc->id};
    sv_reply rep;
    call_info ci;
    info_for(e, &ci, 0, "device_name()");
    if (call(e->sv, &req, &rep, NULL, 0, &ci, &err) == CC_OK) {
        rep.text[sizeof rep.text - 1] = '\0';
        snprintf(buf, size, "%s", rep.text);
    }
}
