/* Every engine's conformance test: edge cases where engines break (the largest counts of every
 * shape at its largest radius, all-dead and all-alive grids, the smallest size 2r+1, prime
 * non-square sizes), thin, tall and wide grids (extremes.h),
 * the zero-step load/store round trip, the refusal of every parameter outside the engine's caps,
 * then a seeded campaign against the oracle. Sharded through Bazel's protocol. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "harness/harness.h"
#include "supervise/supervisor.h"
#include "harness/lightcone.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/campaign.h"
#include "harness/extremes.h"
#include "harness/limits.h"
#include "harness/progress.h"
#include "harness/sequence.h"
#include "harness/step_counts.h"
#include "oracle/gridio.h"

/* Under Bazel, a test skipped for absent hardware says so in its own test.xml (Bazel would
 * record it as run and passed): one test case with <skipped/>. Best effort: without the file
 * Bazel writes its own, and the SKIPPED line still tells. */
static void write_skipped_xml(const char *engine, const char *reason) {
    const char *path = getenv("XML_OUTPUT_FILE");
    if (!path || !path[0]) return;
    const char *target = getenv("TEST_TARGET");
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    if (!f) return;
    const char *texts[3] = {target && target[0] ? target : engine, engine, reason};
    char escaped[3][1024];
    for (int i = 0; i < 3; i++) {
        size_t o = 0;
        for (const char *c = texts[i]; *c && o + 7 < sizeof escaped[i]; c++) {
            const char *rep = *c == '&' ? "&amp;" : *c == '<' ? "&lt;" : *c == '>' ? "&gt;"
                            : *c == '"' ? "&quot;" : NULL;
            if (rep) o += (size_t)snprintf(escaped[i] + o, sizeof escaped[i] - o, "%s", rep);
            else escaped[i][o++] = (unsigned char)*c < 0x20 ? '?' : *c;
        }
        escaped[i][o] = '\0';
    }
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
            "  <testsuite name=\"%s\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n"
            "    <testcase name=\"%s\" status=\"notrun\">\n"
            "      <skipped message=\"%s: %s\"/>\n    </testcase>\n  </testsuite>\n"
            "</testsuites>\n",
            escaped[0], escaped[0], escaped[1], escaped[2]);
    if (fclose(f) == 0) {
        cc_error err;
        if (cc_write_file_atomic(path, xml, len, &err))
            printf("note: %s: the skipped test's XML was not written: %s\n", engine, err.msg);
    }
    free(xml);
}

int cc_harness_skip(const cc_engine *engine, int *status) {
    cc_error err;
    cc_error_clear(&err);
    if (!cc_supervisor_of(engine)) {
        /* An engine's own table would be refused by every call: never a skip. */
        printf("FAILED: %s: not run by a supervisor (pass the description cc_supervised gives)\n",
               engine->name);
        *status = 1;
        return 1;
    }
    if (cc_call_available(engine, &err) == CC_OK) {
        *status = 0;
        return 0;
    }
    const char *reason = err.msg[0] ? err.msg : cc_code_name(err.code);
    if (cc_hardware_required(engine->hardware)) {
        printf("FAILED: %s: required hardware absent: %s\n", engine->name, reason);
        *status = 1;
    } else {
        write_skipped_xml(engine->name, reason);
        printf("SKIPPED: %s: %s\n", engine->name, reason);
        *status = 0;
    }
    fflush(stdout);
    return 1;
}

/* ---- Tally ------------------------------------------------------------------------------ */

typedef struct tally {
    const cc_engine *engine;
    const cc_campaign_options *opt;
    uint64_t ordinal;  /* numbering of sharded checks: check j runs in shard j % count */
    int64_t first_ordinal; /* the first failure's check, in that numbering */
    int edge_passed, edge_refused, round_trips, refusals, failed, scale_passed, huge_passed;
    int sequences; /* call sequences that passed */
    int timing_passed; /* checks of the GPU timing section that passed */
    int shapes_passed; /* thin, tall and wide grids past 2^16 and 65535 tiles, every shape */
    int seams_passed;  /* grids of the seam alignments that passed */
    int plane_passed;  /* cases on the bounded plane that passed */
    int counts_passed, counts_blind; /* step counts that passed; that no case could tell apart */
    int64_t counts_max;              /* the largest step count checked */
    double step_seconds;             /* the last check's one call of step(k), timed */
    int over_cells; /* cases left out: over the engine's cells_max */
    char huge_note[200];
    cc_gap_list gaps; /* checks left out, by section and reason */
    uint64_t lightcone_cells; /* cells verified by light cones */
    uint32_t seam_classes;    /* CC_SEAM_* they covered */
    int reported;      /* a full report was printed already */
    int infra_error;
    cc_failure_kind first_kind;
    char first_failure[640];
    cc_check_section section;       /* the section running */
    cc_check_section first_section; /* the first failure's */
    char first_case[CC_CASE_TEXT_MAX];
    char first_calls[CC_SEQUENCE_TEXT_MAX];
    cc_section_tally sections[CC_CHECK_SECTION_COUNT];
    int stopped;       /* a fault ended the checks: each further case would only repeat it, at
                        * the cost of a fresh worker or a whole time limit */
    int32_t devices;   /* an engine over several devices: how many it spreads a grid over (its
                        * devices()); 0: an engine of one device */
} tally;


/* Counts a failure in the running section and keeps the first: its class, its label ("edge case
 * (largest counts)") and detail, its case and its calls (either may be NULL). */
static void note_failure(tally *t, cc_failure_kind kind, const char *label, const char *detail,
                         const cc_case *c, const char *calls) {
    t->sections[t->section].failed++;
    if (t->failed++ > 0) return;
    t->first_ordinal = (int64_t)t->ordinal - 1; /* mine() counted the failing check */
    t->first_kind = kind;
    t->first_section = t->section;
    snprintf(t->first_failure, sizeof t->first_failure, "%.120s: %.500s", label, detail);
    t->first_case[0] = t->first_calls[0] = '\0';
    if (c && case_format(c, t->first_case, sizeof t->first_case, NULL)) t->first_case[0] = '\0';
    if (calls) snprintf(t->first_calls, sizeof t->first_calls, "%s", calls);
}

static int mine(tally *t) {
    uint64_t j = t->ordinal++;
    return j % t->opt->shard_count == t->opt->shard_index;
}

static void report_failure(tally *t, const char *section, const cc_case *c,
                           const cc_check_result *res) {
    note_failure(t, res->kind, section, res->detail, c, NULL);
    /* Faults end an engine's checks: what follows would repeat them at their cost. */
    if (cc_failure_kind_is_fault(res->kind)) t->stopped = 1;
    if (t->reported) {
        cc_failure_print_short(stdout, t->opt->reproduce, t->engine->name, section, c, res);
        return;
    }
    t->reported = 1;
    printf("FAILED in %s:\n", section);
    /* The verdict first: the analysis steps and shrinks the case again. */
    cc_failure_print_short(stdout, t->opt->reproduce, t->engine->name, section, c, res);
    printf("  analysing it: the full report follows\n");
    fflush(stdout);
    cc_failure_report rep;
    cc_error err;
    if (cc_failure_analyse(t->engine, c, res, t->opt, -1, &rep, &err)) {
        printf("analysis failed: %s\n", err.msg);
        cc_failure_print_short(stdout, t->opt->reproduce, t->engine->name, section, c, res);
        return;
    }
    cc_failure_report_print(&rep, stdout);
}

/* Checks one case, fitted first to the limits of a port (square only, intervals, B0, cells);
 * counts its verdict. check: NULL for the defaults. */
static void check_case_with(tally *t, const char *section, const cc_case *given,
                            const cc_check_options *check, int *passed) {
    const cc_engine_caps caps = cc_engine_caps_resolved(t->engine);
    cc_case fitted = *given;
    const cc_case *c = &fitted;
    if (!fuzz_fit_port_caps(&caps, 0, &fitted)) {
        t->over_cells++;
        return;
    }
    cc_case_label(t->engine, section, c);
    cc_check_result res;
    cc_error err;
    if (cc_case_check_with(t->engine, c, check, &res, &err)) {
        char line[CC_CASE_TEXT_MAX];
        case_format(c, line, sizeof line, NULL);
        printf("ERROR: %s: %s: cannot check %s: %s\n", t->engine->name, section, line, err.msg);
        t->infra_error++;
        return;
    }
    if (res.outcome == CC_OUTCOME_FAIL) {
        report_failure(t, section, c, &res);
    } else if (res.outcome == CC_OUTCOME_REFUSED) {
        /* Edge cases are built within the caps: a refusal here is a harness bug. */
        t->edge_refused++;
        printf("ERROR: %s: %s: an edge case outside the caps: %s\n", t->engine->name, section,
               res.detail);
    } else {
        (*passed)++;
        t->step_seconds = res.step_seconds;
        t->sections[t->section].passed++;
        cc_coverage_add(&t->sections[t->section].cov, &c->rule, c->w, c->h, c->steps, c->threads);
        if (res.lightcone) {
            t->lightcone_cells += res.verified;
            t->seam_classes |= res.seam_classes;
        }
    }
}

static void check_case(tally *t, const char *section, const cc_case *given, int *passed) {
    check_case_with(t, section, given, NULL, passed);
}

/* Checks one case when it belongs to this shard. */
static void check(tally *t, const char *section, const cc_case *c, int *passed) {
    if (mine(t) && !t->stopped) check_case(t, section, c, passed);
}

/* ---- Building cases --------------------------------------------------------------------- */

static int32_t round_up(int32_t v, int32_t m) { return m > 1 ? (v + m - 1) / m * m : v; }

/* The smallest side the engine takes at radius r, or 0 when the side limit rules r out. */
static int32_t smallest_side(int32_t r, int32_t multiple, int32_t side_max) {
    int32_t s = round_up(2 * r + 1, multiple);
    return side_max > 0 && s > side_max ? 0 : s;
}

static void set_one(cc_set *set, int32_t lo, int32_t hi) {
    cc_set_clear(set);
    set->n = 1;
    set->r[0].lo = lo;
    set->r[0].hi = hi;
}

/* The shape the hand-built sections use: Moore where the engine does it (the widest, and bit 0),
 * else the first it does. */
static cc_shape first_shape(const cc_engine_caps *caps) {
    for (int s = 0; s < CC_SHAPE_COUNT; s++)
        if (caps->shapes & CC_SHAPE_BIT(s)) return (cc_shape)s;
    return CC_SHAPE_MOORE;
}

/* Above this one-step oracle cost (cell-neighbour visits) an edge case is left out, with a
 * note: about 35 s of oracle time. */
#define EDGE_STEP_COST_MAX 1e10

static int affordable(const cc_case *c) {
    double side = 2.0 * c->rule.radius + 1;
    return (double)c->w * c->h * side * side <= EDGE_STEP_COST_MAX;
}

/* affordable(), and a gap of the running section where it is not (counted by one shard). */
static int affordable_here(tally *t, const cc_case *c) {
    if (affordable(c)) return 1;
    if (mine(t))
        cc_gap_note(&t->gaps, t->section, CC_GAP_BUDGET, 1,
                "%dx%d at r = %d: one step costs more than %.0e oracle visits", (int)c->w,
                (int)c->h, (int)c->rule.radius, EDGE_STEP_COST_MAX);
    return 0;
}

/* The rows between exchanges of an engine over several devices: r x the steps between them. */
static int32_t slab_halo(const cc_engine_caps *caps, int32_t r) {
    return r * (caps->steps_per_launch > 1 ? caps->steps_per_launch : 1);
}

/* An engine over D devices: slabs of one or two rows, slabs just thinner and just thicker than
 * the halo (so a halo reaches across several slabs, or all but one row of one), and heights D
 * does not divide, at the smallest radius and the next, each over several exchanges with steps
 * left over and over one exchange cut short. */
