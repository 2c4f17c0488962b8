/* The grid of a case: its density (0, 1, near 0, near 1, or anything) and its kind. */
#define _POSIX_C_SOURCE 200809L
#include "fuzz/draw_internal.h"

double fuzz_draw_density(param_stream *ps) {
    static const uint32_t weights[] = {6, 6, 12, 12, 64};
    switch (pick(ps, weights, 5)) {
    case 0: return 0.0;
    case 1: return 1.0;
    case 2: return between(ps, 1, 500) / 10000.0;
    case 3: return (10000 - between(ps, 1, 500)) / 10000.0;
    default: return between(ps, 1, 9999) / 10000.0;
    }
}

/* 70% uniform soups, 6% each of the structured kinds. */
cc_grid_kind fuzz_draw_grid_kind(param_stream *ps) {
    static const uint32_t weights[CC_GRID_KIND_COUNT] = {70, 6, 6, 6, 6, 6};
    return (cc_grid_kind)pick(ps, weights, CC_GRID_KIND_COUNT);
}
