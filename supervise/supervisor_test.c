/* The supervisor on small engines of its own, each calling engine code only in workers of this
 * executable: answers agree with a direct run, descriptions refuse direct calls, every fault
 * gets its code and ends the worker, the next call gets a fresh one, a context of an ended
 * worker is lost, and what load and store touch is checked. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oracle/case.h"
#include "supervise/supervisor.h"
#include "supervise/worker.h"
#include "testing/check.h"

/* An engine whose step inverts every cell k times: simple enough to predict by hand. */
typedef struct flip {
    int32_t w, h;
    uint8_t *cells;
} flip;

static int flip_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule;
    flip *f = calloc(1, sizeof *f);
    if (f) f->cells = calloc((size_t)w * (size_t)h, 1);
    if (!f || !f->cells) {
        if (f) free(f);
        return cc_fail(err, CC_ERR_NOMEM, "flip: out of memory");
    }
    f->w = w;
    f->h = h;
    *ctx = f;
    return CC_OK;
}
static size_t flip_n(const flip *f) { return (size_t)f->w * (size_t)f->h; }
static int flip_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    memcpy(((flip *)ctx)->cells, cells, flip_n(ctx));
    return CC_OK;
}
static int flip_step(void *ctx, int64_t k, cc_error *err) {
    (void)err;
    flip *f = ctx;
    if (k % 2)
        for (size_t i = 0; i < flip_n(f); i++) f->cells[i] ^= 1;
    return CC_OK;
}
static int flip_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    memcpy(cells, ((flip *)ctx)->cells, flip_n(ctx));
    return CC_OK;
}
static void flip_destroy(void *ctx) {
    flip *f = ctx;
    if (f) free(f->cells);
    free(f);
}

/* The faults, one call each. */
static int step_kill(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k, (void)err;
    raise(SIGBUS);
    return CC_OK;
}
static int step_exit(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k, (void)err;
    _exit(0);
}
static int step_hang(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k, (void)err;
    volatile int forever = 1;
    while (forever) pause();
    return CC_OK;
}
static int step_device(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k;
    return cc_fail(err, CC_ERR_DEVICE, "an illegal memory access was encountered");
}
static int load_scribble(void *ctx, const uint8_t *cells, cc_error *err) {
    ((uint8_t *)(uintptr_t)cells)[3] ^= 1;
    return flip_load(ctx, cells, err);
}
static int store_past(void *ctx, uint8_t *cells, cc_error *err) {
    flip_store(ctx, cells, err);
    cells[flip_n(ctx) + 7] = 0;
    return CC_OK;
}
static int store_before(void *ctx, uint8_t *cells, cc_error *err) {
    flip_store(ctx, cells, err);
    cells[-1] = 0;
    return CC_OK;
}
/* Says where its input lies instead of loading it: its address modulo 64 and a page, and its
 * end's modulo a page. */
static int load_where(void *ctx, const uint8_t *cells, cc_error *err) {
    const uintptr_t at = (uintptr_t)cells, page = (uintptr_t)sysconf(_SC_PAGESIZE);
    return cc_fail(err, CC_ERR_ARG, "input at %u mod 64, %u mod a page, ending at %u mod a page",
                   (unsigned)(at % 64), (unsigned)(at % page),
                   (unsigned)((at + flip_n(ctx)) % page));
}
static int store_half(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    memcpy(cells, ((flip *)ctx)->cells, flip_n(ctx) / 2);
    return CC_OK;
}
static int store_two(void *ctx, uint8_t *cells, cc_error *err) {
    flip_store(ctx, cells, err);
    cells[5] = 2;
    return CC_OK;
}
/* Where the hog keeps its memory: reachable, so no compiler drops it. */
static char *volatile hogged;

static int create_hog(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    size_t n = (size_t)96 << 20;
    char *p = malloc(n);
    if (p) memset(p, 1, n); /* resident, and never freed */
    hogged = p;
    return flip_create(rule, w, h, ctx, err);
}

/* Holds two bytes a cell (what an engine without an estimate is counted for), resident from
 * create on, as engines that fill their buffers in create do. */
typedef struct touch {
    flip base;
    char *held;
} touch;

