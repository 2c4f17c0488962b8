/* A worker: the one kind of process that calls engine code (worker.h, protocol.h). */
#define _GNU_SOURCE
#include "supervise/worker.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "engines/cuda/common/timing.h"
#include "engines/engine_set.h"
#include "engines/entry.h"
#include "engines/plugin.h"
#include "oracle/case.h"
#include "supervise/protocol.h"
#include "supervise/worker_sandbox.h"

/* The CUDA driver library defines the timing disturbance where it is linked in (every program
 * with a CUDA engine built in, and cellcheck); elsewhere these are NULL and a worker says it
 * cannot disturb a GPU engine's timing. */
#pragma weak cc_gpu_timing_available
#pragma weak cc_gpu_timing_open
#pragma weak cc_gpu_timing_before
#pragma weak cc_gpu_timing_pinned

_Static_assert(CC_GPU_TIMING_LEGACY == CC_TIMING_LEGACY && CC_GPU_TIMING_COPIES == CC_TIMING_COPIES &&
                   CC_GPU_TIMING_KERNEL == CC_TIMING_KERNEL,
               "the driver's background bits are the case line's");

/* The longest pause timing=delays puts before a call, in microseconds. */
#define SV_DELAY_MAX_US 200

typedef struct worker {
    int sock, shm;
    uint8_t *map;
    size_t map_bytes;
    const cc_engine **engines;
    int32_t *plugin_of; /* per engine: its plugin's index, -1 built in */
    const char **build_of; /* per engine: its plugin's build string (plugin memory), or NULL */
    size_t count;
    cc_context **contexts; /* by id - 1; NULL once destroyed */
    size_t ncontexts, room;
    /* Under a case's timing= (oracle/case.h): the background load, made at the first disturbed
     * call and kept for the worker's life; load's and store's pageable buffer (the pinned one is
     * the disturbance's); the state of the pauses' draws. */
    cc_gpu_timing *timing;
    uint8_t *pageable;
    size_t pageable_bytes;
    uint64_t draws;
} worker;

static int read_full(int fd, void *buf, size_t n) {
    uint8_t *p = buf;
    while (n) {
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Waits for the next request: a short spin first, since the supervisor's next call in a case
 * follows within microseconds, then a plain blocking read. */
static void await_request(int fd) {
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 0) != 0) return;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 50000L) return;
        sched_yield(); /* where the supervisor shares this core, it runs now */
    }
}


static int map_shared(worker *w, size_t bytes) {
    if (bytes <= w->map_bytes) return 0;
    if (w->map) munmap(w->map, w->map_bytes);
    w->map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, w->shm, 0);
    if (w->map == MAP_FAILED) {
        w->map = NULL;
        w->map_bytes = 0;
        return -1;
    }
    w->map_bytes = bytes;
    return 0;
}

static int parse_fd(const char *s, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < 0) return -1;
    *out = v;
    return 0;
}

static sv_header *header_of(worker *w) { return (sv_header *)(void *)w->map; }

static cc_context *context_of(worker *w, uint32_t id, cc_error *err) {
    if (id == 0 || id > w->ncontexts || !w->contexts[id - 1]) {
        cc_fail(err, CC_ERR_ARG, "no live context %u in this worker", (unsigned)id);
        return NULL;
    }
    return w->contexts[id - 1];
}

static const cc_engine *engine_of(worker *w, uint32_t index, cc_error *err) {
    if (index >= w->count) {
        cc_fail(err, CC_ERR_ARG, "no engine %u in this worker", (unsigned)index);
        return NULL;
    }
    return w->engines[index];
}

static void describe(const cc_engine *e, int32_t plugin, const char *build, sv_description *d) {
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", e->name ? e->name : "");
    snprintf(d->summary, sizeof d->summary, "%s", e->summary ? e->summary : "");
    d->has_limits = e->caps.limits != NULL;
    snprintf(d->limits, sizeof d->limits, "%s", e->caps.limits ? e->caps.limits : "");
    d->plugin = plugin;
    /* The plugin's own bytes, bounded: a string without its NUL is cut, not overrun. */
    for (size_t i = 0; build && i + 1 < sizeof d->build && build[i]; i++)
        d->build[i] = (unsigned char)build[i] < 0x20 || build[i] == 0x7f ? '?' : build[i];
    d->has = (e->available ? SV_HAS_AVAILABLE : 0u) | (e->timed_step ? SV_HAS_TIMED_STEP : 0u) |
             (e->device_name ? SV_HAS_DEVICE_NAME : 0u) | (e->memory ? SV_HAS_MEMORY : 0u) |
             (e->devices ? SV_HAS_DEVICES : 0u) |
             (e->rank_id && e->rank_create ? SV_HAS_RANKS : 0u);
    d->hardware = (int32_t)e->hardware;
    d->caps = e->caps;
    d->caps.limits = NULL;
}

