/* Wrong engines with the bugs fast engines really have: they are right on small grids stepped
 * once, and wrong past a tile, on a second call, beside a second context, at large radius over
 * several steps, beside an empty word, past 2^24 cells, or only after earlier cases of the
 * process. Each is a plain per-cell loop with that one bug, written so the bug reads as it would
 * in a real engine. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz/mutants/engine_bugs.h"
#include "fuzz/mutants/row_runs.h"
#include "fuzz/mutants/slab_bugs.h"

typedef enum bug {
    BUG_PAST_TILE,     /* tiles of 256 columns; past the first, the west halo comes from the
                        * tile before the previous one */
    BUG_SPLIT_CALLS,   /* each step() call starts from the first buffer, wherever the last call
                        * left the grid */
    BUG_STATIC_RULE,   /* the rule lives in a static, set by the last create */
    BUG_LARGE_R_STEPS, /* r > 16, after the first step of a call: the rows past the bottom edge
                        * are clamped to the last row instead of wrapped */
    BUG_WORD_SKIP,     /* 64-cell words whose own cells and the words above and below are all
                        * dead are skipped as "nothing can be born there" */
    BUG_INDEX_WRAP,    /* the cell index is kept in 24 bits (as 32-bit offsets would wrap past
                        * 2^32 bytes on a GPU, at a size the CPU can emulate) */
    BUG_HISTORY,       /* after 40 contexts in the process, cell (0,0) is flipped every step */
    BUG_STORE_SCRATCH, /* steps recompute only rows whose neighbourhood changed since the last
                        * generation, and store uses that last generation's buffer as scratch:
                        * a step after a store sees nothing changed */
    BUG_LOAD_SKIP,     /* load skips rows equal to those of the grid it last loaded, although
                        * steps have changed them since */
    BUG_BLOCK_REMAINDER, /* steps in blocks of 16, then pairs: after a full block, an odd
                          * remainder is rounded down (k = 17, 19, 33, ... run one step short) */
    BUG_STEPS16,       /* the step count kept in 16 bits */
    BUG_STEPS32,       /* the step count kept in an int32_t: past 2^31 - 1 it wraps, and a
                        * negative count runs no step */
    BUG_ROW16,         /* the neighbour's row index kept in 16 bits: wrong past 65536 rows */
    BUG_TORUS_CORNER,  /* 32x32 tiles: on a grid of whole tiles, the last tile's halo corner
                        * across the torus corner is never loaded, so its last cell counts its
                        * diagonal neighbour (0,0) as dead */
    BUG_PLANE_WRAP,    /* states the bounded plane, and steps it as a torus: the wrap left in */
    BUG_THREAD_BAND,   /* OpenMP: each thread steps a band of h / T rows; a band of one row reads
                        * its row below from its own row (a window that assumes two), so it is
                        * wrong only where a team of T threads has h < 2T: never at 1 thread */
    BUG_FRESH_HEAP,    /* cells a pattern forces alive, from a mask malloc'd at create that was
                        * meant to be calloc'd: never written, read as all dead. Its 40 MiB are
                        * past glibc's largest mmap threshold, so a fresh mapping: zero, unless
                        * the heap is poisoned */
    BUG_VN_WIDE,       /* von Neumann past r = 4 on grids past 65536 columns: the diamond's
                        * column index kept in 16 bits, so a neighbour past column 65535 is read
                        * from 65536 columns to its left (as a port whose von Neumann path packs
                        * its row spans in 16-bit offsets). The two controls take the same loop
                        * and state the limit in their caps: NN up to r = 4, or NN on W up to
                        * 65536 */
    /* Right: the loop alone, and slow where the step counts' time estimate looks
     * (step_rate_test.c). */
    RIGHT,
    SLOW_CREATE,       /* create takes 0.2 s, as an engine that compiles its rule there */
    SLOW_STEPS,        /* 200 us a step, whatever the grid: 65535 steps take 13 s */
    SLOW_CELLS         /* past 2^20 cells, a step costs 1 s per 4 million cells: the case past
                        * 2^32 cells would take about 18 minutes */
} bug;

#define SLOW_CREATE_NS 200000000L
#define SLOW_STEP_NS 200000L
#define SLOW_CELLS_PER_S 4e6

