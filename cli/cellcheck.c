/* cellcheck: the command-line front end. Each command is a thin layer over the libraries; every
 * wrong argument gets the usage text and exit status 2, every failure a message and status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/commands.h"
#include "engines/engine.h"
#include "oracle/gridio.h"
#include "oracle/oracle.h"

static const char usage_text[] =
    "usage: cellcheck COMMAND [options]\n"
    "\n"
    "  list                                   engines, capabilities, whether each runs here\n"
    "  run --engine NAME --rule RULE --steps K --in FILE --out FILE\n"
    "                                         one engine (or 'oracle') on one grid file;\n"
    "                                         .rle is Golly RLE (torus from :TW,H), .txt rows of 0/1\n"
    "  check --engine NAME [--cases N] [--seed HEX] [--radius A..B] [--size A..B]\n"
    "  check --engine NAME --case 'CASE LINE' replay one case (the line a failure prints)\n"
    "  certify [--engine NAME] [--cases N] [--seed HEX] [--out-dir DIR] [--catalogue FILE]\n"
    "                                         every check for one engine or all that run here;\n"
    "                                         writes certificate.md and certificate.json\n"
    "  golden verify [--dir DIR]              the oracle reproduces every golden hash\n"
    "  golden update [--dir DIR]              recompute hashes and snapshots (review the diff)\n"
    "  bench --engine NAME [--reference NAME] [--radius R,...] [--size N[xM],...]\n"
    "        [--steps K] [--repeats N] [--warmup K]\n"
    "                                         median ms per step and cells/s, against the\n"
    "                                         reference engine (cpu.ref or cuda.base) in the same run\n"
    "  gate [--baselines FILE]                the performance gate: ratios measured in one run\n"
    "                                         against the per-device baselines (ci/perf/baselines.txt)\n";

void cli_usage(FILE *out) { fputs(usage_text, out); }

int cli_bad_usage(const cc_error *err) {
    fprintf(stderr, "cellcheck: %s\n\n", err->msg);
    cli_usage(stderr);
    return 2;
}

int cli_failed(const cc_error *err) {
    fprintf(stderr, "cellcheck: %s\n", err->msg);
    return 1;
}

static int cmd_list(int argc, char **argv) {
    cc_error err = {0};
    if (cli_parse_flags(argc, argv, NULL, 0, &err)) return cli_bad_usage(&err);
    printf("%-14s %-8s %-5s %s\n", "engine", "needs", "here", "capabilities / summary");
    printf("%-14s %-8s %-5s %s\n", "oracle", "cpu", "yes",
           "every shape, r 1..500, M0,M1, any W, H >= 2r+1 / the definition");
    for (const cc_engine *const *e = cc_engines_all(); *e; e++) {
        char caps[256];
        cc_error why = {0};
        int rc = cc_engine_available(*e, &why);
        cc_engine_describe_caps(*e, caps, sizeof caps);
        printf("%-14s %-8s %-5s %s / %s\n", (*e)->name, cc_hardware_name((*e)->hardware),
               rc ? "no" : "yes", caps, (*e)->summary);
        if (rc) printf("%-14s %-8s %-5s not here: %s\n", "", "", "", why.msg);
    }
    return 0;
}

/* The engine by name, or a usage error naming the engines there are. */
const cc_engine *cli_find_engine(const char *name, cc_error *err) {
    const cc_engine *e = cc_engine_find(name);
    if (!e) {
        char names[512] = "";
        for (const cc_engine *const *p = cc_engines_all(); *p; p++) {
            if (names[0]) strncat(names, ", ", sizeof names - strlen(names) - 1);
            strncat(names, (*p)->name, sizeof names - strlen(names) - 1);
        }
        cc_fail(err, CC_ERR_ARG, "no engine named '%s' (engines: %s)", name, names);
    }
    return e;
}

/* create, load, step, store, destroy: one engine on one grid, in place. */
int cli_run_engine(const cc_engine *engine, const cc_rule *rule, cc_grid *g, int64_t steps,
                   cc_error *err) {
    int rc = cc_engine_available(engine, err);
    if (rc) return cc_prefix(err, "%s", engine->name);
    cc_context *ctx = NULL;
    if ((rc = cc_engine_create(engine, rule, g->w, g->h, &ctx, err))) return rc;
    if (!(rc = cc_engine_load(ctx, g->cells, err)) && !(rc = cc_engine_step(ctx, steps, err)))
        rc = cc_engine_store(ctx, g->cells, err);
    cc_engine_destroy(ctx);
    return rc;
}

static int cmd_run(int argc, char **argv) {
    cli_flag flags[] = {{"--engine", NULL}, {"--rule", NULL}, {"--steps", NULL},
                        {"--in", NULL},     {"--out", NULL}};
    enum { ENGINE, RULE, STEPS, IN, OUT };
    cc_error err = {0};
    if (cli_parse_flags(argc, argv, flags, 5, &err)) return cli_bad_usage(&err);
    for (int i = 0; i < 5; i++)
        if (!flags[i].value && i != RULE) {
            cc_fail(&err, CC_ERR_ARG, "run needs %s", flags[i].name);
            return cli_bad_usage(&err);
        }
    int64_t steps;
    if (cli_parse_int64("--steps", flags[STEPS].value, 0, INT64_MAX, &steps, &err))
        return cli_bad_usage(&err);
    const cc_engine *engine = NULL;
    if (strcmp(flags[ENGINE].value, "oracle") != 0 &&
        !(engine = cli_find_engine(flags[ENGINE].value, &err)))
        return cli_bad_usage(&err);

    cc_rule rule, file_rule;
    int has_file_rule = 0;
    cc_grid g = {0};
    if (cc_grid_read_file(flags[IN].value, &g, &file_rule, &has_file_rule, &err))
        return cli_failed(&err);
    int rc = CC_OK;
    if (flags[RULE].value) {
        rc = cc_rule_parse(flags[RULE].value, &rule, &err);
    } else if (has_file_rule) {
        rule = file_rule;
    } else {
        rc = cc_fail(&err, CC_ERR_ARG, "run needs --rule (%s names none)", flags[IN].value);
    }
    if (!rc)
        rc = engine ? cli_run_engine(engine, &rule, &g, steps, &err)
                    : oracle_run(&rule, &g, steps, &err);
    if (!rc) rc = cc_grid_write_file(flags[OUT].value, &g, &rule, &err);
    cc_grid_free(&g);
    return rc ? cli_failed(&err) : 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        cli_usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    int sub_argc = argc - 2;
    char **sub_argv = argv + 2;
    if (!strcmp(cmd, "list")) return cmd_list(sub_argc, sub_argv);
    if (!strcmp(cmd, "run")) return cmd_run(sub_argc, sub_argv);
    if (!strcmp(cmd, "check")) return cli_cmd_check(sub_argc, sub_argv);
    if (!strcmp(cmd, "certify")) return cli_cmd_certify(sub_argc, sub_argv);
    if (!strcmp(cmd, "golden")) return cli_cmd_golden(sub_argc, sub_argv);
    if (!strcmp(cmd, "bench")) return cli_cmd_bench(sub_argc, sub_argv);
    if (!strcmp(cmd, "gate")) return cli_cmd_gate(sub_argc, sub_argv);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        cli_usage(stdout);
        return 0;
    }
    fprintf(stderr, "cellcheck: unknown command '%s'\n\n", cmd);
    cli_usage(stderr);
    return 2;
}
