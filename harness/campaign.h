/* The differential campaign: seeded cases drawn for one engine, each run on the engine and on the
 * oracle and compared cell by cell; on the first failure, a full report (first diverging step,
 * first differing cell, how many differ, the case shrunk, a picture of the difference, the
 * one-line reproducer).
 *
 * Typical use (a command-line tool or a test):
 *
 *     cc_campaign_options opt;
 *     cc_campaign_options_init(&opt);             // default seed, 300 cases, stdout
 *     if (cc_campaign_options_from_env(&opt, &err)) ...  // Bazel sharding, report directory
 *     opt.cases = 2000;
 *     cc_campaign_result res;
 *     int rc = cc_campaign_run(engine, &opt, &res, &err);
 *     // rc == CC_OK: every case passed or was refused as it had to be
 *     // rc == CC_ERR_MISMATCH: res.failure holds the report, already printed to opt.out
 *     // any other rc: the campaign could not run; err says why
 *
 *     rc = cc_campaign_check_line(engine, "rule=... size=... steps=... density=... seed=...",
 *                                 &opt, &report, &err);   // `cellcheck check --case`
 *
 * Everything a campaign draws comes from its master seed, so a campaign is the same on every
 * machine; every failure prints the master seed, the case index and the case line. */
#ifndef CELLCHECK_HARNESS_CAMPAIGN_H
#define CELLCHECK_HARNESS_CAMPAIGN_H

#include <stdint.h>
#include <stdio.h>

#include "fuzz/draw.h"
#include "engines/engine.h"
#include "harness/coverage.h"
#include "oracle/case.h"
#include "oracle/error.h"
#include "oracle/grid.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* Defaults: CC_CAMPAIGN_DEFAULT_SEED, CC_CAMPAIGN_DEFAULT_CASES, one shard, stop at the first
 * failure, shrink, no report directory, stdout. */
void cc_campaign_options_init(cc_campaign_options *opt);

/* Bazel's test protocol: TEST_TOTAL_SHARDS and TEST_SHARD_INDEX set the shard (and
 * TEST_SHARD_STATUS_FILE is touched to say sharding is supported); the report directory becomes
 * TEST_UNDECLARED_OUTPUTS_DIR when it is set and none was chosen. Refuses malformed values. */
int cc_campaign_options_from_env(cc_campaign_options *opt, cc_error *err);

/* "A..B" or "A" (A == B), positive integers with A <= B. */
int cc_parse_int_range(const char *text, int32_t *lo, int32_t *hi, cc_error *err);

/* A small case within the engine's caps (none drawn large or outside them) from seed: the
 * second context of the call patterns and sequences, and the cases of the step-count and
 * call-sequence checks. */
int cc_case_draw_small(const cc_engine *engine, const uint8_t seed[CC_SEED_BYTES], cc_case *out,
                       cc_error *err);

/* ---- Checking one case ------------------------------------------------------------------ */

typedef enum cc_outcome {
    CC_OUTCOME_PASS = 0,    /* within the caps, and the engine agreed with the oracle */
    CC_OUTCOME_REFUSED = 1, /* outside the caps, and create refused it with a message */
    CC_OUTCOME_FAIL = 2
} cc_outcome;

