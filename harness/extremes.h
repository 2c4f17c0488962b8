/* The extreme grids of the conformance checks (section "shapes"): thin, tall and wide grids past
 * 2^16 rows and columns, where 16-bit row and column indices wrap, and past 65535 launch blocks of
 * the stated tile in each direction, where a CUDA launch grid's y and z extents stop; each for
 * every shape the caps allow at that shape's smallest and largest radius (hex: r = 1), since an
 * engine's index arithmetic and buffers often differ by shape and grow with r. Cheap in cells,
 * dear in neighbours at a large radius: one step there, verified by light cones; a case past the
 * section's work bound is left out as a gap, never silently, and the largest radius within the
 * bound runs in its place.
 *
 * Also the hand-built cases' common parts (rules whose ranges touch the largest count, a case
 * from a salt of the master seed, a side fitted to an axis's limits), which the other sections of
 * harness/sections/ build on. */
#ifndef CELLCHECK_HARNESS_EXTREMES_H
#define CELLCHECK_HARNESS_EXTREMES_H

#include <stdint.h>

#include "engines/engine.h"
#include "oracle/case.h"

/* Rules of the hand-built cases, their ranges within the engine's count limit. */
typedef enum cc_edge_rule_kind {
    CC_EDGE_TOP,  /* survival at the very top count only, birth at the top two */
    CC_EDGE_B0,   /* birth at 0, survival below the top: all-dead turns all-alive and back */
    CC_EDGE_BAND  /* Table VI-like: a band around a third of the neighbourhood */
} cc_edge_rule_kind;

cc_rule cc_edge_rule(cc_shape shape, int32_t r, int centre, cc_edge_rule_kind kind,
                     int32_t count_max);

/* A case of rule on W x H, its seed derived from the master seed and salt (far from the
 * campaign's indices), a uniform grid of the density. */
cc_case cc_edge_case(const cc_rule *rule, int32_t w, int32_t h, int64_t steps, double density,
                     uint64_t salt, const uint8_t master[CC_SEED_BYTES]);

/* A side near want that an axis takes: rounded up to its multiple, within side_max (0: none), at
 * least min; 0 when none fits. */
int32_t cc_fit_side(int32_t want, int32_t min, int32_t multiple, int32_t side_max);

/* The most work one extreme case may cost, in cell-neighbour visits of the engine (W * H * the
 * largest count * steps): twice Moore at r = 16 on 65551 x 35 (2.5e9), so that every shape's case
 * at r = 16 runs, and Moore up to r = 20 (65551 x 43 x 41^2 = 4.7e9). A plain per-cell loop with
 * gathers takes about 8 s for it on two cores; cpu.ref, summing shifted rows, 0.13 s. Past it,
 * Moore at r = 64 on 65551 x 131 costs 1.43e11 (the per-cell loop: near 7 minutes; cpu.ref: about
 * 8 s): a gap, with the largest radius that fits in its place, unless timed (below). */
#define CC_EXTREMES_WORK_MAX 5e9
/* Past the work bound, the case runs where a probe of its rule on its thin side and a long side
 * of CC_EXTREMES_PROBE_SIDE cells says it takes at most CC_EXTREMES_SECONDS_MAX here (as the
 * case past 2^32 cells), where checks are judged by their time (--huge-grid auto, certify's
 * default); past that it is a gap of time. */
#define CC_EXTREMES_SECONDS_MAX 600.0
#define CC_EXTREMES_PROBE_SIDE 1024
/* A thin grid past this many cells is left out (the harness's grids, the engine's and the
 * light cones' windows stay within a few GiB). */
#define CC_EXTREMES_CELLS_MAX (1ll << 28)

typedef enum cc_extreme_kind {
    CC_EXTREME_CASE, /* c is to be checked */
    CC_EXTREME_GAP,  /* a grid the caps allow, left out for its cost: a gap of the section */
    CC_EXTREME_NOTE  /* nothing the caps allow (a side limit, square grids only): why, in words */
} cc_extreme_kind;

typedef struct cc_extreme {
    cc_extreme_kind kind;
    cc_case c;         /* CASE: fitted to the engine's caps for its shape, ports' limits included;
                        * GAP: the case left out */
    const char *label; /* CASE: "shapes (past 2^16 rows or columns)", "shapes (past 65535 tiles)" */
    double work;       /* CASE and GAP: the engine's cell-neighbour visits */
    char why[240];     /* GAP and NOTE */
} cc_extreme;

/* A gap left out for its work alone (within the cells bound): the conformance run may still run
 * it by time. */
int cc_extreme_over_work(const cc_extreme *e);

/* Grids (2 past 2^16, 2 past 65535 tiles) x shapes x two radii, and a radius in place of each
 * largest left out. */
#define CC_EXTREMES_MAX (4 * CC_SHAPE_COUNT * 3)

/* The section's plan for engine: each grid for every shape of its caps at the shape's smallest
 * and largest radius, within that shape's own limits (caps.shape_limits), cases in the order of
 * their work, cheapest first. one_shape: the first shape (Moore where the engine has it) at its
 * smallest radius only, as the section was before it crossed the shapes and radii. Fills out
 * (CC_EXTREMES_MAX entries) and returns how many. */
int cc_extremes_plan(const cc_engine *engine, int one_shape, const uint8_t master[CC_SEED_BYTES],
                     cc_extreme *out);

#endif