static void device_slabs(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    if (!t->devices) return;
    const cc_engine_caps all = cc_engine_caps_resolved(t->engine);
    const cc_shape shape = first_shape(&all);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, shape);
    const int32_t rmin = caps.radius_min < 1 ? 1 : caps.radius_min;
    const int32_t rmax = caps.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps.radius_max;
    const int32_t d = t->devices, every = caps.steps_per_launch > 1 ? caps.steps_per_launch : 1;
    const int centre = (caps.centres & CC_CENTRE_M1) ? 1 : 0;
    uint64_t salt = 0xde71ce5000000000ull;
    for (int ri = 0; ri < 2; ri++) {
        const int32_t r = shape == CC_SHAPE_HEX ? 1 : (ri == 0 ? rmin : rmin + 1);
        if (r > rmax || (ri > 0 && shape == CC_SHAPE_HEX)) continue;
        const int32_t halo = slab_halo(&caps, r), min = 2 * r + 1;
        const struct {
            int32_t h;
            const char *label;
        } heights[] = {
            {d, "edge case (device slabs of one row)"},
            {2 * d + 1, "edge case (device slabs of two rows and one)"},
            {d * halo - 1, "edge case (device slabs thinner than the halo)"},
            {d * halo + 1, "edge case (device slabs thicker than the halo, H not divisible)"},
            {d * (2 * halo + 1) + d - 1, "edge case (device slabs, the largest remainder)"},
        };
        for (size_t i = 0; i < sizeof heights / sizeof heights[0]; i++) {
            const int32_t h = cc_fit_side(heights[i].h, min, caps.h_multiple, caps.h_max);
            const int32_t w = cc_fit_side(67, min, caps.w_multiple, caps.w_max);
            if (!w || !h) continue;
            const int64_t steps[2] = {2 * (int64_t)every + 1, every > 1 ? every - 1 : 3};
            for (int s = 0; s < 2; s++) {
                cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps.count_max);
                cc_case c = cc_edge_case(&rule, w, h, steps[s], s ? 0.5 : 0.35, salt++, master);
                if (!affordable_here(t, &c)) continue;
                check(t, heights[i].label, &c, &t->edge_passed);
                if (t->failed && t->opt->stop_at_first_failure) return;
            }
        }
    }
}

/* A shape's radii within its limits (caps.shape_limits), hex r = 1; 0 when it has none. */
static int shape_radii(const cc_engine_caps *shaped, cc_shape shape, int32_t *lo, int32_t *hi) {
    *lo = shaped->radius_min < 1 ? 1 : shaped->radius_min;
    *hi = shaped->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : shaped->radius_max;
    if (shape == CC_SHAPE_HEX) {
        if (*lo > 1 || *hi < 1) return 0;
        *lo = *hi = 1;
    }
    return *lo <= *hi;
}

static void edge_cases(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps resolved = cc_engine_caps_resolved(t->engine);
    const cc_engine_caps *caps = &resolved;
    uint64_t salt = 0;
    int centres[2], nc = 0;
    if (caps->centres & CC_CENTRE_M0) centres[nc++] = 0;
    if (caps->centres & CC_CENTRE_M1) centres[nc++] = 1;
    int skipped = 0;
    /* The cases the largest radius gained for shapes other than Moore take seeds of their own,
     * so every other case keeps the seed it always had. */
    uint64_t added_salt = 0x1a7e000;
    const int32_t all_lo = caps->radius_min < 1 ? 1 : caps->radius_min;
    const int32_t all_hi = caps->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps->radius_max;
    const int32_t all_radii[3] = {all_hi, all_lo, (all_lo + all_hi) / 2};

    /* The largest counts, for every shape at its own largest and smallest radius and one
     * between (its shape_limits narrowing the engine's), every density and rule; hex where the
     * engine's radii reach r = 1. */
    for (int ri = 0; ri < 3; ri++) {
        for (int s = 0; s < CC_SHAPE_COUNT; s++) {
            if (!(caps->shapes & CC_SHAPE_BIT(s))) continue;
            const cc_engine_caps sc = cc_engine_caps_for_shape(caps, (cc_shape)s);
            int32_t lo, hi;
            if (!shape_radii(&sc, (cc_shape)s, &lo, &hi)) continue;
            if (s == CC_SHAPE_HEX) { /* r = 1: where the engine's own radii put it */
                lo = all_lo;
                hi = all_hi;
            }
            const int32_t radii[3] = {hi, lo, (lo + hi) / 2};
            if (ri >= (hi == lo ? 1 : hi - lo > 1 ? 3 : 2)) continue;
            const int32_t r = radii[ri];
            if (s == CC_SHAPE_HEX && all_radii[ri] != 1) continue;
            int32_t w = smallest_side(r, sc.w_multiple, sc.w_max);
            int32_t h = smallest_side(r, sc.h_multiple, sc.h_max);
            if (!w || !h) continue;
            for (int ci = 0; ci < nc; ci++) {
                struct {
                    cc_edge_rule_kind rule;
                    double density;
                    int64_t steps;
                } variants[] = {
                    {CC_EDGE_TOP, 1.0, 1},   /* all alive: every count is the largest */
                    {CC_EDGE_TOP, 0.999, 2}, /* near all alive: the largest and next counts */
                    {CC_EDGE_B0, 0.0, 2},    /* all dead: born at 0, then the largest count */
                    {CC_EDGE_BAND, 0.5, 3},  /* an ordinary soup */
                };
                /* The oracle's cost grows as r^4 on the smallest grid: one step where two or
                 * three are not needed to reach the largest counts. */
                if (ri == 0 && r > 16) variants[1].steps = variants[3].steps = 1;
                for (int v = 0; v < 4; v++) {
                    cc_rule rule = cc_edge_rule((cc_shape)s, r, centres[ci], variants[v].rule,
                                             caps->count_max);
                    int added = ri == 0 && v > 0 && s != CC_SHAPE_MOORE && s != CC_SHAPE_HEX;
                    cc_case c = cc_edge_case(&rule, w, h, variants[v].steps, variants[v].density,
                                             added ? added_salt++ : salt++, master);
                    if (!affordable_here(t, &c)) {
                        skipped++;
                        continue;
                    }
                    check(t, "edge case (largest counts)", &c, &t->edge_passed);
                }
            }
        }
    }

    /* Large radius over several steps in one call, on a non-square soup: temporal blocking and
     * halos past r = 16 show only there. */
    const cc_shape big = (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_MOORE)) ? CC_SHAPE_MOORE
                         : (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_CROSS)) ? CC_SHAPE_CROSS
                                                                         : CC_SHAPE_VON_NEUMANN;
    const cc_engine_caps big_caps = cc_engine_caps_for_shape(caps, big);
    int32_t big_lo, big_hi;
    if (shape_radii(&big_caps, big, &big_lo, &big_hi) && big_hi > 16) {
        int32_t r = big_hi < 32 ? big_hi : 32;
        if (r < big_lo) r = big_lo;
        int32_t w = smallest_side(r, big_caps.w_multiple, big_caps.w_max);
        int32_t h = cc_fit_side(2 * r + 1 + 6, 2 * r + 1, big_caps.h_multiple, big_caps.h_max);
        if (w && h && (caps->shapes & CC_SHAPE_BIT(big))) {
            cc_rule rule = cc_edge_rule(big, r, centres[nc - 1], CC_EDGE_BAND, caps->count_max);
            cc_case c = cc_edge_case(&rule, w, h, 3, 0.5, salt++, master);
            check(t, "edge case (large radius, several steps)", &c, &t->edge_passed);
        }
    }

    /* The smallest size 2r+1 at several radii, square and not. */
    static const int32_t some_radii[] = {1, 2, 3, 5, 8, 16, 32, 64};
    cc_shape shape = (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_MOORE)) ? CC_SHAPE_MOORE
                     : (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_CIRCULAR)) ? CC_SHAPE_CIRCULAR
                     : (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_VON_NEUMANN)) ? CC_SHAPE_VON_NEUMANN
                     : (caps->shapes & CC_SHAPE_BIT(CC_SHAPE_CROSS)) ? CC_SHAPE_CROSS
                                                                      : CC_SHAPE_HEX;
    const cc_engine_caps sc = cc_engine_caps_for_shape(caps, shape);
    int32_t rmin, rmax;
    if (!shape_radii(&sc, shape, &rmin, &rmax)) rmin = 1, rmax = 0;
    int centre = centres[nc - 1];
    for (size_t i = 0; i < sizeof some_radii / sizeof some_radii[0]; i++) {
        int32_t r = some_radii[i];
        if (r < rmin || r > rmax) continue;
        int32_t w = smallest_side(r, sc.w_multiple, sc.w_max);
        int32_t h = smallest_side(r, sc.h_multiple, sc.h_max);
        if (!w || !h) continue;
        cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
        cc_case c = cc_edge_case(&rule, w, h, r > 16 ? 1 : 3, 0.5, salt++, master);
        if (affordable_here(t, &c)) check(t, "edge case (smallest size)", &c, &t->edge_passed);
        int32_t h2 = cc_fit_side(h + 2 * r + 3, h, sc.h_multiple, sc.h_max);
        if (r <= 16 && h2 && h2 != h) {
            c = cc_edge_case(&rule, w, h2, 2, 0.4, salt++, master);
            if (affordable_here(t, &c)) check(t, "edge case (smallest width)", &c, &t->edge_passed);
        }
    }

    /* Prime, non-square sizes (rounded up where the engine needs multiples). */
    static const int32_t primes[][2] = {{37, 61}, {101, 67}, {127, 3}, {5, 131}, {251, 241}};
    for (size_t i = 0; i < sizeof primes / sizeof primes[0] && rmin <= rmax; i++) {
        int32_t r = rmin;
        int32_t min = 2 * r + 1;
        int32_t w = cc_fit_side(primes[i][0], min, sc.w_multiple, sc.w_max);
        int32_t h = cc_fit_side(primes[i][1], min, sc.h_multiple, sc.h_max);
        if (!w || !h) continue;
        for (int ci = 0; ci < nc; ci++) {
            cc_rule rule = cc_edge_rule(shape, r, centres[ci], CC_EDGE_BAND, caps->count_max);
            cc_case c = cc_edge_case(&rule, w, h, 2, 0.35, salt++, master);
            if (affordable_here(t, &c)) check(t, "edge case (prime sizes)", &c, &t->edge_passed);
        }
    }
    if (skipped)
        printf("note: %s: %d largest-radius edge cases left out (one step costs more than %.0e "
               "oracle visits)\n",
               t->engine->name, skipped, EDGE_STEP_COST_MAX);
    device_slabs(t, master);
}

/* The engine time past which certify's default leaves the case past 2^32 cells out, and the
 * side of the square whose load, step and store estimate it (the rate per cell, times the cells
 * of the large case: a lower bound, as a larger grid runs no faster per cell). The bound is far
 * above what any engine here takes (under 3 minutes on 2 cores), so a loaded machine's noisy
 * estimate does not change the verdict; a correct but slow engine past it is INCOMPLETE. */
#define HUGE_CASE_SECONDS_MAX 600.0
#define HUGE_PROBE_SIDE 1024

/* The engine's time for big's load, steps and store, from a probe of the same rule on a grid of
 * about want_w x want_h (fitted to the caps): the probe's time per cell times big's cells. */
