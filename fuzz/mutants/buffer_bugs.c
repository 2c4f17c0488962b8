/* load and store 16 bytes at a time, two of them assuming more of the caller's buffer than the
 * contract gives (see buffer_bugs.h). Stepping is the control loop's (mutants.h). */
#include "fuzz/mutants/buffer_bugs.h"

#include <emmintrin.h>
#include <string.h>

#include "engines/cpu/common/byte_grids.h"
#include "fuzz/mutants/mutants.h"

/* The control loop's context begins with its byte grids (mutants.c). */
static size_t cells_of(const cpu_byte_grids *g) { return (size_t)g->w * (size_t)g->h; }

static int simd_create(const cc_rule *rule, int32_t w, int32_t h, void **ctx, cc_error *err) {
    return cc_mutant_control.create(rule, w, h, ctx, err);
}

static int simd_step(void *ctx, int64_t k, cc_error *err) {
    return cc_mutant_control.step(ctx, k, err);
}

static void simd_destroy(void *ctx) { cc_mutant_control.destroy(ctx); }

/* Whole chunks with unaligned loads and stores, then the tail byte by byte. */
static void copy_right(uint8_t *to, const uint8_t *from, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(void *)(to + i),
                         _mm_loadu_si128((const __m128i *)(const void *)(from + i)));
    memcpy(to + i, from + i, n - i);
}

static int right_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    cpu_byte_grids *g = ctx;
    copy_right(g->cur, cells, cells_of(g));
    return CC_OK;
}

static int right_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const cpu_byte_grids *g = ctx;
    copy_right(cells, g->cur, cells_of(g));
    return CC_OK;
}

/* The bug: the output taken to be 16-byte aligned, as a buffer from an aligned allocator is. */
static int aligned_store(void *ctx, uint8_t *cells, cc_error *err) {
    (void)err;
    const cpu_byte_grids *g = ctx;
    const size_t n = cells_of(g);
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_store_si128((__m128i *)(void *)(cells + i),
                        _mm_loadu_si128((const __m128i *)(const void *)(g->cur + i)));
    memcpy(cells + i, g->cur + i, n - i);
    return CC_OK;
}

/* The bug: every chunk read whole, the last one up to 15 bytes past the input; only the cells
 * are kept, so the over-read shows nowhere but where those bytes cannot be read. */
static int overread_load(void *ctx, const uint8_t *cells, cc_error *err) {
    (void)err;
    cpu_byte_grids *g = ctx;
    const size_t n = cells_of(g);
    for (size_t i = 0; i < n; i += 16) {
        uint8_t chunk[16];
        _mm_storeu_si128((__m128i *)(void *)chunk,
                         _mm_loadu_si128((const __m128i *)(const void *)(cells + i)));
        memcpy(g->cur + i, chunk, n - i < 16 ? n - i : 16);
    }
    return CC_OK;
}

#define SIMD_ENGINE(engine_name, engine_summary, load_fn, store_fn)                           \
    {.name = engine_name, .summary = engine_summary,                                          \
     .caps = {.shapes = CC_SHAPE_BIT(CC_SHAPE_MOORE), .radius_min = 1, .radius_max = 1,       \
              .centres = CC_CENTRE_M0},                                                       \
     .create = simd_create, .load = load_fn, .step = simd_step, .store = store_fn,            \
     .destroy = simd_destroy}

static const cc_engine buffer_engines[] = {
    SIMD_ENGINE("mutant.aligned-store",
                "Life-like, 16-byte copies; store's aligned stores fault on an output not "
                "16-byte aligned",
                right_load, aligned_store),
    SIMD_ENGINE("mutant.tail-overread",
                "Life-like, 16-byte copies; load reads up to 15 bytes past its input",
                overread_load, right_store),
    SIMD_ENGINE("control.simd-copy", "Life-like, unaligned 16-byte copies and a byte tail",
                right_load, right_store),
};

static const cc_engine *const engines[] = {&buffer_engines[0], &buffer_engines[1],
                                           &buffer_engines[2], NULL};

const cc_engine *const *cc_mutants_buffer_bugs(void) { return engines; }