typedef enum cc_failure_kind {
    CC_FAILURE_NONE = 0,
    CC_FAILURE_REFUSED_VALID,    /* create refused a case within the engine's caps */
    CC_FAILURE_ENGINE_ERROR,     /* load, step or store returned an error */
    CC_FAILURE_ROUND_TRIP,       /* store right after load differs from what was loaded */
    CC_FAILURE_MISMATCH,         /* the grid after step(k) differs from the oracle's */
    CC_FAILURE_CALL_PATTERN,     /* step(k) in one call agreed with the oracle; another way of
                                  * calling the engine for the same case gave another grid */
    /* Faults of the worker that ran the engine (supervise/supervisor.h): */
    CC_FAILURE_CRASHED,          /* it died by a signal */
    CC_FAILURE_EXITED,           /* it exited (status 0 too) without answering */
    CC_FAILURE_TIMED_OUT,        /* a call overran its time limit */
    CC_FAILURE_OUT_OF_MEMORY,    /* it held more than its memory limit, or leaked across cases */
    CC_FAILURE_DEVICE_ERROR,     /* a device error (CUDA's poison the context: a fresh worker
                                  * takes the rest) */
    CC_FAILURE_CONTRACT,         /* wrote into load's input, outside store's grid, left a cell
                                  * unwritten, or two stores in a row differ */
    CC_FAILURE_CALL_SEQUENCE     /* a store along a drawn call sequence differs from the oracle's
                                  * state of that context (harness/sequence.h) */
} cc_failure_kind;

/* The failure kind of an engine call's error code: a fault class, or an engine error. */
cc_failure_kind cc_failure_kind_of_code(int code);

/* Names the case in flight in the in-flight lines of the engine's supervisor ("WHERE: <case
 * line>"); nothing for an engine no supervisor runs. */
void cc_case_label(const cc_engine *engine, const char *where, const cc_case *c);

/* Is it a fault of the worker (crashed, exited, timed out, out of memory, device error)? */
int cc_failure_kind_is_fault(cc_failure_kind kind);

/* The ways a case is run besides step(k) in one call on a fresh context, as real callers do. */
typedef enum cc_pattern {
    CC_PATTERN_ONE_CALL = 0, /* create, load, step(k), store: the check against the oracle */
    CC_PATTERN_SPLIT,        /* step(a) then step(k-a) on one context */
    CC_PATTERN_SINGLES,      /* step(1) k times on one context */
    CC_PATTERN_RELOAD,       /* load another grid and step it, then load the case's: the second
                              * load must replace the first whole */
    CC_PATTERN_TWO_LIVE,     /* a second live context, another rule and size, stepped in turns */
    CC_PATTERN_RECREATE,     /* another context created, stepped and destroyed first */
    CC_PATTERN_COUNT
} cc_pattern;
#define CC_PATTERN_BIT(p) (1u << (unsigned)(p))
#define CC_PATTERNS_ALL 0x3eu /* every pattern but the one-call check itself */

/* "step(3) then step(2)" and the like, for a case of k steps. */
void cc_pattern_describe(cc_pattern p, const cc_case *c, char *buf, size_t size);

const char *cc_failure_kind_name(cc_failure_kind kind);

typedef struct cc_check_result {
    cc_outcome outcome;
    cc_failure_kind kind;
    cc_pattern pattern;  /* the call pattern that failed (CC_FAILURE_CALL_PATTERN) */
    uint64_t differing;  /* cells that differ (round trip or final grid) */
    uint64_t verified;   /* cells compared with the oracle */
    int lightcone;       /* 1: verified on light-cone windows, not the whole grid */
    uint32_t seam_classes; /* CC_SEAM_* the light cones covered */
    uint32_t patterns_run; /* CC_PATTERN_BIT of each call pattern that ran and agreed */
    double step_seconds;   /* wall time of the one call of step(k), without create, load, store */
    char detail[512];    /* create's refusal, the engine's error, or what differed */
} cc_check_result;

/* How a case is checked. */
typedef struct cc_check_options {
    uint32_t patterns;          /* CC_PATTERN_BIT(...) to run besides the one-call check */
    double oracle_budget;       /* cell-neighbour visits (W*H*count*k) up to which the oracle
                                 * steps the whole grid; above, light cones verify it */
    double pattern_budget;      /* the same measure up to which every pattern runs; above, the
                                 * split alone */
    uint64_t lightcone_cells;   /* cells light cones verify (0: CC_LIGHTCONE_DEFAULT_CELLS) */
    double lightcone_budget;    /* oracle visits light cones may spend past the seams (0: any) */
    const cc_grid *expected;    /* the oracle's grid after c->steps where the caller has it
                                 * already (NULL: the check steps the oracle itself) */
    double in_place_cells;      /* past this many cells a uniform case's grid is held once, in
                                 * the worker's shared grid, and verified by light cones
                                 * (0: CC_CHECK_IN_PLACE_CELLS, 2^30) */
} cc_check_options;

