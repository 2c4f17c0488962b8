/* The worker's lifecycle: a worker spawned with its environment, ended after a fault or retired,
 * restarted for another team, the shared grid file it reads and writes, and the descriptions
 * (stubs for every engine function) callers hold. Nothing here talks to a worker: its start-up
 * and its calls are in calls.c, their limits in limits.c, opening and closing in open.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "supervise/supervisor_internal.h"

extern char **environ;

void cc_supervisor_options_init(cc_supervisor_options *opt) {
    memset(opt, 0, sizeof *opt);
    opt->time_floor_s = CC_SUPERVISOR_TIME_FLOOR_S;
    opt->time_scale = CC_SUPERVISOR_TIME_SCALE;
    opt->memory_margin = CC_SUPERVISOR_MEMORY_MARGIN;
    opt->grace_s = CC_SUPERVISOR_GRACE_S;
    opt->progress_every_s = 10.0;
    opt->spare_core = 1;
    opt->poison_heap = 1;
    opt->sandbox = 1;
}

int cc_code_is_fault(int code) {
    return code == CC_ERR_CRASHED || code == CC_ERR_EXITED || code == CC_ERR_TIMEOUT ||
           code == CC_ERR_MEMORY_LIMIT || code == CC_ERR_DEVICE || code == CC_ERR_SANDBOX;
}

double sv_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- The stubs a description holds: engine code is never called here ------------------ */

int sv_stub_refuse(cc_error *err) {
    return cc_fail(err, CC_ERR_UNSUPPORTED,
                   "engine code runs only in a worker process: use the supervisor's calls");
}
static int stub_available(cc_error *err) { return sv_stub_refuse(err); }
static int stub_create(const cc_rule *r, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)r, (void)w, (void)h;
    *ctx = NULL;
    return sv_stub_refuse(err);
}
static int stub_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells;
    return sv_stub_refuse(err);
}
static int stub_step(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k;
    return sv_stub_refuse(err);
}
static int stub_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)ctx, (void)cells;
    return sv_stub_refuse(err);
}
static void stub_destroy(void *ctx) { (void)ctx; }
static int stub_timed_step(void *ctx, int64_t k, double *ms, cc_error *err) {
    (void)ctx, (void)k, (void)ms;
    return sv_stub_refuse(err);
}
static const char *stub_device_name(void *ctx) {
    (void)ctx;
    return NULL;
}
static int stub_devices(int32_t *count, cc_error *err) {
    *count = 1;
    return sv_stub_refuse(err);
}
static void stub_memory(const cc_rule *r, int32_t w, int32_t h, cc_memory *need) {
    (void)r, (void)w, (void)h;
    memset(need, 0, sizeof *need);
}

cc_supervisor *cc_supervisor_of(const cc_engine *engine) {
    if (!engine || engine->create != stub_create) return NULL;
    return ((const sv_engine *)(const void *)engine)->sv;
}

const char *cc_supervised_build(const cc_engine *engine) {
    return cc_supervisor_of(engine) ? ((const sv_engine *)(const void *)engine)->build : "";
}

sv_engine *sv_remote_of(const cc_engine *engine) {
    return cc_supervisor_of(engine) ? (sv_engine *)(void *)engine : NULL;
}

/* A description: the engine's name, summary, caps and which optional functions it has, with
 * stubs for every function, so a direct call cannot reach engine code. */
void sv_describe(sv_engine *e, cc_supervisor *sv, uint32_t index, const sv_description *d) {
    memcpy(e->name, d->name, sizeof e->name);
    memcpy(e->summary, d->summary, sizeof e->summary);
    memcpy(e->limits, d->limits, sizeof e->limits);
    memcpy(e->build, d->build, sizeof e->build);
    e->build[sizeof e->build - 1] = '\0';
    e->sv = sv;
    e->index = index;
    e->has = d->has;
    e->table.name = e->name;
    e->table.summary = e->summary;
    e->table.hardware = (cc_hardware)d->hardware;
    e->table.caps = d->caps;
    e->table.caps.limits = d->has_limits ? e->limits : NULL;
    e->table.create = stub_create;
    e->table.load = stub_load;
    e->table.step = stub_step;
    e->table.store = stub_store;
    e->table.destroy = stub_destroy;
    e->table.available = (d->has & SV_HAS_AVAILABLE) ? stub_available : NULL;
    e->table.timed_step = (d->has & SV_HAS_TIMED_STEP) ? stub_timed_step : NULL;
    e->table.device_name = (d->has & SV_HAS_DEVICE_NAME) ? stub_device_name : NULL;
    e->table.memory = (d->has & SV_HAS_MEMORY) ? stub_memory : NULL;
    e->table.devices = (d->has & SV_HAS_DEVICES) ? stub_devices : NULL;
}

