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
#include "harness/campaign_options.h"
#include "harness/check.h"
#include "harness/coverage.h"
#include "harness/report.h"
#include "harness/shrink.h"
#include "oracle/case.h"
#include "oracle/error.h"
#include "oracle/grid.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

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
    double oracle_seconds;      /* the cases' oracle (cc_check_result.oracle_seconds), */
    double draw_seconds;        /* drawing the cases and their grids, */
    double shrink_seconds;      /* and analysing and shrinking the first failure */
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
