/* cellcheck gate: the performance gate. Each baseline line names a device, an engine and a claim
 * about ratios measured in one run, so a noisy machine moves both sides of each ratio together:
 *
 *   device | engine | against | size | radii | bound
 *   AMD EPYC    | cpu.avx512 | cpu.ref   | 512   | 1,16 | 10      speed-up over cpu.ref >= 10 at each radius
 *   NVIDIA H100 | cuda.cat   | flat      | 16384 | 1,16 | 1.10    t(r=16) / t(r=1) <= 1.10
 *   NVIDIA H200 | cuda.life-lop3 | rules B3/S23,B36/S23 | 32768 | - | 1.10
 *                                            t(B36/S23) / t(B3/S23) <= 1.10, each rule after the
 *                                            first against it, on one grid (radii: '-');
 *                                            rules whose text holds commas (Larger than Life's
 *                                            R16,C2,...,NM) are separated by ';' instead
 *
 * device is a substring of the CPU model (CPU engines) or of the GPU name (engines that report
 * one); lines for another device, or for hardware absent here, are skipped and said so.
 *
 * A line of CPU engines times both on one thread, as the baselines were measured: with every core
 * the ratio is the host's core count's too (on 64 cores cpu.ref gains 4 times what a kernel bound
 * by its memory does). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "supervise/supervisor.h"
#include "cli/common.h"
#include "harness/bench.h"
#include "oracle/gridio.h"

#define GATE_FIELDS 6

typedef struct gate_tally {
    int passed, failed, skipped;
} gate_tally;

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) *--end = '\0';
    return s;
}

/* The device an engine runs on here: the GPU's name when the engine reports one, else the CPU. */
static int engine_device(const cc_engine *e, char *buf, size_t size, cc_error *err) {
    cc_bench_cpu_model(buf, size);
    if (!e->device_name) return CC_OK;
    cc_rule rule;
    double density;
    cc_context *ctx = NULL;
    /* the rule the bench runs, so a hexagonal engine is asked with a hexagonal one */
    int rc = cc_bench_workload(e, cc_bench_workload_caps(e).radius_min, &rule, &density, err);
    if (!rc) rc = cc_call_create(e, &rule, 64, 64, &ctx, err);
    if (rc) return rc;
    char name[128];
    cc_call_device_name(ctx, name, sizeof name);
    if (name[0]) snprintf(buf, size, "%.*s", (int)(size ? size - 1 : 0), name);
    cc_call_destroy(ctx, NULL);
    return CC_OK;
}

/* A rules claim's rules (at least two, commas between, or ';' where a rule's text holds commas)
 * into opt; its radii field is '-'. */
static int parse_rules(const char *list, const char *radii, cc_bench_options *opt,
                       cc_error *err) {
    if (strcmp(radii, "-") != 0)
        return cc_fail(err, CC_ERR_ARG, "radii '%s': a rules claim takes its rules' radii ('-')",
                       radii);
    char text[512];
    snprintf(text, sizeof text, "%s", list);
    opt->rule_count = 0;
    const char *between = strchr(text, ';') ? ";" : ",";
    for (char *save = NULL, *r = strtok_r(text, between, &save); r;
         r = strtok_r(NULL, between, &save)) {
        if (opt->rule_count == CC_BENCH_LIST_MAX)
            return cc_fail(err, CC_ERR_ARG, "more than %d rules", CC_BENCH_LIST_MAX);
        if (cc_rule_parse(trim(r), &opt->rules[opt->rule_count++], err))
            return cc_prefix(err, "rule '%s'", trim(r));
    }
    if (opt->rule_count < 2)
        return cc_fail(err, CC_ERR_ARG, "a rules claim needs two rules or more, not '%s'", list);
    return CC_OK;
}

/* One baseline line: returns CC_OK when it passed or did not apply, CC_ERR_MISMATCH when the
 * measurement broke the bound, another code when the line or the run failed. */