#define TILE 256
#define CORNER_TILE 32
#define WORD 64
#define INDEX_BITS 24
#define HISTORY_CREATES 40
#define FRESH_HEAP_BYTES (40u << 20)

typedef struct offset {
    int32_t dx, dy;
} offset;

typedef struct bug_ctx {
    bug b;
    cc_rule rule;
    int32_t w, h;
    int32_t n_offsets;
    offset *offsets;
    uint8_t *buf[2];
    int cur; /* buf[cur] holds the grid */
    uint8_t *last; /* the last generation (store scratch) or the grid last loaded (load skip) */
    int last_valid;
    int flip_origin;
    uint8_t *forced; /* the fresh-heap mutant's mask, FRESH_HEAP_BYTES */
    row_runs runs;   /* the neighbourhood by rows, for the steps no bug touches */
} bug_ctx;

/* The deliberate global state of two of the mutants: exactly what the contract forbids. */
static cc_rule static_rule;
static int creates_in_process;

static void bug_destroy(void *p) {
    bug_ctx *ctx = p;
    if (!ctx) return;
    free(ctx->offsets);
    free(ctx->buf[0]);
    free(ctx->buf[1]);
    free(ctx->last);
    free(ctx->forced);
    row_runs_free(&ctx->runs);
    free(ctx);
}

/* v mod n; without a division where v is within one side of the grid, as nearly every
 * neighbour is (a division a neighbour made the loop slow on grids past 2^16 cells). */
static int32_t wrap(int32_t v, int32_t n) {
    if (v >= 0 && v < n) return v;
    if (v < 0 && v >= -n) return v + n;
    if (v >= n && v - n < n) return v - n;
    return ((v % n) + n) % n;
}

static int bug_create(bug b, const cc_rule *rule, int32_t w, int32_t h, void **out,
                      cc_error *err) {
    bug_ctx *ctx = calloc(1, sizeof *ctx);
    size_t side = (size_t)(2 * rule->radius + 1), n = (size_t)w * (size_t)h;
    if (ctx) {
        ctx->offsets = malloc(side * side * sizeof *ctx->offsets);
        ctx->buf[0] = malloc(n);
        ctx->buf[1] = malloc(n);
        ctx->last = malloc(n);
        if (b == BUG_FRESH_HEAP) ctx->forced = malloc(FRESH_HEAP_BYTES);
    }
    if (!ctx || !ctx->offsets || !ctx->buf[0] || !ctx->buf[1] || !ctx->last ||
        (b == BUG_FRESH_HEAP && !ctx->forced) ||
        row_runs_init(&ctx->runs, rule->shape, rule->radius, w, h) != CC_OK) {
        bug_destroy(ctx);
        return cc_fail(err, CC_ERR_NOMEM, "mutant: out of memory for %dx%d", (int)w, (int)h);
    }
    ctx->b = b;
    ctx->rule = *rule;
    ctx->w = w;
    ctx->h = h;
    int32_t r = rule->radius;
    for (int32_t dy = -r; dy <= r; dy++)
        for (int32_t dx = -r; dx <= r; dx++)
            if (cc_shape_contains(rule->shape, r, dx, dy))
                ctx->offsets[ctx->n_offsets++] = (offset){dx, dy};
    if (b == BUG_STATIC_RULE) static_rule = *rule;
    if (b == BUG_HISTORY) ctx->flip_origin = ++creates_in_process > HISTORY_CREATES;
    if (b == SLOW_CREATE) nanosleep(&(struct timespec){0, SLOW_CREATE_NS}, NULL);
    *out = ctx;
    return CC_OK;
}

static int bug_load(void *p, const uint8_t *cells, cc_error *err) {
    (void)err;
    bug_ctx *ctx = p;
    size_t w = (size_t)ctx->w, n = w * (size_t)ctx->h;
    if (ctx->b == BUG_LOAD_SKIP && ctx->last_valid) {
        /* Only the rows that differ from the last upload are sent. */
        for (size_t y = 0; y < (size_t)ctx->h; y++)
            if (memcmp(ctx->last + y * w, cells + y * w, w) != 0)
                memcpy(ctx->buf[ctx->cur] + y * w, cells + y * w, w);
        memcpy(ctx->last, cells, n);
        return CC_OK;
    }
    memcpy(ctx->buf[0], cells, n);
    ctx->cur = 0;
    if (ctx->b == BUG_LOAD_SKIP) memcpy(ctx->last, cells, n);
    ctx->last_valid = ctx->b == BUG_LOAD_SKIP;
    return CC_OK;
}

