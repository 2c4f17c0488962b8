/* The seeded case generator: cases drawn for one engine within (or, on purpose, just outside)
 * its caps, every one from a 32-byte seed, so a case is the same on every machine. The options
 * that steer a draw are the campaign's (harness/campaign.h runs them). */
#ifndef CELLCHECK_FUZZ_DRAW_H
#define CELLCHECK_FUZZ_DRAW_H

#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "oracle/case.h"
#include "oracle/error.h"
#include "oracle/rule.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* The master seed a campaign uses unless told otherwise. */
#define CC_CAMPAIGN_DEFAULT_SEED "ce11c4ec0000000000000000000000000000000000000000000000000000d1ff"
#define CC_CAMPAIGN_DEFAULT_CASES 300
/* Sides of ordinary valid cases are drawn up to this unless a size range says otherwise; large
 * cases (below) go past it. */
#define CC_CAMPAIGN_DEFAULT_SIZE_MAX 160
#define CC_CAMPAIGN_DEFAULT_STEPS_MAX 16
/* Expected oracle work per case, in cell-neighbour visits: W * H * (2r+1)^2 * steps. A case that
 * would cost more is drawn smaller, with fewer steps, or, when one step at the smallest size
 * already costs more, with one step only at probability budget / cost (else zero steps). At about
 * 3.5 ns a visit this bounds the oracle's expected time near 7 ms a case; most cost far less (a
 * 2000-case campaign of cpu.ref, r 1..64, takes 3 to 6 s on one core). */
#define CC_CAMPAIGN_DEFAULT_BUDGET 2e6
/* Valid cases drawn past every engine's blocks (see cc_case_draw), and the engine work each may
 * cost, in cell-neighbour visits W * H * (2r+1)^2 * steps: about 0.5 s of a plain scalar loop.
 * These are meant for the light-cone check, which reads sampled windows from the oracle, so the
 * oracle's cost of a full grid does not bound them. */
#define CC_CAMPAIGN_DEFAULT_LARGE_PERCENT 15
#define CC_CAMPAIGN_DEFAULT_LARGE_BUDGET 5e7
/* A share of the valid cases at r > 16 (not large) get 2..4 steps on non-square grids near the
 * smallest, within this many times the oracle budget (the budget alone gives them one step at
 * most: one step at r = 64 costs 129 * 130 * 129^2 = 2.8e8 visits). Where the steps cost more,
 * a case keeps its radius with probability budget / cost, else takes a smaller one above 16. */
#define CC_CAMPAIGN_LARGE_RADIUS 16
#define CC_CAMPAIGN_DEFAULT_RADIUS_STEPS_PERCENT 36
#define CC_CAMPAIGN_RADIUS_STEPS_BUDGET_FACTOR 15
#define CC_CAMPAIGN_DEFAULT_INVALID_PERCENT 10
#define CC_CAMPAIGN_DEFAULT_SHRINK_TRIES 200

/* The case past 2^32 cells: GPU (the default of the conformance tests, which every machine's
 * `bazel test` runs) for GPU engines only; AUTO (certify's default) for every engine whose
 * context and the harness's grids fit this machine's memory; ON every engine; OFF none. */
enum { CC_HUGE_GRID_AUTO = 0, CC_HUGE_GRID_ON = 1, CC_HUGE_GRID_OFF = 2, CC_HUGE_GRID_GPU = 3 };

/* One campaign case as it ended, for a caller that reports every case (check's JUnit and JSON):
 * outcome 0 passed, 1 refused as required, 2 failed; kind the failure's class, detail its
 * words ("" where it passed). */
typedef struct cc_case_outcome {
    uint64_t index;
    const cc_case *c;
    int outcome;
    const char *kind, *detail;
    double seconds;
} cc_case_outcome;
typedef void (*cc_case_outcome_fn)(void *ctx, const cc_case_outcome *o);

