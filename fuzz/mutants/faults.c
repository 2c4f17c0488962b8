/* The CPU faults of faults.h, each mutant.control with one call replaced, and the control. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz/mutants/faults.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engines/cpu/common/byte_grids.h"
#include "engines/plugin.h"
#include "fuzz/mutants/mutants.h"

#define BASE (&cc_mutant_control)

/* A pointer the compiler cannot prove null, so the write is a real SIGSEGV, not a trap. */
static int *volatile nowhere;

static void crash(void) { *nowhere = 1; }

static int crash_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    crash();
    return BASE->create(rule, w, h, ctx, err);
}
static int crash_load(void *ctx, const uint8_t *cells, cc_error *err) {
    crash();
    return BASE->load(ctx, cells, err);
}
static int crash_step(void *ctx, int64_t k, cc_error *err) {
    crash();
    return BASE->step(ctx, k, err);
}
static int crash_store(void *ctx, uint8_t *cells, cc_error *err) {
    crash();
    return BASE->store(ctx, cells, err);
}
static void crash_destroy(void *ctx) {
    crash();
    BASE->destroy(ctx);
}

static int abort_step(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k, (void)err;
    abort();
}

static int double_free_step(void *ctx, int64_t k, cc_error *err) {
    void *volatile p = malloc(64);
    free(p);
    free(p);
    return BASE->step(ctx, k, err);
}

/* The grid's size: the control's context starts with its byte grids. */
static size_t cells_of(void *ctx) {
    const cpu_byte_grids *g = ctx;
    return (size_t)g->w * (size_t)g->h;
}

static int overrun(void *ctx, uint8_t *cells, size_t past, cc_error *err) {
    int rc = BASE->store(ctx, cells, err);
    memset(cells + cells_of(ctx), 1, past);
    return rc;
}
static int overrun1_store(void *ctx, uint8_t *cells, cc_error *err) {
    return overrun(ctx, cells, 1, err);
}
static int overrun64_store(void *ctx, uint8_t *cells, cc_error *err) {
    return overrun(ctx, cells, 64, err);
}

static int hang_step(void *ctx, int64_t k, cc_error *err) {
    volatile int forever = 1;
    while (forever) {
    }
    return BASE->step(ctx, k, err);
}

static int sleep_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    struct timespec hour = {3600, 0};
    while (nanosleep(&hour, &hour) != 0) {
    }
    return BASE->create(rule, w, h, ctx, err);
}

static int exit0_step(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k, (void)err;
    exit(0);
}
static int exit3_step(void *ctx, int64_t k, cc_error *err) {
    (void)ctx, (void)k, (void)err;
    exit(3);
}

#define LEAK_BYTES ((size_t)256 << 20)

/* Where the leaked blocks go: reachable, so no compiler drops them, and never freed. */
static void *volatile leaked[1024];
static size_t nleaked;

static int leak_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    void *kept = malloc(LEAK_BYTES);
    if (kept) memset(kept, 1, LEAK_BYTES); /* touched, so it is resident */
    if (nleaked < sizeof leaked / sizeof leaked[0]) leaked[nleaked++] = kept;
    return BASE->create(rule, w, h, ctx, err);
}

/* A process-wide pool, as caching allocators keep one: a scratch buffer of two bytes a cell of the
 * largest grid created so far, grown (never shrunk) by create and kept after destroy. Not a
 * fault: what it keeps does not grow with the contexts. */
static void *volatile pool;
static size_t pool_bytes;

static int pool_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    size_t want = 2 * (size_t)w * (size_t)h;
    if (want > pool_bytes) {
        free(pool);
        pool = malloc(want);
        pool_bytes = pool ? want : 0;
        if (!pool) return cc_fail(err, CC_ERR_NOMEM, "fault.none-pool: no pool of %zu bytes", want);
        memset(pool, 1, want); /* touched, so it is resident */
    }
    return BASE->create(rule, w, h, ctx, err);
}

/* It states what it holds: its two grids and the pool, two bytes a cell each. */
static void pool_memory(const cc_rule *rule, int32_t w, int32_t h, cc_memory *need) {
    (void)rule;
    need->host_bytes = 4.0 * (double)w * (double)h;
    need->device_bytes = 0.0;
}

static int write_input_load(void *ctx, const uint8_t *cells, cc_error *err) {
    uint8_t *input = (uint8_t *)(uintptr_t)cells;
    input[0] ^= 1;
    return BASE->load(ctx, cells, err);
}

/* The context created last, whoever asks: a cache keyed by nothing. */
static void *newest;

static int other_grid_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx,
                             cc_error *err) {
    int rc = BASE->create(rule, w, h, ctx, err);
    if (!rc) newest = *ctx;
    return rc;
}
static int other_grid_store(void *ctx, uint8_t *cells, cc_error *err) {
    if (!newest || newest == ctx || cells_of(newest) < cells_of(ctx))
        return BASE->store(ctx, cells, err);
    /* The newest context's cells, as many as this grid has. */
    const cpu_byte_grids *g = newest;
    memcpy(cells, g->cur, cells_of(ctx));
    return CC_OK;
}
static void other_grid_destroy(void *ctx) {
    if (ctx == newest) newest = NULL;
    BASE->destroy(ctx);
}

/* A store that reads the buffer it last wrote instead of the current one on every store after
 * the first since a step: each store on its own is right once, so only a second store in a row
 * shows it. The count lives beside the contexts, keyed by context (a slot per context). */
static struct {
    void *ctx;
    int stores;
} store_counts[64];

