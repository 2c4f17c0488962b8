/* What `cellcheck check --junit FILE` and `--json` report: every campaign case as it ended
 * (passed, refused as required, or failed with its class, words, case line and reproducer),
 * gathered through the campaign's per-case call (cc_campaign_options.on_case). */
#ifndef CELLCHECK_CLI_CHECK_REPORT_H
#define CELLCHECK_CLI_CHECK_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "harness/junit.h"
#include "oracle/error.h"
#include "fuzz/draw.h"

typedef struct cli_check_report {
    char engine[64];
    char reproduce[512]; /* the command a reproducer starts with, before --case */
    int junit_wanted, json_wanted;
    cc_junit junit;
    void *cases;       /* the JSON array of the cases (a jansson json_t) */
    int out_of_memory; /* a case could not be kept: the reports say so rather than drop it */
} cli_check_report;

/* reproduce: the start of a reproducer ("cellcheck --plugin P check --engine E"). */
void cli_check_report_init(cli_check_report *r, const char *engine, const char *reproduce,
                           int junit, int json);
/* The campaign's per-case call; ctx is the report. */
void cli_check_report_case(void *ctx, const cc_case_outcome *o);
/* One replayed case (check --case): outcome as cc_case_outcome's, detail the failure's words. */
void cli_check_report_line(cli_check_report *r, const char *line, int outcome,
                           const char *detail, double seconds);
/* The JUnit report at junit_path (NULL: none), and the JSON document on out where asked, with
 * the run's totals. */
int cli_check_report_finish(cli_check_report *r, const char *junit_path, FILE *out,
                            const char *seed_hex, uint64_t asked, int keep_going, cc_error *err);
void cli_check_report_free(cli_check_report *r);

#endif