static int case_time_estimate(const cc_engine *engine, const cc_case *big, int32_t want_w,
                              int32_t want_h, double *seconds, double *probe_s) {
    const cc_engine_caps all = cc_engine_caps_resolved(engine);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, big->rule.shape);
    cc_case p = *big;
    int32_t min = 2 * p.rule.radius + 1;
    p.w = cc_fit_side(want_w, min, caps.w_multiple, caps.w_max);
    p.h = cc_fit_side(want_h, min, caps.h_multiple, caps.h_max);
    if (!p.w || !p.h) return CC_ERR_UNSUPPORTED;
    cc_grid g = {0};
    cc_error err;
    cc_context *ctx = NULL;
    int rc = case_grid(&p, &g, &err);
    double start = cc_now_seconds();
    if (!rc) rc = cc_call_create(engine, &p.rule, p.w, p.h, &ctx, &err);
    if (!rc) rc = cc_call_load(ctx, g.cells, &err);
    if (!rc) rc = cc_call_step(ctx, 1, &err);
    if (!rc) rc = cc_call_store(ctx, g.cells, &err);
    *probe_s = cc_now_seconds() - start;
    cc_call_destroy(ctx, NULL);
    cc_grid_free(&g);
    /* A probe that fails says nothing of the time: the case itself will show what is wrong. */
    if (rc) return rc;
    *seconds = *probe_s * ((double)big->w * (double)big->h) / ((double)p.w * (double)p.h);
    return CC_OK;
}

/* 98309 x 43691 = 4,295,218,519 cells > 2^32: where 32-bit cell or fragment offsets wrap, which
 * only a GPU port is likely to hold in one piece; one step, verified by light cones. Left out,
 * with the reason in the summary, where the engine or this machine cannot hold it. */
static void huge_case(tally *t, cc_shape shape, int32_t r, int centre, uint64_t salt,
                      const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps all = cc_engine_caps_resolved(t->engine);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, shape);
    int mode = t->opt->huge_grid;
    if (mode == CC_HUGE_GRID_OFF ||
        (mode == CC_HUGE_GRID_GPU && t->engine->hardware != CC_HW_GPU)) {
        snprintf(t->huge_note, sizeof t->huge_note,
                 "not asked for (certify, --huge-grid auto or on runs it)");
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_ASKED, 1,
                    "left out by --huge-grid %s", mode == CC_HUGE_GRID_OFF ? "off" : "gpu");
        return;
    }
    int32_t min = 2 * r + 1;
    int32_t w = cc_fit_side(98309, min, caps.w_multiple, caps.w_max);
    int32_t h = cc_fit_side(43691, min, caps.h_multiple, caps.h_max);
    if (!w || !h) {
        snprintf(t->huge_note, sizeof t->huge_note, "no grid past 2^32 cells fits its side limits");
        return;
    }
    cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps.count_max);
    cc_case c = cc_edge_case(&rule, w, h, 1, 0.3, salt, master);
    if (!fuzz_fit_port_caps(&caps, 1, &c) || (uint64_t)c.w * (uint64_t)c.h <= (1ull << 32)) {
        snprintf(t->huge_note, sizeof t->huge_note, "its cells_max (%lld) is below 2^32",
                 (long long)caps.cells_max);
        return;
    }
    if (!mine(t)) return;
    /* auto: every engine whose own estimate and one grid fit this machine's memory now: the
     * grid is held once, in the worker's shared grid (harness/check_in_place.c). */
    cc_error mem_err;
    if (mode == CC_HUGE_GRID_AUTO &&
        cc_limit_engine_memory("the case past 2^32 cells", t->engine, &c.rule, c.w, c.h, 1.0,
                               &mem_err)) {
        snprintf(t->huge_note, sizeof t->huge_note, "does not fit this machine's memory: %.140s",
                 mem_err.msg);
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_MEMORY, 1,
                    "does not fit this machine's memory: %.360s", mem_err.msg);
        printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name, t->huge_note);
        return;
    }
    /* auto: an engine too slow for it here (a CPU emulation of a GPU kernel) is left out, with
     * the estimate; on runs it whatever it costs. */
    double estimate = 0.0, probe_s = 0.0;
    if (mode == CC_HUGE_GRID_AUTO && t->engine->hardware != CC_HW_GPU &&
        case_time_estimate(t->engine, &c, HUGE_PROBE_SIDE, HUGE_PROBE_SIDE, &estimate,
                           &probe_s) == CC_OK &&
        estimate > HUGE_CASE_SECONDS_MAX) {
        char est[40];
        cc_format_duration(estimate, est, sizeof est);
        snprintf(t->huge_note, sizeof t->huge_note,
                 "too slow here: about %s for its load, step and store (%dx%d took %.2f s; "
                 "--huge-grid on runs it)",
                 est, HUGE_PROBE_SIDE, HUGE_PROBE_SIDE, probe_s);
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_TIME, 1, "%s", t->huge_note);
        printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name, t->huge_note);
        return;
    }
    /* Whether the engine can hold it here: a create that fails for memory is this machine's
     * limit, not a wrong engine. */
    cc_context *ctx = NULL;
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_call_create(t->engine, &c.rule, c.w, c.h, &ctx, &err);
    cc_call_destroy(ctx, NULL);
    /* An engine that states no memory estimate is held to the generic one (engines/engine.h):
     * holding more in create is its layout, not a wrong engine, and this case cannot be sized
     * for it. One that states an estimate and holds more is wrong, and fails below. */
    int stated = 0;
    (void)cc_engine_memory_need(t->engine, &c.rule, c.w, c.h, &stated);
    if (rc == CC_ERR_MEMORY_LIMIT && !stated) {
        snprintf(t->huge_note, sizeof t->huge_note,
                 "%dx%d: the engine states no memory estimate (cc_engine.memory) and held more "
                 "in create than the generic %.0f bytes a cell allow",
                 (int)w, (int)h, CC_GENERIC_ENGINE_BYTES_PER_CELL);
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_MEMORY, 1, "%s: %.300s", t->huge_note,
                    err.msg);
        printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name,
               t->huge_note);
        return;
    }
    if (rc == CC_ERR_NOMEM) {
        snprintf(t->huge_note, sizeof t->huge_note, "%dx%d does not fit here: %.120s", (int)w,
                 (int)h, err.msg);
        cc_gap_note(&t->gaps, CC_CHECK_PAST_2_32, CC_GAP_MEMORY, 1, "%s", t->huge_note);
        printf("note: %s: the case past 2^32 cells left out: %s\n", t->engine->name, t->huge_note);
        return;
    }
    t->section = CC_CHECK_PAST_2_32;
    t->sections[t->section].run = 1;
    double start = cc_now_seconds();
    check_case(t, "edge case (past 2^32 cells)", &c, &t->huge_passed);
    t->sections[t->section].seconds += cc_now_seconds() - start;
    t->section = CC_CHECK_PAST_TILES;
}

/* Past the engine's blocks: sides at 2^k - 1 and 2^k + 1 up to past 1100, n*tile +- 1 for the
 * tile the engine declares, the torus seam inside a tile, several steps; and one grid past 2^24
 * cells, where index arithmetic kept in too few bits wraps (verified by light cones). */
static void scale_cases(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps all = cc_engine_caps_resolved(t->engine);
    const cc_shape shape = first_shape(&all);
    const cc_engine_caps resolved = cc_engine_caps_for_shape(&all, shape);
    const cc_engine_caps *caps = &resolved;
    int32_t r = caps->radius_min;
    if (shape == CC_SHAPE_HEX) r = 1;
    int centre = (caps->centres & CC_CENTRE_M1) ? 1 : 0;
    int32_t min = 2 * r + 1;
    int32_t tw = caps->tile_w > 1 ? caps->tile_w : 64, th = caps->tile_h > 1 ? caps->tile_h : 64;
    /* {W, H}: the first four go past 1100 one way and stay narrow the other, so the oracle
     * steps them whole; the tile sizes put the seam one cell inside and one cell past a tile. */
    int32_t sizes[][2] = {{1023, 67},        {1025, 131},       {67, 1025},
                          {1103, 37},        {2 * tw + 1, 3 * th - 1},
                          {3 * tw - 1, 2 * th + 1}, {(1100 / tw + 1) * tw + 1, th + 1}};
    uint64_t salt = 0x5ca1e;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int32_t w = cc_fit_side(sizes[i][0], min, caps->w_multiple, caps->w_max);
        int32_t h = cc_fit_side(sizes[i][1], min, caps->h_multiple, caps->h_max);
        if (!w || !h) continue;
        cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
        cc_case c = cc_edge_case(&rule, w, h, 2 + (int64_t)(i % 2), 0.4, salt++, master);
        check(t, "edge case (past the tiles)", &c, &t->scale_passed);
    }
    /* Over several devices: every slab n tiles tall, one row short or long, so each device seam
     * lies one row inside or past a tile; and past 1100 rows, a remainder on the last slab. */
    if (t->devices) {
        const int32_t d = t->devices;
        const int32_t slab_sizes[][2] = {{2 * tw + 1, d * 2 * th - 1},
                                         {tw + 1, d * 2 * th + 1},
                                         {67, d * ((1100 + d - 1) / d) + d - 1}};
        for (size_t i = 0; i < sizeof slab_sizes / sizeof slab_sizes[0]; i++) {
            int32_t w = cc_fit_side(slab_sizes[i][0], min, caps->w_multiple, caps->w_max);
            int32_t h = cc_fit_side(slab_sizes[i][1], min, caps->h_multiple, caps->h_max);
            if (!w || !h) continue;
            cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
            int64_t steps = caps->steps_per_launch > 1 ? caps->steps_per_launch + 1 : 3;
            cc_case c = cc_edge_case(&rule, w, h, steps, 0.4, salt++, master);
            check(t, "edge case (past the tiles, device seams)", &c, &t->scale_passed);
        }
    }
    /* 4099 x 4097 = 16,793,603 cells > 2^24 = 16,777,216. */
    int32_t w = cc_fit_side(4099, min, caps->w_multiple, caps->w_max);
    int32_t h = cc_fit_side(4097, min, caps->h_multiple, caps->h_max);
    if (w && h && (uint64_t)w * (uint64_t)h > (1ull << 24)) {
        cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
        cc_case c = cc_edge_case(&rule, w, h, 2, 0.3, salt++, master);
        check(t, "edge case (past 2^24 cells)", &c, &t->scale_passed);
    } else {
        printf("note: %s: no grid past 2^24 cells fits its side limits\n", t->engine->name);
    }
    huge_case(t, shape, r, centre, salt++, master);
}

/* Where checks are judged by their time here (--huge-grid auto, certify's default; on runs them
 * whatever they cost), a thin grid past the work bound at a shape's largest radius runs when a
 * probe of the same rule on the same thin side and a long side of CC_EXTREMES_PROBE_SIDE says it
 * takes at most CC_EXTREMES_SECONDS_MAX: a plain loop such as cpu.ref takes minutes there, and a
 * correct but slow engine is certified for it or INCOMPLETE, never CERTIFIED without it. */
static void extreme_by_time(tally *t, const cc_extreme *e) {
    const int wide = e->c.w > e->c.h;
    double estimate = 0.0, probe_s = 0.0;
    int rc = t->opt->huge_grid == CC_HUGE_GRID_ON
                 ? CC_ERR_UNSUPPORTED
                 : case_time_estimate(t->engine, &e->c, wide ? CC_EXTREMES_PROBE_SIDE : e->c.w,
                                      wide ? e->c.h : CC_EXTREMES_PROBE_SIDE, &estimate,
                                      &probe_s);
    if (rc == CC_OK && estimate > CC_EXTREMES_SECONDS_MAX) {
        char est[40];
        cc_format_duration(estimate, est, sizeof est);
        printf("note: %s: left out: %s: too slow here, about %s\n", t->engine->name, e->why, est);
        cc_gap_note(&t->gaps, CC_CHECK_SHAPES, CC_GAP_TIME, 1,
                    "%s: too slow here, about %s (a probe of a %d-cell long side took %.2f s)",
                    e->why, est, CC_EXTREMES_PROBE_SIDE, probe_s);
        return;
    }
    /* A probe that failed says nothing of the time: the case itself shows what is wrong. */
    check(t, e->label, &e->c, &t->shapes_passed);
}

/* Thin, tall and wide grids past 2^16 rows and columns and past 65535 tiles, for every shape at
 * its smallest and largest radius (extremes.h); a grid the caps allow but the section's bounds
 * leave out is a gap. With opt->one_shape, the first shape at its smallest radius only, as the
 * section was before it crossed them: a gap too. */