static int gate_line(const cc_engine_set *engines, char *line, int number, gate_tally *t,
                     cc_error *err) {
    char *field[GATE_FIELDS];
    int n = 0;
    for (char *p = line, *bar; n < GATE_FIELDS; p = bar + 1) {
        bar = strchr(p, '|');
        if (bar) *bar = '\0';
        field[n++] = trim(p);
        if (!bar) break;
    }
    if (n != GATE_FIELDS)
        return cc_fail(err, CC_ERR_ARG, "line %d: %d fields, a baseline has %d "
                       "(device | engine | against | size | radii | bound)", number, n, GATE_FIELDS);
    const char *device = field[0], *against = field[2];
    const cc_engine *engine = cli_find_engine(engines, field[1], err);
    if (!engine) return cc_prefix(err, "line %d", number);
    int flat = strcmp(against, "flat") == 0, rules = strncmp(against, "rules ", 6) == 0;
    const cc_engine *reference = NULL;
    if (!flat && !rules && !(reference = cli_find_engine(engines, against, err)))
        return cc_prefix(err, "line %d", number);
    char *end;
    double bound = strtod(field[5], &end);
    if (end == field[5] || *end || !(bound > 0))
        return cc_fail(err, CC_ERR_ARG, "line %d: bound '%s' is not a positive number", number, field[5]);
    cc_bench_options opt;
    cc_bench_options_init(&opt);
    int rc = cc_bench_parse_sizes(field[3], &opt, err);
    if (!rc && rules) rc = parse_rules(against + 6, field[4], &opt, err);
    else if (!rc) rc = cc_bench_parse_radii(field[4], &opt, err);
    if (rc) return cc_prefix(err, "line %d", number);
    if (flat && opt.radius_count < 2)
        return cc_fail(err, CC_ERR_ARG, "line %d: a flatness claim needs two radii", number);
    /* Each radius's workload here, before the device is asked: a line no machine can run fails
     * on every machine, not only on the one it names. */
    for (int i = 0; !rules && i < opt.radius_count; i++) {
        cc_rule workload;
        double density;
        if ((rc = cc_bench_workload(engine, opt.radii[i], &workload, &density, err)))
            return cc_prefix(err, "line %d: %s", number, engine->name);
    }

    cc_error why = {0};
    if (cc_call_available(engine, &why) || (reference && cc_call_available(reference, &why))) {
        printf("skip    line %d %s: not here: %s\n", number, engine->name, why.msg);
        t->skipped++;
        return CC_OK;
    }
    char here[CC_BENCH_DEVICE_MAX];
    if ((rc = engine_device(engine, here, sizeof here, err))) return cc_prefix(err, "line %d", number);
    if (!strstr(here, device)) {
        printf("skip    line %d %s: for '%s', this is '%s'\n", number, engine->name, device, here);
        t->skipped++;
        return CC_OK;
    }

    cc_bench_row rows[CC_BENCH_LIST_MAX * CC_BENCH_LIST_MAX];
    int count = 0;
    FILE *quiet = fopen("/dev/null", "w");
    if (!quiet) return cc_fail(err, CC_ERR_IO, "cannot open /dev/null");
    const int cpu = engine->hardware != CC_HW_GPU;
    int team = cc_supervisor_team(cc_supervisor_of(engine), cpu ? 1 : 0);
    if (reference) {
        int reference_team = cc_supervisor_team(cc_supervisor_of(reference), cpu ? 1 : 0);
        if (reference_team != team) team = -1;
    }
    rc = cc_bench_run(engine, reference, &opt, quiet, rows, (int)(sizeof rows / sizeof rows[0]),
                      &count, err);
    cc_supervisor_team(cc_supervisor_of(engine), 0);
    if (reference) cc_supervisor_team(cc_supervisor_of(reference), 0);
    fclose(quiet);
    if (rc) return cc_prefix(err, "line %d: %s", number, engine->name);
    if (count < 1) return cc_fail(err, CC_ERR_UNSUPPORTED, "line %d: nothing was timed", number);

    char threads[48];
    if (team > 0) snprintf(threads, sizeof threads, ", %d thread%s", team, team == 1 ? "" : "s");
    else if (team == 0) snprintf(threads, sizeof threads, ", the worker's threads");
    else snprintf(threads, sizeof threads, ", teams of their own");
    int broken = 0;
    if (rules) {
        /* Rows come rule by rule for one size: each after the first against it. */
        for (int i = 1; i < count; i++) {
            double ratio = rows[i].engine_ms / rows[0].engine_ms;
            int high = !(ratio <= bound);
            broken |= high;
            printf("%s line %d %s: t(%s) / t(%s) = %.4f / %.4f ms = %.3f, bound <= %.3f "
                   "(%dx%d%s)\n",
                   high ? "FAILED " : "passed ", number, engine->name, rows[i].rule, rows[0].rule,
                   rows[i].engine_ms, rows[0].engine_ms, ratio, bound, (int)rows[0].w,
                   (int)rows[0].h, threads);
        }
    } else if (flat) {
        /* Rows come radius by radius for one size: the first against the last. */
        double ratio = rows[count - 1].engine_ms / rows[0].engine_ms;
        broken = !(ratio <= bound);
        printf("%s line %d %s: t(r=%d) / t(r=%d) = %.3f / %.3f ms = %.3f, bound <= %.3f (%dx%d%s)\n",
               broken ? "FAILED " : "passed ", number, engine->name, (int)rows[count - 1].radius,
               (int)rows[0].radius, rows[count - 1].engine_ms, rows[0].engine_ms, ratio, bound,
               (int)rows[0].w, (int)rows[0].h, threads);
    } else {
        for (int i = 0; i < count; i++) {
            int low = !(rows[i].speedup >= bound);
            broken |= low;
            printf("%s line %d %s over %s r=%d %dx%d%s: %.3f / %.3f ms = %.2fx, bound >= %.2fx\n",
                   low ? "FAILED " : "passed ", number, engine->name, reference->name,
                   (int)rows[i].radius, (int)rows[i].w, (int)rows[i].h, threads,
                   rows[i].reference_ms, rows[i].engine_ms, rows[i].speedup, bound);
        }
    }
    if (broken) t->failed++;
    else t->passed++;
    return broken ? CC_ERR_MISMATCH : CC_OK;
}