/* ---- The timing disturbance (a case's timing=) ------------------------------------------- */

/* A pause of 0 .. SV_DELAY_MAX_US microseconds, drawn (xorshift64) per call. */
static void pause_a_little(worker *w) {
    uint64_t x = w->draws ? w->draws : 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    w->draws = x;
    struct timespec t = {0, (long)(x % (SV_DELAY_MAX_US + 1)) * 1000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) continue;
}

static int timing_built_in(cc_error *err) {
    if (!cc_gpu_timing_available || !cc_gpu_timing_open || !cc_gpu_timing_before ||
        !cc_gpu_timing_pinned)
        return cc_fail(err, CC_ERR_UNAVAILABLE,
                       "this program was built without the GPU timing disturbance (the CUDA "
                       "driver library, //engines/cuda/common:gpu, is not linked into it)");
    return CC_OK;
}

/* Can this worker disturb engine e's timing: is the disturbance built in, and are the engine's
 * hardware and devices here? */
static int timing_available(const cc_engine *e, cc_error *err) {
    int rc = timing_built_in(err);
    if (!rc) rc = cc_engine_available(e, err);
    int32_t devices = 1;
    if (!rc) rc = cc_engine_devices(e, &devices, err);
    if (!rc) rc = cc_gpu_timing_available(devices, err);
    return rc;
}

/* Before a call of engine e under timing: the background work on its devices, then a pause. */
static int disturb(worker *w, const cc_engine *e, uint32_t timing, const char *call,
                   cc_error *err) {
    int rc = timing_built_in(err);
    if (!rc && !w->timing) rc = cc_gpu_timing_open(&w->timing, err);
    int32_t devices = 1;
    if (!rc && (timing & (CC_TIMING_LEGACY | CC_TIMING_COPIES | CC_TIMING_KERNEL)) &&
        !(rc = cc_engine_devices(e, &devices, err)))
        rc = cc_gpu_timing_before(w->timing, timing, devices, err);
    if (rc) {
        char words[CC_TIMING_TEXT_MAX];
        case_timing_format(timing, words, sizeof words, NULL);
        return cc_prefix(err, "%s: before %s under timing=%s", e->name, call, words);
    }
    if (timing & CC_TIMING_DELAYS) pause_a_little(w);
    return CC_OK;
}

/* The host buffer load and store hand the engine under timing, holding the grid's n cells and
 * the guard bands on both sides: page-locked under CC_TIMING_PINNED, else the worker's own
 * pageable memory. */
static int timing_buffer(worker *w, uint32_t timing, size_t n, uint8_t **out, cc_error *err) {
    size_t bytes = n + 2 * (size_t)SV_GUARD_BYTES;
    if (timing & CC_TIMING_PINNED) {
        int rc = timing_built_in(err);
        if (!rc && !w->timing) rc = cc_gpu_timing_open(&w->timing, err);
        if (rc) return rc;
        return cc_gpu_timing_pinned(w->timing, bytes, out, err);
    }
    if (bytes > w->pageable_bytes) {
        free(w->pageable);
        w->pageable_bytes = 0;
        if (!(w->pageable = malloc(bytes)))
            return cc_fail(err, CC_ERR_NOMEM, "worker: no %zu bytes for load's and store's grid",
                           bytes);
        w->pageable_bytes = bytes;
    }
    *out = w->pageable;
    return CC_OK;
}

/* Where load's input or store's output lies for the engine when it is not the shared grid: n
 * cells at `cells`, with `before` and `after` bytes of guard band around them in the same
 * buffer, copied from and back to the shared grid's bands (at most SV_GUARD_BYTES each), so the
 * supervisor's checks see what the engine wrote there. `mapping`: the buffer's own pages, unmapped
 * after the call (NULL for the timing disturbance's buffer, which the worker keeps). */
