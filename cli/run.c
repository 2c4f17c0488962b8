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
    "One engine (or the oracle) on one grid file. .rle is Golly RLE with the grid\n"
    "in its header: rule = B3/S23:T64,48 the torus, :P64,48 the bounded plane (a\n"
    "bare :T or :P takes the header's x and y). An .rle without :T or :P is an\n"
    "unbounded pattern, as Golly reads it: give the grid to run it on with --size\n"
    "(the torus, or the bounded plane with --rule RULE:P). .mc is Golly's macrocell\n"
    "(two states, read only), .txt rows of 0 and 1. A --rule without :T or :P takes\n"
    "the file's topology; one that names another is refused. With --json, one JSON\n"
    "document on stdout: the engine, rule, topology, steps, files, sides, the live\n"
    "cells before and after, and the seconds the run took.";

/* "WxH" into *w, *h, each 1..CC_GRID_SIDE_MAX. */
static int parse_size(const char *text, int32_t *w, int32_t *h, cc_error *err) {
    int32_t side[2] = {0, 0};
    const char *p = text;
    for (int i = 0; i < 2; i++) {
        if (*p < '0' || *p > '9') break;
        int64_t v = 0;
        while (*p >= '0' && *p <= '9' && v <= CC_GRID_SIDE_MAX) v = v * 10 + (*p++ - '0');
        if (v < 1 || v > CC_GRID_SIDE_MAX)
            return cc_fail(err, CC_ERR_ARG, "--size %s: each side must be in 1..%d", text,
                           CC_GRID_SIDE_MAX);
        side[i] = (int32_t)v;
        if (i == 0 && *p++ != 'x') break;
    }
    if (!side[1] || *p)
        return cc_fail(err, CC_ERR_ARG, "--size %s: expected WxH, as in 64x48", text);
    *w = side[0], *h = side[1];
    return CC_OK;
}

/* The rule's topology where the rule names one, else the file's; refused where both name one and
 * they differ, naming both. */
static int settle_topology(const char *rule_text, int rule_states, cc_rule *rule,
                           const cc_rule *file_rule, const cc_grid_meta *meta, const char *in,
                           const cc_grid *g, cc_error *err) {
    if (!meta->has_topology) return CC_OK;
    if (!rule_states) {
        rule->topology = file_rule->topology;
        return CC_OK;
    }
    if (rule->topology == file_rule->topology) return CC_OK;
    return cc_fail(err, CC_ERR_ARG,
                   "--rule %s names the %s, but the header of %s names the %s (:%c%d,%d); give "
                   "--rule without :T or :P to take the file's",
                   rule_text, cc_topology_name(rule->topology), in,
                   cc_topology_name(file_rule->topology),
                   file_rule->topology == CC_TOPOLOGY_PLANE ? 'P' : 'T', (int)g->w, (int)g->h);
}

/* An unbounded pattern on the grid stated for it (want_w x want_h, 0 when none), or the file's
 * own grid checked against it. */
