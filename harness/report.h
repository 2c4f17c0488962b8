/* The report of a failing case: where it diverges, the case shrunk, the pictures, and the
 * one-line reproducer, the only place a reproducer is spelled. */
#ifndef CELLCHECK_HARNESS_REPORT_H
#define CELLCHECK_HARNESS_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "engines/engine.h"
#include "fuzz/draw.h"
#include "harness/check.h"
#include "harness/divergence.h"
#include "oracle/case.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif
