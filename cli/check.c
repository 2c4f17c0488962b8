/* cellcheck check: a seeded campaign of one engine against the oracle, or one case replayed. */
#include <stdio.h>

#include "cli/certify.h"
#include "cli/check_report.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "harness/campaign.h"
#include "harness/harness.h"
#include "harness/junit.h"
#include "harness/limits.h"
#include "harness/progress.h"
#include "harness/sequence.h"
#include "oracle/case.h"
#include "oracle/files.h"

enum { ENGINE, CASES, SEED, RADIUS, SIZE, CASE, CALLS, REPORT_DIR, BUDGET, PROGRESS,
       TIME_LIMIT, MEMORY_MARGIN, SANDBOX, KEEP_GOING, JUNIT, JSON, NOPTIONS };
/* cli_parse_campaign puts the supervision rows right after --progress. */
_Static_assert(SANDBOX == PROGRESS + CC_SUPERVISION_OPTION_COUNT,
               "a row for each supervision option");

/* The runs a replayed case makes of the engine, by the call patterns (harness/check.c): one
 * call, split calls, step(1) k times, a second load, two contexts, destroy then create. */
#define CHECK_CASE_RUNS 6
/* The least one call to an engine in a worker costs. */
#define CHECK_CALL_SECONDS_MIN 1e-6

/* Grids up to this many cells are timed on their first steps before a replay; larger ones are
 * estimated from the kind's fastest rate alone. */
#define CHECK_PROBE_CELLS_MAX (1 << 22)
/* Nor is a case whose lower bound is under this fraction of the budget: no engine is a thousand
 * times slower than its kind's fastest rate, and the probe would run a hanging engine's first
 * call to its time limit once more before the replay. */
#define CHECK_PROBE_BUDGET_FRACTION 1e-3

/* check --case within the time budget, before it starts: the engine timed on the case's first
 * steps (or, for a large grid, a lower bound from its kind's rate), times the runs the call
 * patterns make, and the calls of step(1). Work past the cap, or a line that does not parse,
 * is left to the replay's own refusal. */
static int case_within_budget(const cc_engine *engine, const char *line, double budget,
                              cc_error *err) {
    cc_case c;
    cc_error ignored;
    if (case_parse(line, &c, &ignored)) return CC_OK;
    if (cc_work_visits(&c.rule, c.w, c.h, c.steps) > CC_CHECK_WORK_MAX) return CC_OK;
    double per_run = cc_time_lower_bound(engine, &c.rule, c.w, c.h, c.steps);
    char what[128], basis[256];
    snprintf(basis, sizeof basis, "%d runs by the call patterns at no more than %.0e "
             "cell-neighbour visits a second, and %lld calls of step(1)",
             CHECK_CASE_RUNS, engine->hardware == CC_HW_GPU ? CC_RATE_GPU : CC_RATE_CPU,
             (long long)c.steps);
    cc_grid g;
    double lower = CHECK_CASE_RUNS * per_run + (double)c.steps * CHECK_CALL_SECONDS_MIN;
    if (budget <= 0.0) budget = CC_TIME_BUDGET_DEFAULT;
    if (c.steps > 0 && (double)c.w * (double)c.h <= CHECK_PROBE_CELLS_MAX &&
        lower >= budget * CHECK_PROBE_BUDGET_FRACTION &&
        cc_limit_time("", CHECK_CASE_RUNS * per_run + (double)c.steps * CHECK_CALL_SECONDS_MIN,
                      budget, "", &ignored) == CC_OK &&
        cc_engine_check(engine, &c.rule, c.w, c.h, &ignored) == CC_OK &&
        case_grid(&c, &g, &ignored) == CC_OK) {
        int64_t done = 0;
        double seconds = 0.0;
        int failed = cli_probe_engine(engine, &c.rule, &g, c.steps, &done, &seconds, &ignored);
        cc_grid_free(&g);
        if (!failed && done > 0 && done < c.steps) {
            per_run = seconds / (double)done * (double)c.steps;
            snprintf(basis, sizeof basis,
                     "%d runs by the call patterns; measured: its first %lld steps took %.3f s",
                     CHECK_CASE_RUNS, (long long)done, seconds);
        }
    }
    snprintf(what, sizeof what, "%lld steps of %dx%d at radius %d on %s", (long long)c.steps,
             (int)c.w, (int)c.h, (int)c.rule.radius, engine->name);
    return cc_limit_time(what, CHECK_CASE_RUNS * per_run + (double)c.steps * CHECK_CALL_SECONDS_MIN,
                         budget, basis, err);
}

static const char about[] =
    "A seeded campaign of the engine against the oracle; non-zero exit on any\n"
    "mismatch. With --case, replays that one case instead; with --case and\n"
    "--calls, that call sequence on that case. --keep-going runs every case past\n"
    "a failure and names each failure; --junit FILE writes a JUnit test case per\n"
    "case, --json one JSON document on stdout (the text report goes to stderr).";