static int bug_store(void *p, uint8_t *cells, cc_error *err) {
    (void)err;
    bug_ctx *ctx = p;
    size_t n = (size_t)ctx->w * (size_t)ctx->h;
    if (ctx->b == BUG_STORE_SCRATCH) {
        /* Through the spare buffer, as a transfer to pinned memory would go. */
        memcpy(ctx->last, ctx->buf[ctx->cur], n);
        memcpy(cells, ctx->last, n);
        return CC_OK;
    }
    memcpy(cells, ctx->buf[ctx->cur], n);
    return CC_OK;
}

static int word_is_quiet(const bug_ctx *ctx, const uint8_t *in, int32_t x0, int32_t y) {
    int32_t x1 = x0 + WORD < ctx->w ? x0 + WORD : ctx->w;
    for (int32_t dy = -1; dy <= 1; dy++) {
        const uint8_t *row = in + (size_t)wrap(y + dy, ctx->h) * (size_t)ctx->w;
        for (int32_t x = x0; x < x1; x++)
            if (row[x]) return 0;
    }
    return 1;
}

static void one_step(bug_ctx *ctx, const uint8_t *in, uint8_t *out, int first_of_call) {
    const int32_t w = ctx->w, h = ctx->h, r = ctx->rule.radius;
    const cc_rule *rule = ctx->b == BUG_STATIC_RULE ? &static_rule : &ctx->rule;
    /* Where no bug can touch a neighbour's place in this step, the neighbourhood by rows gives
     * the count; where one can, the path below, as written. */
    const bug b = ctx->b;
    const int exact =
        (ctx->rule.topology == CC_TOPOLOGY_TORUS || b == BUG_PLANE_WRAP) &&
        !(b == BUG_PAST_TILE && w > TILE) && !(b == BUG_LARGE_R_STEPS && r > 16 && !first_of_call) &&
        !(b == BUG_ROW16 && h > 65536) &&
        !(b == BUG_INDEX_WRAP && (int64_t)w * h > (1ll << INDEX_BITS)) &&
        !(b == BUG_TORUS_CORNER && w % CORNER_TILE == 0 && h % CORNER_TILE == 0) &&
        !(b == BUG_VN_WIDE && rule->shape == CC_SHAPE_VON_NEUMANN && r > 4 && w > 65536);
    for (int32_t y = 0; y < h; y++) {
        if (exact) row_runs_at_row(&ctx->runs, in, y);
        if (ctx->b == BUG_STORE_SCRATCH && ctx->last_valid) {
            /* A row whose neighbourhood did not change since the last generation keeps its
             * cells. */
            int changed = 0;
            for (int32_t dy = -r; dy <= r && !changed; dy++) {
                size_t at = (size_t)wrap(y + dy, h) * (size_t)w;
                changed = memcmp(in + at, ctx->last + at, (size_t)w) != 0;
            }
            if (!changed) {
                memcpy(out + (size_t)y * (size_t)w, in + (size_t)y * (size_t)w, (size_t)w);
                continue;
            }
        }
        for (int32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            if (ctx->b == BUG_WORD_SKIP && x % WORD == 0 && word_is_quiet(ctx, in, x, y)) {
                int32_t end = x + WORD < w ? x + WORD : w;
                memset(out + i, 0, (size_t)(end - x));
                x = end - 1;
                continue;
            }
            int alive = in[i] != 0;
            int32_t count = rule->centre ? alive : 0;
            if (exact) count += row_runs_count(&ctx->runs, x, INT32_MAX);
            for (int32_t k = 0; !exact && k < ctx->n_offsets; k++) {
                int32_t nx = x + ctx->offsets[k].dx, ny = y + ctx->offsets[k].dy;
                if (ctx->b == BUG_PAST_TILE && x >= TILE && nx < x - x % TILE) nx -= TILE;
                if (ctx->b == BUG_LARGE_R_STEPS && r > 16 && !first_of_call && ny >= h) ny = h - 1;
                if (rule->topology == CC_TOPOLOGY_PLANE && ctx->b != BUG_PLANE_WRAP &&
                    (nx < 0 || ny < 0 || nx >= w || ny >= h))
                    continue; /* dead outside the plane */
                nx = wrap(nx, w);
                ny = wrap(ny, h);
                uint64_t row = ctx->b == BUG_ROW16 ? (uint16_t)ny : (uint64_t)ny;
                uint64_t at = row * (uint64_t)w + (uint64_t)nx;
                if (ctx->b == BUG_VN_WIDE && rule->shape == CC_SHAPE_VON_NEUMANN && r > 4 &&
                    w > 65536)
                    at = row * (uint64_t)w + (uint16_t)nx;
                if (ctx->b == BUG_INDEX_WRAP) at &= (1ull << INDEX_BITS) - 1;
                if (ctx->b == BUG_TORUS_CORNER && at == 0 && x == w - 1 && y == h - 1 &&
                    w % CORNER_TILE == 0 && h % CORNER_TILE == 0)
                    continue; /* the halo corner never loaded: read as dead */
                count += in[at] != 0;
            }
            out[i] = (uint8_t)cc_set_has(alive ? &rule->survive : &rule->birth, count);
            if (ctx->b == BUG_FRESH_HEAP && ctx->forced[i % FRESH_HEAP_BYTES]) out[i] = 1;
        }
    }
    if (ctx->flip_origin) out[0] ^= 1;
    if (ctx->b == BUG_STORE_SCRATCH) {
        memcpy(ctx->last, in, (size_t)w * (size_t)h);
        ctx->last_valid = 1;
    }
}

