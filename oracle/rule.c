/* The rule type's arithmetic: shapes, sizes and count sets. Text forms live in rule_text.c. */
#include "oracle/rule.h"

#include <stdlib.h>
#include <string.h>

int cc_shape_contains(cc_shape shape, int32_t r, int32_t dx, int32_t dy) {
    if (dx == 0 && dy == 0) return 0;
    if (r < 1 || dx < -r || dx > r || dy < -r || dy > r) return 0;
    int32_t ax = abs(dx), ay = abs(dy);
    switch (shape) {
    case CC_SHAPE_MOORE: return 1;
    case CC_SHAPE_VON_NEUMANN: return ax + ay <= r;
    case CC_SHAPE_CROSS: return ax == 0 || ay == 0;
    case CC_SHAPE_CIRCULAR: return (int64_t)dx * dx + (int64_t)dy * dy <= (int64_t)r * r + r;
    case CC_SHAPE_HEX:
        /* Golly's hexagonal neighbourhood with y growing downward: NE and SW are not neighbours. */
        return r == 1 && !(dx == 1 && dy == -1) && !(dx == -1 && dy == 1);
    }
    return 0;
}

int32_t cc_shape_size(cc_shape shape, int32_t r) {
    int32_t n = 0;
    for (int32_t dy = -r; dy <= r; dy++)
        for (int32_t dx = -r; dx <= r; dx++) n += cc_shape_contains(shape, r, dx, dy);
    return n;
}

int32_t cc_rule_max_count(const cc_rule *rule) {
    return cc_shape_size(rule->shape, rule->radius) + (rule->centre ? 1 : 0);
}

const char *cc_shape_code(cc_shape shape) {
    switch (shape) {
    case CC_SHAPE_MOORE: return "NM";
    case CC_SHAPE_VON_NEUMANN: return "NN";
    case CC_SHAPE_CROSS: return "N+";
    case CC_SHAPE_CIRCULAR: return "NC";
    case CC_SHAPE_HEX: return "NH";
    }
    return "N?";
}

int cc_set_has(const cc_set *set, int32_t count) {
    for (int i = 0; i < set->n; i++)
        if (count >= set->r[i].lo && count <= set->r[i].hi) return 1;
    return 0;
}

void cc_set_clear(cc_set *set) { memset(set, 0, sizeof *set); }

int cc_set_add(cc_set *set, int32_t lo, int32_t hi, cc_error *err) {
    if (lo > hi) return cc_fail(err, CC_ERR_ARG, "empty count range %d..%d", (int)lo, (int)hi);
    if (lo < 0) return cc_fail(err, CC_ERR_ARG, "negative count %d", (int)lo);
    cc_range merged[CC_SET_MAX_RANGES + 1];
    int n = 0, placed = 0;
    for (int i = 0; i < set->n; i++) {
        cc_range cur = set->r[i];
        if ((int64_t)cur.hi + 1 < lo) {
            merged[n++] = cur;
        } else if ((int64_t)hi + 1 < cur.lo) {
            if (!placed) merged[n++] = (cc_range){lo, hi}, placed = 1;
            merged[n++] = cur;
        } else {
            /* overlapping or adjacent: absorb into the new range */
            if (cur.lo < lo) lo = cur.lo;
            if (cur.hi > hi) hi = cur.hi;
        }
    }
    if (!placed) merged[n++] = (cc_range){lo, hi};
    if (n > CC_SET_MAX_RANGES)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "a count set needs more than %d ranges",
                       CC_SET_MAX_RANGES);
    set->n = n;
    memcpy(set->r, merged, sizeof(cc_range) * (size_t)n);
    return CC_OK;
}

void cc_set_hull(const cc_set *set, int32_t *lo, int32_t *hi) {
    *lo = set->n ? set->r[0].lo : 1;
    *hi = set->n ? set->r[set->n - 1].hi : 0;
}

int cc_set_equal(const cc_set *a, const cc_set *b) {
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (a->r[i].lo != b->r[i].lo || a->r[i].hi != b->r[i].hi) return 0;
    return 1;
}

static int check_set(const cc_set *set, const char *which, int32_t max, cc_error *err) {
    if (set->n < 0 || set->n > CC_SET_MAX_RANGES)
        return cc_fail(err, CC_ERR_ARG, "%s set has %d ranges (at most %d)", which, set->n,
                       CC_SET_MAX_RANGES);
    for (int i = 0; i < set->n; i++) {
        const cc_range *r = &set->r[i];
        if (r->lo < 0 || r->lo > r->hi)
            return cc_fail(err, CC_ERR_ARG, "%s range %d..%d is empty or negative", which,
                           (int)r->lo, (int)r->hi);
        if (r->hi > max)
            return cc_fail(err, CC_ERR_ARG,
                           "%s range %d..%d exceeds the largest possible count %d", which,
                           (int)r->lo, (int)r->hi, (int)max);
        if (i > 0 && (int64_t)set->r[i - 1].hi + 1 >= r->lo)
            return cc_fail(err, CC_ERR_ARG, "%s ranges are not sorted and disjoint", which);
    }
    return CC_OK;
}

int cc_rule_validate(const cc_rule *rule, cc_error *err) {
    if ((int)rule->shape < 0 || (int)rule->shape >= CC_SHAPE_COUNT)
        return cc_fail(err, CC_ERR_ARG, "unknown neighbourhood shape %d", (int)rule->shape);
    if (rule->radius < 1 || rule->radius > CC_RADIUS_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "radius %d is outside 1..%d", (int)rule->radius,
                       CC_RADIUS_MAX);
    if (rule->shape == CC_SHAPE_HEX && rule->radius != 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "the hexagonal neighbourhood has radius 1 only, not %d",
                       (int)rule->radius);
    if (rule->centre != 0 && rule->centre != 1)
        return cc_fail(err, CC_ERR_ARG, "centre must be M0 or M1, not M%d", rule->centre);
    if ((int)rule->topology < 0 || (int)rule->topology >= CC_TOPOLOGY_COUNT)
        return cc_fail(err, CC_ERR_ARG, "unknown topology %d", (int)rule->topology);
    int32_t max = cc_rule_max_count(rule);
    int rc = check_set(&rule->survive, "S", max, err);
    if (rc) return rc;
    return check_set(&rule->birth, "B", max, err);
}

int cc_rule_equal(const cc_rule *a, const cc_rule *b) {
    return a->shape == b->shape && a->radius == b->radius && a->centre == b->centre &&
           a->topology == b->topology && cc_set_equal(&a->survive, &b->survive) && cc_set_equal(&a->birth, &b->birth);
}

const char *cc_topology_name(cc_topology topology) {
    return topology == CC_TOPOLOGY_PLANE ? "bounded plane" : "torus";
}