static void shapes(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    if (t->opt->sections_off & CC_SECTION_SHAPES) return;
    cc_extreme plan[CC_EXTREMES_MAX];
    int n = cc_extremes_plan(t->engine, t->opt->one_shape, master, plan);
    if (t->opt->one_shape)
        cc_gap_note(&t->gaps, CC_CHECK_SHAPES, CC_GAP_ASKED, 1,
                    "the thin, tall and wide grids on one shape at its smallest radius only, not "
                    "on every shape at its smallest and largest");
    for (int i = 0; i < n && !t->stopped; i++) {
        const cc_extreme *e = &plan[i];
        if (e->kind == CC_EXTREME_NOTE) {
            printf("note: %s: %s\n", t->engine->name, e->why);
        } else if (e->kind == CC_EXTREME_GAP && cc_extreme_over_work(e) &&
                   (t->opt->huge_grid == CC_HUGE_GRID_AUTO ||
                    t->opt->huge_grid == CC_HUGE_GRID_ON)) {
            if (!mine(t)) continue;
            extreme_by_time(t, e);
            if (t->failed && t->opt->stop_at_first_failure) return;
        } else if (e->kind == CC_EXTREME_GAP) {
            printf("note: %s: left out: %s\n", t->engine->name, e->why);
            if (mine(t)) cc_gap_note(&t->gaps, CC_CHECK_SHAPES, CC_GAP_BUDGET, 1, "%s", e->why);
        } else {
            check(t, e->label, &e->c, &t->shapes_passed);
            if (t->failed && t->opt->stop_at_first_failure) return;
        }
    }
}

/* The torus seams against the tiles: the grid's last tile short by one cell, full, and one cell
 * long on each axis (sides n*t - 1, n*t, n*t + 1), nine alignments in all, each on
 * CC_SEAM_GRIDS grids of their own seeds, densities, centres and step counts. A one-cell error
 * at a seam whose stale value is right half the time passes one grid half the time, and all
 * CC_SEAM_GRIDS of an alignment with probability 2^-CC_SEAM_GRIDS. */
static void seams(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    if (t->opt->sections_off & CC_SECTION_SEAMS) return;
    const cc_engine_caps all = cc_engine_caps_resolved(t->engine);
    const cc_shape shape = first_shape(&all);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, shape);
    int32_t rmin = caps.radius_min < 1 ? 1 : caps.radius_min;
    int32_t rmax = caps.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps.radius_max;
    /* Two radii: the smallest, and one a little past it where halos are wider than a cell. */
    int32_t radii[2] = {rmin, rmin + 2 <= rmax ? rmin + 2 : rmax};
    if (shape == CC_SHAPE_HEX) radii[0] = radii[1] = 1;
    int centres[2], nc = 0;
    if (caps.centres & CC_CENTRE_M0) centres[nc++] = 0;
    if (caps.centres & CC_CENTRE_M1) centres[nc++] = 1;
    /* Without a stated tile, the torus seams alone: against warp-wide blocks of 32. */
    int32_t tw = caps.tile_w > 1 ? caps.tile_w : 32, th = caps.tile_h > 1 ? caps.tile_h : 32;
    uint64_t salt = 0x5ea30000;
    for (int ay = -1; ay <= 1; ay++) {
        for (int ax = -1; ax <= 1; ax++) {
            for (int g = 0; g < CC_SEAM_GRIDS; g++, salt++) {
                int32_t r = radii[g % 2];
                int32_t min = 2 * r + 1;
                /* Two tiles a side (three where one is narrower than the neighbourhood), so a
                 * tile seam sits inside the grid as well as on the torus. */
                int32_t nx = 2 * tw >= min + 1 ? 2 : (min + 1) / tw + 2;
                int32_t ny = 2 * th >= min + 1 ? 2 : (min + 1) / th + 2;
                int32_t w = nx * tw + ax, h = ny * th + ay;
                if ((caps.w_multiple > 1 && w % caps.w_multiple) ||
                    (caps.h_multiple > 1 && h % caps.h_multiple) ||
                    (caps.w_max > 0 && w > caps.w_max) || (caps.h_max > 0 && h > caps.h_max))
                    continue; /* an alignment the engine's side limits rule out */
                cc_rule rule = cc_edge_rule(shape, r, centres[(g / 2) % nc], CC_EDGE_BAND,
                                         caps.count_max);
                cc_case c = cc_edge_case(&rule, w, h, 1 + g % 3, g % 4 < 2 ? 0.5 : 0.35, salt,
                                      master);
                if (!affordable_here(t, &c)) continue;
                check(t, "seams (the last tile short, full and long)", &c, &t->seams_passed);
                if (t->failed && t->opt->stop_at_first_failure) return;
            }
        }
    }
}

/* The bounded plane, for an engine that states it: its edges and corners at several radii and
 * sizes (the smallest, primes, n*tile +- 1), and drawn cases, every one on the plane. An engine of
 * the plane alone gets every other section on the plane too; one of both gets these besides. */
#define PLANE_DRAWN_CASES 40
static void plane_cases(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps all = cc_engine_caps_resolved(t->engine);
    if (!(all.topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE))) return;
    const cc_shape shape = first_shape(&all);
    const cc_engine_caps caps = cc_engine_caps_for_shape(&all, shape);
    int32_t rmin = caps.radius_min < 1 ? 1 : caps.radius_min;
    int32_t rmax = caps.radius_max > 16 ? 16 : caps.radius_max;
    int centre = (caps.centres & CC_CENTRE_M1) ? 1 : 0;
    int32_t tw = caps.tile_w > 1 ? caps.tile_w : 32, th = caps.tile_h > 1 ? caps.tile_h : 32;
    int32_t radii[3] = {rmin, (rmin + rmax) / 2, rmax};
    uint64_t salt = 0x91a4e000;
    for (int ri = 0; ri < 3; ri++) {
        int32_t r = shape == CC_SHAPE_HEX ? 1 : radii[ri];
        if (ri > 0 && (shape == CC_SHAPE_HEX || r == radii[ri - 1])) continue;
        int32_t min = 2 * r + 1;
        int32_t sizes[][2] = {{min, min}, {min + 2, 2 * min + 3}, {37, 61}, {2 * tw + 1, 2 * th - 1},
                              {2 * tw - 1, th + 1}};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int32_t w = cc_fit_side(sizes[i][0], min, caps.w_multiple, caps.w_max);
            int32_t h = cc_fit_side(sizes[i][1], min, caps.h_multiple, caps.h_max);
            if (!w || !h) continue;
            cc_rule rule = cc_edge_rule(shape, r, centre, i % 2 ? CC_EDGE_TOP : CC_EDGE_BAND, caps.count_max);
            rule.topology = CC_TOPOLOGY_PLANE;
            cc_case c = cc_edge_case(&rule, w, h, 1 + (int64_t)(i % 3), i % 2 ? 0.9 : 0.45, salt++,
                                  master);
            if (!affordable_here(t, &c)) continue;
            check(t, "the bounded plane", &c, &t->plane_passed);
            if (t->failed && t->opt->stop_at_first_failure) return;
        }
    }
    for (int i = 0; i < PLANE_DRAWN_CASES && !t->stopped; i++) {
        uint8_t seed[CC_SEED_BYTES];
        cc_case c;
        cc_error err;
        case_seed_derive(master, 0x706c616e65000000ull + (uint64_t)i, seed); /* "plane" */
        if (cc_case_draw_small(t->engine, seed, &c, &err)) break;
        c.rule.topology = CC_TOPOLOGY_PLANE;
        check(t, "the bounded plane", &c, &t->plane_passed);
        if (t->failed && t->opt->stop_at_first_failure) return;
    }
}

/* Zero steps: what is stored right after load (and after step(0)) is what was loaded. */
static void round_trips(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps all = cc_engine_caps_resolved(t->engine);
    const cc_shape shape = first_shape(&all);
    const cc_engine_caps resolved = cc_engine_caps_for_shape(&all, shape);
    const cc_engine_caps *caps = &resolved;
    int32_t r = caps->radius_min < 1 ? 1 : caps->radius_min;
    if (shape == CC_SHAPE_HEX) r = 1;
    int centre = (caps->centres & CC_CENTRE_M0) ? 0 : 1;
    static const int32_t sizes[][2] = {{0, 0}, {61, 37}, {256, 192}, {17, 250}, {1000, 24}};
    static const double densities[] = {0.5, 0.01, 0.99, 1.0};
    uint64_t salt = 0x100;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int32_t min = 2 * r + 1;
        int32_t w = cc_fit_side(sizes[i][0], min, caps->w_multiple, caps->w_max);
        int32_t h = cc_fit_side(sizes[i][1], min, caps->h_multiple, caps->h_max);
        if (!w || !h) continue;
        cc_rule rule = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);
        cc_case c = cc_edge_case(&rule, w, h, 0, densities[i % 4], salt++, master);
        check(t, "zero-step round trip", &c, &t->round_trips);
    }
}

/* ---- Step counts ------------------------------------------------------------------------ */

/* Oracle visits one candidate's trajectory may cost, the candidates tried for each count (two
 * that run past that budget end the search: a larger grid would not do better), and the work a
 * count's case may cost the engine (cell-neighbour visits of one run; it runs twice). */
#define STEP_COUNT_VISITS 1e9
#define STEP_COUNT_CANDIDATES 64
#define STEP_COUNT_CASE_VISITS 3e9

/* What the search for one step count found: a case every plausible wrong count fails on
 * (verdict 1) and the oracle's grid after its k steps, or why there is none. */
typedef struct step_count_search {
    cc_case c;
    int verdict; /* 1 found; 0 every candidate aliased; -1 none within the budgets */
    int64_t alias;
    int too_costly;
    cc_grid expected;
    int rc;
    cc_error err;
} step_count_search;

static void step_count_find(const cc_engine *engine, const cc_engine_caps *caps,
                            const uint8_t master[CC_SEED_BYTES], int ki, int64_t k,
                            const int32_t *blocks, int nb, step_count_search *out) {
    /* The smallest grids first: a count's check costs the engine its cells times k, and the
     * first candidate that tells k apart is kept, so every engine, however slow a cell, runs
     * the same counts (none is left out for time: the verdict must not depend on the host). */
    static const int32_t sides[][2] = {{7, 5},   {5, 9},   {9, 7},   {11, 5},  {7, 11},  {11, 9},
                                       {13, 7},  {9, 13},  {13, 11}, {17, 19}, {23, 21}, {19, 29},
                                       {29, 13}, {31, 23}, {13, 37}, {37, 17}};
    const int nsides = (int)(sizeof sides / sizeof sides[0]);
    memset(out, 0, sizeof *out);
    out->verdict = -1;
    out->alias = -1;
    int64_t wrong[16];
    int nw = cc_step_counts_wrong(k, blocks, nb, wrong);
    int over_budget = 0;
    for (int cand = 0; cand < STEP_COUNT_CANDIDATES && out->verdict != 1 && over_budget < 2;
         cand++) {
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x737465707300000ull + ((uint64_t)ki << 8) + (uint64_t)cand,
                         seed); /* "steps" */
        cc_case c;
        if (cc_case_draw_small(engine, seed, &c, &out->err)) break;
        /* Most candidates at the smallest radius: on a small torus a large neighbourhood sees
         * the whole grid, which soon dies or settles. */
        /* The limits of the drawn shape (caps.shape_limits). */
        const cc_engine_caps shaped = cc_engine_caps_for_shape(caps, c.rule.shape);
        if (cand % 4 != 3 && c.rule.shape != CC_SHAPE_HEX)
            c.rule = cc_rule_at_radius(&c.rule, shaped.radius_min > 1 ? shaped.radius_min : 1);
        int32_t min = 2 * c.rule.radius + 1;
        const int side = (cand / 4) % nsides;
        c.w = cc_fit_side(sides[side][0], min, shaped.w_multiple, shaped.w_max);
        c.h = cc_fit_side(sides[side][1], min, shaped.h_multiple, shaped.h_max);
        if (!c.w || !c.h) continue;
        c.steps = k;
        c.grid_kind = CC_GRID_UNIFORM;
        c.density = 0.25 + 0.1 * (double)(cand % 4);
        if (!fuzz_fit_port_caps(&shaped, 0, &c)) continue;
        if ((double)c.w * (double)c.h * (double)cc_rule_max_count(&c.rule) * (double)k >
            STEP_COUNT_CASE_VISITS) {
            out->too_costly = 1;
            continue;
        }
        out->c = c;
        if ((out->rc = cc_step_counts_distinct(&c, wrong, nw, STEP_COUNT_VISITS, &out->verdict,
                                               &out->alias, &out->expected, &out->err)))
            return;
        over_budget += out->verdict == -1;
    }
}