/* One generation of the thread-band mutant: bands of h / T rows, the last band the rest. */
static void thread_band_step(const bug_ctx *ctx, const uint8_t *in, uint8_t *out) {
    const int32_t w = ctx->w, h = ctx->h;
    const cc_rule *rule = &ctx->rule;
#pragma omp parallel
    {
        const int32_t teams = omp_get_num_threads(), me = omp_get_thread_num();
        const int32_t band = h / teams, y0 = me * band, y1 = me == teams - 1 ? h : y0 + band;
        for (int32_t y = y0; y < y1; y++)
            for (int32_t x = 0; x < w; x++) {
                size_t i = (size_t)y * (size_t)w + (size_t)x;
                int alive = in[i] != 0;
                int32_t count = rule->centre ? alive : 0;
                for (int32_t k = 0; k < ctx->n_offsets; k++) {
                    int32_t dy = ctx->offsets[k].dy;
                    /* The window below a one-row band is the band itself. */
                    if (y1 - y0 < 2 && dy > 0) dy = 0;
                    count += in[(size_t)wrap(y + dy, h) * (size_t)w +
                               (size_t)wrap(x + ctx->offsets[k].dx, w)] != 0;
                }
                out[i] = (uint8_t)cc_set_has(alive ? &rule->survive : &rule->birth, count);
            }
    }
}

static int bug_step(void *p, int64_t k, cc_error *err) {
    (void)err;
    bug_ctx *ctx = p;
    if (ctx->b == BUG_SPLIT_CALLS) ctx->cur = 0;
    if (ctx->b == BUG_STEPS16) k = (uint16_t)k;
    if (ctx->b == BUG_STEPS32) k = (int32_t)k < 0 ? 0 : (int32_t)k;
    if (ctx->b == BUG_BLOCK_REMAINDER && k > 16) {
        int64_t rest = k % 16;
        k -= rest % 2; /* the pairs after the blocks drop an odd step */
    }
    for (int64_t s = 0; s < k; s++) {
        if (ctx->b == SLOW_STEPS) nanosleep(&(struct timespec){0, SLOW_STEP_NS}, NULL);
        const double cells = (double)ctx->w * (double)ctx->h;
        if (ctx->b == SLOW_CELLS && cells >= 1048576.0) {
            double seconds = cells / SLOW_CELLS_PER_S;
            nanosleep(&(struct timespec){(time_t)seconds,
                                         (long)((seconds - (double)(time_t)seconds) * 1e9)},
                      NULL);
        }
        if (ctx->b == BUG_THREAD_BAND)
            thread_band_step(ctx, ctx->buf[ctx->cur], ctx->buf[!ctx->cur]);
        else
            one_step(ctx, ctx->buf[ctx->cur], ctx->buf[!ctx->cur], s == 0);
        ctx->cur = !ctx->cur;
    }
    return CC_OK;
}