static int create_touch(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    void *f = NULL;
    int rc = flip_create(rule, w, h, &f, err);
    if (rc) return rc;
    touch *t = realloc(f, sizeof *t);
    size_t n = 2 * (size_t)w * (size_t)h;
    if (!t || !(t->held = malloc(n))) {
        flip_destroy(t ? (void *)t : f);
        return cc_fail(err, CC_ERR_NOMEM, "touch: out of memory");
    }
    memset(t->held, 1, n);
    *ctx = t;
    return CC_OK;
}
static void touch_destroy(void *ctx) {
    if (ctx) free(((touch *)ctx)->held);
    flip_destroy(ctx);
}

/* A process-wide pool, as caching allocators keep: create takes two bytes a cell from it,
 * growing it to the largest size asked; destroy leaves it for the next context. */
static char *volatile pool;
static size_t pool_bytes;

static int create_pool(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    size_t n = 2 * (size_t)w * (size_t)h;
    if (pool_bytes < n) {
        free(pool);
        pool = malloc(n);
        pool_bytes = pool ? n : 0;
        if (!pool) return cc_fail(err, CC_ERR_NOMEM, "pool: out of memory");
    }
    memset(pool, 1, n);
    return flip_create(rule, w, h, ctx, err);
}

/* Two bytes a cell at every create, never freed: a leak that grows with the contexts. */
static int create_leak(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    size_t n = 2 * (size_t)w * (size_t)h;
    char *p = malloc(n);
    if (p) memset(p, 1, n);
    hogged = p;
    return flip_create(rule, w, h, ctx, err);
}

/* Memory the test cannot see, as a device's: every context keeps a unit the process never gives
 * back, and a create past three units runs out. A fresh process has all of them again. */
static int device_units_used;
static int create_device_leak(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                              cc_error *err) {
    if (device_units_used >= 3)
        return cc_fail(err, CC_ERR_NOMEM, "out of device memory (cudaMalloc of a unit)");
    device_units_used++;
    return flip_create(rule, w, h, ctx, err);
}

/* Out of memory at every create: the machine's limit, not the engine's. */
static int create_no_memory(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h, (void)ctx;
    return cc_fail(err, CC_ERR_NOMEM, "out of device memory (cudaMalloc of a unit)");
}

/* Refuses every case, naming the OpenMP team size its worker was given. */
static int create_threads(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    (void)rule, (void)w, (void)h, (void)ctx;
    const char *n = getenv("OMP_NUM_THREADS");
    return cc_fail(err, CC_ERR_UNSUPPORTED, "threads=%s;", n ? n : "unset");
}

#define ENGINE(name_, create_, load_, step_, store_)                                             \
    {.name = name_, .summary = "test engine", .caps = {.radius_max = 4}, .create = create_,    \
     .load = load_, .step = step_, .store = store_, .destroy = flip_destroy}

static const cc_engine engines[] = {
    ENGINE("t.flip", flip_create, flip_load, flip_step, flip_store),
    ENGINE("t.kill", flip_create, flip_load, step_kill, flip_store),
    ENGINE("t.exit", flip_create, flip_load, step_exit, flip_store),
    ENGINE("t.hang", flip_create, flip_load, step_hang, flip_store),
    ENGINE("t.device", flip_create, flip_load, step_device, flip_store),
    ENGINE("t.scribble", flip_create, load_scribble, flip_step, flip_store),
    ENGINE("t.past", flip_create, flip_load, flip_step, store_past),
    ENGINE("t.before", flip_create, flip_load, flip_step, store_before),
    ENGINE("t.half", flip_create, flip_load, flip_step, store_half),
    ENGINE("t.where", flip_create, load_where, flip_step, flip_store),
    ENGINE("t.two", flip_create, flip_load, flip_step, store_two),
    ENGINE("t.hog", create_hog, flip_load, flip_step, flip_store),
    ENGINE("t.threads", create_threads, flip_load, flip_step, flip_store),
    ENGINE("t.pool", create_pool, flip_load, flip_step, flip_store),
    ENGINE("t.leak", create_leak, flip_load, flip_step, flip_store),
    ENGINE("t.device-leak", create_device_leak, flip_load, flip_step, flip_store),
    ENGINE("t.no-memory", create_no_memory, flip_load, flip_step, flip_store),
    {.name = "t.touch", .summary = "test engine", .caps = {.radius_max = 4},
     .create = create_touch, .load = flip_load, .step = flip_step, .store = flip_store,
     .destroy = touch_destroy},
};
#define NENGINES (sizeof engines / sizeof engines[0])