int cli_cmd_check(const cc_engine_set *engines, int argc, char **argv) {
    cc_campaign_options opt;
    cli_campaign_options_init(&opt);
    const char *engine_name = NULL, *case_line = NULL, *calls = NULL;
    cc_option_range radius = {0, 0}, size = {0, 0};
    double budget = 0.0;
    int keep_going = 0, json = 0;
    const char *junit = NULL;
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
        [BUDGET] = cli_budget_option(&budget),
        [KEEP_GOING] = CC_OPTION_FLAG("keep-going", &keep_going,
                                      "go on past a failing case: every failure named, exit 1 "
                                      "when any failed"),
        [JUNIT] = CC_OPTION_STRING("junit", "FILE", &junit,
                                   "also a JUnit XML report: a test case per case"),
        [JSON] = CC_OPTION_FLAG("json", &json,
                                "one JSON document on stdout (engine, totals, every case); the "
                                "text report goes to stderr"),
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
    if (opt.report_dir && cc_make_directories(opt.report_dir, &err)) {
        cc_prefix(&err, "--report-dir");
        return cli_bad_usage(&cmd, &err);
    }
    if (keep_going && case_line) {
        cc_fail(&err, CC_ERR_ARG, "--keep-going goes on past a failing case of a campaign: "
                                  "--case replays one");
        return cli_bad_usage(&cmd, &err);
    }
    if ((junit || json) && calls) {
        cc_fail(&err, CC_ERR_ARG, "--junit and --json report cases: a call sequence (--calls) "
                                  "prints its own report");
        return cli_bad_usage(&cmd, &err);
    }
    if (junit && cc_junit_path_check("--junit", junit, &err)) return cli_bad_usage(&cmd, &err);
    if (keep_going) opt.stop_at_first_failure = 0;
    /* The JSON owns stdout; the text report, reproducers included, still goes out, on stderr. */
    if (json) opt.out = stderr;
    FILE *text_out = json ? stderr : stdout;
    opt.radius_lo = (int32_t)radius.lo;
    opt.radius_hi = (int32_t)radius.hi;
    opt.size_lo = (int32_t)size.lo;
    opt.size_hi = (int32_t)size.hi;
    const cc_engine *engine = cli_find_engine(engines, engine_name, &err);
    if (!engine) return cli_bad_usage(&cmd, &err);
    cc_supervision_apply(engine, &opt);

    if (cli_unavailable(engine, "", &err)) return cli_failed(&err);
    /* An engine over several devices: its reproducers name the count it ran over. */
    char command[CC_REPRODUCER_TEXT_MAX];
    int32_t devices;
    if (cc_reproduce_command(engine, NULL, command, sizeof command, &devices, &err))
        return cli_failed(&err);
    if (command[0]) opt.reproduce = command;
    int rc;
    if (case_line && calls) {
        rc = cc_sequence_check_line(engine, case_line, calls, opt.reproduce, stdout, &err);
        if (rc == CC_ERR_ARG) return cli_bad_usage(&cmd, &err);
        return rc == CC_OK ? 0 : rc == CC_ERR_MISMATCH ? 1 : cli_failed(&err);
    }
    char base[512], plugins[400];
    cc_plugin_args(plugins, sizeof plugins);
    if (opt.reproduce) snprintf(base, sizeof base, "%s", opt.reproduce);
    else snprintf(base, sizeof base, "cellcheck%s check --engine %s", plugins, engine->name);
    cli_check_report report;
    cli_check_report_init(&report, engine->name, base, junit != NULL, json);
    if (case_line) {
        if (case_within_budget(engine, case_line, budget, &err)) {
            cli_check_report_free(&report);
            return cli_bad_usage(&cmd, &err);
        }
        const double start = cc_now_seconds();
        rc = cc_campaign_check_line(engine, case_line, &opt, NULL, &err);
        if (rc == CC_ERR_ARG) {
            cli_check_report_free(&report);
            return cli_bad_usage(&cmd, &err);
        }
        if (rc == CC_OK || rc == CC_ERR_MISMATCH) {
            cli_check_report_line(&report, case_line, rc == CC_OK ? 0 : 2,
                                  rc == CC_OK ? "" : err.msg, cc_now_seconds() - start);
            cc_error report_err = {0};
            if (cli_check_report_finish(&report, junit, stdout, NULL, 1, 0, &report_err)) {
                cli_check_report_free(&report);
                return cli_failed(&report_err);
            }
        }
        cli_check_report_free(&report);
        return rc == CC_OK ? 0 : rc == CC_ERR_MISMATCH ? 1 : cli_failed(&err);
    }
    /* The ranges asked for against the engine's, before the campaign: a first case draws or the
     * request is wrong (a radius range outside the engine's, sides its radii cannot have). */
    cc_drawn_case first;
    if (cc_campaign_case(engine, &opt, 0, &first, &err)) {
        cli_check_report_free(&report);
        return cli_bad_usage(&cmd, &err);
    }
    if (junit || json) {
        opt.on_case = cli_check_report_case;
        opt.on_case_ctx = &report;
    }
    char seed_hex[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(opt.master, seed_hex);
    cc_campaign_result res;
    rc = cc_campaign_run(engine, &opt, &res, &err);
    if (rc && rc != CC_ERR_MISMATCH) {
        cli_check_report_free(&report);
        return cli_failed(&err);
    }
    fprintf(text_out,
            "%s: %llu cases (seed %s): %llu passed, %llu refused as required, %llu failed\n",
            engine->name, (unsigned long long)res.run, seed_hex, (unsigned long long)res.passed,
            (unsigned long long)res.refused, (unsigned long long)res.failed);
    if (cli_check_report_finish(&report, junit, stdout, seed_hex, opt.cases, keep_going, &err)) {
        cli_check_report_free(&report);
        return cli_failed(&err);
    }
    cli_check_report_free(&report);
    return rc == CC_OK ? 0 : 1;
}