static int settle_grid(const char *rule_text, const char *size_text, int32_t want_w,
                       int32_t want_h, const cc_rule *rule, const cc_grid_meta *meta,
                       const char *in, cc_grid *g, cc_error *err) {
    const char *topology = cc_topology_name(rule->topology);
    if (meta->unbounded) {
        if (!want_w)
            return cc_fail(err, CC_ERR_ARG,
                           "%s is an unbounded pattern: its rule names no topology (:T or :P), "
                           "which Golly reads as the unbounded plane, and cellcheck runs only "
                           "bounded grids. State the grid: --size WxH (a torus, or the bounded "
                           "plane with --rule RULE:P), or --rule RULE:PW,H or RULE:TW,H",
                           in);
        cc_grid placed;
        if (cc_grid_place(g, want_w, want_h, &placed, err))
            return cc_prefix(err, "the unbounded pattern of %s on the %s %s", in, topology,
                             size_text ? "of --size" : "of --rule");
        cc_grid_free(g);
        *g = placed;
        return CC_OK;
    }
    if (!want_w || (want_w == g->w && want_h == g->h)) return CC_OK;
    if (size_text)
        return cc_fail(err, CC_ERR_ARG, "--size %s states a %dx%d grid, but %s is a %dx%d %s",
                       size_text, (int)want_w, (int)want_h, in, (int)g->w, (int)g->h,
                       meta->has_topology ? topology : "grid");
    return cc_fail(err, CC_ERR_ARG, "--rule %s states a %dx%d grid, but %s is %dx%d", rule_text,
                   (int)want_w, (int)want_h, in, (int)g->w, (int)g->h);
}

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
    const char *engine_name = NULL, *rule_text = NULL, *size_text = NULL, *in = NULL,
               *out = NULL;
    int64_t steps = 0;
    double budget = 0.0;
    int json = 0;
    cc_option opts[] = {
        cli_engine_option(&engine_name, 1, "the engine, or 'oracle'"),
        CC_OPTION_STRING("rule", "RULE", &rule_text,
                         "B3/S23, R5,C2,M0,S34..58,B34..45,NM..., :T torus or :P bounded plane "
                         "(default: the file's)"),
        CC_OPTION_INT64("steps", "K", &steps, 0, INT64_MAX, "steps to run"),
        CC_OPTION_STRING("in", "FILE", &in, "the initial grid: .rle, .mc or .txt"),
        CC_OPTION_STRING("out", "FILE", &out, "the final grid: .rle or .txt"),
        CC_OPTION_STRING("size", "WxH", &size_text,
                         "the grid for an unbounded pattern (.rle or .mc without :T or :P), "
                         "the pattern at its top-left corner"),
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
    int rule_states = 0;                /* the rule names its topology */
    if (rule_text &&
        cc_rule_parse_stated(rule_text, &rule, &rule_states, &stated_w, &stated_h, &err))
        return cli_bad_usage(&cmd, &err);
    int32_t size_w = 0, size_h = 0;
    if (size_text && parse_size(size_text, &size_w, &size_h, &err)) return cli_bad_usage(&cmd, &err);
    if (size_w && stated_w && (size_w != stated_w || size_h != stated_h)) {
        cc_fail(&err, CC_ERR_ARG, "--size %s and --rule %s state different grids", size_text,
                rule_text);
        return cli_bad_usage(&cmd, &err);
    }
    if (cc_grid_check_name(in, &err)) return cli_bad_usage(&cmd, &err);

    /* The output is checked before anything runs: a wrong name must not cost the whole run. */
    if (cc_grid_check_output(out, &err)) return cli_bad_usage(&cmd, &err);
    cc_grid_meta meta;
    cc_grid g = {0};
    if (cc_grid_read_file_meta(in, &g, &file_rule, &meta, &err)) return cli_failed(&err);
    if (!rule_text && !meta.has_rule) {
        cc_grid_free(&g);
        cc_fail(&err, CC_ERR_ARG, "run needs --rule (%s names none)", in);
        return cli_bad_usage(&cmd, &err);
    }
    if (!rule_text) rule = file_rule;
    /* A rule or a size that names the grid's sides names them for this grid: another size is a
     * mistake in one or the other, and running either would answer a question nobody asked. The
     * same holds for the topology; a pattern with no grid of its own is never given one
     * silently. */
    if (settle_topology(rule_text, rule_states, &rule, &file_rule, &meta, in, &g, &err) ||
        settle_grid(rule_text, size_text, size_w ? size_w : stated_w, size_w ? size_h : stated_h,
                    &rule, &meta, in, &g, &err)) {
        cc_grid_free(&g);
        return cli_bad_usage(&cmd, &err);
    }
    if (cc_limit_work("run", &rule, g.w, g.h, steps, CC_RUN_WORK_MAX, &err)) {
        cc_grid_free(&g);
        return cli_bad_usage(&cmd, &err);
    }
    char what[160];
    snprintf(what, sizeof what, "%lld steps of %dx%d (%s) at radius %d on %s", (long long)steps,
             (int)g.w, (int)g.h, cc_topology_name(rule.topology), (int)rule.radius,
             engine ? engine->name : "the oracle");
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
