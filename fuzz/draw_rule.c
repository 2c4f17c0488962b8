/* The rule of a case: its radius and its S and B sets. Ranges touch the edges of the counts
 * (0, the largest, just below it), single counts, everything, a Table VI-like band, or anything;
 * Life-like rules draw subsets as well. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <string.h>

#include "fuzz/draw_internal.h"

int32_t fuzz_draw_radius(param_stream *ps, int32_t rlo, int32_t rhi) {
    static const uint32_t weights[] = {10, 15, 15, 60};
    switch (pick(ps, weights, 4)) {
    case 0: return rlo;
    case 1: return rhi;
    case 2: return between(ps, rlo, rhi < rlo + 2 ? rhi : rlo + 2);
    default: return log_between(ps, rlo, rhi);
    }
}

/* One count range within 0 .. max: touching the largest count, ending just below it, touching
 * 0, a single count, everything, Table VI-like (a band around a third of the neighbourhood, as
 * Bosco's rule R5,C2,M1,S34..58,B34..45 is at 28%..48% and 28%..37%), or anything. */
void fuzz_draw_range(param_stream *ps, int32_t max, int survive, cc_set *set) {
    static const uint32_t weights[] = {16, 10, 10, 10, 4, 20, 30};
    int32_t lo, hi;
    switch (pick(ps, weights, 7)) {
    case 0:
        hi = max;
        lo = chance(ps, 40) ? max - between(ps, 0, 2) : between(ps, 0, max);
        break;
    case 1:
        hi = max - 1;
        lo = chance(ps, 40) ? hi - between(ps, 0, 2) : between(ps, 0, hi);
        break;
    case 2:
        lo = 0;
        hi = chance(ps, 40) ? between(ps, 0, 2) : between(ps, 0, max);
        break;
    case 3: lo = hi = between(ps, 0, max); break;
    case 4: lo = 0, hi = max; break;
    case 5: {
        double a = 0.28, b = survive ? 0.48 : 0.37;
        lo = (int32_t)floor(a * max + 0.5) + between(ps, -2, 2);
        hi = (int32_t)floor(b * max + 0.5) + between(ps, -2, 2);
        break;
    }
    default:
        lo = between(ps, 0, max);
        hi = between(ps, 0, max);
        if (lo > hi) {
            int32_t t = lo;
            lo = hi;
            hi = t;
        }
        break;
    }
    if (lo < 0) lo = 0;
    if (hi > max) hi = max;
    if (hi < 0) hi = 0;
    if (lo > hi) lo = hi;
    set_range(set, lo, hi);
}

/* A random subset of 0 .. max (Life-like notation), each count in with one probability. */
static void draw_subset(param_stream *ps, int32_t max, cc_set *set) {
    static const uint32_t percents[] = {15, 30, 50, 70};
    uint32_t p = percents[uniform(ps, 4)];
    cc_set_clear(set);
    for (int32_t k = 0; k <= max; k++)
        if (chance(ps, p)) cc_set_add(set, k, k, NULL); /* at most 5 ranges in 0..8 */
}

void fuzz_set_clamp(cc_set *set, int32_t max) {
    cc_set clamped;
    cc_set_clear(&clamped);
    for (int i = 0; i < set->n; i++) {
        int32_t lo = set->r[i].lo > max ? max : set->r[i].lo;
        int32_t hi = set->r[i].hi > max ? max : set->r[i].hi;
        cc_set_add(&clamped, lo, hi, NULL); /* merging never adds ranges */
    }
    *set = clamped;
}

void fuzz_draw_sets(param_stream *ps, cc_rule *rule, int32_t count_max) {
    int32_t max = cc_rule_max_count(rule);
    int life_like = rule->radius == 1 && rule->centre == 0 &&
                    (rule->shape == CC_SHAPE_MOORE || rule->shape == CC_SHAPE_HEX);
    if (life_like && chance(ps, 60)) {
        draw_subset(ps, max, &rule->survive);
        draw_subset(ps, max, &rule->birth);
    } else {
        fuzz_draw_range(ps, max, 1, &rule->survive);
        fuzz_draw_range(ps, max, 0, &rule->birth);
    }
    if (count_max > 0 && max > count_max) {
        /* Clamp into what the engine takes, so the case stays valid. */
        fuzz_set_clamp(&rule->survive, count_max);
        fuzz_set_clamp(&rule->birth, count_max);
    }
}