/* Counts around the blocks engines run per launch (n*t - 1 and n*t + 1), past 8- and 16-bit
 * counters, and three drawn on a log scale up to 2^17; each on a small odd-sided grid whose
 * oracle trajectory no plausible wrong count (cc_step_counts_wrong) reaches the same grid by. */
static void step_counts(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    if (t->opt->sections_off & CC_SECTION_STEP_COUNTS) return;
    const cc_engine_caps caps = cc_engine_caps_resolved(t->engine);
    int32_t blocks[4] = CC_STEP_BLOCKS_COMMON;
    int nb = 3;
    if (caps.steps_per_launch > 1 && caps.steps_per_launch != 8 && caps.steps_per_launch != 16 &&
        caps.steps_per_launch != 32)
        blocks[nb++] = caps.steps_per_launch;
    int64_t ks[32];
    int nk = 0;
    for (int i = 0; i < nb; i++) {
        int64_t b = blocks[i];
        int64_t around[] = {b - 1, b + 1, 2 * b - 1, 2 * b + 1};
        for (int j = 0; j < 4; j++) ks[nk++] = around[j];
    }
    ks[nk++] = 257;
    /* Where a signed and an unsigned 16-bit count wrap (65537 is also 16n + 1). */
    ks[nk++] = 65535;
    ks[nk++] = 65537;
    cc_param_stream ps;
    cc_error err;
    if (case_param_init(&ps, master, "step counts", &err) == CC_OK)
        for (int i = 0; i < 3; i++) {
            /* 2^(1 + 16 u), u uniform in [0, 1). */
            double u = (double)case_param_u32(&ps) / 4294967296.0;
            ks[nk++] = (int64_t)exp2(1.0 + 16.0 * u) + 1;
        }
    /* The search for each count's case is the oracle's alone and the counts' searches are
     * independent, so they run at once; the engine then runs them in order. */
    step_count_search found[32];
    int todo[32], ntodo = 0;
    /* Each count is a check of its own for sharding: none is left out by what ran before it,
     * so shards split the counts as a whole run would check them. */
    for (int ki = 0; ki < nk; ki++) {
        int dup = 0;
        for (int j = 0; j < ki; j++) dup |= ks[j] == ks[ki];
        if (!dup && mine(t)) todo[ntodo++] = ki;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < ntodo; i++)
        step_count_find(t->engine, &caps, master, todo[i], ks[todo[i]], blocks, nb, &found[i]);
    /* The engine runs them from the smallest count up, so a wrong engine fails on the cheapest
     * count that shows it. */
    int order[32];
    for (int i = 0; i < ntodo; i++) {
        int j = i;
        for (; j > 0 && ks[todo[order[j - 1]]] > ks[todo[i]]; j--) order[j] = order[j - 1];
        order[j] = i;
    }
    for (int oi = 0; oi < ntodo && !t->stopped; oi++) {
        int i = order[oi];
        step_count_search *f = &found[i];
        int64_t k = ks[todo[i]];
        cc_case c = f->c;
        if (f->rc) {
            printf("ERROR: %s: step counts: %s\n", t->engine->name, f->err.msg);
            t->infra_error++;
            continue;
        }
        if (f->verdict != 1) {
            t->counts_blind++;
            if (f->alias >= 0)
                cc_gap_note(&t->gaps, CC_CHECK_STEP_COUNTS, CC_GAP_BLIND, 1,
                            "step count %lld: no case tried tells it from every wrong count "
                            "(the last one reaches the same grid after %lld)",
                            (long long)k, (long long)f->alias);
            else
                cc_gap_note(&t->gaps, CC_CHECK_STEP_COUNTS, CC_GAP_BUDGET, 1,
                            "step count %lld: %s", (long long)k,
                            f->too_costly ? "its smallest grid costs past 3e9 visits a run"
                                          : "the oracle's trajectory ran past 1e9 visits");
            if (f->alias >= 0)
                printf("note: %s: step count %lld: no case tried tells it from every wrong count "
                       "(the last one reaches the same grid after %lld)\n",
                       t->engine->name, (long long)k, (long long)f->alias);
            else
                printf("note: %s: step count %lld left out: %s\n", t->engine->name, (long long)k,
                       f->too_costly ? "its smallest grid costs past the budget (3e9 visits a run)"
                                     : "the oracle's trajectory ran past its budget (1e9 visits)");
            continue;
        }
        int before = t->counts_passed;
        /* One call of step(k): the count is the point here, and the call patterns (the split
         * among them) would run the engine's k steps again; the campaign runs them. */
        cc_check_options one_call;
        cc_check_options_init(&one_call);
        one_call.patterns = 0;
        one_call.expected = &f->expected;
        check_case_with(t, "step counts", &c, &one_call, &t->counts_passed);
        if (t->counts_passed > before && k > t->counts_max) t->counts_max = k;
        if (t->failed && t->opt->stop_at_first_failure) break;
    }
    for (int i = 0; i < ntodo; i++) cc_grid_free(&found[i].expected);
}

/* ---- Call sequences --------------------------------------------------------------------- */

/* Sequences drawn from the contract's state machine on small cases within the caps. */
#define CONFORMANCE_SEQUENCES 40
#define SEQUENCE_SHRINK_TRIES 96

/* Runs call sequence i, drawn on case c, and counts its verdict in the running section (label
 * names it in reports): a failure is reported with the sequence, then the shortest one found that
 * still fails. Returns 1 where the checks stop after it (a failure, stopping at the first). */
static int run_sequence(tally *t, const char *label, int i, const cc_case *c, int *passed) {
    cc_error err;
    int64_t max_k = c->steps < 2 ? 2 : c->steps > 8 ? 8 : c->steps;
    cc_call_sequence s;
    cc_sequence_draw(c, max_k, &s);
    cc_sequence_result res;
    if (cc_sequence_run(t->engine, c, &s, &res, &err)) {
        printf("ERROR: %s: %s %d: %s\n", t->engine->name, label, i, err.msg);
        t->infra_error++;
        return 0;
    }
    if (!res.failed) {
        (*passed)++;
        t->sections[t->section].passed++;
        cc_coverage_add(&t->sections[t->section].cov, &c->rule, c->w, c->h, c->steps, c->threads);
        return 0;
    }
    char calls[CC_SEQUENCE_TEXT_MAX];
    cc_sequence_format(&s, calls, sizeof calls);
    int first = t->failed == 0;
    note_failure(t, res.kind, label, res.detail, c, calls);
    if (cc_failure_kind_is_fault(res.kind)) t->stopped = 1;
    cc_call_sequence shortest = s;
    int tries = 0;
    if (!t->reported) {
        printf("FAILED in %s:\n", label);
        /* The verdict first: shrinking runs the sequence again, many times. */
        cc_sequence_report(stdout, t->opt->reproduce, t->engine->name, c, &s, &res, NULL, 0);
        fflush(stdout);
        if (!cc_failure_kind_is_fault(res.kind) && t->opt->shrink &&
            cc_sequence_shrink(t->engine, c, &s, &res, SEQUENCE_SHRINK_TRIES, &shortest, &tries,
                               &err) == CC_OK &&
            shortest.n < s.n)
            cc_sequence_report(stdout, t->opt->reproduce, t->engine->name, c, &s, &res,
                               &shortest, tries);
        /* The reproducer the report ends with: the shortest sequence found. */
        if (first) cc_sequence_format(&shortest, t->first_calls, sizeof t->first_calls);
        t->reported = 1;
    } else {
        cc_sequence_report(stdout, t->opt->reproduce, t->engine->name, c, &s, &res, NULL, 0);
    }
    return t->opt->stop_at_first_failure;
}

static void call_sequences(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps caps = cc_engine_caps_resolved(t->engine);
    if (t->opt->sections_off & CC_SECTION_SEQUENCES) return;
    for (int i = 0; i < CONFORMANCE_SEQUENCES && !t->stopped; i++) {
        if (!mine(t)) continue;
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x63616c6c73000000ull + (uint64_t)i, seed); /* "calls" */
        cc_case c;
        cc_error err;
        if (cc_case_draw_small(t->engine, seed, &c, &err)) {
            printf("ERROR: %s: call sequence %d: cannot draw its case: %s\n", t->engine->name, i,
                   err.msg);
            t->infra_error++;
            continue;
        }
        if (!fuzz_fit_port_caps(&caps, 0, &c)) {
            t->over_cells++;
            continue;
        }
        /* The OpenMP team turns with each sequence: 1, 2, 3, every core. */
        c.threads = cc_team_size(t->engine, t->opt, (uint64_t)i * CC_TEAM_TURN);
        if (run_sequence(t, "call sequences", i, &c, &t->sequences)) return;
    }
}

/* ---- GPU timing ------------------------------------------------------------------------- */

/* The disturbances the GPU timing section turns through, one a check in turn (oracle/case.h):
 * the legacy stream held back, the copy engines and the multiprocessors occupied, alone and
 * together, with pageable and pinned host buffers, with and without pauses between calls. */
static const uint32_t timing_settings[] = {
    CC_TIMING_LEGACY,
    CC_TIMING_LEGACY | CC_TIMING_PINNED,
    CC_TIMING_COPIES | CC_TIMING_KERNEL,
    CC_TIMING_COPIES | CC_TIMING_PINNED | CC_TIMING_DELAYS,
    CC_TIMING_LEGACY | CC_TIMING_COPIES | CC_TIMING_KERNEL | CC_TIMING_PINNED,
    CC_TIMING_KERNEL | CC_TIMING_DELAYS,
    CC_TIMING_LEGACY | CC_TIMING_COPIES | CC_TIMING_DELAYS,
    CC_TIMING_COPIES | CC_TIMING_KERNEL | CC_TIMING_PINNED,
};
#define TIMING_SETTINGS (sizeof timing_settings / sizeof timing_settings[0])

/* An engine on a GPU runs the call patterns of CC_TIMING_CASES drawn cases (each case checked
 * in one call of step(k), then under every pattern its size allows) and CC_TIMING_SEQUENCES call
 * sequences again, each under one setting of timing_settings in turn; a CPU engine has no such
 * dimension. Where its worker cannot disturb it (no device to disturb, a program built without
 * the disturbance) every one of them is a gap, gpu-timing:absent. */
