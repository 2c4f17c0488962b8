/* The sliding driver on plain scalar kernels (the same contract as the vector ones), against the
 * oracle: every shape, radii up to 9, M0 and M1, the smallest torus, thin and odd sizes, several
 * thread counts. So the bands, the virtual dead rows, the diagonal ring and the halos are checked
 * on any machine, with or without AVX. Also: the rule rewrite, and CPUID against the kernel's
 * /proc/cpuinfo flags where there is one. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/cpu/sliding/sliding.h"
#include "testing/check.h"
#include "oracle/oracle.h"

static int in_ranges(uint16_t b, const sliding_ranges *s) {
    for (int i = 0; i < s->n; i++)
        if ((uint16_t)(b - s->lo[i]) <= s->span[i]) return 1;
    return 0;
}

static uint8_t next_state(uint16_t b, uint8_t alive, const sliding_rule *rule) {
    return (uint8_t)(alive ? in_ranges(b, &rule->survive) : in_ranges(b, &rule->birth));
}

static uint16_t box(const uint8_t *row, int32_t x, int32_t r) {
    uint16_t s = 0;
    for (int32_t d = -r; d <= r; d++) s = (uint16_t)(s + row[x + d]);
    return s;
}

static void moore_row(uint16_t *sums, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width) {
    for (int32_t x = 0; x < width; x++) {
        sums[x] = (uint16_t)(sums[x] + box(add, x, r) - (sub ? box(sub, x, r) : 0));
        if (centre) out[x] = next_state(sums[x], centre[x], rule);
    }
}

static void cross_row(uint8_t *cols, const uint8_t *add, const uint8_t *sub, int32_t r,
                      const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                      int32_t width) {
    for (int32_t x = 0; x < width; x++) {
        cols[x] = (uint8_t)(cols[x] + add[x] - (sub ? sub[x] : 0));
        if (centre)
            out[x] = next_state((uint16_t)(box(centre, x, r) + cols[x] - centre[x]), centre[x],
                                rule);
    }
}

static void diagonal_row(uint16_t *q1, const uint16_t *q1_above, uint16_t *q2,
                         const uint16_t *q2_above, const uint8_t *cells, int32_t width) {
    for (int32_t x = 0; x < width; x++) {
        q1[x] = (uint16_t)(cells[x] + q1_above[x - 1]);
        q2[x] = (uint16_t)(cells[x] + q2_above[x + 1]);
    }
}

static void diamond_row(uint16_t *d, const sliding_diamond_rows *q, int32_t r,
                        const uint8_t *centre, uint8_t *out, const sliding_rule *rule,
                        int32_t width) {
    for (int32_t x = 0; x < width; x++) {
        d[x] = (uint16_t)(d[x] + q->q1_low[x] + q->q1_top[x] - q->q1_mid[x - r - 1] -
                          q->q1_mid[x + r] + q->q2_low[x + 1] + q->q2_top[x + 1] -
                          q->q2_mid[x + r + 1] - q->q2_mid[x - r]);
        if (centre) out[x] = next_state(d[x], centre[x], rule);
    }
}

static const sliding_kernels scalar_kernels = {
    .moore_row = moore_row,
    .cross_row = cross_row,
    .diagonal_row = diagonal_row,
    .diamond_row = diamond_row,
};

static uint64_t lcg(uint64_t *state) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* A band rule of the shape's size: S and B a third to a half of the neighbourhood. */
static cc_rule band_rule(cc_shape shape, int32_t r, int centre) {
    cc_rule rule;
    memset(&rule, 0, sizeof rule);
    rule.shape = shape;
    rule.radius = r;
    rule.centre = centre;
    int32_t m = cc_rule_max_count(&rule);
    cc_set_add(&rule.survive, m / 4, m / 2, NULL);
    cc_set_add(&rule.birth, m / 4 + 1, m / 3 + 1, NULL);
    return rule;
}