#define CC_CHECK_DEFAULT_ORACLE_BUDGET 2e7
#define CC_CHECK_DEFAULT_PATTERN_BUDGET 1e7

/* Every pattern; the whole grid up to CC_CHECK_DEFAULT_ORACLE_BUDGET, light cones above. */
void cc_check_options_init(cc_check_options *opt);

/* Runs one case: create (the contract refuses what is outside the caps, with the limit named),
 * load, store at once (the zero-step round trip), step(steps) in one call, store, and the
 * comparison with the oracle, on the whole grid or on light-cone windows; then each call pattern
 * of opt, compared with the one-call grid. Cases past the pattern budget, and light-cone cases,
 * run only the split pattern (each pattern is a whole run more). Returns CC_OK when the check ran, whatever its outcome;
 * non-zero only when it could not (the oracle or memory failed). opt NULL: the defaults. */
int cc_case_check_with(const cc_engine *engine, const cc_case *c, const cc_check_options *opt,
                       cc_check_result *res, cc_error *err);
int cc_case_check(const cc_engine *engine, const cc_case *c, cc_check_result *res, cc_error *err);

/* How a passing case was verified: "verified by light cones: N cells (classes)" or on the whole
 * grid, and the call patterns that agreed. */
void cc_check_result_describe(const cc_check_result *res, FILE *out);

/* ---- Failure reports -------------------------------------------------------------------- */

typedef struct cc_divergence {
    int known;                   /* 0: not a grid difference (an error or a refusal) */
    int64_t first_step;          /* first step whose grids differ; 0: right after load */
    int single_steps_agree;      /* step(1) repeated matched the oracle at every step; only
                                  * step(j) in one call differs, first at j = first_step */
    int32_t x, y;                /* first differing cell (row-major order) at first_step */
    uint8_t engine_value, oracle_value;
    uint64_t differing_first;    /* cells differing at first_step */
    uint64_t differing_end;      /* cells differing after step(steps) in one call */
    char png[1024];              /* the difference picture at first_step, or "" */
    char note[512];              /* why the analysis stopped short (an engine error), or "" */
} cc_divergence;

typedef struct cc_failure_report {
    char engine[64];
    char command[512];           /* the reproducer's command before --case ("": cellcheck's) */
    cc_case failing;
    char line[CC_CASE_TEXT_MAX];
    int from_campaign;           /* 1: master and index say where the case came from */
    uint8_t master[CC_SEED_BYTES];
    uint64_t index;
    cc_check_result result;
    cc_divergence divergence;
    int replay;                  /* a cc_replay_verdict, or -1 when not replayed */
    char replay_note[160];
    uint64_t preceding;          /* campaign cases this process ran before this one */
    uint32_t shard_count;        /* of the campaign it came from: the preceding cases are index
                                  * - shard_count, - 2 shard_count, ... */
    int shrunk;                  /* 1: smallest differs from failing */
    int shrink_tries;            /* cases the shrinker ran */
    cc_case smallest;            /* the smallest case found that still fails the same way */
    char smallest_line[CC_CASE_TEXT_MAX];
    cc_check_result smallest_result;
    cc_divergence smallest_divergence;
} cc_failure_report;

/* Builds the report of a failing case: where it diverges, the shrunk case and the difference
 * pictures (in opt->report_dir, when set). from_index < 0: not from a campaign. */
int cc_failure_analyse(const cc_engine *engine, const cc_case *c, const cc_check_result *res,
                       const cc_campaign_options *opt, int64_t from_index,
                       cc_failure_report *rep, cc_error *err);