enum { W = 37, H = 11 };

static const cc_rule life = {.shape = CC_SHAPE_MOORE, .radius = 1};

/* Creates, loads a pattern, steps k and stores into out; the first failing code. */
static int run(const cc_engine *e, int64_t k, uint8_t *out, cc_error *err) {
    uint8_t in[W * H];
    for (int i = 0; i < W * H; i++) in[i] = (uint8_t)(i % 3 == 0);
    cc_context *c;
    int rc = cc_call_create(e, &life, W, H, &c, err);
    if (rc) return rc;
    if (!(rc = cc_call_load(c, in, err)) && !(rc = cc_call_step(c, k, err)))
        rc = cc_call_store(c, out, err);
    cc_error destroy_err;
    int d = cc_call_destroy(c, &destroy_err);
    if (!rc && d) *err = destroy_err, rc = d;
    return rc;
}

static void expect(checks *t, cc_supervisor *sv, const char *name, int code, const char *words) {
    const cc_engine *e = cc_supervisor_find(sv, name);
    uint8_t out[W * H];
    cc_error err;
    cc_error_clear(&err);
    cc_supervisor_stats before, after;
    cc_supervisor_stats_get(sv, &before);
    int rc = e ? run(e, 3, out, &err) : -1;
    cc_supervisor_stats_get(sv, &after);
    CHECKF(t, rc == code && strstr(err.msg, words), "%s: code %d (%s), not %d with '%s'", name, rc,
           err.msg, code, words);
    if (cc_code_is_fault(code))
        CHECKF(t, after.faults == before.faults + 1, "%s: %llu faults counted, not one more", name,
               (unsigned long long)(after.faults - before.faults));
    /* Whatever happened, the next engine is served. */
    const cc_engine *ok = cc_supervisor_find(sv, "t.flip");
    CHECKF(t, run(ok, 1, out, &err) == CC_OK && out[0] == 0 && out[1] == 1,
           "after %s: t.flip was not served right: %s", name, err.msg);
}

/* As a copy of this program whose file is replaced after its first worker (a rebuild while a
 * certify runs): a later worker must still be this program, not what the file now holds.
 * Returns the exit status for the copy. */
static int replaced_run(const char *self) {
    cc_supervisor *sv;
    cc_error err;
    uint8_t out[W * H];
    if (cc_supervisor_open(NULL, 0, NULL, &sv, &err)) return 2;
    const cc_engine *flip_desc = cc_supervisor_find(sv, "t.flip");
    if (!flip_desc || run(flip_desc, 1, out, &err)) return 3;
    char other[4096];
    snprintf(other, sizeof other, "%s.other", self);
    FILE *f = fopen(other, "w");
    if (!f || fputs("#!/bin/sh\nexit 7\n", f) < 0 || fclose(f) || chmod(other, 0755) ||
        rename(other, self))
        return 4;
    cc_supervisor_restart(sv); /* the next call starts a fresh worker */
    int rc = run(flip_desc, 3, out, &err);
    if (rc) fprintf(stderr, "after the file was replaced: %s\n", err.msg);
    cc_supervisor_close(sv);
    return rc ? 5 : 0;
}

