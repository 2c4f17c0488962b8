/* Shrinking a failing case: the smallest size, steps and radius that still fail the same way. */
#include <stdio.h>
#include <string.h>

#include "harness/shrink.h"

#include "harness/check.h"
#include "harness/check_in_place.h"
#include "fuzz/draw.h"
#include "harness/progress.h"

static int32_t axis_multiple(int32_t m) { return m > 1 ? m : 1; }

/* Candidate values below v, most aggressive first: floor, about half (twice, so that a failure
 * tied to odd or even values can halve too), v minus two multiples, v minus one. Returns how
 * many were written. */
#define SMALLER_MAX 5
static int smaller_values(int64_t v, int64_t floor_value, int64_t multiple,
                          int64_t out[SMALLER_MAX]) {
    int n = 0;
    int64_t half = (v / 2 + multiple - 1) / multiple * multiple;
    int64_t cands[SMALLER_MAX] = {floor_value, half, half + multiple, v - 2 * multiple,
                                  v - multiple};
    for (int i = 0; i < SMALLER_MAX; i++) {
        int64_t x = cands[i];
        if (x < floor_value || x >= v) continue;
        int dup = 0;
        for (int k = 0; k < n; k++) dup |= out[k] == x;
        if (!dup) out[n++] = x;
    }
    return n;
}

/* A count bound from 0..old_max to 0..new_max: the lower half measured from 0, the upper half
 * from the top, each kept on its own side of the new middle, so the map never reverses a range. */
static int32_t keep_end(int32_t v, int32_t old_max, int32_t new_max) {
    int32_t half = new_max / 2;
    if (2 * (int64_t)v <= old_max) return v < half ? v : half;
    int32_t top = new_max - (old_max - v);
    return top > half ? top : (half + 1 > new_max ? new_max : half + 1);
}

static void keep_ends(cc_set *set, int32_t old_max, int32_t new_max) {
    cc_set mapped;
    cc_set_clear(&mapped);
    for (int i = 0; i < set->n; i++)
        cc_set_add(&mapped, keep_end(set->r[i].lo, old_max, new_max),
                   keep_end(set->r[i].hi, old_max, new_max), NULL); /* merging never adds ranges */
    *set = mapped;
}

cc_rule cc_rule_at_radius(const cc_rule *rule, int32_t radius) {
    cc_rule s = *rule;
    int32_t old_max = cc_rule_max_count(rule);
    s.radius = radius;
    int32_t new_max = cc_rule_max_count(&s);
    keep_ends(&s.survive, old_max, new_max);
    keep_ends(&s.birth, old_max, new_max);
    return s;
}

static cc_case with_radius(const cc_case *c, int32_t r) {
    cc_case s = *c;
    s.rule = cc_rule_at_radius(&c->rule, r);
    return s;
}

static double case_cost(const cc_case *c) {
    return (double)c->w * (double)c->h * (double)cc_rule_max_count(&c->rule) *
           (double)(c->steps > 0 ? c->steps : 1);
}

int cc_case_shrink(const cc_engine *engine, const cc_case *c, cc_failure_kind kind,
                   cc_pattern pattern, int max_tries, double budget_s, cc_case *smallest,
                   int *tries, cc_error *err) {
    cc_case cur = *c;
    int used = 0;
    const double start = cc_now_seconds();
    const cc_engine_caps resolved = cc_engine_caps_resolved(engine);
    const cc_engine_caps *caps = &resolved;
    int32_t wm = axis_multiple(caps->w_multiple), hm = axis_multiple(caps->h_multiple);
    /* A square-only engine takes no case whose sides differ: its sides shrink together. */
    if (caps->square_only) wm = hm = wm > hm ? wm : hm;
    int improved = 1;
    while (improved && used < max_tries && cc_now_seconds() - start < budget_s) {
        improved = 0;
        cc_case cands[4 * SMALLER_MAX];
        int n = 0;
        int64_t vals[SMALLER_MAX];
        int k = smaller_values(cur.steps, kind == CC_FAILURE_MISMATCH ? 1 : 0, 1, vals);
        for (int i = 0; i < k; i++) {
            cands[n] = cur;
            cands[n++].steps = vals[i];
        }
        if (cur.rule.shape != CC_SHAPE_HEX) {
            /* The shape's own smallest radius (caps.shape_limits). */
            const int32_t shape_min = cc_engine_caps_for_shape(caps, cur.rule.shape).radius_min;
            int32_t rmin = shape_min > 1 ? shape_min : 1;
            k = smaller_values(cur.rule.radius, rmin, 1, vals);
            for (int i = 0; i < k; i++) cands[n++] = with_radius(&cur, (int32_t)vals[i]);
        }
        k = smaller_values(cur.w, fuzz_side_min(cur.rule.radius, wm), wm, vals);
        for (int i = 0; i < k; i++) {
            cands[n] = cur;
            cands[n].w = (int32_t)vals[i];
            if (caps->square_only) cands[n].h = cands[n].w;
            n++;
        }
        if (!caps->square_only) {
            k = smaller_values(cur.h, fuzz_side_min(cur.rule.radius, hm), hm, vals);
            for (int i = 0; i < k; i++) {
                cands[n] = cur;
                cands[n++].h = (int32_t)vals[i];
            }
        }
        /* The cheapest first: on a huge case, what a small one can show is shown in seconds. */
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0 && case_cost(&cands[j]) < case_cost(&cands[j - 1]); j--) {
                cc_case t = cands[j];
                cands[j] = cands[j - 1];
                cands[j - 1] = t;
            }
        for (int i = 0; i < n && used < max_tries; i++) {
            double elapsed = cc_now_seconds() - start;
            if (elapsed >= budget_s) break;
            cc_error skip;
            if (cc_engine_check(engine, &cands[i].rule, cands[i].w, cands[i].h, &skip)) continue;
            /* A case past the in-place bound is shrunk through cheaper cases only: one as large
             * again would cost what the failure did, and its verdict is out already. */
            if ((double)c->w * (double)c->h > CC_CHECK_IN_PLACE_CELLS &&
                (double)cands[i].w * (double)cands[i].h > CC_SHRINK_HUGE_CELLS_MAX)
                continue;
            used++;
            if (elapsed >= CC_SHRINK_QUIET_S)
                fprintf(stderr, "shrinking %s: try %d, %dx%d, %lld steps, r %d (%.0f s of %.0f)\n",
                        engine->name, used, (int)cands[i].w, (int)cands[i].h,
                        (long long)cands[i].steps, (int)cands[i].rule.radius, elapsed, budget_s);
            cc_check_result res;
            int rc = cc_case_check(engine, &cands[i], &res, err);
            if (rc) {
                *smallest = cur;
                *tries = used;
                return rc;
            }
            if (res.outcome == CC_OUTCOME_FAIL && res.kind == kind &&
                (kind != CC_FAILURE_CALL_PATTERN || res.pattern == pattern)) {
                cur = cands[i];
                improved = 1;
                break;
            }
        }
    }
    *smallest = cur;
    *tries = used;
    return CC_OK;
}
