/* What every engine's tests and benchmark run. Each returns a process exit status. */
#ifndef CELLCHECK_HARNESS_HARNESS_H
#define CELLCHECK_HARNESS_HARNESS_H

#include "engines/engine.h"
#include "harness/campaign.h"
#include "harness/coverage.h"
#include "harness/options.h"
#include "harness/sequence.h"
#include "harness/transitions.h"
#include "supervise/supervisor.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

/* A seeded campaign against the oracle (sharded by TEST_TOTAL_SHARDS / TEST_SHARD_INDEX), edge
 * cases, the zero-step round trip, the largest counts, and the refusal of every unsupported
 * parameter. Flags: --cases N, --seed HEX, --report-dir DIR, --verbose (--help lists them). */
int cc_harness_conformance(const cc_engine *engine, const cc_engine *reference, int argc,
                           char **argv);
/* Its --help text, for a program named program, without an engine (a plugin driver's --help). */
void cc_harness_conformance_help(const char *program, FILE *out);

/* The campaign's flags as rows of an option table, writing into opt: --cases N (1..10^7) and
 * --seed HEX (64 hex digits). The conformance test and `cellcheck check` and `certify` use them. */
#define CC_CAMPAIGN_OPTION_COUNT 2
#define CC_CAMPAIGN_CASES_MAX INT64_C(10000000) /* about a day of a fast engine's campaign */
/* Grids per alignment of the last tile against the torus seams: a one-cell error whose stale
 * value is right half the time passes all of them with probability 2^-16. */
#define CC_SEAM_GRIDS 16
void cc_campaign_option_rows(cc_campaign_options *opt, cc_option rows[CC_CAMPAIGN_OPTION_COUNT]);

/* The conformance checks' --huge-grid auto|on|off, writing opt->huge_grid: the conformance test
 * and `cellcheck certify` take it. */
cc_option cc_huge_grid_option(cc_campaign_options *opt);

/* --leave-out SECTION[,SECTION...]: sections the conformance checks leave out, by their ids
 * (cc_check_section_id), into opt->sections_off; each is a gap, SECTION:asked. */
cc_option cc_leave_out_option(cc_campaign_options *opt);
/* --skip SECTION[,SECTION...]: --leave-out under the name pytest and CTest users look for. */
cc_option cc_skip_option(cc_campaign_options *opt);
/* --only SECTION[,SECTION...]: every other section left out (each a gap). */
cc_option cc_only_option(cc_campaign_options *opt);

/* --progress: progress lines on stderr even when it is not a terminal (opt->progress = 1). */
cc_option cc_progress_option(cc_campaign_options *opt);

/* What became of one section: run (0: left out, or not reached after a failure stopped the
 * checks), and its cases or checks that passed and failed. */
typedef struct cc_section_tally {
    int run;
    int passed;
    int failed;
    double seconds; /* wall time the section took, and of it: */
    double oracle_seconds;   /* the oracle's grids and light cones of the checked cases */
    double engine_seconds;   /* the engine's entry points, in its worker */
    double exchange_seconds; /* the calls' round trips and transfers past that */
    double draw_seconds;     /* drawing cases and their grids */
    double shrink_seconds;   /* analysing and shrinking a failure */
    cc_coverage cov; /* what its passing checks covered */
} cc_section_tally;

/* What a conformance run found. passed: every check passed. */
typedef struct cc_conformance_summary {
    int edge_passed;  /* edge cases: all dead, all alive, the largest counts, 2r+1 sides, primes */
    int scale_passed; /* past the tiles: sides past 1100, n*tile +- 1, past 2^24 cells */
    int32_t tile_w, tile_h;   /* the block geometry those cases were placed around */
    int32_t devices;          /* an engine over several devices: how many it ran on (its
                               * devices()); 0: an engine of one device */
    int32_t ranks;            /* the worker processes one context ran as: the devices' count
                               * for an engine that runs as ranks (one process a device, fewer
                               * where H is smaller), else 1 */
    cc_gap_list gaps;         /* the checks left out, by section and reason */
    int huge_passed;          /* 1: the case past 2^32 cells ran and passed */
    char huge_note[200];      /* when it did not run: why */
    uint64_t lightcone_cells; /* cells of passing cases verified by light cones */
    uint32_t seam_classes;    /* the seam classes those light cones covered (CC_SEAM_*) */
    int round_trips;  /* zero-step load/store round trips */
    int sequences;    /* call sequences whose every store agreed with the oracle */
    cc_transitions transitions; /* the contract's transitions they covered (transitions.h) */
    int timing_passed; /* GPU timing: cases (with their call patterns) and call sequences that
                        * passed under a disturbed timing between streams */
    int shapes_passed; /* thin, tall and wide grids past 2^16 rows or columns and 65535 tiles,
                        * every shape at its smallest and largest radius (harness/extremes.h) */
    int seams_passed;  /* grids of the nine alignments of the last tile (CC_SEAM_GRIDS each) */
    int plane_passed;  /* cases on the bounded plane (engines that state it) */
    int step_counts;  /* step counts checked (on cases no wrong count could pass) */
    int step_counts_blind; /* counts left out: no case told them from a wrong count */
    int64_t step_counts_max; /* the largest of them */
    int step_counts_long;    /* counts past 2^31 - 2 tried, each waited for CC_LONG_COUNT_WAIT_S */
    int step_counts_running; /* of them, still running at the wait: not answering early is all
                              * that was seen (the rest answered and count as checked) */
    int refusals;     /* unsupported parameters refused at create, with a message */
    int failed;       /* edge cases, round trips or refusals that failed */
    int infra_errors; /* checks that could not run */
    cc_failure_kind first_kind;  /* the first failure's class (CC_FAILURE_NONE: none) */
    char first_failure[640];     /* its section and detail */
    cc_check_section first_section; /* its section (meaningful where failed > 0 or a campaign
                                     * case failed) */
    char first_case[CC_CASE_TEXT_MAX]; /* its case line; "" where it has none (a refusal) */
    char first_calls[CC_SEQUENCE_TEXT_MAX]; /* a call sequence's calls, else "" */
    int64_t first_index;         /* its campaign case index, -1 outside the campaign */
    int64_t first_ordinal;       /* outside the campaign, its check's number in the order every
                                  * run checks them, whatever its shard (-1: none): of several
                                  * shards' first failures, the lowest is a whole run's first */
    char first_reproducer[CC_REPRODUCER_TEXT_MAX]; /* the command that runs it again, or "" */
    cc_section_tally sections[CC_CHECK_SECTION_COUNT];
    int stopped;                 /* 1: a fault (a crash, an exit, a time-out, memory, the
                                  * device) stopped the checks after it */
    cc_campaign_result campaign;
    int passed;
} cc_conformance_summary;