/* Prints the report, ending with the reproducer line
 *   cellcheck check --engine NAME --case '<case line>' */
void cc_failure_report_print(const cc_failure_report *rep, FILE *out);

/* The one-line form of a failure, for failures after the first full report: the engine, the
 * section (or NULL), the verdict and the reproducer. */
void cc_failure_print_short(FILE *out, const char *command, const char *engine,
                            const char *section, const cc_case *c, const cc_check_result *res);

/* A reproducer's length: the command, the plugins' words, the engine, the case and the calls. */
#define CC_REPRODUCER_TEXT_MAX 5120

/* The reproducer of a case: with command (not NULL or "") "COMMAND --case 'LINE'", else
 * "cellcheck check --engine E --case 'LINE'" with the loaded plugins' --plugin words; where calls
 * is not NULL, " --calls 'CALLS'" after it: the only place a reproducer is spelled. Cut short
 * rather than overflowing buf. */
void cc_reproducer_format(char *buf, size_t size, const char *command, const char *engine,
                          const char *line, const char *calls);

/* "  <label>: " and the reproducer of cc_reproducer_format (no calls). */
void cc_print_reproducer(FILE *out, const char *label, const char *command, const char *engine,
                         const char *line);

/* The rule at another radius, its count ranges keeping their meaning: a bound in the lower half
 * of 0..max (counts from the bottom) stays, at most half the new largest count; a bound in the
 * upper half keeps its distance to the top, at least just above that half. So S0..16639 at R64,
 * M1 (largest count 16641) becomes S0..7 at R1 (largest 9): "all but the two fullest counts",
 * not every count. */
cc_rule cc_rule_at_radius(const cc_rule *rule, int32_t radius);

/* Shrinks a failing case greedily: fewer steps, a smaller radius (cc_rule_at_radius), smaller W
 * and H down to the smallest the engine takes (both together for a square-only engine), the
 * cheapest candidate first; keeps each change under which the case still fails with the same
 * kind of failure (and, for a call pattern, the same pattern). Runs at most max_tries cases and
 * starts none after budget_s seconds; past CC_SHRINK_QUIET_S, each try is named on stderr. */
#define CC_SHRINK_BUDGET_S 120.0
#define CC_SHRINK_QUIET_S 5.0
int cc_case_shrink(const cc_engine *engine, const cc_case *c, cc_failure_kind kind,
                   cc_pattern pattern, int max_tries, double budget_s, cc_case *smallest,
                   int *tries, cc_error *err);

/* ---- Campaigns -------------------------------------------------------------------------- */

typedef struct cc_campaign_result {
    uint64_t run;       /* cases of this shard that were run */
    uint64_t passed;
    uint64_t refused;   /* invalid cases refused as they must be */
    uint64_t failed;
    int has_failure;
    uint64_t first_failure;     /* its case index */
    cc_failure_report failure;  /* the first failure's report */
    cc_coverage covered;        /* what the passing cases covered */
} cc_campaign_result;

/* Runs cases 0 .. opt->cases-1 that belong to this shard. Returns CC_OK when every case passed
 * or was refused as required, CC_ERR_MISMATCH when one failed (its report printed to opt->out,
 * with the master seed), another code when the campaign could not run. */
int cc_campaign_run(const cc_engine *engine, const cc_campaign_options *opt,
                    cc_campaign_result *res, cc_error *err);

/* `cellcheck check --engine NAME --case LINE`: parses and checks one case line, printing the
 * verdict (and the full report on failure) to opt->out. Returns CC_OK when it passed or was
 * refused as required, CC_ERR_MISMATCH on failure (rep, when not NULL, holds the report),
 * CC_ERR_ARG for a malformed line. */
int cc_campaign_check_line(const cc_engine *engine, const char *line,
                           const cc_campaign_options *opt, cc_failure_report *rep,
                           cc_error *err);

#ifdef __cplusplus
}
#endif

#endif