static void gpu_timing(tally *t, const uint8_t master[CC_SEED_BYTES]) {
    const cc_engine_caps caps = cc_engine_caps_resolved(t->engine);
    cc_error err;
    if (cc_call_timing_available(t->engine, &err)) {
        cc_gap_note(&t->gaps, CC_CHECK_TIMING, CC_GAP_ABSENT, CC_TIMING_CASES + CC_TIMING_SEQUENCES,
                    "the call patterns and sequences under a disturbed timing between streams "
                    "did not run: %s",
                    err.msg);
        return;
    }
    /* Drawn as the campaign draws its valid cases (large ones too), from seeds of their own. */
    cc_campaign_options drawn = *t->opt;
    drawn.invalid_percent = 0;
    for (int i = 0; i < CC_TIMING_CASES && !t->stopped; i++) {
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x74696d696e670000ull + (uint64_t)i, seed); /* "timing" */
        cc_drawn_case d;
        if (cc_case_draw(t->engine, &drawn, seed, &d, &err)) {
            if (mine(t)) {
                printf("ERROR: %s: GPU timing case %d: cannot draw it: %s\n", t->engine->name, i,
                       err.msg);
                t->infra_error++;
            }
            continue;
        }
        d.c.timing = timing_settings[(size_t)i % TIMING_SETTINGS];
        check(t, "GPU timing", &d.c, &t->timing_passed);
        if (t->failed && t->opt->stop_at_first_failure) return;
    }
    for (int i = 0; i < CC_TIMING_SEQUENCES && !t->stopped; i++) {
        if (!mine(t)) continue;
        uint8_t seed[CC_SEED_BYTES];
        case_seed_derive(master, 0x74696d6573657100ull + (uint64_t)i, seed); /* "timeseq" */
        cc_case c;
        if (cc_case_draw_small(t->engine, seed, &c, &err)) {
            printf("ERROR: %s: GPU timing sequence %d: cannot draw its case: %s\n",
                   t->engine->name, i, err.msg);
            t->infra_error++;
            continue;
        }
        if (!fuzz_fit_port_caps(&caps, 0, &c)) {
            t->over_cells++;
            continue;
        }
        /* Offset by one from the cases, so a setting meets other grids here. */
        c.timing = timing_settings[(size_t)(i + 1) % TIMING_SETTINGS];
        if (run_sequence(t, "GPU timing", i, &c, &t->timing_passed)) return;
    }
}

/* ---- Refusals --------------------------------------------------------------------------- */

static void expect_refusal(tally *t, const char *what, const cc_rule *rule, int32_t w, int32_t h) {
    if (!mine(t)) return;
    cc_error caps_err;
    if (cc_engine_check(t->engine, rule, w, h, &caps_err) == CC_OK) {
        /* The case meant to break a limit does not: a harness bug, reported as such. */
        printf("ERROR: %s: refusal check '%s' is within the caps\n", t->engine->name, what);
        t->infra_error++;
        return;
    }
    cc_context *ctx = NULL;
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_call_create(t->engine, rule, w, h, &ctx, &err);
    if (rc == CC_OK) {
        cc_call_destroy(ctx, NULL);
        printf("FAILED: %s: create accepted %s (%dx%d): %s\n", t->engine->name, what, (int)w,
               (int)h, caps_err.msg);
        char detail[400];
        snprintf(detail, sizeof detail, "create accepted %.160s (%dx%d)", what, (int)w, (int)h);
        note_failure(t, CC_FAILURE_NONE, "refusals", detail, NULL, NULL);
    } else if (!err.msg[0]) {
        printf("FAILED: %s: create refused %s with code %d but no message\n", t->engine->name,
               what, rc);
        char detail[400];
        snprintf(detail, sizeof detail, "create refused %.160s with code %d but no message", what,
                 rc);
        note_failure(t, CC_FAILURE_NONE, "refusals", detail, NULL, NULL);
    } else {
        printf("refused %s: %s\n", what, err.msg);
        t->refusals++;
        t->sections[t->section].passed++;
    }
}

static void refusals(tally *t) {
    const cc_engine_caps resolved = cc_engine_caps_resolved(t->engine);
    const cc_engine_caps *caps = &resolved;
    char what[160];
    int32_t rmin = caps->radius_min < 1 ? 1 : caps->radius_min;
    int32_t rmax = caps->radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : caps->radius_max;
    cc_shape shape = CC_SHAPE_MOORE;
    for (int s = 0; s < CC_SHAPE_COUNT; s++)
        if ((caps->shapes & CC_SHAPE_BIT(s)) && s != CC_SHAPE_HEX) {
            shape = (cc_shape)s;
            break;
        }
    int centre = (caps->centres & CC_CENTRE_M1) ? 1 : 0;
    /* The base case within the shape's own limits too, so that each refusal breaks one limit. */
    const cc_engine_caps base_caps = cc_engine_caps_for_shape(caps, shape);
    const int32_t base_rmax = base_caps.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX
                                                                   : base_caps.radius_max;
    int32_t r = shape == CC_SHAPE_HEX ? 1 : base_caps.radius_min;
    int32_t w = smallest_side(r, caps->w_multiple, 0), h = smallest_side(r, caps->h_multiple, 0);
    if (caps->square_only) w = h = w > h ? w : h; /* so that each refusal breaks one limit */
    cc_rule base = cc_edge_rule(shape, r, centre, CC_EDGE_BAND, caps->count_max);

    if (rmin > 1) {
        cc_rule rule = cc_edge_rule(shape, rmin - 1, centre, CC_EDGE_BAND, 0);
        snprintf(what, sizeof what, "radius %d (below %d)", (int)(rmin - 1), (int)rmin);
        expect_refusal(t, what, &rule, w, h);
    }
    if (rmax < CC_RADIUS_MAX) {
        cc_rule rule = cc_edge_rule(shape, rmax + 1, centre, CC_EDGE_BAND, 0);
        snprintf(what, sizeof what, "radius %d (above %d)", (int)(rmax + 1), (int)rmax);
        expect_refusal(t, what, &rule, smallest_side(rmax + 1, caps->w_multiple, 0),
                       smallest_side(rmax + 1, caps->h_multiple, 0));
    }
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (caps->shapes & CC_SHAPE_BIT(s)) continue;
        int32_t rs = s == CC_SHAPE_HEX ? 1 : r;
        cc_rule rule = cc_edge_rule((cc_shape)s, rs, centre, CC_EDGE_BAND, 0);
        snprintf(what, sizeof what, "shape %s", cc_shape_code((cc_shape)s));
        expect_refusal(t, what, &rule, smallest_side(rs, caps->w_multiple, 0),
                       smallest_side(rs, caps->h_multiple, 0));
    }
    for (int m = 0; m < 2; m++) {
        if (caps->centres & (m ? CC_CENTRE_M1 : CC_CENTRE_M0)) continue;
        cc_rule rule = cc_edge_rule(shape, r, m, CC_EDGE_BAND, caps->count_max);
        snprintf(what, sizeof what, "centre M%d", m);
        expect_refusal(t, what, &rule, w, h);
    }
    if (caps->w_multiple > 1) {
        snprintf(what, sizeof what, "W %d (not a multiple of %d)", (int)(w + 1),
                 (int)caps->w_multiple);
        expect_refusal(t, what, &base, w + 1, h);
    }
    if (caps->h_multiple > 1) {
        snprintf(what, sizeof what, "H %d (not a multiple of %d)", (int)(h + 1),
                 (int)caps->h_multiple);
        expect_refusal(t, what, &base, w, h + 1);
    }
    if (caps->w_max > 0 && caps->w_max < CC_GRID_SIDE_MAX) {
        int32_t big = round_up(caps->w_max + 1, caps->w_multiple);
        snprintf(what, sizeof what, "W %d (above %d)", (int)big, (int)caps->w_max);
        expect_refusal(t, what, &base, big, h);
    }
    if (caps->h_max > 0 && caps->h_max < CC_GRID_SIDE_MAX) {
        int32_t big = round_up(caps->h_max + 1, caps->h_multiple);
        snprintf(what, sizeof what, "H %d (above %d)", (int)big, (int)caps->h_max);
        expect_refusal(t, what, &base, w, big);
    }
    if (caps->square_only) {
        int32_t h2 = cc_fit_side(w + 1, h + 1, caps->h_multiple, caps->h_max);
        snprintf(what, sizeof what, "grid %dx%d (not square)", (int)w, (int)(h2 ? h2 : h + 1));
        expect_refusal(t, what, &base, w, h2 ? h2 : h + 1);
    }
    int32_t sq_w = w, sq_h = h;
    if (caps->square_only) sq_w = sq_h = w > h ? w : h;
    for (int which = 0; which < 2; which++) {
        int32_t n = which ? caps->b_ranges_max : caps->s_ranges_max;
        cc_rule rule;
        if (!fuzz_ranges_breakable(caps, n, &rule)) continue;
        fuzz_set_intervals_over(which ? &rule.birth : &rule.survive, n);
        int32_t side = smallest_side(1, caps->w_multiple, 0);
        int32_t side_h = caps->square_only ? side : smallest_side(1, caps->h_multiple, 0);
        snprintf(what, sizeof what, "%s in %d intervals (at most %d)", which ? "B" : "S",
                 (int)(n + 1), (int)n);
        expect_refusal(t, what, &rule, side, side_h);
    }
    if (caps->no_b0) {
        cc_rule rule = base; /* B from 0 to its top: one interval */
        cc_set_add(&rule.birth, 0, rule.birth.r[0].lo, NULL);
        expect_refusal(t, "B containing 0", &rule, sq_w, sq_h);
    }
    int32_t over_w, over_h;
    if (fuzz_over_cells(caps, &over_w, &over_h)) {
        snprintf(what, sizeof what, "grid %dx%d (over %lld cells)", (int)over_w, (int)over_h,
                 (long long)caps->cells_max);
        expect_refusal(t, what, &base, over_w, over_h);
    }
    snprintf(what, sizeof what, "W %d (above the largest side %d)", CC_GRID_SIDE_MAX + 1,
             CC_GRID_SIDE_MAX);
    expect_refusal(t, what, &base, CC_GRID_SIDE_MAX + 1, h);
    if (caps->count_max > 0) {
        /* The widest neighbourhood the engine has, with a set naming a count above the limit. */
        for (int32_t rr = base_rmax; rr >= r; rr--) {
            cc_rule rule = cc_edge_rule(shape, rr, centre, CC_EDGE_BAND, 0);
            int32_t m = cc_rule_max_count(&rule);
            if (m <= caps->count_max) continue;
            set_one(&rule.survive, caps->count_max + 1, m);
            snprintf(what, sizeof what, "S %d..%d (above the count limit %d, radius %d)",
                     (int)(caps->count_max + 1), (int)m, (int)caps->count_max, (int)rr);
            expect_refusal(t, what, &rule, smallest_side(rr, caps->w_multiple, 0),
                           smallest_side(rr, caps->h_multiple, 0));
            break;
        }
    }
    /* The limits of single shapes (caps.shape_limits), each broken alone within the engine's. */
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(caps->shapes & CC_SHAPE_BIT(s)) || !cc_engine_caps_shape_narrowed(caps, (cc_shape)s))
            continue;
        const cc_engine_caps sc = cc_engine_caps_for_shape(caps, (cc_shape)s);
        const char *code = cc_shape_code((cc_shape)s);
        const int32_t rs = s == CC_SHAPE_HEX ? 1 : sc.radius_min;
        const int32_t rs_max = sc.radius_max > CC_RADIUS_MAX ? CC_RADIUS_MAX : sc.radius_max;
        int32_t sw = smallest_side(rs, caps->w_multiple, 0), sh = smallest_side(rs, caps->h_multiple, 0);
        if (caps->square_only) sw = sh = sw > sh ? sw : sh;
        cc_rule in_shape = cc_edge_rule((cc_shape)s, rs, centre, CC_EDGE_BAND, caps->count_max);
        int32_t breaks[2] = {s == CC_SHAPE_HEX ? 0 : rs_max + 1, s == CC_SHAPE_HEX ? 0 : rs - 1};
        for (int b = 0; b < 2; b++) {
            const int32_t rr = breaks[b];
            if (rr < rmin || rr > rmax || (b == 0 && rs_max >= rmax) || (b == 1 && rs <= rmin))
                continue;
            cc_rule rule = cc_edge_rule((cc_shape)s, rr, centre, CC_EDGE_BAND, caps->count_max);
            int32_t rw = smallest_side(rr, caps->w_multiple, 0), rh = smallest_side(rr, caps->h_multiple, 0);
            if (caps->square_only) rw = rh = rw > rh ? rw : rh;
            snprintf(what, sizeof what, "%s radius %d (%s %d, %s's own limit)", code, (int)rr,
                     b ? "below" : "above", (int)(b ? rs : rs_max), code);
            expect_refusal(t, what, &rule, rw, rh);
        }
        if (sc.w_max > 0 && sc.w_max != caps->w_max) {
            int32_t big = round_up(sc.w_max + 1, caps->w_multiple);
            snprintf(what, sizeof what, "%s with W %d (above %d, %s's own limit)", code, (int)big,
                     (int)sc.w_max, code);
            expect_refusal(t, what, &in_shape, big, caps->square_only ? big : sh);
        }
        if (sc.h_max > 0 && sc.h_max != caps->h_max) {
            int32_t big = round_up(sc.h_max + 1, caps->h_multiple);
            snprintf(what, sizeof what, "%s with H %d (above %d, %s's own limit)", code, (int)big,
                     (int)sc.h_max, code);
            expect_refusal(t, what, &in_shape, caps->square_only ? big : sw, big);
        }
        int32_t ow, oh;
        if (sc.cells_max != caps->cells_max && fuzz_over_cells(&sc, &ow, &oh)) {
            snprintf(what, sizeof what, "%s on %dx%d (over %lld cells, %s's own limit)", code,
                     (int)ow, (int)oh, (long long)sc.cells_max, code);
            expect_refusal(t, what, &in_shape, ow, oh);
        }
    }
    /* Below 2r+1 on either side, at the smallest and the largest radius. */
    int32_t below[2] = {r, shape == CC_SHAPE_HEX ? 1 : base_rmax};
    for (int i = 0; i < (below[0] == below[1] ? 1 : 2); i++) {
        int32_t rr = below[i];
        cc_rule rule = cc_edge_rule(shape, rr, centre, CC_EDGE_BAND, caps->count_max);
        int32_t ok_w = smallest_side(rr, caps->w_multiple, 0);
        int32_t ok_h = smallest_side(rr, caps->h_multiple, 0);
        snprintf(what, sizeof what, "W %d (below 2r+1 = %d)", (int)(2 * rr), (int)(2 * rr + 1));
        expect_refusal(t, what, &rule, 2 * rr, ok_h);
        snprintf(what, sizeof what, "H %d (below 2r+1 = %d)", (int)(2 * rr), (int)(2 * rr + 1));
        expect_refusal(t, what, &rule, ok_w, 2 * rr);
    }
}

