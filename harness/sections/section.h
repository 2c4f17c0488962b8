/* What the sections of a conformance run share: the tally every check counts into, the checks
 * of one case that count into it, and what a section is (one file each, one line each in
 * list.h). Not part of the harness's interface. */
#ifndef CELLCHECK_HARNESS_SECTIONS_SECTION_H
#define CELLCHECK_HARNESS_SECTIONS_SECTION_H

#include <stdint.h>

#include "harness/harness.h"

/* What a conformance run found so far; the run copies it into its summary. */
typedef struct conformance_tally {
    const cc_engine *engine;
    cc_engine_caps caps; /* the engine's caps, resolved once for every section (engines/engine.h) */
    const cc_campaign_options *opt;
    uint64_t ordinal;  /* numbering of sharded checks: check j runs in shard j % count */
    int64_t first_ordinal; /* the first failure's check, in that numbering */
    int edge_passed, edge_refused, round_trips, refusals, failed, scale_passed, huge_passed;
    int sequences; /* call sequences that passed */
    cc_transitions transitions; /* the contract's transitions those sequences covered */
    int contexts_passed; /* near-duplicate sequences across contexts that passed */
    int timing_passed; /* checks of the GPU timing section that passed */
    int shapes_passed; /* thin, tall and wide grids past 2^16 and 65535 tiles, every shape */
    int seams_passed;  /* grids of the seam alignments that passed */
    int plane_passed;  /* cases on the bounded plane that passed */
    int counts_passed, counts_blind; /* step counts that passed; that no case could tell apart */
    int64_t counts_max;              /* the largest step count checked */
    int counts_long, counts_running; /* counts past 2^31 tried; of them, still running at the
                                      * wait (the rest answered: passed or failed) */
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
    cc_campaign_result *campaign; /* where the campaign section puts its result */
    int campaign_rc;              /* and what cc_campaign_run returned */
    cc_error *err;                /* the run's error, for the campaign's */
} conformance_tally;

/* How the run treats a section. */
#define SECTION_GPU_ONLY 1u     /* a dimension of engines on a GPU alone: for any other, neither
                                 * run nor a gap */
#define SECTION_NOT_AFTER_FAULT 2u /* not started once a fault stopped the checks */

/* One section: its id and name are its line of list.h. */
typedef struct conformance_section {
    const char *progress;   /* what a progress line calls it starting; NULL: no line */
    unsigned flags;         /* SECTION_* */
    int part_of;            /* a section run inside another's run (its own tally, seconds and
                             * gaps): that section's cc_check_section; -1: none */
    const char *left_out_note; /* such a section's gap when the other is left out */
    /* Runs its checks on the tally (t->section is its own); NULL for a part of another. */
    void (*run)(conformance_tally *t);
} conformance_section;

#define CC_SECTION_ROW(KEY, file, id, name) extern const conformance_section section_##file;
#include "harness/sections/list.h"
#undef CC_SECTION_ROW

/* Every section, by its cc_check_section (sections/table.c). */
extern const conformance_section *const conformance_sections[CC_CHECK_SECTION_COUNT];

/* ---- Checks counted into the tally (sections/tally.c) ----------------------------------- */

/* How many drawn checks a section runs: full, or under opt->quick (certify --quick) the smallest
 * number, quick, and the rest a gap of section, SECTION:asked, naming what (the checks'
 * plural). */
int tally_quick_count(conformance_tally *t, cc_check_section section, int full, int quick,
                      const char *what);

/* Is the next check this shard's? Numbers it either way. */
int tally_mine(conformance_tally *t);

/* The rule as the engine takes it on a w x h grid: on the torus, else on the bounded plane where
 * that is all it does (rule->topology set to it); 0 where its caps take neither (an engine is
 * held to what it states). */
int tally_rule_fits(const conformance_tally *t, cc_rule *rule, int32_t w, int32_t h);

/* A mark of the time so far: the wall clock, the seconds the engine's worker spent serving
 * calls and the calls' whole wall time (their difference is the exchange). */
typedef struct tally_clock {
    double wall, engine, calls;
} tally_clock;
tally_clock tally_clock_now(const conformance_tally *t);
/* Adds what passed since mark to s: its seconds, engine seconds and exchange seconds. */
void tally_clock_add(const conformance_tally *t, const tally_clock *mark, cc_section_tally *s);

