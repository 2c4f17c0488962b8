/* cellcheck check: a seeded campaign of one engine against the oracle, or one case replayed. */
#include <stdio.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "harness/campaign.h"
#include "harness/harness.h"
#include "harness/limits.h"
#include "harness/sequence.h"

enum { ENGINE, CASES, SEED, RADIUS, SIZE, CASE, CALLS, REPORT_DIR, PROGRESS, TIME_LIMIT,
       MEMORY_MARGIN, NOPTIONS };

static const char about[] =
    "A seeded campaign of the engine against the oracle; non-zero exit on any\n"
    "mismatch. With --case, replays that one case instead; with --case and\n"
    "--calls, that call sequence on that case.";

int cli_cmd_check(const cc_engine_set *engines, int argc, char **argv) {
    cc_campaign_options opt;
    cli_campaign_options_init(&opt);
    const char *engine_name = NULL, *case_line = NULL, *calls = NULL;
    cc_option_range radius = {0, 0}, size = {0, 0};
    cc_option opts[NOPTIONS] = {
        [ENGINE] = cli_engine_option(&engine_name, 1,
                                     "the engine to check (cellcheck list names them)"),
        [RADIUS] = CC_OPTION_RANGE("radius", "A..B", &radius, 1, INT32_MAX,
                                   "radii of the valid cases (default: the engine's)"),
        [SIZE] = CC_OPTION_RANGE("size", "A..B", &size, 1, CC_CAMPAIGN_SIDE_MAX,
                                 "widths and heights of the valid cases (up to 16384; check --case takes larger grids)"),
        [CASE] = CC_OPTION_STRING("case", "'CASE LINE'",
                                  &case_line, "replay one case: the line a failure prints"),
        [CALLS] = CC_OPTION_STRING("calls", "'SEQUENCE'", &calls,
                                   "with --case: run this call sequence on it (as a failure "
                                   "prints it: load#0 step(1) store ...)"),
        [REPORT_DIR] = CC_OPTION_STRING("report-dir", "DIR", &opt.report_dir,
                                        "where failure pictures are written"),
    };
    cc_command cmd = {"cellcheck check", about, opts, NOPTIONS};
    int status;
    if (cli_parse_campaign(&cmd, &opt, &opts[CASES], &opts[PROGRESS], argc, argv, &status))
        return status;
    cc_error err = {0};
    if (case_line &&
        (opts[CASES].given || opts[SEED].given || opts[RADIUS].given || opts[SIZE].given)) {
        cc_fail(&err, CC_ERR_ARG,
                "--case replays one case: --cases, --seed, --radius and --size do not apply");
        return cli_bad_usage(&cmd, &err);
    }
    if (calls && !case_line) {
        cc_fail(&err, CC_ERR_ARG, "--calls runs a call sequence on the case --case names");
        return cli_bad_usage(&cmd, &err);
    }
    opt.radius_lo = (int32_t)radius.lo;
    opt.radius_hi = (int32_t)radius.hi;
    opt.size_lo = (int32_t)size.lo;
    opt.size_hi = (int32_t)size.hi;
    const cc_engine *engine = cli_find_engine(engines, engine_name, &err);
    if (!engine) return cli_bad_usage(&cmd, &err);
    cc_supervision_apply(engine, &opt);

    if (cli_unavailable(engine, "", &err)) return cli_failed(&err);
    int rc;
    if (case_line && calls) {
        rc = cc_sequence_check_line(engine, case_line, calls, stdout, &err);
        if (rc == CC_ERR_ARG) return cli_bad_usage(&cmd, &err);
        return rc == CC_OK ? 0 : rc == CC_ERR_MISMATCH ? 1 : cli_failed(&err);
    }
    if (case_line) {
        rc = cc_campaign_check_line(engine, case_line, &opt, NULL, &err);
        if (rc == CC_ERR_ARG) return cli_bad_usage(&cmd, &err);
        return rc == CC_OK ? 0 : rc == CC_ERR_MISMATCH ? 1 : cli_failed(&err);
    }
    /* The ranges asked for against the engine's, before the campaign: a first case draws or the
     * request is wrong (a radius range outside the engine's, sides its radii cannot have). */
    cc_drawn_case first;
    if (cc_campaign_case(engine, &opt, 0, &first, &err)) return cli_bad_usage(&cmd, &err);
    char seed_hex[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(opt.master, seed_hex);
    cc_campaign_result res;
    rc = cc_campaign_run(engine, &opt, &res, &err);
    if (rc && rc != CC_ERR_MISMATCH) return cli_failed(&err);
    printf("%s: %llu cases (seed %s): %llu passed, %llu refused as required, %llu failed\n",
           engine->name, (unsigned long long)res.run, seed_hex, (unsigned long long)res.passed,
           (unsigned long long)res.refused, (unsigned long long)res.failed);
    return rc == CC_OK ? 0 : 1;
}