typedef struct staged {
    uint8_t *cells;
    size_t before, after;
    uint8_t *mapping;
    size_t mapping_bytes;
} staged;

/* The caller's buffer at placement `buffers` (oracle/case.h): N bytes past a 64-byte boundary,
 * 2048 + N bytes into a mapping of its own with a whole guard band after it; or, for guard, the
 * last cell the last byte before a page mapped PROT_NONE. */
static int placed_buffer(int32_t buffers, size_t n, staged *s, cc_error *err) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t offset, bytes;
    if (buffers == CC_BUFFERS_GUARD) {
        offset = (SV_GUARD_BYTES + n + page - 1) / page * page - n;
        bytes = offset + n + page;
        s->before = SV_GUARD_BYTES;
        s->after = 0;
    } else if (buffers >= 1 && buffers <= CC_BUFFERS_ALIGN) {
        offset = SV_GUARD_BYTES / 2 + (size_t)buffers;
        bytes = (offset + n + SV_GUARD_BYTES + page - 1) / page * page;
        s->before = offset;
        s->after = SV_GUARD_BYTES;
    } else {
        return cc_fail(err, CC_ERR_ARG, "worker: buffers placement %d is outside 1..%d",
                       (int)buffers, CC_BUFFERS_GUARD);
    }
    uint8_t *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return cc_fail(err, CC_ERR_NOMEM, "worker: no %zu bytes for load's and store's buffer: %s",
                       bytes, strerror(errno));
    if (buffers == CC_BUFFERS_GUARD && mprotect(map + bytes - page, page, PROT_NONE) != 0) {
        int e = errno;
        munmap(map, bytes);
        return cc_fail(err, CC_ERR_NOMEM, "worker: cannot make the guard page: %s", strerror(e));
    }
    s->mapping = map;
    s->mapping_bytes = bytes;
    s->cells = map + offset;
    return CC_OK;
}

/* The buffer load or store hands the engine under the request's placement or timing. */
static int stage(worker *w, const sv_request *req, size_t n, staged *s, cc_error *err) {
    memset(s, 0, sizeof *s);
    if (req->buffers && (req->timing & CC_TIMING_PINNED))
        return cc_fail(err, CC_ERR_ARG,
                       "worker: buffers= and timing=pinned both place load's and store's buffers");
    if (req->buffers) return placed_buffer(req->buffers, n, s, err);
    uint8_t *buf;
    int rc = timing_buffer(w, req->timing, n, &buf, err);
    if (rc) return rc;
    s->cells = buf + SV_GUARD_BYTES;
    s->before = s->after = SV_GUARD_BYTES;
    return CC_OK;
}

static void unstage(staged *s) {
    if (s->mapping) munmap(s->mapping, s->mapping_bytes);
    s->mapping = NULL;
}

/* load from a buffer of the worker's (placed, or the timing disturbance's). Under timing it is
 * overwritten with the complement of every cell as soon as load returns, as a caller reusing it
 * would: an engine still copying from it then loads other cells. What load wrote into its input
 * (the buffer's cells before the overwrite differ from the supervisor's) and around it is put in
 * the shared grid, for the supervisor's checks. */
static int staged_load(worker *w, cc_context *c, const sv_request *req, cc_error *err) {
    size_t n = (size_t)c->w * (size_t)c->h;
    uint8_t *grid = w->map + SV_GRID_OFFSET;
    staged s;
    int rc = stage(w, req, n, &s, err);
    if (rc) return rc;
    memcpy(s.cells - s.before, grid - s.before, s.before + n + s.after);
    if (req->timing && (rc = disturb(w, c->engine, req->timing, "load", err))) {
        unstage(&s);
        return rc;
    }
    rc = cc_engine_load(c, s.cells, err);
    const uint8_t flip = req->timing ? 1u : 0u;
    if (flip)
        for (size_t i = 0; i < n; i++) s.cells[i] ^= 1u;
    for (size_t i = 0; i < n; i++)
        if ((uint8_t)(s.cells[i] ^ flip) != grid[i]) grid[i] = (uint8_t)(s.cells[i] ^ flip);
    memcpy(grid - s.before, s.cells - s.before, s.before);
    memcpy(grid + n, s.cells + n, s.after);
    unstage(&s);
    return rc;
}