/* The engine's time for big's load, steps and store, from a probe of the same rule on a grid of
 * about want_w x want_h (fitted to the caps): the probe's time per cell times big's cells. A
 * probe that fails returns its code and says nothing of the time. */
int tally_time_estimate(const conformance_tally *t, const cc_case *big, int32_t want_w,
                        int32_t want_h, double *seconds, double *probe_s);

/* Counts a failure in the running section and keeps the first: its class, its label ("edge case
 * (largest counts)") and detail, its case and its calls (either may be NULL). */
void tally_note_failure(conformance_tally *t, cc_failure_kind kind, const char *label,
                        const char *detail, const cc_case *c, const char *calls);

/* Checks one case, fitted first to the limits of a port (square only, intervals, B0, cells);
 * counts its verdict in the running section, a pass in *passed too (NULL: a section counted
 * there alone). check: NULL for the defaults. */
void tally_check_case_with(conformance_tally *t, const char *label, const cc_case *given,
                           const cc_check_options *check, int *passed);
void tally_check_case(conformance_tally *t, const char *label, const cc_case *given,
                      int *passed);
/* Checks one case when it belongs to this shard and no fault stopped the checks. */
void tally_check(conformance_tally *t, const char *label, const cc_case *c, int *passed);

/* Runs call sequence i, drawn on case c, and counts its verdict in the running section (label
 * names it in reports): a failure is reported with the sequence, then the shortest one found that
 * still fails. Returns 1 where the checks stop after it (a failure, stopping at the first). */
int tally_run_sequence(conformance_tally *t, const char *label, int i, const cc_case *c,
                       int *passed);
/* A sequence's case i: drawn small from seed (1 and the error counted and named after what when it
 * cannot be), then, by tally_fit_sequence_case, fitted to the caps (0 and counted over the caps
 * when it does not fit) with the OpenMP team of item i of n (tally_team_of). */
int tally_draw_sequence_case(conformance_tally *t, const char *what, int i,
                             const uint8_t seed[CC_SEED_BYTES], cc_case *c);
int tally_fit_sequence_case(conformance_tally *t, int i, int n, cc_case *c);
/* The OpenMP team of item i of a section's n: 1, 2, 3 and every core (cc_team_size), each for a
 * quarter of the items in a row. A worker's team is fixed when it starts, so a team that turned
 * with every item would start a worker (and every rank's) for each. */
int32_t tally_team_of(const conformance_tally *t, int i, int n);
/* The same for the given sequence s (the transition tour's). */
int tally_run_sequence_given(conformance_tally *t, const char *label, int i, const cc_case *c,
                             const cc_call_sequence *s, int *passed);

/* Above this one-step oracle cost (cell-neighbour visits) an edge case is left out, with a
 * note: about 35 s of oracle time. */
#define EDGE_STEP_COST_MAX 1e10
/* Is the case within it? Where it is not, a gap of the running section (counted by one
 * shard). */
int tally_affordable(conformance_tally *t, const cc_case *c);

/* ---- Building cases --------------------------------------------------------------------- */

static inline int32_t section_round_up(int32_t v, int32_t m) {
    return m > 1 ? (v + m - 1) / m * m : v;
}

/* The smallest side the engine takes at radius r, or 0 when the side limit rules r out. */
static inline int32_t section_smallest_side(int32_t r, int32_t multiple, int32_t side_max) {
    int32_t s = section_round_up(2 * r + 1, multiple);
    return side_max > 0 && s > side_max ? 0 : s;
}

/* The shape the hand-built sections use: Moore where the engine does it (the widest, and bit 0),
 * else the first it does. */
static inline cc_shape section_first_shape(const cc_engine_caps *caps) {
    for (int s = 0; s < CC_SHAPE_COUNT; s++)
        if (caps->shapes & CC_SHAPE_BIT(s)) return (cc_shape)s;
    return CC_SHAPE_MOORE;
}

/* The case past 2^32 cells, at the shape, radius and centre of the past-the-tiles cases, from
 * their salt (sections/huge_grid.c). */
void section_huge_case(conformance_tally *t, cc_shape shape, int32_t r, int centre,
                       uint64_t salt);

#endif