/* Each engine's create: its bug. */
#define BUG_CREATE(fn, bug_value)                                                          \
    static int fn(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {  \
        return bug_create(bug_value, rule, w, h, ctx, err);                                \
    }

BUG_CREATE(past_tile_create, BUG_PAST_TILE)
BUG_CREATE(split_calls_create, BUG_SPLIT_CALLS)
BUG_CREATE(static_rule_create, BUG_STATIC_RULE)
BUG_CREATE(large_r_steps_create, BUG_LARGE_R_STEPS)
BUG_CREATE(word_skip_create, BUG_WORD_SKIP)
BUG_CREATE(index_wrap_create, BUG_INDEX_WRAP)
BUG_CREATE(history_create, BUG_HISTORY)
BUG_CREATE(store_scratch_create, BUG_STORE_SCRATCH)
BUG_CREATE(load_skip_create, BUG_LOAD_SKIP)
BUG_CREATE(block_remainder_create, BUG_BLOCK_REMAINDER)
BUG_CREATE(steps16_create, BUG_STEPS16)
BUG_CREATE(steps32_create, BUG_STEPS32)
BUG_CREATE(row16_create, BUG_ROW16)
BUG_CREATE(torus_corner_create, BUG_TORUS_CORNER)
BUG_CREATE(plane_wrap_create, BUG_PLANE_WRAP)
BUG_CREATE(thread_band_create, BUG_THREAD_BAND)
BUG_CREATE(fresh_heap_create, BUG_FRESH_HEAP)
BUG_CREATE(vn_wide_create, BUG_VN_WIDE)
BUG_CREATE(right_create, RIGHT)
BUG_CREATE(slow_create_create, SLOW_CREATE)
BUG_CREATE(slow_steps_create, SLOW_STEPS)
BUG_CREATE(slow_cells_create, SLOW_CELLS)

/* The square tiles of the torus-corner bug; the other blocks are rows of columns. */
#define BUG_TILE_H(tile) ((tile) == CORNER_TILE ? (tile) : 0)

/* Every bug engine takes any shape and centre up to its largest radius, states the block its bug
 * is tied to (0: none), and runs the per-cell loop with its own create. */
#define BUG_ENGINE(engine_name, engine_summary, radius, tile, create_fn)                           \
    {.name = engine_name, .summary = engine_summary,                                               \
     .caps = {.radius_max = (radius), .tile_w = (tile), .tile_h = BUG_TILE_H(tile)},               \
     .create = create_fn, .load = bug_load, .step = bug_step, .store = bug_store,                  \
     .destroy = bug_destroy}

static const cc_engine bug_engines[] = {
    BUG_ENGINE("mutant.past-tile",
               "256-column tiles; past the first, the west halo comes from two tiles back", 16,
               TILE, past_tile_create),
    BUG_ENGINE("mutant.split-calls", "every step() call starts from the first buffer", 16, 0,
               split_calls_create),
    BUG_ENGINE("mutant.static-rule", "the rule in a static, set by the last create", 16, 0,
               static_rule_create),
    BUG_ENGINE("mutant.large-r-steps",
               "r > 16: after a call's first step the bottom rows clamp instead of wrapping", 24, 0,
               large_r_steps_create),
    BUG_ENGINE("mutant.word-skip",
               "skips 64-cell words that are dead with the words above and below", 16, WORD,
               word_skip_create),
    BUG_ENGINE("mutant.index-wrap", "cell indices kept in 24 bits: wrong past 2^24 cells", 16, 0,
               index_wrap_create),
    BUG_ENGINE("mutant.history",
               "flips cell (0,0) every step once 40 contexts were created in the process", 16, 0,
               history_create),
    BUG_ENGINE("mutant.store-scratch",
               "recomputes changed rows only; store uses the last generation as scratch", 16, 0,
               store_scratch_create),
    BUG_ENGINE("mutant.load-skip", "load skips rows equal to the grid it last loaded", 16, 0,
               load_skip_create),
    BUG_ENGINE("mutant.block-remainder",
               "16-step blocks, then pairs: an odd remainder after a block runs one step short",
               16, 0, block_remainder_create),
    BUG_ENGINE("mutant.steps16", "the step count kept in 16 bits", 16, 0, steps16_create),
    BUG_ENGINE("mutant.steps32", "the step count kept in an int32_t (negative: no step)", 16, 0,
               steps32_create),
    BUG_ENGINE("mutant.row16", "the neighbour's row index kept in 16 bits", 16, 0,
               row16_create),
    BUG_ENGINE("mutant.torus-corner",
               "32x32 tiles: on whole tiles, the last cell misses its neighbour across the torus corner",
               16, CORNER_TILE, torus_corner_create),
    {.name = "mutant.plane-wrap",
     .summary = "states the bounded plane and steps it as a torus",
     .caps = {.radius_max = 16,
              .topologies = CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) | CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE)},
     .create = plane_wrap_create, .load = bug_load, .step = bug_step, .store = bug_store,
     .destroy = bug_destroy},
    BUG_ENGINE("mutant.thread-band",
               "OpenMP bands of h / T rows; a one-row band reads its row below from itself", 16,
               0, thread_band_create),
    BUG_ENGINE("mutant.fresh-heap",
               "reads a 40 MiB mask it malloc'd and never wrote as all dead", 16, 0,
               fresh_heap_create),
    BUG_ENGINE("mutant.vn-wide",
               "von Neumann past r = 4 on grids past 65536 columns: column index in 16 bits", 16,
               0, vn_wide_create),
    /* The same loop, its limit stated: each is right within its caps. */
    {.name = "control.vn-r4",
     .summary = "mutant.vn-wide's loop; its caps: von Neumann up to r = 4",
     .caps = {.radius_max = 16, .shape_limits[CC_SHAPE_VON_NEUMANN] = {.radius_max = 4}},
     .create = vn_wide_create, .load = bug_load, .step = bug_step, .store = bug_store,
     .destroy = bug_destroy},
    {.name = "control.vn-w65536",
     .summary = "mutant.vn-wide's loop; its caps: von Neumann on W up to 65536",
     .caps = {.radius_max = 16, .shape_limits[CC_SHAPE_VON_NEUMANN] = {.w_max = 65536}},
     .create = vn_wide_create, .load = bug_load, .step = bug_step, .store = bug_store,
     .destroy = bug_destroy},
    BUG_ENGINE("control.loop", "right: the per-cell loop alone", 16, 0, right_create),
    BUG_ENGINE("control.slow-create", "right; create takes 0.2 s", 16, 0, slow_create_create),
    BUG_ENGINE("control.slow-steps", "right; 200 us a step", 16, 0, slow_steps_create),
    BUG_ENGINE("control.slow-cells", "right; past 2^20 cells a step takes 1 s per 4 million cells",
               16, 0, slow_cells_create),
};

static const cc_engine *const engine_bugs[] = {
    &bug_engines[0], &bug_engines[1], &bug_engines[2], &bug_engines[3],
    &bug_engines[4], &bug_engines[5], &bug_engines[6], &bug_engines[7],
    &bug_engines[8], &bug_engines[9], &bug_engines[10], &bug_engines[11], &bug_engines[12],
    &bug_engines[13], &cc_slabs_control, &cc_mutant_slab_late, &cc_mutant_slab_neighbour,
    &cc_mutant_slab_round, &cc_mutant_slab_shallow, &bug_engines[14], &bug_engines[15],
    &bug_engines[16], &bug_engines[17], &bug_engines[18], &bug_engines[19], &bug_engines[20],
    &bug_engines[21], &bug_engines[22], &bug_engines[23], NULL};
/* Every bug engine listed above, none left out when one is added. */
_Static_assert(sizeof bug_engines / sizeof *bug_engines == 24,
               "engine_bugs lists bug_engines[0..23]: list a new one there too");

const cc_engine *const *cc_mutants_engine_bugs(void) { return engine_bugs; }
