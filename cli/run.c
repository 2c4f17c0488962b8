/* cellcheck run: one engine (or the oracle) on one grid file. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "harness/limits.h"
#include "harness/progress.h"
#include "oracle/gridio.h"
#include "oracle/oracle.h"

static const char about[] =
    "One engine (or the oracle) on one grid file. .rle is Golly RLE with the\n"
    "torus in its header (rule = B3/S23:T64,48), .txt rows of 0 and 1. With --json,\n"
    "one JSON document on stdout: the engine, rule, topology, steps, files, sides,\n"
    "the live cells before and after, and the seconds the run took.";

static uint64_t alive(const cc_grid *g) {
    uint64_t n = 0;
    const size_t cells = (size_t)g->w * (size_t)g->h;
    for (size_t i = 0; i < cells; i++) n += g->cells[i] != 0;
    return n;
}

static int print_json(const char *engine, const cc_rule *rule, int64_t steps, const char *in,
                      const char *out, const cc_grid *g, uint64_t alive_before, double seconds,
                      cc_error *err) {
    char rule_text[512];
    if (cc_rule_print(rule, rule_text, sizeof rule_text, err)) return err->code;
    json_t *doc = json_pack("{s:s, s:s, s:s, s:I, s:s, s:s, s:i, s:i, s:I, s:I, s:f}", "engine",
                            engine, "rule", rule_text, "topology",
                            cc_topology_name(rule->topology), "steps", (json_int_t)steps, "in",
                            in, "out", out, "width", (int)g->w, "height", (int)g->h,
                            "alive_before", (json_int_t)alive_before, "alive_after",
                            (json_int_t)alive(g), "seconds", seconds);
    if (!doc) return cc_fail(err, CC_ERR_NOMEM, "out of memory for run's JSON (or a file name "
                                                "that is not UTF-8)");
    int failed = json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII) != 0;
    json_decref(doc);
    if (failed || puts("") == EOF || fflush(stdout))
        return cc_fail(err, CC_ERR_IO, "writing run's JSON to stdout failed");
    return CC_OK;
}

int cli_cmd_run(const cc_engine_set *engines, int argc, char **argv) {
    const char *engine_name = NULL, *rule_text = NULL, *in = NULL, *out = NULL;
    int64_t steps = 0;
    double budget = 0.0;
    int json = 0;
    cc_option opts[] = {
        cli_engine_option(&engine_name, 1, "the engine, or 'oracle'"),
        CC_OPTION_STRING("rule", "RULE", &rule_text,
                         "B3/S23, R5,C2,M0,S34..58,B34..45,NM... (default: the .rle's)"),
        CC_OPTION_INT64("steps", "K", &steps, 0, INT64_MAX, "steps to run"),
        CC_OPTION_STRING("in", "FILE", &in, "the initial grid: .rle or .txt"),
        CC_OPTION_STRING("out", "FILE", &out, "the final grid: .rle or .txt"),
        cli_budget_option(&budget),
        CC_OPTION_FLAG("json", &json, "what ran, as one JSON document on stdout"),
    };
    opts[2].required = opts[3].required = opts[4].required = 1;
    cc_command cmd = {"cellcheck run", about, opts, sizeof opts / sizeof opts[0]};
    int status;
    if (cli_parse(&cmd, argc, argv, &status)) return status;

    cc_error err = {0};
    const cc_engine *engine = NULL;
    if (strcmp(engine_name, "oracle") != 0 && !(engine = cli_find_engine(engines, engine_name, &err)))
        return cli_bad_usage(&cmd, &err);
    cc_rule rule, file_rule;
    /* A rule that does not parse, or names what no rule here can be, is a wrong argument. */
    int32_t stated_w = 0, stated_h = 0; /* the sides ":P64,48" states, 0 where none */
    if (rule_text && cc_rule_parse_sized(rule_text, &rule, &stated_w, &stated_h, &err))
        return cli_bad_usage(&cmd, &err);
    if (cc_grid_check_name(in, &err)) return cli_bad_usage(&cmd, &err);

    /* The output is checked before anything runs: a wrong name must not cost the whole run. */
    if (cc_grid_check_output(out, &err)) return cli_bad_usage(&cmd, &err);
    int has_file_rule = 0;
    cc_grid g = {0};
    if (cc_grid_read_file(in, &g, &file_rule, &has_file_rule, &err)) return cli_failed(&err);
    if (!rule_text && !has_file_rule) {
        cc_grid_free(&g);
        cc_fail(&err, CC_ERR_ARG, "run needs --rule (%s names none)", in);
        return cli_bad_usage(&cmd, &err);
    }
    if (!rule_text) rule = file_rule;
    /* A rule that names the grid's sides names them for this grid: another size is a mistake
     * in one or the other, and running either would answer a question nobody asked. */
    if (stated_w && (stated_w != g.w || stated_h != g.h)) {
        cc_fail(&err, CC_ERR_ARG, "--rule %s states a %dx%d grid, but %s is %dx%d", rule_text,
                (int)stated_w, (int)stated_h, in, (int)g.w, (int)g.h);
        cc_grid_free(&g);
        return cli_bad_usage(&cmd, &err);
    }
    if (cc_limit_work("run", &rule, g.w, g.h, steps, CC_RUN_WORK_MAX, &err)) {
        cc_grid_free(&g);
        return cli_bad_usage(&cmd, &err);
    }
    char what[160];
    snprintf(what, sizeof what, "%lld steps of %dx%d at radius %d on %s", (long long)steps,
             (int)g.w, (int)g.h, (int)rule.radius, engine ? engine->name : "the oracle");
    char basis[128];
    snprintf(basis, sizeof basis, "at no more than %.0e cell-neighbour visits a second",
             !engine ? CC_RATE_ORACLE : engine->hardware == CC_HW_GPU ? CC_RATE_GPU : CC_RATE_CPU);
    if (cc_limit_time(what, cc_time_lower_bound(engine, &rule, g.w, g.h, steps), budget, basis,
                      &err)) {
        cc_grid_free(&g);
        return cli_bad_usage(&cmd, &err);
    }
    /* The grid read is held already; the engine's context (or the oracle's second grid) is not. */
    if (engine ? cc_limit_engine_memory("run", engine, &rule, g.w, g.h, 0.0, &err)
               : cc_limit_memory("run", g.w, g.h, 1.0, &err)) {
        cc_grid_free(&g);
        return cli_failed(&err);
    }
    int over_budget = 0;
    const uint64_t alive_before = json ? alive(&g) : 0;
    const double start = cc_now_seconds();
    int rc = engine ? cli_run_engine(engine, &rule, &g, steps, budget, what, &over_budget, &err)
                    : cli_run_oracle(&rule, &g, steps, budget, what, &over_budget, &err);
    if (over_budget) {
        cc_grid_free(&g);
        return cli_bad_usage(&cmd, &err);
    }
    const double seconds = cc_now_seconds() - start;
    if (!rc) rc = cc_grid_write_file(out, &g, &rule, &err);
    if (!rc && json)
        rc = print_json(engine ? engine->name : "oracle", &rule, steps, in, out, &g, alive_before,
                        seconds, &err);
    cc_grid_free(&g);
    return rc ? cli_failed(&err) : 0;
}