/* ---- Conformance as a library call ------------------------------------------------------ */

int cc_conformance_run(const cc_engine *engine, const cc_campaign_options *opt,
                       cc_conformance_summary *sum, cc_error *err) {
    memset(sum, 0, sizeof *sum);
    tally t;
    memset(&t, 0, sizeof t);
    t.engine = engine;
    /* An engine over several devices: how many, for the seams and for the reproducers, which
     * name the count so that they run with it again. */
    cc_campaign_options with_devices = *opt;
    char command[CC_REPRODUCER_TEXT_MAX];
    if (engine->devices) {
        int rc = cc_call_devices(engine, &t.devices, err);
        if (rc) return cc_prefix(err, "%s: devices", engine->name);
        char plugins[4096];
        cc_plugin_args(plugins, sizeof plugins);
        if (opt->reproduce && opt->reproduce[0])
            snprintf(command, sizeof command, "CELLCHECK_DEVICES=%d %s", (int)t.devices,
                     opt->reproduce);
        else
            snprintf(command, sizeof command, "CELLCHECK_DEVICES=%d cellcheck%s check --engine %s",
                     (int)t.devices, plugins, engine->name);
        with_devices.reproduce = command;
        opt = &with_devices;
    }
    t.opt = opt;
    /* Stopping at the first failure (the default) stops the sections after it too: its report is
     * printed, and an engine that failed has failed. */
    void (*const sections[])(tally *, const uint8_t *) = {
        edge_cases, seams, plane_cases, scale_cases, shapes, round_trips, step_counts,
        call_sequences, gpu_timing};
    static const char *const names[] = {"edge cases", "seams", "the bounded plane",
                                        "past the tiles, 2^24 and 2^32 cells",
                                        "thin and tall grids", "zero-step round trips",
                                        "step counts", "call sequences", "GPU timing"};
    static const cc_check_section ids[] = {CC_CHECK_EDGE_CASES, CC_CHECK_SEAMS, CC_CHECK_PLANE,
                                           CC_CHECK_PAST_TILES, CC_CHECK_SHAPES,
                                           CC_CHECK_ROUND_TRIPS, CC_CHECK_STEP_COUNTS,
                                           CC_CHECK_SEQUENCES, CC_CHECK_TIMING};
    /* The sections a caller turned off are not run, whatever else happens. */
    const uint32_t off[] = {CC_SECTION_EDGE_CASES, CC_SECTION_SEAMS,
                            CC_SECTION_PLANE,      CC_SECTION_PAST_TILES,
                            CC_SECTION_SHAPES,     CC_SECTION_ROUND_TRIPS,
                            CC_SECTION_STEP_COUNTS, CC_SECTION_SEQUENCES,
                            CC_SECTION_TIMING};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        /* The timing between streams is a dimension of engines on a GPU alone. */
        if (ids[i] == CC_CHECK_TIMING && engine->hardware != CC_HW_GPU) continue;
        if (opt->sections_off & off[i]) {
            cc_gap_note(&t.gaps, ids[i], CC_GAP_ASKED, 1, "left out by the options");
            if (ids[i] == CC_CHECK_PAST_TILES)
                cc_gap_note(&t.gaps, CC_CHECK_PAST_2_32, CC_GAP_ASKED, 1,
                            "left out with the past-the-tiles section");
        }
        if (!(t.failed && opt->stop_at_first_failure) && !(opt->sections_off & off[i])) {
            cc_progress_note(opt->progress, engine->name, names[i]);
            t.section = ids[i];
            t.sections[ids[i]].run = !(opt->sections_off & off[i]);
            /* The case past 2^32 cells runs inside "past the tiles" but is timed as its own. */
            double start = cc_now_seconds(), huge = t.sections[CC_CHECK_PAST_2_32].seconds;
            sections[i](&t, opt->master);
            /* Undisturbed again after the GPU timing section's last check. */
            cc_supervisor_timing(cc_supervisor_of(engine), 0);
            t.sections[ids[i]].seconds +=
                cc_now_seconds() - start - (t.sections[CC_CHECK_PAST_2_32].seconds - huge);
        }
    }
    if (!(t.failed && opt->stop_at_first_failure)) {
        cc_progress_note(opt->progress, engine->name, "refusals");
        t.section = CC_CHECK_REFUSALS;
        t.sections[CC_CHECK_REFUSALS].run = 1;
        double start = cc_now_seconds();
        refusals(&t);
        t.sections[CC_CHECK_REFUSALS].seconds = cc_now_seconds() - start;
    }
    fflush(stdout);

    int rc = CC_OK;
    if (!(t.failed && opt->stop_at_first_failure) && !t.stopped) {
        t.sections[CC_CHECK_CAMPAIGN].run = 1;
        double start = cc_now_seconds();
        rc = cc_campaign_run(engine, opt, &sum->campaign, err);
        t.sections[CC_CHECK_CAMPAIGN].seconds = cc_now_seconds() - start;
        t.sections[CC_CHECK_CAMPAIGN].passed = (int)sum->campaign.passed;
        t.sections[CC_CHECK_CAMPAIGN].failed = (int)sum->campaign.failed;
        t.sections[CC_CHECK_CAMPAIGN].cov = sum->campaign.covered;
    }
    /* What follows (the goldens) runs at the worker's default team again, undisturbed. */
    cc_supervisor_team(cc_supervisor_of(engine), 0);
    cc_supervisor_timing(cc_supervisor_of(engine), 0);
    if (opt->same_team && engine->hardware != CC_HW_GPU)
        cc_gap_note(&t.gaps, CC_CHECK_CAMPAIGN, CC_GAP_ASKED, 1,
                    "every case at the worker's default OpenMP team, not at 1, 2, 3 and every "
                    "core");
    sum->devices = t.devices;
    sum->first_kind = t.first_kind;
    snprintf(sum->first_failure, sizeof sum->first_failure, "%s", t.first_failure);
    sum->first_section = t.first_section;
    snprintf(sum->first_case, sizeof sum->first_case, "%s", t.first_case);
    snprintf(sum->first_calls, sizeof sum->first_calls, "%s", t.first_calls);
    sum->first_index = -1;
    sum->first_ordinal = t.failed ? t.first_ordinal : -1;
    sum->stopped = t.stopped;
    if (!t.failed && sum->campaign.has_failure) {
        const cc_failure_report *f = &sum->campaign.failure;
        sum->first_kind = f->result.kind;
        sum->first_section = CC_CHECK_CAMPAIGN;
        snprintf(sum->first_failure, sizeof sum->first_failure, "campaign case %" PRIu64 ": %.500s",
                 sum->campaign.first_failure, f->result.detail);
        snprintf(sum->first_case, sizeof sum->first_case, "%s", f->line);
        sum->first_index = (int64_t)sum->campaign.first_failure;
    }
    if (sum->first_case[0])
        cc_reproducer_format(sum->first_reproducer, sizeof sum->first_reproducer, opt->reproduce,
                             engine->name, sum->first_case,
                             sum->first_calls[0] ? sum->first_calls : NULL);
    memcpy(sum->sections, t.sections, sizeof sum->sections);
    sum->edge_passed = t.edge_passed;
    sum->scale_passed = t.scale_passed;
    sum->huge_passed = t.huge_passed;
    snprintf(sum->huge_note, sizeof sum->huge_note, "%s", t.huge_note);
    sum->gaps = t.gaps;
    const cc_engine_caps caps = cc_engine_caps_resolved(engine);
    sum->tile_w = caps.tile_w;
    sum->tile_h = caps.tile_h;
    sum->lightcone_cells = t.lightcone_cells;
    sum->seam_classes = t.seam_classes;
    sum->round_trips = t.round_trips;
    sum->sequences = t.sequences;
    sum->timing_passed = t.timing_passed;
    sum->shapes_passed = t.shapes_passed;
    sum->seams_passed = t.seams_passed;
    sum->plane_passed = t.plane_passed;
    sum->step_counts = t.counts_passed;
    sum->step_counts_blind = t.counts_blind;
    sum->step_counts_max = t.counts_max;
    sum->refusals = t.refusals;
    sum->failed = t.failed;
    sum->infra_errors = t.infra_error + t.edge_refused;
    sum->passed = t.failed == 0 && sum->infra_errors == 0 && rc == CC_OK;
    return rc == CC_ERR_MISMATCH ? CC_OK : rc;
}

void cc_conformance_geometry(const cc_conformance_summary *sum, char *tile, size_t tile_size,
                             char *huge, size_t huge_size) {
    if (sum->tile_w > 1 || sum->tile_h > 1)
        snprintf(tile, tile_size, "tile %dx%d", (int)sum->tile_w, (int)sum->tile_h);
    else
        snprintf(tile, tile_size, "no tile declared, 64x64 assumed");
    if (sum->huge_passed)
        snprintf(huge, huge_size, "passed");
    else
        snprintf(huge, huge_size, "not run: %s", sum->huge_note[0] ? sum->huge_note : "failed or not reached");
}

/* ---- The harness ------------------------------------------------------------------------ */

static int huge_option(const char *flag, const char *value, void *dest, cc_error *err) {
    int *mode = dest;
    if (strcmp(value, "auto") == 0) *mode = CC_HUGE_GRID_AUTO;
    else if (strcmp(value, "gpu") == 0) *mode = CC_HUGE_GRID_GPU;
    else if (strcmp(value, "on") == 0) *mode = CC_HUGE_GRID_ON;
    else if (strcmp(value, "off") == 0) *mode = CC_HUGE_GRID_OFF;
    else return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not auto, gpu, on or off", flag, value);
    return CC_OK;
}