static void check_against_oracle(checks *t, cc_shape shape, int32_t r, int centre, int32_t w,
                                 int32_t h, int threads, uint64_t seed) {
    cc_rule rule = band_rule(shape, r, centre);
    cc_grid g, want;
    cc_error err;
    if (cc_grid_alloc(&g, w, h, &err) || cc_grid_alloc(&want, w, h, &err)) {
        CHECK(t, !"grid allocation");
        return;
    }
    for (size_t i = 0; i < cc_grid_cells(&g); i++) g.cells[i] = (uint8_t)(lcg(&seed) % 3 == 0);
    memcpy(want.cells, g.cells, cc_grid_cells(&g));
    const int64_t steps = 4;
    CHECK_EQ(t, oracle_run(&rule, &want, steps, &err), CC_OK);

    omp_set_num_threads(threads);
    void *ctx = NULL;
    int rc = sliding_create("sliding.scalar", &scalar_kernels, &rule, w, h, &ctx, &err);
    if (CHECK_EQ(t, rc, CC_OK)) {
        CHECK_EQ(t, sliding_load(ctx, g.cells, &err), CC_OK);
        CHECK_EQ(t, sliding_step(ctx, steps, &err), CC_OK);
        CHECK_EQ(t, cpu_padded_grids_store(ctx, g.cells, &err), CC_OK);
        if (!CHECK(t, cc_grid_equal(&g, &want)))
            fprintf(stderr, "  %s r=%d M%d %dx%d, %d threads\n", cc_shape_code(shape), (int)r,
                    centre, (int)w, (int)h, threads);
        sliding_destroy(ctx);
    }
    cc_grid_free(&g);
    cc_grid_free(&want);
}

static void check_driver(checks *t) {
    static const cc_shape shapes[] = {CC_SHAPE_MOORE, CC_SHAPE_CROSS, CC_SHAPE_VON_NEUMANN};
    static const int32_t radii[] = {1, 2, 3, 5, 9};
    static const int thread_counts[] = {1, 3};
    uint64_t seed = 12345;
    for (size_t s = 0; s < 3; s++)
        for (size_t ri = 0; ri < sizeof radii / sizeof radii[0]; ri++)
            for (int centre = 0; centre < 2; centre++)
                for (size_t ti = 0; ti < 2; ti++) {
                    int32_t r = radii[ri], side = 2 * r + 1;
                    int threads = thread_counts[ti];
                    check_against_oracle(t, shapes[s], r, centre, side, side, threads, seed++);
                    check_against_oracle(t, shapes[s], r, centre, 67, side + 2, threads, seed++);
                    check_against_oracle(t, shapes[s], r, centre, side, 41, threads, seed++);
                    check_against_oracle(t, shapes[s], r, centre, 130, 29, threads, seed++);
                }
}

static void check_rule_rewrite(checks *t) {
    cc_rule rule;
    cc_error err;
    sliding_rule s;
    /* Life under M0: a live cell's b is its neighbours plus one, so S23 becomes b in 3..4. */
    CHECK_EQ(t, cc_rule_parse("B3/S23", &rule, &err), CC_OK);
    sliding_rule_from(&rule, &s);
    CHECK_EQ(t, s.birth.n, 1);
    CHECK_EQ(t, s.birth.lo[0], 3);
    CHECK_EQ(t, s.birth.span[0], 0);
    CHECK_EQ(t, s.survive.n, 1);
    CHECK_EQ(t, s.survive.lo[0], 3);
    CHECK_EQ(t, s.survive.span[0], 1);
    /* Under M1 the count already includes the cell: no shift. */
    CHECK_EQ(t, cc_rule_parse("R2,C2,M1,S7..12,B8..11,NM", &rule, &err), CC_OK);
    sliding_rule_from(&rule, &s);
    CHECK_EQ(t, s.survive.lo[0], 7);
    CHECK_EQ(t, s.survive.span[0], 5);
    CHECK_EQ(t, s.birth.lo[0], 8);
    CHECK_EQ(t, s.birth.span[0], 3);
}

/* Whether the flags line of /proc/cpuinfo names flag; -1 when there is no such file. */
static int cpuinfo_has(const char *flag) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return -1;
    char line[8192];
    int found = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0) continue;
        found = 0;
        size_t n = strlen(flag);
        for (char *p = strstr(line, flag); p; p = strstr(p + 1, flag))
            if (p[-1] == ' ' && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0')) found = 1;
        break;
    }
    fclose(f);
    return found;
}

static void check_cpu_features(checks *t) {
    cc_error err;
    int avx2 = cpuinfo_has("avx2");
    int avx512 = cpuinfo_has("avx512f") == 1 && cpuinfo_has("avx512bw") == 1;
    int rc2 = sliding_cpu_supports(CC_HW_AVX2, &err);
    if (rc2) CHECK(t, err.msg[0] != '\0');
    int rc512 = sliding_cpu_supports(CC_HW_AVX512, &err);
    if (rc512) CHECK(t, err.msg[0] != '\0');
    if (avx2 >= 0) {
        /* The kernel lists a feature only when the OS supports its state as well. */
        CHECK_EQ(t, rc2 == CC_OK, avx2);
        CHECK_EQ(t, rc512 == CC_OK, avx512);
    }
    CHECK(t, sliding_cpu_supports(CC_HW_GPU, &err) != CC_OK);
}

int main(void) {
    checks t = {"sliding_test", 0, 0};
    check_rule_rewrite(&t);
    check_driver(&t);
    check_cpu_features(&t);
    return check_summary(&t);
}