/* store into a buffer of the worker's laid out as the supervisor laid out the shared grid (guard
 * bands, unwritten cells), copied back whole as soon as store returns: what an engine had not
 * written by then is unwritten. */
static int staged_store(worker *w, cc_context *c, const sv_request *req, cc_error *err) {
    size_t n = (size_t)c->w * (size_t)c->h;
    uint8_t *grid = w->map + SV_GRID_OFFSET;
    staged s;
    int rc = stage(w, req, n, &s, err);
    if (rc) return rc;
    memcpy(s.cells - s.before, grid - s.before, s.before + n + s.after);
    if (req->timing && (rc = disturb(w, c->engine, req->timing, "store", err))) {
        unstage(&s);
        return rc;
    }
    rc = cc_engine_store(c, s.cells, err);
    memcpy(grid - s.before, s.cells - s.before, s.before + n + s.after);
    unstage(&s);
    return rc;
}

/* Serves one request into *rep (and *d for a description). */
static void serve(worker *w, const sv_request *req, sv_reply *rep, sv_description *d) {
    cc_error *err = &rep->err;
    const cc_engine *e;
    cc_context *c;
    uint8_t *grid = w->map ? w->map + SV_GRID_OFFSET : NULL;
    switch (req->op) {
    case SV_OP_DESCRIBE:
        if ((e = engine_of(w, req->engine, err))) describe(e, w->plugin_of[req->engine], w->build_of[req->engine], d);
        else rep->rc = err->code;
        return;
    case SV_OP_AVAILABLE:
        rep->rc = (e = engine_of(w, req->engine, err)) ? cc_engine_available(e, err) : err->code;
        return;
    case SV_OP_DEVICES: {
        int32_t count = 1;
        rep->rc = (e = engine_of(w, req->engine, err)) ? cc_engine_devices(e, &count, err)
                                                       : err->code;
        rep->count = rep->rc == CC_OK ? (uint32_t)count : 0u;
        return;
    }
    case SV_OP_MEMORY:
        if ((e = engine_of(w, req->engine, err)))
            rep->stated = cc_engine_memory(e, &req->rule, req->w, req->h, &rep->memory);
        else rep->rc = err->code;
        return;
    case SV_OP_RANK_ID:
        if ((e = engine_of(w, req->engine, err))) {
            rep->rc = cc_engine_rank_id(e, (uint8_t *)rep->text, err);
            rep->count = CC_RANK_ID_BYTES;
        } else {
            rep->rc = err->code;
        }
        return;
    case SV_OP_RANK_CREATE:
    case SV_OP_CREATE: {
        if (!(e = engine_of(w, req->engine, err))) break;
        const int ranked = req->op == SV_OP_RANK_CREATE;
        /* A rank holds its slab: what it may hold is counted for the slab's rows. */
        const int32_t rows = ranked ? req->rank.rows : req->h;
        if (w->ncontexts == w->room) {
            size_t room = w->room ? 2 * w->room : 8;
            cc_context **more = realloc(w->contexts, room * sizeof *more);
            if (!more) {
                rep->rc = cc_fail(err, CC_ERR_NOMEM, "worker: no room for another context");
                return;
            }
            w->contexts = more;
            w->room = room;
        }
        /* What the context may hold, counted by the supervisor while create runs. */
        cc_memory need;
        if (!cc_engine_memory(e, &req->rule, req->w, rows, &need))
            need = cc_engine_memory_generic(e, req->w, rows);
        rep->memory = need;
        header_of(w)->creating_host_bytes = need.host_bytes;
        if (req->timing && (rep->rc = disturb(w, e, req->timing, "create", err))) return;
        cc_context *made = NULL;
        rep->rc = ranked ? cc_engine_rank_create(e, &req->rule, req->w, req->h, &req->rank,
                                                 &made, err)
                         : cc_engine_create(e, &req->rule, req->w, req->h, &made, err);
        /* The supervisor clears creating_host_bytes once it counts the context (or its
         * failure): until then what create left resident is still counted. */
        if (rep->rc) return;
        w->contexts[w->ncontexts++] = made;
        rep->ctx = (uint32_t)w->ncontexts;
        return;
    }
    case SV_OP_LOAD:
        if (!(c = context_of(w, req->ctx, err))) rep->rc = err->code;
        else if (req->timing || req->buffers) rep->rc = staged_load(w, c, req, err);
        else rep->rc = cc_engine_load(c, grid, err);
        return;
    case SV_OP_STEP:
        if (!(c = context_of(w, req->ctx, err))) rep->rc = err->code;
        else if (!req->timing || !(rep->rc = disturb(w, c->engine, req->timing, "step", err)))
            rep->rc = cc_engine_step(c, req->k, err);
        return;
    case SV_OP_TIMED_STEP: {
        int clock = 0;
        if (!(c = context_of(w, req->ctx, err))) rep->rc = err->code;
        else if (!req->timing || !(rep->rc = disturb(w, c->engine, req->timing, "step", err)))
            rep->rc = cc_engine_timed_step(c, req->k, &rep->ms, &clock, err);
        rep->engine_clock = clock;
        return;
    }
    case SV_OP_STORE:
        if (!(c = context_of(w, req->ctx, err))) rep->rc = err->code;
        else if (req->timing || req->buffers) rep->rc = staged_store(w, c, req, err);
        else rep->rc = cc_engine_store(c, grid, err);
        return;
    case SV_OP_DESTROY:
        if ((c = context_of(w, req->ctx, err))) {
            if (req->timing && (rep->rc = disturb(w, c->engine, req->timing, "destroy", err)))
                return;
            w->contexts[req->ctx - 1] = NULL;
            cc_engine_destroy(c);
        } else {
            rep->rc = err->code;
        }
        return;
    case SV_OP_TIMING:
        rep->rc = (e = engine_of(w, req->engine, err)) ? timing_available(e, err) : err->code;
        return;
    case SV_OP_DEVICE_NAME:
        if ((c = context_of(w, req->ctx, err))) {
            const char *name = cc_engine_device_name(c);
            snprintf(rep->text, sizeof rep->text, "%s", name ? name : "");
        } else {
            rep->rc = err->code;
        }
        return;
    default: rep->rc = cc_fail(err, CC_ERR_ARG, "worker: no request %u", (unsigned)req->op);
    }
    if (!rep->rc) rep->rc = err->code ? err->code : CC_ERR_ARG;
}