/* The sections a run may leave out, by their ids on a command line. */
static const struct {
    cc_check_section section;
    uint32_t bit;
} leavable[] = {
    {CC_CHECK_EDGE_CASES, CC_SECTION_EDGE_CASES}, {CC_CHECK_SEAMS, CC_SECTION_SEAMS},
    {CC_CHECK_PLANE, CC_SECTION_PLANE},           {CC_CHECK_PAST_TILES, CC_SECTION_PAST_TILES},
    {CC_CHECK_SHAPES, CC_SECTION_SHAPES},         {CC_CHECK_ROUND_TRIPS, CC_SECTION_ROUND_TRIPS},
    {CC_CHECK_STEP_COUNTS, CC_SECTION_STEP_COUNTS}, {CC_CHECK_SEQUENCES, CC_SECTION_SEQUENCES},
    {CC_CHECK_TIMING, CC_SECTION_TIMING},
};

static int leave_out_option(const char *flag, const char *value, void *dest, cc_error *err) {
    uint32_t bits = 0;
    for (const char *p = value;;) {
        size_t len = strcspn(p, ","), i = 0, n = sizeof leavable / sizeof leavable[0];
        while (i < n && !(strlen(cc_check_section_id(leavable[i].section)) == len &&
                          strncmp(p, cc_check_section_id(leavable[i].section), len) == 0))
            i++;
        if (i == n) {
            char ids[256] = "";
            for (size_t j = 0; j < n; j++)
                snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", j ? ", " : "",
                         cc_check_section_id(leavable[j].section));
            return cc_fail(err, CC_ERR_ARG, "%s: '%.*s' is not a section to leave out (%s)", flag,
                           len > 64 ? 64 : (int)len, p, ids);
        }
        bits |= leavable[i].bit;
        p += len;
        if (!*p) break;
        p++;
    }
    *(uint32_t *)dest |= bits;
    return CC_OK;
}

cc_option cc_leave_out_option(cc_campaign_options *opt) {
    const cc_option row = CC_OPTION_CUSTOM(
        "leave-out", "SECTION[,SECTION...]", &opt->sections_off, leave_out_option,
        "sections to leave out, each a gap (SECTION:asked): edge-cases, seams, plane, "
        "past-tiles, shapes, round-trips, step-counts, sequences, gpu-timing");
    return row;
}

static int seed_option(const char *flag, const char *value, void *dest, cc_error *err) {
    int rc = case_seed_parse_hex(value, dest, err);
    return rc ? cc_prefix(err, "%s", flag) : CC_OK;
}

cc_option cc_progress_option(cc_campaign_options *opt) {
    const cc_option row = CC_OPTION_FLAG(
        "progress", &opt->progress,
        "progress on stderr (cases done, failures, rate, time left) even when it is no terminal");
    return row;
}

cc_option cc_huge_grid_option(cc_campaign_options *opt) {
    const cc_option row = CC_OPTION_CUSTOM(
        "huge-grid", "auto|gpu|on|off", &opt->huge_grid, huge_option,
        "the case past 2^32 cells (98309x43691, light cones): gpu (the conformance tests' "
        "default) for GPU engines, auto (certify's) for every engine that fits in memory");
    return row;
}

void cc_campaign_option_rows(cc_campaign_options *opt, cc_option rows[CC_CAMPAIGN_OPTION_COUNT]) {
    const cc_option table[CC_CAMPAIGN_OPTION_COUNT] = {
        CC_OPTION_UINT64("cases", "N", &opt->cases, 1, CC_CAMPAIGN_CASES_MAX,
                         "how many seeded cases to run"),
        CC_OPTION_CUSTOM("seed", "HEX", opt->master, seed_option,
                         "the master seed, 64 hex digits"),
    };
    memcpy(rows, table, sizeof table);
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* What a reproducer runs: this test binary, which knows its engine wherever it was built (a port's
 * own workspace too). Run by `bazel test` as the test itself, its target with `bazel run`;
 * elsewhere (another test's script, a bundle) the binary's own path. "" for an engine from a
 * plugin, which cellcheck loads as the plugin's users do. */
static void reproducer_command(const char *argv0, char *out, size_t size) {
    char plugins[16];
    cc_plugin_args(plugins, sizeof plugins);
    const char *target = getenv("TEST_TARGET"), *binary = getenv("TEST_BINARY");
    if (plugins[0])
        out[0] = '\0';
    else if (target && target[0] && binary && !strcmp(base_name(binary), base_name(argv0)))
        /* bazel run takes a sharded test only with sharding off. */
        snprintf(out, size, "bazel run --test_sharding_strategy=disabled %s --", target);
    else
        snprintf(out, size, "%s", argv0);
}

/* The conformance driver's option table, writing into opt. */
typedef struct conformance_table {
    cc_option rows[CC_CAMPAIGN_OPTION_COUNT + 7 + CC_SUPERVISION_OPTION_COUNT];
    cc_command cmd;
    const char *case_line, *calls; /* --case and --calls */
} conformance_table;

static void conformance_table_init(conformance_table *t, cc_campaign_options *opt,
                                   const char *program) {
    memset(t, 0, sizeof *t);
    const cc_option rows[CC_CAMPAIGN_OPTION_COUNT + 7] = {
        [CC_CAMPAIGN_OPTION_COUNT] = CC_OPTION_STRING("report-dir", "DIR", &opt->report_dir,
                                                      "where failure reports are written"),
        [CC_CAMPAIGN_OPTION_COUNT + 1] = CC_OPTION_FLAG("verbose", &opt->verbose,
                                                        "print every case as it runs"),
        [CC_CAMPAIGN_OPTION_COUNT + 2] = CC_OPTION_FLAG(
            "replay-alone", &opt->replay_alone,
            "replay a failing case alone in a fresh worker process"),
        [CC_CAMPAIGN_OPTION_COUNT + 3] = cc_huge_grid_option(opt),
        [CC_CAMPAIGN_OPTION_COUNT + 4] = cc_progress_option(opt),
        [CC_CAMPAIGN_OPTION_COUNT + 5] = CC_OPTION_STRING(
            "case", "LINE", &t->case_line, "replay one case: the line a failure prints"),
        [CC_CAMPAIGN_OPTION_COUNT + 6] = CC_OPTION_STRING(
            "calls", "SEQUENCE", &t->calls, "with --case, run that call sequence on it"),
    };
    memcpy(t->rows, rows, sizeof rows);
    cc_campaign_option_rows(opt, t->rows);
    cc_supervision_option_rows(opt, t->rows + CC_CAMPAIGN_OPTION_COUNT + 7);
    t->cmd = (cc_command){program,
                          "The engine's conformance test: edge cases, seams, shapes, zero-step\n"
                          "round trips, step counts, call sequences, then a seeded campaign\n"
                          "against the oracle. With --case, replays the one case a failure\n"
                          "printed.",
                          t->rows, sizeof t->rows / sizeof t->rows[0]};
}

void cc_harness_conformance_help(const char *program, FILE *out) {
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    conformance_table t;
    conformance_table_init(&t, &opt, program);
    cc_options_help(&t.cmd, out);
}

static int conformance_main(const cc_engine *engine, const cc_engine *reference, int argc,
                           char **argv) {
    (void)reference;
    int status = 0;
    cc_campaign_options opt;
    cc_campaign_options_init(&opt);
    cc_error err;
    if (cc_campaign_options_from_env(&opt, &err)) {
        fprintf(stderr, "%s conformance: %s\n", engine->name, err.msg);
        return 2;
    }
    conformance_table t;
    conformance_table_init(&t, &opt, cc_options_program(argc, argv, "conformance"));
    cc_command cmd = t.cmd;
    if (cc_options_parse_or_usage(&cmd, argc, argv, stdout, stderr, &status)) return status;
    const char *case_line = t.case_line, *calls = t.calls;
    cc_supervision_apply(engine, &opt);
    if (calls && !case_line) {
        fprintf(stderr, "%s conformance: --calls needs --case\n", engine->name);
        return 2;
    }
    if (cc_harness_skip(engine, &status)) return status;
    char command[512];
    reproducer_command(argv[0], command, sizeof command);
    if (command[0]) opt.reproduce = command;
    if (case_line) {
        int rc = calls ? cc_sequence_check_line(engine, case_line, calls, opt.reproduce, stdout, &err)
                       : cc_campaign_check_line(engine, case_line, &opt, NULL, &err);
        if (rc == CC_OK) return 0;
        if (rc != CC_ERR_MISMATCH) {
            fprintf(stderr, "%s conformance: %s\n", engine->name, err.msg);
            return 2;
        }
        return 1;
    }
    char master[2 * CC_SEED_BYTES + 1], caps[256];
    case_seed_format_hex(opt.master, master);
    cc_engine_describe_caps(engine, caps, sizeof caps);
    printf("%s: %s\n  caps: %s\n  master seed %s, shard %u of %u\n", engine->name,
           engine->summary ? engine->summary : "", caps, master, opt.shard_index + 1,
           opt.shard_count);
    fflush(stdout);

    cc_conformance_summary sum;
    int rc = cc_conformance_run(engine, &opt, &sum, &err);
    if (rc) printf("ERROR: %s: %s\n", engine->name, err.msg);
    char classes[160];
    cc_seam_classes_describe(sum.seam_classes, classes, sizeof classes);
    char tile[48], huge[240];
    cc_conformance_geometry(&sum, tile, sizeof tile, huge, sizeof huge);
    printf("%s: past the tiles (%s): %d cases passed; past 2^32 cells: %s; light cones verified "
           "%" PRIu64 " cells (%s)\n",
           engine->name, tile, sum.scale_passed, huge, sum.lightcone_cells,
           classes[0] ? classes : "none");
    if (sum.devices)
        printf("%s: over %d devices (CELLCHECK_DEVICES=%d): device seams in the edge cases, past "
               "the tiles and in the light cones\n",
               engine->name, (int)sum.devices, (int)sum.devices);
    if (sum.plane_passed)
        printf("%s: the bounded plane: %d cases passed\n", engine->name, sum.plane_passed);
    printf("%s: seams: %d grids passed (the last tile short, full and long, %d grids each: a "
           "one-cell error right half the time passes them with probability 2^-%d)\n",
           engine->name, sum.seams_passed, CC_SEAM_GRIDS, CC_SEAM_GRIDS);
    printf("%s: thin and tall grids: %d passed; step counts: %d passed (largest %" PRId64
           ", %d left out); call sequences: %d passed\n",
           engine->name, sum.shapes_passed, sum.step_counts, sum.step_counts_max,
           sum.step_counts_blind, sum.sequences);
    printf("%s: %s: %d edge cases passed, %d zero-step round trips passed, %d refusals checked, "
           "campaign %" PRIu64 " cases (%" PRIu64 " passed, %" PRIu64
           " refused as required, %" PRIu64 " failed), master seed %s, shard %u of %u\n",
           engine->name, sum.passed ? "conformance PASSED" : "conformance FAILED",
           sum.edge_passed, sum.round_trips, sum.refusals, sum.campaign.run, sum.campaign.passed,
           sum.campaign.refused, sum.campaign.failed, master, opt.shard_index + 1,
           opt.shard_count);
    /* A test's own options leave checks out on purpose; certify makes such a run INCOMPLETE. */
    if (sum.gaps.n || sum.gaps.dropped) {
        printf("%s: %d gaps (checks left out):\n", engine->name, sum.gaps.n);
        cc_gap_list_print(stdout, engine->name, &sum.gaps);
    }
    fflush(stdout);
    return sum.passed ? 0 : 1;
}

int cc_harness_conformance(const cc_engine *engine, const cc_engine *reference, int argc, char **argv) {
    return cc_harness_drive(conformance_main, engine, reference, argc, argv);
}