/* ---- The worker's process ------------------------------------------------------------- */

static void end_worker_now(cc_supervisor *sv, int *status) {
    /* The group first, grandchildren included, while the worker's pid still names it. */
    kill(-sv->pid, SIGKILL);
    int st = 0;
    while (waitpid(sv->pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (status) *status = st;
}

/* What a worker that died wrote before it died: the call its sandbox forbade. */
static void read_report(cc_supervisor *sv) {
    sv->report_seen = 0;
    if (sv->report < 0) return;
    ssize_t got = read(sv->report, &sv->broke, sizeof sv->broke);
    sv->report_seen =
        got == (ssize_t)sizeof sv->broke && sv->broke.magic == CC_SANDBOX_REPORT_MAGIC;
}

static void forget_worker(cc_supervisor *sv) {
    if (sv->sock >= 0) close(sv->sock);
    sv->sock = -1;
    if (sv->report >= 0) close(sv->report);
    sv->report = -1;
    /* The scratch directory goes with its worker, its whole process group ended. */
    cc_error err;
    if (sv->scratch[0] && cc_sandbox_scratch_remove(sv->scratch, sv->scratch_lock, &err) &&
        sv->opt.progress)
        fprintf(sv->opt.progress, "%s\n", err.msg);
    sv->scratch[0] = '\0';
    sv->scratch_lock = -1;
    if (sv->statm >= 0) close(sv->statm);
    sv->statm = -1;
    sv->pid = 0;
    sv->generation++;
    sv->live = 0;
    sv->live_need = 0;
    sv->need_max = 0;
}

int sv_sandbox_fault(const cc_supervisor *sv, int status, const call_info *ci, cc_error *err) {
    /* Its sandbox's report, or its death by SIGSYS, which only the filter sends unasked. */
    const int by_sigsys = WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS;
    if (!sv->report_seen && !(sv->opt.sandbox && by_sigsys)) return CC_OK;
    char tried[160] = "a system call the sandbox forbids (SIGSYS, the call not named)";
    if (sv->report_seen) cc_sandbox_report_describe(&sv->broke, getpid(), tried, sizeof tried);
    return cc_fail(err, CC_ERR_SANDBOX,
                   "%s: broke the sandbox: tried %s in %s after %.2f s; its process group was "
                   "ended",
                   ci->engine, tried, ci->what, ci->elapsed_s);
}

void sv_sandbox_note(cc_supervisor *sv, const sv_reply *hello) {
    if (!sv->opt.sandbox) return;
    uint32_t parts = hello->sandbox | CC_SANDBOX_ENVIRONMENT;
    sv->sandbox_parts = sv->sandbox_workers++ ? sv->sandbox_parts & parts : parts;
    if ((parts != CC_SANDBOX_ALL || hello->text[0]) && !sv->sandbox_why[0])
        snprintf(sv->sandbox_why, sizeof sv->sandbox_why, "%.*s", (int)sizeof hello->text - 1,
                 hello->text);
}

void sv_end_faulted(cc_supervisor *sv, int reaped, int *status) {
    if (reaped) kill(-sv->pid, SIGKILL);
    else end_worker_now(sv, status);
    read_report(sv);
    forget_worker(sv);
    sv->stats.faults++;
}

void sv_end_asked(cc_supervisor *sv) {
    end_worker_now(sv, NULL);
    read_report(sv);
    forget_worker(sv);
}

void sv_await_exit(cc_supervisor *sv) {
    double until = sv_now_s() + sv->opt.grace_s;
    int st;
    while (waitpid(sv->pid, &st, WNOHANG) == 0 && sv_now_s() < until) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
}

void sv_retire_worker(cc_supervisor *sv) {
    if (sv->pid <= 0) return;
    close(sv->sock);
    sv->sock = -1;
    sv_await_exit(sv);
    end_worker_now(sv, NULL);
    forget_worker(sv);
}

int sv_grow_shared(cc_supervisor *sv, size_t bytes, cc_error *err) {
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

int sv_spawn_worker(cc_supervisor *sv, cc_error *err) {
    if (sv->pid > 0) return CC_OK;
    /* Cleared before the worker exists: it writes the plugin it is loading there. */
    ((sv_header *)(void *)sv->map)->loading_plugin = -1;
    ((sv_header *)(void *)sv->map)->creating_host_bytes = 0.0;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0)
        return cc_fail(err, CC_ERR_IO, "cannot make a socket pair for a worker: %s",
                       strerror(errno));
    fcntl(pair[0], F_SETFD, FD_CLOEXEC);
    /* The sandbox's scratch directory and the pipe of its report (sandbox.h): the write end is
     * the worker's alone. */
    int report[2] = {-1, -1};
    char sandbox[PATH_MAX + 32] = "off", home[PATH_MAX + 8], tmp[PATH_MAX + 8];
    char cache[PATH_MAX + 32];
    if (sv->opt.sandbox) {
        /* Once a supervisor: what killed supervisors left behind goes. */
        if (sv->stats.workers_started == 0) cc_sandbox_scratch_sweep();
        int rc = cc_sandbox_scratch_make(sv->scratch, sizeof sv->scratch, &sv->scratch_lock, err);
        if (!rc && pipe2(report, O_CLOEXEC | O_NONBLOCK) != 0)
            rc = cc_fail(err, CC_ERR_IO, "cannot make a pipe for a worker: %s", strerror(errno));
        if (rc) {
            close(pair[0]);
            close(pair[1]);
            (void)cc_sandbox_scratch_remove(sv->scratch, sv->scratch_lock, NULL);
            sv->scratch[0] = '\0';
            sv->scratch_lock = -1;
            return rc;
        }
        fcntl(report[1], F_SETFD, 0);
        snprintf(sandbox, sizeof sandbox, "%d:%s", report[1], sv->scratch);
        snprintf(home, sizeof home, "HOME=%s", sv->scratch);
        snprintf(tmp, sizeof tmp, "TMPDIR=%s", sv->scratch);
        snprintf(cache, sizeof cache, "CUDA_CACHE_PATH=%s/cuda-cache", sv->scratch);
    }
    /* The shared file is inherited by each worker; this process keeps its own copy closed on
     * any other exec. */
    fcntl(sv->shm, F_SETFD, 0);
    size_t n = 6 + sv->nplugins + 1, nenv = 0;
    while (environ[nenv]) nenv++;
    char **argv = calloc(n, sizeof *argv);
    char **env = calloc(nenv + 7, sizeof *env);
    char join[64];
    if (sv->opt.launcher_rank) snprintf(join, sizeof join, "%s=open", CC_SANDBOX_JOIN_ENV);
    else if (sv->join < 0) snprintf(join, sizeof join, "%s=self", CC_SANDBOX_JOIN_ENV);
    else snprintf(join, sizeof join, "%s=%d", CC_SANDBOX_JOIN_ENV, (int)sv->join);
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
    const char *extra = getenv("CELLCHECK_WORKER_ENV");
    if (env) {
        size_t k = 0;
        for (size_t i = 0; i < nenv; i++) {
            int omp = !strncmp(environ[i], "OMP_NUM_THREADS=", 16);
            if (omp) spare = 0;
            if (!strncmp(environ[i], "MALLOC_PERTURB_=", 16)) poison = 0;
            /* A team asked for by the checks (a case's threads=N) is the one in force; in the
             * sandbox, only the allowlist's variables (never the caller's tokens). */
            if (sv->opt.sandbox && !cc_sandbox_env_allowed(environ[i], extra)) continue;
            /* Only a rank's supervisor names namespaces to join, never the caller. */
            if (!strncmp(environ[i], CC_SANDBOX_JOIN_ENV "=", strlen(CC_SANDBOX_JOIN_ENV "=")))
                continue;
            if (!(omp && sv->team_wanted > 0)) env[k++] = environ[i];
        }
        if (sv->opt.sandbox) {
            env[k++] = home;
            env[k++] = tmp;
            env[k++] = cache;
        }
        snprintf(threads, sizeof threads, "OMP_NUM_THREADS=%ld", cores - 1);
        if (sv->team_wanted > 0)
            snprintf(threads, sizeof threads, "OMP_NUM_THREADS=%d", sv->team_wanted);
        if (spare || sv->team_wanted > 0) env[k++] = threads;
        sv->team = sv->team_wanted;
        if (poison) env[k++] = perturb;
        if (sv->join != 0 || sv->opt.launcher_rank) env[k++] = join;
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
    argv[5] = sandbox;
    for (size_t i = 0; i < sv->nplugins; i++) argv[6 + i] = sv->specs[i];
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    fflush(NULL);
    pid_t pid;
    /* This very program, even where its file was replaced since it started (a rebuild while a
     * certify runs): a worker of another build would speak another protocol. */
    int e = posix_spawn(&pid, "/proc/self/exe", NULL, &attr, argv, env);
    posix_spawnattr_destroy(&attr);
    if (e) {
        rc = cc_fail(err, CC_ERR_IO, "cannot start a worker (%s): %s", sv->exe, strerror(e));
        goto done;
    }
    sv->pid = pid;
    sv->sock = pair[0];
    pair[0] = -1;
    sv->report = report[0];
    report[0] = -1;
    sv->stats.workers_started++;
    sv->created = sv->destroyed = 0;
done:
    fcntl(sv->shm, F_SETFD, FD_CLOEXEC);
    close(pair[1]);
    if (pair[0] >= 0) close(pair[0]);
    if (report[1] >= 0) close(report[1]);
    if (report[0] >= 0) {
        close(report[0]);
        (void)cc_sandbox_scratch_remove(sv->scratch, sv->scratch_lock, NULL);
        sv->scratch[0] = '\0';
        sv->scratch_lock = -1;
    }
    free(argv);
    free(env);
    return rc;
}

void cc_supervisor_set_options(cc_supervisor *sv, const cc_supervisor_options *opt) {
    /* A worker in the other mode is retired once nothing lives in it; the parts are counted
     * afresh. */
    int changed = !opt->sandbox != !sv->opt.sandbox || !opt->launcher_rank != !sv->opt.launcher_rank;
    sv->opt = *opt;
    if (changed) {
        if (sv->live == 0) sv_retire_worker(sv);
        sv->sandbox_workers = 0;
        sv->sandbox_parts = 0;
        sv->sandbox_why[0] = '\0';
    }
}


cc_supervisor_options cc_supervisor_get_options(const cc_supervisor *sv) { return sv->opt; }

const cc_engine_set *cc_supervisor_set(const cc_supervisor *sv) { return &sv->set; }

const cc_engine *cc_supervisor_find(const cc_supervisor *sv, const char *name) {
    return cc_engine_set_find(&sv->set, name);
}


int cc_supervisor_team(cc_supervisor *sv, int threads) {
    if (!sv) return 0;
    sv->team_wanted = threads > 0 ? threads : 0;
    /* OpenMP reads its team size once, at the worker's start: another team is another worker. */
    if (sv->pid > 0 && sv->team != sv->team_wanted && sv->live == 0) sv_retire_worker(sv);
    return sv->pid > 0 ? sv->team : sv->team_wanted;
}

void cc_supervisor_buffers(cc_supervisor *sv, int32_t buffers) {
    if (sv) sv->buffers = buffers;
}

void cc_supervisor_timing(cc_supervisor *sv, uint32_t timing) {
    if (sv) sv->timing = timing;
}

void cc_supervisor_label(cc_supervisor *sv, const char *label) {
    snprintf(sv->label, sizeof sv->label, "%s", label ? label : "");
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
    if (ftruncate(sv->shm, 0) == 0) (void)sv_grow_shared(sv, keep, &err);
}