static const char about[] =
    "The performance gate: speed-ups over the reference engine, flatness\n"
    "over r and over rules, measured in one run, against the per-device\n"
    "baselines (lines for another device, or for hardware absent here, are\n"
    "skipped).";

int cli_cmd_gate(const cc_engine_set *engines, int argc, char **argv) {
    const char *path = "ci/perf/baselines.txt";
    cc_option opts[] = {
        CC_OPTION_STRING("baselines", "FILE", &path,
                         "the baselines (default ci/perf/baselines.txt)"),
    };
    cc_command cmd = {"cellcheck gate", about, opts, 1};
    int status = 0;
    if (cli_parse(&cmd, argc, argv, &status)) return status;
    cc_error err = {0};
    char *text = NULL;
    size_t len = 0;
    if (cc_read_file(path, &text, &len, &err)) {
        /* The default is the source tree's baselines, of the built-in engines; an installed tool
         * gates what its own baselines file names. */
        if (!opts[0].given)
            cc_prefix(&err, "the baselines (run from the repository root, or give --baselines "
                            "FILE)");
        return cli_failed(&err);
    }
    gate_tally t = {0, 0, 0};
    int number = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        number++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *body = trim(line);
        if (!*body) continue;
        int rc = gate_line(engines, body, number, &t, &err);
        if (rc && rc != CC_ERR_MISMATCH) {
            fprintf(stderr, "cellcheck gate: %s: %s\n", path, err.msg);
            status = 1;
            t.failed++;
        } else if (rc) {
            status = 1;
        }
    }
    free(text);
    printf("gate: %d passed, %d failed, %d skipped (%s)\n", t.passed, t.failed, t.skipped, path);
    if (status == 0 && t.passed == 0) {
        /* A gate that measured nothing has not passed: say so with a status of its own. */
        fprintf(stderr, "cellcheck gate: no line of %s applies to this machine: nothing was gated\n",
                path);
        return CLI_EXIT_NOTHING_GATED;
    }
    return status;
}