/* The geometry a summary covered, for reports: the tile the past-the-tiles cases were placed
 * around ("tile 256x16") and the case past 2^32 cells ("passed" or "not run: why"). */
void cc_conformance_geometry(const cc_conformance_summary *sum, char *tile, size_t tile_size,
                             char *huge, size_t huge_size);

/* The GPU timing section: its drawn cases and call sequences, each under one timing= setting
 * in turn (sections/gpu_timing.c). */
#define CC_TIMING_CASES 48
#define CC_TIMING_SEQUENCES 24

/* The checks of cc_harness_conformance for the cases of opt's shard, as a library call (used by
 * `cellcheck certify`). Reports go to stdout. Returns CC_OK when the checks ran (sum->passed says
 * whether they passed), another code when the campaign could not run. */
int cc_conformance_run(const cc_engine *engine, const cc_campaign_options *opt,
                       cc_conformance_summary *sum, cc_error *err);

/* The command a reproducer of engine's cases starts with, before --case, into buf: for an engine
 * over several devices (cc_engine.devices, asked in its worker) "CELLCHECK_DEVICES=N " then base,
 * or where base is NULL or "" then "cellcheck [--plugin PATH ...] check --engine NAME", so that
 * the reproducer runs over the count the failure had; *devices is N. For an engine of one device
 * buf is "" (base stands as it is) and *devices 0. Every command that prints reproducers
 * (certify, check, an engine's conformance test) starts them so. */
int cc_reproduce_command(const cc_engine *engine, const char *base, char *buf, size_t size,
                         int32_t *devices, cc_error *err);

/* Engines reach the harness as descriptions of a supervisor (supervise/supervisor.h). A driver
 * given an engine's own table (a test binary's main, a port's conformance main) is run through
 * cc_harness_drive: when the process was started as a worker it serves as one; otherwise it
 * opens a supervisor over engine and reference, runs driver on their descriptions and closes it.
 * Returns the driver's (or the worker's) exit status. */
typedef int (*cc_harness_driver)(const cc_engine *engine, const cc_engine *reference, int argc,
                                 char **argv);
int cc_harness_drive(cc_harness_driver driver, const cc_engine *engine,
                     const cc_engine *reference, int argc, char **argv);

/* For a test that holds engines' own tables (NULL-terminated): when the process was started as
 * a worker, serves as one and returns 1 with *status; else opens a supervisor that knows them
 * (and the registry's, where linked) and returns 0 with *sv. Returns 1 with *status 2 when the
 * supervisor cannot start. */
int cc_harness_supervise(int argc, char **argv, const cc_engine *const *tables,
                         cc_supervisor **sv, int *status);
/* The description of table's engine in sv (by its name), or NULL. */
const cc_engine *cc_supervised(const cc_supervisor *sv, const cc_engine *table);

/* --time-limit SECONDS, --memory-margin MIB and --sandbox on|off, into opt (the conformance
 * test, check and certify take them). */
#define CC_SUPERVISION_OPTION_COUNT 3
void cc_supervision_option_rows(cc_campaign_options *opt,
                                cc_option rows[CC_SUPERVISION_OPTION_COUNT]);

/* Supervisor options for a command line: the defaults, with the sandbox off where argv says
 * --sandbox off (or --sandbox=off), so that the first worker, which loads the plugins before any
 * option is applied, runs as the later ones will. */
void cc_supervision_options_of_argv(int argc, char **argv, cc_supervisor_options *o);

/* Gives the engine's supervisor opt's limits, and in-flight lines on stderr where opt->progress
 * shows progress. Nothing for an engine no supervisor runs. */
void cc_supervision_apply(const cc_engine *engine, const cc_campaign_options *opt);

/* ms per step and cells per second, against reference in the same run. */
int cc_harness_bench(const cc_engine *engine, const cc_engine *reference, int argc, char **argv);

/* If the engine's hardware is absent: prints "SKIPPED: <engine>: <reason>" and returns 1 with
 * *status = 0, or, when CELLCHECK_REQUIRE names that hardware, prints why and sets *status = 1.
 * Returns 0 when the engine can run here. */
int cc_harness_skip(const cc_engine *engine, int *status);

#ifdef __cplusplus
}
#endif

#endif