/* The exit status of a shell command (128 where it did not exit). */
static int exit_status(const char *cmd) {
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Copies this executable to dir and runs the copy as replaced_run; its exit status. */
static int replaced_copy(const char *dir) {
    char copy[1024], cmd[3400];
    snprintf(copy, sizeof copy, "%.900s/supervisor_test_copy", dir);
    snprintf(cmd, sizeof cmd, "cp /proc/%d/exe '%s' && SUPERVISOR_TEST_REPLACED='%s' '%s'",
             (int)getpid(), copy, copy, copy);
    return exit_status(cmd);
}

/* 1 when this process image was started with GOMP_SPINCOUNT=SV_SHORT_SPIN: /proc/self/environ
 * is the environment exec gave it, which a setenv without starting again does not change (and
 * libgomp reads its spin count only as the process starts). */
static int spin_started_with(void) {
    char env[1 << 16];
    FILE *f = fopen("/proc/self/environ", "rb");
    size_t n = f ? fread(env, 1, sizeof env - 1, f) : 0;
    if (f) fclose(f);
    env[n] = 0;
    for (size_t i = 0; i < n; i += strlen(env + i) + 1)
        if (!strcmp(env + i, "GOMP_SPINCOUNT=" SV_SHORT_SPIN)) return 1;
    return 0;
}

/* This program started with neither GOMP_SPINCOUNT nor OMP_WAIT_POLICY (as a test run may set
 * them): the hook must start it again with the short spin. Its exit status, 0 when it did. */
static int spin_unchosen(void) {
    char cmd[160];
    snprintf(cmd, sizeof cmd,
             "env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY SUPERVISOR_TEST_SPIN=1 /proc/%d/exe",
             (int)getpid());
    return exit_status(cmd);
}

/* The caller's buffers placed by the worker (buffers=): the engine gets the pointer asked for,
 * the cells and the guard bands travel both ways, and a breach names the placement. */
static void placed_buffers(checks *t, cc_supervisor *sv) {
    const cc_engine *flip_desc = cc_supervisor_find(sv, "t.flip");
    uint8_t out[W * H];
    cc_error err;
    for (int32_t b = 1; b <= CC_BUFFERS_GUARD; b++) {
        cc_supervisor_buffers(sv, b);
        int rc = run(flip_desc, 3, out, &err), same = 1;
        for (int i = 0; i < W * H; i++) same &= out[i] == (uint8_t)(i % 3 != 0);
        CHECKF(t, rc == CC_OK && same, "t.flip at buffers=%d: rc %d (%s)", (int)b, rc, err.msg);
    }
    cc_supervisor_buffers(sv, 7);
    expect(t, sv, "t.where", CC_ERR_ARG, "input at 7 mod 64, 2055 mod a page");
    expect(t, sv, "t.scribble", CC_ERR_CONTRACT, "wrote into load's input (buffers=7: 7 bytes");
    expect(t, sv, "t.past", CC_ERR_CONTRACT, "store (buffers=7: 7 bytes past a 64-byte boundary) "
                                             "wrote past the grid");
    expect(t, sv, "t.before", CC_ERR_CONTRACT, "wrote before the grid");
    expect(t, sv, "t.half", CC_ERR_CONTRACT, "left cell (18,5) unwritten");
    cc_supervisor_buffers(sv, 64);
    expect(t, sv, "t.where", CC_ERR_ARG, "input at 0 mod 64, 2112 mod a page");
    cc_supervisor_buffers(sv, CC_BUFFERS_GUARD);
    expect(t, sv, "t.where", CC_ERR_ARG, "ending at 0 mod a page");
    expect(t, sv, "t.past", CC_ERR_CRASHED, "in store (buffers=guard");
    expect(t, sv, "t.before", CC_ERR_CONTRACT, "wrote before the grid");
    cc_supervisor_buffers(sv, 0);
}

int main(int argc, char **argv) {
    const cc_engine *const tables[] = {&engines[0], &engines[1], &engines[2],  &engines[3],
                                       &engines[4], &engines[5], &engines[6],  &engines[7],
                                       &engines[8], &engines[9], &engines[10], &engines[11],
                                       &engines[12], &engines[13], &engines[14], &engines[15],
                                       &engines[16], &engines[17], NULL};
    _Static_assert(NENGINES == 18, "tables lists every engine");
    int status;
    if (cc_worker_hook(argc, argv, tables, &status)) return status;
    const char *replaced = getenv("SUPERVISOR_TEST_REPLACED");
    if (replaced) return replaced_run(replaced);
    if (getenv("SUPERVISOR_TEST_SPIN")) return spin_started_with() ? 0 : 6;
    checks t = {"supervisor_test", 0, 0};
    const char *tmp = getenv("TEST_TMPDIR");
    const int copy_status = replaced_copy(tmp ? tmp : "/tmp");
    CHECKF(&t, copy_status == 0,
           "a copy whose file was replaced after its first worker: exit %d (5: a later worker was "
           "not this program)",
           copy_status);
    /* A run that chose a wait policy keeps it: the hook set no spin count of its own. */
    const char *spin = getenv("GOMP_SPINCOUNT");
    if (getenv("OMP_WAIT_POLICY"))
        CHECKF(&t, !spin || strcmp(spin, SV_SHORT_SPIN), "GOMP_SPINCOUNT is %s though "
               "OMP_WAIT_POLICY was set", spin);
    const int spin_status = spin_unchosen();
    CHECKF(&t, spin_status == 0,
           "started with no spin count or wait policy: exit %d (6: the hook did not start it "
           "again with GOMP_SPINCOUNT=" SV_SHORT_SPIN ")",
           spin_status);
    cc_supervisor_options opt;
    cc_supervisor_options_init(&opt);
    opt.time_floor_s = 0.5;
    opt.grace_s = 0.2;
    opt.memory_margin = 64.0 * 1024 * 1024;
    cc_supervisor *sv;
    cc_error err;
    if (!CHECKF(&t, cc_supervisor_open(NULL, 0, &opt, &sv, &err) == CC_OK, "open: %s", err.msg))
        return check_summary(&t);

    /* Descriptions, from the worker: names and caps, and stubs in place of the functions. */
    const cc_engine *flip_desc = cc_supervisor_find(sv, "t.flip");
    CHECK(&t, flip_desc && flip_desc != &engines[0] && flip_desc->caps.radius_max == 4);
    CHECK(&t, cc_supervisor_of(flip_desc) == sv && cc_supervisor_of(&engines[0]) == NULL);
    void *raw = NULL;
    CHECK(&t, flip_desc->create(&life, W, H, &raw, &err) == CC_ERR_UNSUPPORTED && raw == NULL);
    cc_context *c = NULL;
    CHECK(&t, cc_call_create(&engines[0], &life, W, H, &c, &err) == CC_ERR_UNSUPPORTED && !c);

    /* The answer agrees with the engine run here by hand: three flips invert every cell. */
    uint8_t out[W * H];
    CHECKF(&t, run(flip_desc, 3, out, &err) == CC_OK, "t.flip: %s", err.msg);
    int same = 1;
    for (int i = 0; i < W * H; i++) same &= out[i] == (uint8_t)(i % 3 != 0);
    CHECK(&t, same);

    expect(&t, sv, "t.kill", CC_ERR_CRASHED, "crashed (BUS");
    expect(&t, sv, "t.exit", CC_ERR_EXITED, "exited with status 0 in step(3)");
    expect(&t, sv, "t.device", CC_ERR_DEVICE, "illegal memory access");
    expect(&t, sv, "t.scribble", CC_ERR_CONTRACT, "wrote into load's input: 1 cells changed, first (3,0)");
    expect(&t, sv, "t.past", CC_ERR_CONTRACT, "wrote past the grid: 1 of the 4096 bytes");
    expect(&t, sv, "t.before", CC_ERR_CONTRACT, "wrote before the grid");
    expect(&t, sv, "t.half", CC_ERR_CONTRACT, "left cell (18,5) unwritten");
    expect(&t, sv, "t.two", CC_ERR_CONTRACT, "wrote 2 into cell (5,0)");
    expect(&t, sv, "t.where", CC_ERR_ARG, "input at 0 mod 64, 0 mod a page");
    placed_buffers(&t, sv);
    /* 96 MiB a create against a margin of 64. */
    expect(&t, sv, "t.hog", CC_ERR_MEMORY_LIMIT, "out of memory");
    /* What create holds resident is counted when create returns, as while it ran: 128 MiB at
     * 8192x8192, within 1.5 x its generic estimate and past the margin alone. */
    const cc_engine *touch_desc = cc_supervisor_find(sv, "t.touch");
    c = NULL;
    int touch_rc = touch_desc ? cc_call_create(touch_desc, &life, 8192, 8192, &c, &err) : -1;
    CHECKF(&t, touch_rc == CC_OK, "t.touch: 2 bytes a cell in create: %s", err.msg);
    if (c) CHECKF(&t, cc_call_destroy(c, &err) == CC_OK, "t.touch: destroy: %s", err.msg);

    /* A pool that keeps its largest buffer (128 MiB, past the margin of 64) after destroy is
     * not a leak: the same size again and again, then a small one, all pass. */
    const cc_engine *pool_desc = cc_supervisor_find(sv, "t.pool");
    cc_supervisor_restart(sv);
    for (int i = 0; i < 4 && pool_desc; i++) {
        c = NULL;
        int prc = cc_call_create(pool_desc, &life, i < 3 ? 8192 : W, i < 3 ? 8192 : H, &c, &err);
        if (!prc) prc = cc_call_destroy(c, &err);
        CHECKF(&t, prc == CC_OK, "t.pool, context %d: %s", i + 1, err.msg);
    }
    cc_supervisor_stats kept;
    cc_supervisor_stats_get(sv, &kept);
    CHECKF(&t, kept.kept_bytes_max >= 120.0 * 1024 * 1024, "kept %.0f bytes with no context live",
           kept.kept_bytes_max);
    /* A leak of the same size a create is ended as a leak within four contexts. */
    const cc_engine *leak_desc = cc_supervisor_find(sv, "t.leak");
    cc_supervisor_restart(sv);
    int lrc = CC_OK, made = 0;
    for (; made < 6 && leak_desc && lrc == CC_OK; made++) {
        c = NULL;
        lrc = cc_call_create(leak_desc, &life, 8192, 8192, &c, &err);
        if (!lrc) lrc = cc_call_destroy(c, &err);
    }
    CHECKF(&t, lrc == CC_ERR_MEMORY_LIMIT && strstr(err.msg, "leaked") && made <= 4,
           "t.leak: %d contexts, rc %d: %s", made, lrc, err.msg);
    printf("supervisor_test: t.pool kept %.0f MiB and passed; t.leak ended after %d contexts: %s\n",
           kept.kept_bytes_max / 1048576.0, made, err.msg);

    /* Memory the worker's size does not show (a device's) that outlives its contexts: create runs
     * out in the worker that made them and succeeds in a fresh one, a leak; one that runs out
     * in a fresh worker too is the machine's limit, as before. */
    const cc_engine *dev_desc = cc_supervisor_find(sv, "t.device-leak");
    cc_supervisor_restart(sv);
    lrc = CC_OK;
    for (made = 0; made < 6 && dev_desc && lrc == CC_OK; made++) {
        c = NULL;
        lrc = cc_call_create(dev_desc, &life, W, H, &c, &err);
        if (!lrc) lrc = cc_call_destroy(c, &err);
    }
    CHECKF(&t, lrc == CC_ERR_MEMORY_LIMIT && made == 4 && strstr(err.msg, "leaked memory across cases") &&
               strstr(err.msg, "after 3 contexts") && strstr(err.msg, "succeeded in a fresh worker"),
           "t.device-leak: %d contexts, rc %d: %s", made, lrc, err.msg);
    printf("supervisor_test: t.device-leak ended after %d contexts: %s\n", made, err.msg);
    c = NULL;
    CHECKF(&t, dev_desc && cc_call_create(dev_desc, &life, W, H, &c, &err) == CC_OK,
           "t.device-leak: no fresh worker after the leak: %s", err.msg);
    if (c) cc_call_destroy(c, &err);
    const cc_engine *none_desc = cc_supervisor_find(sv, "t.no-memory");
    c = NULL;
    lrc = none_desc ? cc_call_create(none_desc, &life, W, H, &c, &err) : -1;
    CHECKF(&t, lrc == CC_ERR_NOMEM && !strstr(err.msg, "leaked"), "t.no-memory: rc %d: %s", lrc,
           err.msg);

    /* A hang ends within the limit and its grace, not later. */
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    expect(&t, sv, "t.hang", CC_ERR_TIMEOUT, "timed out in step(3)");
    clock_gettime(CLOCK_MONOTONIC, &b);
    double secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    CHECKF(&t, secs < 0.5 + 0.2 + 2.0, "the hang took %.2f s to end", secs);

    /* A step waited for: one still running at the wait is ended without a fault, its context
     * lost; one that answers in time is an ordinary step. */
    const cc_engine *hang_desc = cc_supervisor_find(sv, "t.hang");
    cc_supervisor_stats before, after;
    cc_supervisor_stats_get(sv, &before);
    int running = -1;
    c = NULL;
    clock_gettime(CLOCK_MONOTONIC, &a);
    CHECK(&t, hang_desc && cc_call_create(hang_desc, &life, W, H, &c, &err) == CC_OK &&
                  cc_call_load(c, (uint8_t[W * H]){0}, &err) == CC_OK &&
                  cc_call_step_within(c, 3, 0.2, &running, &err) == CC_OK && running == 1);
    clock_gettime(CLOCK_MONOTONIC, &b);
    secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    cc_supervisor_stats_get(sv, &after);
    CHECKF(&t, secs < 0.2 + 1.0 && after.faults == before.faults,
           "a waited step: %.2f s, faults %llu then %llu", secs,
           (unsigned long long)before.faults, (unsigned long long)after.faults);
    CHECK(&t, c && cc_call_store(c, (uint8_t[W * H]){0}, &err) != CC_OK &&
                  strstr(err.msg, "lost with its worker"));
    cc_call_destroy(c, &err);
    c = NULL;
    CHECK(&t, cc_call_create(flip_desc, &life, W, H, &c, &err) == CC_OK &&
                  cc_call_load(c, (uint8_t[W * H]){0}, &err) == CC_OK &&
                  cc_call_step_within(c, 3, 5.0, &running, &err) == CC_OK && running == 0);
    cc_call_destroy(c, &err);

    /* A context of a worker that ended is lost: its calls fail, its destroy only frees. */
    CHECK(&t, cc_call_create(flip_desc, &life, W, H, &c, &err) == CC_OK);
    cc_supervisor_restart(sv);
    CHECK(&t, cc_call_step(c, 1, &err) != CC_OK && strstr(err.msg, "lost with its worker"));
    CHECK(&t, cc_call_destroy(c, &err) == CC_OK);

    /* A worker's OpenMP team leaves this process a core on 4 cores or more, unless the
     * environment sizes it; a benchmark's takes every core. */
    cpu_set_t set;
    long cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    const char *given = getenv("OMP_NUM_THREADS");
    char want[64];
    for (int spare = 1; spare >= 0; spare--) {
        if (given) snprintf(want, sizeof want, "threads=%s;", given);
        else if (spare && cores >= 4) snprintf(want, sizeof want, "threads=%ld;", cores - 1);
        else snprintf(want, sizeof want, "threads=unset;");
        cc_supervisor_options o = cc_supervisor_get_options(sv);
        o.spare_core = spare;
        cc_supervisor_set_options(sv, &o);
        cc_supervisor_restart(sv);
        const cc_engine *threads = cc_supervisor_find(sv, "t.threads");
        int trc = threads ? cc_call_create(threads, &life, W, H, &c, &err) : -1;
        CHECKF(&t, trc == CC_ERR_UNSUPPORTED && strstr(err.msg, want),
               "spare core %d: the worker said '%s', not '%s'", spare, err.msg, want);
    }

    /* What one call costs (printed, not judged: a benchmark belongs elsewhere). */
    if (cc_call_create(flip_desc, &life, W, H, &c, &err) == CC_OK) {
        uint8_t in[W * H] = {0};
        cc_call_load(c, in, &err);
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (int i = 0; i < 2000; i++) cc_call_step(c, 0, &err);
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("supervisor_test: %.1f us a call (step(0), 2000 calls)\n",
               ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / 2000e3);
        cc_call_destroy(c, &err);
    }
    cc_supervisor_stats stats;
    cc_supervisor_stats_get(sv, &stats);
    printf("supervisor_test: %llu workers started, %llu calls, %llu faults\n",
           (unsigned long long)stats.workers_started, (unsigned long long)stats.calls,
           (unsigned long long)stats.faults);
    cc_supervisor_close(sv);
    return check_summary(&t);
}