static int *stores_of(void *ctx) {
    for (size_t i = 0; i < 64; i++)
        if (store_counts[i].ctx == ctx) return &store_counts[i].stores;
    for (size_t i = 0; i < 64; i++)
        if (!store_counts[i].ctx) {
            store_counts[i].ctx = ctx;
            store_counts[i].stores = 0;
            return &store_counts[i].stores;
        }
    return &store_counts[0].stores;
}
static int twice_step(void *ctx, int64_t k, cc_error *err) {
    *stores_of(ctx) = 0;
    return BASE->step(ctx, k, err);
}
static int twice_store(void *ctx, uint8_t *cells, cc_error *err) {
    int *stores = stores_of(ctx);
    if ((*stores)++ == 0) return BASE->store(ctx, cells, err);
    const cpu_byte_grids *g = ctx;
    memcpy(cells, g->next, cells_of(ctx));
    return CC_OK;
}
static void twice_destroy(void *ctx) {
    for (size_t i = 0; i < 64; i++)
        if (store_counts[i].ctx == ctx) store_counts[i].ctx = NULL;
    BASE->destroy(ctx);
}

static int clock_step(void *ctx, int64_t k, cc_error *err) {
    int rc = BASE->step(ctx, k, err);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (!rc && k > 0 && (ts.tv_nsec / 1000) % 2) {
        cpu_byte_grids *g = ctx;
        g->cur[0] ^= 1;
    }
    return rc;
}

/* mutant.control's functions, for the calls a fault leaves alone. */
static int base_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return BASE->create(rule, w, h, ctx, err);
}
static int base_load(void *ctx, const uint8_t *cells, cc_error *err) {
    return BASE->load(ctx, cells, err);
}
static int base_step(void *ctx, int64_t k, cc_error *err) { return BASE->step(ctx, k, err); }
static int base_store(void *ctx, uint8_t *cells, cc_error *err) {
    return BASE->store(ctx, cells, err);
}
static void base_destroy(void *ctx) { BASE->destroy(ctx); }

#define FAULT(name_, summary_, create_, load_, step_, store_, destroy_)                        \
    {                                                                                           \
        .name = name_, .summary = summary_,                                                     \
        .caps = {.radius_max = 16, .centres = CC_CENTRE_M0 | CC_CENTRE_M1}, .create = create_, \
        .load = load_, .step = step_, .store = store_, .destroy = destroy_                      \
    }
#define C base_create
#define L base_load
#define S base_step
#define T base_store
#define D base_destroy

static const cc_engine faults[] = {
    FAULT("fault.none", "no fault: the control, which must pass", C, L, S, T, D),
    FAULT("fault.crash-create", "SIGSEGV in create", crash_create, L, S, T, D),
    FAULT("fault.crash-load", "SIGSEGV in load", C, crash_load, S, T, D),
    FAULT("fault.crash-step", "SIGSEGV in step", C, L, crash_step, T, D),
    FAULT("fault.crash-store", "SIGSEGV in store", C, L, S, crash_store, D),
    FAULT("fault.crash-destroy", "SIGSEGV in destroy", C, L, S, T, crash_destroy),
    FAULT("fault.abort", "abort() in step", C, L, abort_step, T, D),
    FAULT("fault.double-free", "frees a block twice in step", C, L, double_free_step, T, D),
    FAULT("fault.overrun-1", "store writes 1 byte past the grid", C, L, S, overrun1_store, D),
    FAULT("fault.overrun-64", "store writes 64 bytes past the grid", C, L, S, overrun64_store,
          D),
    FAULT("fault.hang-step", "step never returns", C, L, hang_step, T, D),
    FAULT("fault.sleep-create", "create sleeps an hour", sleep_create, L, S, T, D),
    FAULT("fault.exit0-step", "exit(0) in step", C, L, exit0_step, T, D),
    FAULT("fault.exit3-step", "exit(3) in step", C, L, exit3_step, T, D),
    FAULT("fault.leak", "keeps 256 MiB of every create", leak_create, L, S, T, D),
    FAULT("fault.write-input", "flips a cell of load's input, then loads it", C,
          write_input_load, S, T, D),
    FAULT("fault.other-grid", "store returns the grid of the context created last",
          other_grid_create, L, S, other_grid_store, other_grid_destroy),
    FAULT("fault.clock", "flips a cell when the clock's microseconds are odd", C, L, clock_step,
          T, D),
    {.name = "fault.none-pool",
     .summary = "no fault: keeps a pool of the largest grid's size after destroy",
     .caps = {.radius_max = 16, .centres = CC_CENTRE_M0 | CC_CENTRE_M1},
     .memory = pool_memory, .create = pool_create, .load = L, .step = S, .store = T,
     .destroy = D},
    FAULT("fault.store-twice", "a second store in a row gives the generation before", C, L,
          twice_step, twice_store, twice_destroy),
};

#define FAULT_COUNT (sizeof faults / sizeof faults[0])

static const cc_engine *const fault_list[FAULT_COUNT + 1] = {
    &faults[0],  &faults[1],  &faults[2],  &faults[3],  &faults[4],  &faults[5],
    &faults[6],  &faults[7],  &faults[8],  &faults[9],  &faults[10], &faults[11],
    &faults[12], &faults[13], &faults[14], &faults[15], &faults[16], &faults[17],
    &faults[18], &faults[19], NULL};

_Static_assert(FAULT_COUNT == 20, "fault_list names every fault");

const cc_engine *const *cc_faults_all(void) { return fault_list; }

#ifdef FAULTS_PLUGIN
CC_PLUGIN(fault_list)
#endif