static int add_engine(worker *w, const cc_engine *e, int32_t plugin, const char *build) {
    const cc_engine **engines = realloc(w->engines, (w->count + 1) * sizeof *engines);
    if (!engines) return -1;
    w->engines = engines;
    int32_t *of = realloc(w->plugin_of, (w->count + 1) * sizeof *of);
    if (!of) return -1;
    w->plugin_of = of;
    const char **builds = realloc(w->build_of, (w->count + 1) * sizeof *builds);
    if (!builds) return -1;
    w->build_of = builds;
    w->build_of[w->count] = build;
    w->engines[w->count] = e;
    w->plugin_of[w->count++] = plugin;
    return 0;
}

static int serve_all(int argc, char **argv, const cc_engine *const *builtins) {
    long sock, shm, parent;
    if (argc < 6 || parse_fd(argv[2], &sock) || parse_fd(argv[3], &shm) ||
        parse_fd(argv[4], &parent)) {
        const char *slash = strrchr(argv[0], '/');
        fprintf(stderr,
                "%s: malformed worker arguments (a worker is started by the program itself)\n"
                "usage: %s " SV_WORKER_FLAG " SOCKET-FD SHARED-FD PARENT-PID SANDBOX [PLUGIN...]\n",
                argv[0], slash ? slash + 1 : argv[0]);
        return 2;
    }
    /* The worker dies with its supervisor, and its own output never mixes into the
     * supervisor's reports on stdout. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)parent) return 2;
    setpgid(0, 0);
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return 2;
    /* The sandbox first, so that a plugin's constructors run inside it too. A part this machine
     * cannot enforce is left out and said in the answer to HELLO. */
    cc_sandbox_state sandbox;
    cc_error sandbox_err;
    if (worker_sandbox_enter(argv[5], &sock, &shm, argv + 6, argc - 6, &sandbox, &sandbox_err)) {
        fprintf(stderr, "%s: %s\n", argv[0], sandbox_err.msg);
        return 2;
    }
    worker w = {.sock = (int)sock, .shm = (int)shm};
    if (map_shared(&w, SV_HEADER_BYTES)) {
        fprintf(stderr, "%s: worker cannot map the shared file: %s\n", argv[0], strerror(errno));
        return 2;
    }
    sv_header *header = (sv_header *)w.map;
    cc_engine_set set;
    cc_error load_err;
    cc_error_clear(&load_err);
    int load_rc = cc_engine_set_init(&set, &load_err);
    for (size_t i = 0; builtins && builtins[i] && !load_rc; i++)
        if (!cc_engine_set_find(&set, builtins[i]->name) && add_engine(&w, builtins[i], -1, NULL))
            load_rc = cc_fail(&load_err, CC_ERR_NOMEM, "worker: out of memory");
    for (size_t i = 0; i < set.count && !load_rc; i++)
        if (add_engine(&w, set.engines[i], -1, NULL))
            load_rc = cc_fail(&load_err, CC_ERR_NOMEM, "worker: out of memory");
    size_t before = set.count;
    for (int i = 6; i < argc && !load_rc; i++) {
        header->loading_plugin = (int32_t)(i - 6);
        load_rc = cc_engine_set_load(&set, argv[i], &load_err);
        const char *build = load_rc ? NULL : dlsym(set.handles[set.plugins - 1],
                                                   CC_PLUGIN_BUILD_SYMBOL);
        for (size_t j = before; j < set.count && !load_rc; j++)
            if (add_engine(&w, set.engines[j], (int32_t)(i - 6), build))
                load_rc = cc_fail(&load_err, CC_ERR_NOMEM, "worker: out of memory");
        before = set.count;
    }
    header->loading_plugin = -1;
    sv_request req;
    for (;;) {
        await_request(w.sock);
        if (read_full(w.sock, &req, sizeof req) != 0) break;
        sv_reply rep;
        sv_description d;
        memset(&rep, 0, sizeof rep);
        cc_error_clear(&rep.err);
        if (map_shared(&w, (size_t)req.shm_bytes)) {
            rep.rc = cc_fail(&rep.err, CC_ERR_NOMEM, "worker cannot map %llu shared bytes: %s",
                             (unsigned long long)req.shm_bytes, strerror(errno));
        } else if (req.op == SV_OP_HELLO) {
            rep.rc = load_rc;
            rep.err = load_err;
            rep.count = (uint32_t)w.count;
            rep.sandbox = sandbox.parts;
            snprintf(rep.text, sizeof rep.text, "%.*s", (int)sizeof rep.text - 1, sandbox.why);
        } else if (load_rc) {
            rep.rc = load_rc;
            rep.err = load_err;
        } else {
            const double start = now_s();
            serve(&w, &req, &rep, &d);
            rep.engine_s = now_s() - start;
        }
        if (sv_write_full(w.sock, &rep, sizeof rep)) break;
        if (req.op == SV_OP_DESCRIBE && rep.rc == CC_OK &&
            sv_write_full(w.sock, &d, sizeof d))
            break;
    }
    /* The supervisor closed the socket: the contexts go with the process, and the engines'
     * destroy is not called again here (the supervisor destroyed what it meant to). */
    return 0;
}

int cc_worker_hook(int argc, char **argv, const cc_engine *const *builtins, int *status) {
    if (argc < 2 || strcmp(argv[1], SV_WORKER_FLAG) != 0) {
        /* A supervising process's OpenMP threads (light cones, case grids) and its workers'
         * take turns on the same cores, so neither may spin for long once idle: libgomp's
         * default spins for milliseconds. libgomp reads its spin count only as it starts, so a
         * process started without a choice is started again, once, with a short spin; its
         * workers inherit it. If exec fails, it goes on as it is. */
        if (!getenv("GOMP_SPINCOUNT") && !getenv("OMP_WAIT_POLICY") &&
            setenv("GOMP_SPINCOUNT", SV_SHORT_SPIN, 0) == 0)
            execv("/proc/self/exe", argv);
        return 0;
    }
    *status = serve_all(argc, argv, builtins);
    return 1;
}