typedef struct cc_campaign_options {
    uint8_t master[CC_SEED_BYTES];
    uint64_t cases;               /* cases 0 .. cases-1, before sharding */
    int32_t radius_lo, radius_hi; /* valid cases draw radii here (within the engine's range);
                                   * 0, 0: the engine's whole range */
    int32_t size_lo, size_hi;     /* valid cases draw W and H here; 0: 2r+1 and
                                   * CC_CAMPAIGN_DEFAULT_SIZE_MAX */
    int64_t steps_max;            /* 0: CC_CAMPAIGN_DEFAULT_STEPS_MAX */
    double cost_budget;           /* 0: CC_CAMPAIGN_DEFAULT_BUDGET */
    int invalid_percent;          /* share of cases drawn outside the engine's caps, which create
                                   * must refuse; 0..100 */
    int large_percent;            /* share of valid cases drawn large; 0:
                                   * CC_CAMPAIGN_DEFAULT_LARGE_PERCENT, negative: none */
    double large_budget;          /* engine work a large case may cost; 0:
                                   * CC_CAMPAIGN_DEFAULT_LARGE_BUDGET */
    uint32_t shard_index, shard_count; /* case i runs iff i % shard_count == shard_index */
    int stop_at_first_failure;    /* 1 (default): stop and report; 0: count every failure and
                                   * report the first */
    int shrink;                   /* 1 (default): shrink a failing case */
    int shrink_tries;             /* bound on the cases the shrinker runs */
    const char *report_dir;       /* where difference PNGs are written; NULL: none */
    FILE *out;                    /* reports and progress; NULL: stdout */
    int verbose;                  /* 1: one line per case */
    int progress;                 /* progress lines on stderr: 0 (default) when stderr is a
                                   * terminal, 1 always, -1 never */
    int huge_grid;                /* the case past 2^32 cells: CC_HUGE_GRID_GPU (default),
                                   * _AUTO, _ON or _OFF (above) */
    int replay_alone;             /* 1: a failure is replayed alone in a fresh worker process
                                   * (harness/replay.h), to tell whether it depends on the
                                   * worker's history */
    double time_limit_s;          /* the floor of every engine call's time limit; 0: the
                                   * supervisor's default (CC_SUPERVISOR_TIME_FLOOR_S) */
    double memory_margin_mib;     /* the worker's memory margin; 0: the supervisor's default */
    int sandbox_off;              /* 1: workers run outside the sandbox (--sandbox off), a gap
                                   * sandbox:asked */
    const char *reproduce;        /* the command a reproducer starts with, before --case (an
                                   * engine's test binary: `bazel run //pkg:test --`); NULL:
                                   * cellcheck [--plugin P] check --engine NAME */
    uint32_t sections_off;        /* CC_SECTION_* (harness/coverage.h, one bit a section of
                                   * harness/sections/list.h) the conformance checks leave out
                                   * (0: none), so a test can show which one catches a wrong
                                   * engine */
    int same_team;                /* 1: every case at the worker's default OpenMP team, not the
                                   * team sizes cc_team_size draws (a gap: a test shows what
                                   * varying them catches) */
    int one_shape;                /* 1: the thin, tall and wide grids on the first shape at its
                                   * smallest radius only, not on every shape at its smallest and
                                   * largest (a gap: a test shows what crossing them catches) */
    struct cc_oracle_cache *oracle_cache; /* the oracle's results kept on this machine
                                   * (harness/oracle_cache.h); NULL: every result computed */
    int quick;                    /* 1: every section at its smallest (certify --quick), the rest
                                   * of each a gap SECTION:asked */
    cc_case_outcome_fn on_case;   /* called after every case with on_case_ctx; NULL: none */
    void *on_case_ctx;
} cc_campaign_options;


typedef struct cc_drawn_case {
    cc_case c;
    int expect_refusal;  /* drawn outside the engine's caps on purpose */
    int large;           /* drawn past the engine's blocks, bounded by the large budget rather
                          * than the oracle's: a light-cone check, not a whole-grid one */
    char why[160];       /* for such a case, the limit it breaks */
} cc_drawn_case;

/* What the draw reads of an engine, resolved once per engine (where a campaign or a section
 * starts) and handed to every case's draw, which then never goes back to the engine's table:
 * its name for messages, where it runs, its caps with every omitted limit filled in
 * (cc_engine_caps_resolved), and those caps as they stand for each shape. */
typedef struct cc_draw_caps {
    const char *name;
    cc_hardware hardware;
    cc_engine_caps all;                   /* cc_engine_caps_resolved */
    cc_engine_caps shape[CC_SHAPE_COUNT]; /* cc_engine_caps_for_shape of all, for each shape */
    uint32_t narrowed;                    /* CC_SHAPE_BIT of the shapes whose shape_limits
                                           * narrow the engine-wide caps */
} cc_draw_caps;

