/* The CAT engines' shared arithmetic: exactness bounds, rule parameters, buffer geometry. */
#include "engines/cuda/cat/cat_common.h"

#include <string.h>

#include "oracle/grid.h"

const char *cat_number_name(cat_number n) {
    switch (n) {
    case CAT_NUM_F16: return "FP16";
    case CAT_NUM_F32: return "FP32";
    case CAT_NUM_S8: return "INT8";
    case CAT_NUM_S32: return "INT32";
    }
    return "unknown";
}

int64_t cat_number_exact_max(cat_number n) {
    switch (n) {
    case CAT_NUM_F16: return (int64_t)1 << 11; /* 10 stored significand bits + the implicit one */
    case CAT_NUM_F32: return (int64_t)1 << 24;
    case CAT_NUM_S8: return 127;
    case CAT_NUM_S32: return 2147483647;
    }
    return 0;
}

void cat_mma_bounds(cc_shape shape, int32_t r, cat_bounds *out) {
    int64_t side = 2 * (int64_t)r + 1;
    if (shape == CC_SHAPE_CROSS) {
        out->operand_max = 1;        /* both passes multiply cells by band entries */
        out->accumulator_max = side; /* a row, or a column */
        out->raw_max = 2 * side;     /* row + column, added in INT32 */
    } else {
        out->operand_max = side; /* the vertical pass multiplies the band by H */
        out->accumulator_max = side * side;
        out->raw_max = side * side;
    }
}

static int exact_at(cc_shape shape, int32_t r, cat_number operand, cat_number accumulator) {
    cat_bounds b;
    cat_mma_bounds(shape, r, &b);
    return b.operand_max <= cat_number_exact_max(operand) &&
           b.accumulator_max <= cat_number_exact_max(accumulator);
}

int32_t cat_radius_exact_max(cc_shape shape, cat_number operand, cat_number accumulator) {
    int32_t best = 0;
    for (int32_t r = 1; r <= CC_RADIUS_MAX; r++)
        if (exact_at(shape, r, operand, accumulator))
            best = r;
        else
            break; /* the bounds grow with r */
    return best;
}

int cat_check_exact(const char *engine, cc_shape shape, int32_t r, cat_number operand,
                    cat_number accumulator, cc_error *err) {
    cat_bounds b;
    cat_mma_bounds(shape, r, &b);
    if (b.operand_max > cat_number_exact_max(operand))
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: at radius %d the MMAs multiply values up to %lld, but %s operands hold "
                       "integers exactly only up to %lld",
                       engine, (int)r, (long long)b.operand_max, cat_number_name(operand),
                       (long long)cat_number_exact_max(operand));
    if (b.accumulator_max > cat_number_exact_max(accumulator))
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: at radius %d the MMAs sum up to %lld (shape %s), but %s accumulators "
                       "hold integers exactly only up to %lld (radius %d at most)",
                       engine, (int)r, (long long)b.accumulator_max, cc_shape_code(shape),
                       cat_number_name(accumulator), (long long)cat_number_exact_max(accumulator),
                       (int)cat_radius_exact_max(shape, operand, accumulator));
    return CC_OK;
}

int32_t cat_halo_fragments(int32_t r, int32_t frag) { return (r + frag - 1) / frag; }

int cat_rule_params_build(const char *engine, const cc_rule *rule, cat_rule_params *out,
                          cc_error *err) {
    memset(out, 0, sizeof *out);
    if (rule->shape == CC_SHAPE_MOORE)
        out->self_weight = rule->centre ? 0 : 1;
    else if (rule->shape == CC_SHAPE_CROSS)
        out->self_weight = rule->centre ? 1 : 2;
    else
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: neighbourhood %s is not a band-matrix product (shapes: NM, N+)", engine,
                       cc_shape_code(rule->shape));
    const cc_set *sets[2] = {&rule->birth, &rule->survive};
    for (int s = 0; s < 2; s++) {
        if (sets[s]->n < 0 || sets[s]->n > CC_SET_MAX_RANGES)
            return cc_fail(err, CC_ERR_ARG, "%s: a set with %d ranges", engine, sets[s]->n);
        out->ranges[s] = sets[s]->n;
        for (int q = 0; q < sets[s]->n; q++) {
            out->lo[s][q] = sets[s]->r[q].lo;
            out->hi[s][q] = sets[s]->r[q].hi;
        }
    }
    out->ranges_max = out->ranges[0] > out->ranges[1] ? out->ranges[0] : out->ranges[1];
    return CC_OK;
}

int cat_rule_is_single(const cat_rule_params *p) { return p->ranges[0] <= 1 && p->ranges[1] <= 1; }

int cat_rule_single_build(const char *engine, const cat_rule_params *p, cat_rule_single *out,
                          cc_error *err) {
    memset(out, 0, sizeof *out);
    if (!cat_rule_is_single(p))
        return cc_fail(err, CC_ERR_ARG,
                       "%s: the single-range rule needs at most one range in B and in S, not %d "
                       "and %d",
                       engine, (int)p->ranges[0], (int)p->ranges[1]);
    for (int s = 0; s < 2; s++) {
        int32_t shift = s == 1 ? p->self_weight : 0; /* count = raw - self_weight when alive */
        if (p->ranges[s] == 0 || p->hi[s][0] < p->lo[s][0]) {
            out->base[s] = shift;
            out->span[s] = 0;
        } else {
            out->base[s] = p->lo[s][0] + shift;
            out->span[s] = p->hi[s][0] - p->lo[s][0] + 1;
        }
    }
    return CC_OK;
}

int cat_geometry_init(cat_geometry *g, int32_t w, int32_t h, int32_t frag, int32_t halo,
                      cc_error *err) {
    memset(g, 0, sizeof *g);
    if (w < 1 || h < 1 || w > CC_GRID_SIDE_MAX || h > CC_GRID_SIDE_MAX || frag < 1 || halo < 1)
        return cc_fail(err, CC_ERR_ARG, "cat: a %dx%d grid in fragments of %d, halo %d", (int)w,
                       (int)h, (int)frag, (int)halo);
    g->w = w;
    g->h = h;
    g->frag = frag;
    g->halo = halo;
    g->fw = ((int64_t)w + frag - 1) / frag;
    g->fh = ((int64_t)h + frag - 1) / frag;
    g->ew = g->fw + 2 * (int64_t)halo;
    g->eh = g->fh + 2 * (int64_t)halo;
    g->fwr = w / frag;
    g->fhr = h / frag;
    return CC_OK;
}

size_t cat_geometry_positions(const cat_geometry *g) {
    return (size_t)g->ew * (size_t)g->eh * (size_t)g->frag * (size_t)g->frag;
}

int64_t cat_geometry_border_fragments(const cat_geometry *g) {
    return g->ew * g->eh - g->fwr * g->fhr;
}
