/* The host half of runsum_program.h: the exactness check, the geometry, the bands, the rule. */
#include "engines/cuda/runsum/runsum_program.h"

#include <string.h>

int runsum_check(const char *engine, cc_shape shape, int32_t r, cc_error *err) {
    if (shape != CC_SHAPE_MOORE && shape != CC_SHAPE_CROSS)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: neighbourhood %s has no running-sum form here (shapes: NM, N+)",
                       engine, cc_shape_code(shape));
    if (r < 1 || r > RUNSUM_RADIUS_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: radius %d is outside 1..%d (a word's window reaches one 32-bit word "
                       "either side)",
                       engine, (int)r, RUNSUM_RADIUS_MAX);
    const int cross = shape == CC_SHAPE_CROSS;
    const int32_t levels = runsum_levels(r), box = runsum_box_planes(levels),
                  state = runsum_state_planes(r, cross);
    const int64_t side = 2 * (int64_t)r + 1;
    /* the signed box difference and every doubling level: |value| <= 2r+1 in `box` planes */
    if (levels > RUNSUM_LEVELS_MAX || side > ((int64_t)1 << (box - 1)) - 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: a box sum of up to %lld does not fit %d signed planes", engine,
                       (long long)side, (int)box);
    /* the raw count the rule reads, unsigned in `state` planes, and its thresholds up to max + 1 */
    const int64_t raw_max = cross ? 2 * side : side * side;
    if (state > RUNSUM_PLANES_MAX || raw_max + 1 > ((int64_t)1 << state) - 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: a raw count of up to %lld does not fit %d planes", engine,
                       (long long)raw_max, (int)state);
    return CC_OK;
}

int runsum_geometry_init(runsum_geometry *g, const char *engine, cc_shape shape, int32_t w,
                         int32_t h, int32_t r, cc_error *err) {
    memset(g, 0, sizeof *g);
    int rc = runsum_check(engine, shape, r, err);
    if (rc) return rc;
    if (w < 2 * r + 1 || h < 2 * r + 1)
        return cc_fail(err, CC_ERR_ARG, "%s: a %dx%d torus is narrower than the window of r = %d",
                       engine, (int)w, (int)h, (int)r);
    g->w = w;
    g->h = h;
    g->r = r;
    g->cross = shape == CC_SHAPE_CROSS;
    g->levels = runsum_levels(r);
    g->state_planes = runsum_state_planes(r, g->cross);
    g->raw_max = g->cross ? 4 * r + 2 : (2 * r + 1) * (2 * r + 1);
    g->nw = ((int64_t)w + RUNSUM_WORD - 1) / RUNSUM_WORD;
    g->eww = g->nw + 2;
    g->strips = (g->nw + RUNSUM_STRIP_WORDS - 1) / RUNSUM_STRIP_WORDS;
    g->band_h = h;
    g->bands = 1;
    return CC_OK;
}

void runsum_geometry_bands(runsum_geometry *g, int multiprocessors, int warps_per_sm, int windows) {
    const int64_t target = (int64_t)(multiprocessors > 0 ? multiprocessors : 1) *
                           (warps_per_sm > 0 ? warps_per_sm : 1);
    const int64_t shortest = (windows > 0 ? windows : 1) * (2 * (int64_t)g->r + 1);
    int64_t band = (g->h * g->strips + target - 1) / target;
    if (band < shortest) band = shortest;
    if (band > g->h) band = g->h;
    g->band_h = band;
    g->bands = (g->h + band - 1) / band;
}

size_t runsum_geometry_words(const runsum_geometry *g) { return (size_t)g->eww * (size_t)g->h; }

/* t clamped to 0 .. max + 1: a count is never below 0 nor above max. */
static int32_t clamp_threshold(int64_t t, int32_t max) {
    return t < 0 ? 0 : t > (int64_t)max + 1 ? max + 1 : (int32_t)t;
}

int runsum_rule_build(const char *engine, const cc_rule *rule, const runsum_geometry *g,
                      runsum_rule *out, cc_error *err) {
    memset(out, 0, sizeof *out);
    cat_rule_params params;
    int rc = cat_rule_params_build(engine, rule, &params, err);
    if (rc) return rc;
    for (int which = 0; which < 2; which++) {
        /* alive: count = raw - self_weight, so raw in S + self_weight */
        const int64_t shift = which == 1 ? params.self_weight : 0;
        out->ranges[which] = params.ranges[which] > 0 ? params.ranges[which] : 1;
        out->lo[which][0] = out->hi1[which][0] = g->raw_max + 1; /* the empty range */
        for (int32_t q = 0; q < params.ranges[which]; q++) {
            out->lo[which][q] = clamp_threshold(params.lo[which][q] + shift, g->raw_max);
            out->hi1[which][q] = clamp_threshold((int64_t)params.hi[which][q] + 1 + shift, g->raw_max);
        }
    }
    /* The bias: the lowest lo of the non-empty ranges (0 where every range is empty). */
    out->bias = g->raw_max + 1;
    for (int which = 0; which < 2; which++)
        for (int32_t q = 0; q < out->ranges[which]; q++)
            if (out->lo[which][q] < out->hi1[which][q] && out->lo[which][q] < out->bias)
                out->bias = out->lo[which][q];
    if (out->bias > g->raw_max) out->bias = 0;
    runsum_threshold_masks(-out->bias, out->bias_masks);
    for (int which = 0; which < 2; which++)
        for (int32_t q = 0; q < out->ranges[which]; q++) {
            out->lo[which][q] -= out->bias;
            out->hi1[which][q] -= out->bias;
            runsum_threshold_masks(out->lo[which][q], out->lo_masks[which][q]);
            runsum_threshold_masks(out->hi1[which][q], out->hi1_masks[which][q]);
        }
    return CC_OK;
}