/* Resolves engine's caps into out; engine must outlive it (out->name is its name). */
void cc_draw_caps_of(const cc_engine *engine, cc_draw_caps *out);

/* Draws one case for engine from a case seed, deterministically: everything comes from
 * randombytes_buf_deterministic keyed by BLAKE2b-256(seed || "params"). Valid cases fit the
 * engine's caps and the options' ranges; invalid ones (opt->invalid_percent of them, where the
 * caps leave anything to break) break exactly one limit but are still valid for the oracle
 * (W, H >= 2r+1). Of the valid ones, opt->large_percent are large (out->large): sides from
 * 2^k - 1, 2^k, 2^k + 1 (2^k in 64..2048) and n*tile - 1, n*tile, n*tile + 1 (n >= 2, where the
 * caps state a tile), one side 1100 or more in about half of them, 1..4 steps, within
 * opt->large_budget; where the caps or an explicit size range leave no such side, the case is
 * drawn as an ordinary one. Every case's grid kind is drawn too: 70% uniform, 6% each of the
 * others. Fails when the options leave nothing to draw (a radius range outside the engine's,
 * sizes too small for any radius). */
int cc_case_draw_with(const cc_draw_caps *engine, const cc_campaign_options *opt,
                      const uint8_t seed[CC_SEED_BYTES], cc_drawn_case *out, cc_error *err);
/* The same for a single case: resolves the engine's caps first. */
int cc_case_draw(const cc_engine *engine, const cc_campaign_options *opt,
                 const uint8_t seed[CC_SEED_BYTES], cc_drawn_case *out, cc_error *err);

/* Case i of the campaign: cc_case_draw_with the seed case_seed_derive(opt->master, i), and the
 * team cc_team_size gives it. */
int cc_campaign_case_with(const cc_draw_caps *engine, const cc_campaign_options *opt,
                          uint64_t index, cc_drawn_case *out, cc_error *err);
/* The same for a single case: resolves the engine's caps first. */
int cc_campaign_case(const cc_engine *engine, const cc_campaign_options *opt, uint64_t index,
                     cc_drawn_case *out, cc_error *err);

/* The OpenMP team case `index` of a series runs with, where the engine runs on the CPU: 1, 2, 3
 * (odd) and every core (OMP_NUM_THREADS where the environment sets it, else the cores; at least
 * 4), in turns of CC_TEAM_TURN cases, so a verdict does not rest on the team this machine
 * happens to give. 0 (the worker's default) for a GPU engine, or where
 * opt->same_team. */
#define CC_TEAM_TURN 50
int32_t cc_team_size(const cc_engine *engine, const cc_campaign_options *opt, uint64_t index);

/* Every range clamped to 0 .. max, merged again where clamping made them meet. */
void fuzz_set_clamp(cc_set *set, int32_t max);

/* The smallest side an engine takes at radius r along an axis with this multiple. */
int32_t fuzz_side_min(int32_t r, int32_t multiple);

/* The limits of ports (caps.square_only, s_ranges_max, b_ranges_max, no_b0, cells_max), for cases
 * built by hand (the conformance edge cases):
 * fuzz_fit_port_caps: the rule's sets merged and B0 dropped as the caps need; a square side the
 * larger of W and H (keep_cells = 0) or one with as many cells (1). Returns 0 when the grid is
 * over cells_max after that, 1 when the case fits.
 * fuzz_ranges_breakable: whether n + 1 intervals fit a rule of the engine, so that a limit of n
 * can be broken; rule is then that rule (r = 1, M0, a Life-like notation that prints them), and
 * fuzz_set_intervals_over breaks a set of it into the n + 1 intervals 1, 3, 5, ...
 * fuzz_over_cells: sides just over cells_max within the side limits; 0 when none. */
int fuzz_fit_port_caps(const cc_engine_caps *caps, int keep_cells, cc_case *c);
int fuzz_ranges_breakable(const cc_engine_caps *caps, int32_t n, cc_rule *rule);
void fuzz_set_intervals_over(cc_set *set, int32_t n);
int fuzz_over_cells(const cc_engine_caps *caps, int32_t *w, int32_t *h);

#ifdef __cplusplus
}
#endif

#endif
