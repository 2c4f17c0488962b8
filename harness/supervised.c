#define _POSIX_C_SOURCE 200809L
/* Drivers on engines run by a supervisor: a test binary's own tables become descriptions, and
 * the limits of the command line reach the supervisor (harness.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/harness.h"
#include "harness/limits.h"
#include "supervise/supervisor.h"
#include "supervise/worker.h"

int cc_harness_drive(cc_harness_driver driver, const cc_engine *engine,
                     const cc_engine *reference, int argc, char **argv) {
    if (cc_supervisor_of(engine)) return driver(engine, reference, argc, argv);
    const cc_engine *builtins[] = {engine, reference, NULL};
    int status;
    cc_supervisor *sv;
    if (cc_harness_supervise(argc, argv, builtins, &sv, &status)) return status;
    const cc_engine *remote = cc_supervisor_find(sv, engine->name);
    const cc_engine *remote_ref = reference ? cc_supervisor_find(sv, reference->name) : NULL;
    if (!remote || (reference && !remote_ref)) {
        fprintf(stderr, "%s: its worker does not know it\n", engine->name);
        cc_supervisor_close(sv);
        return 2;
    }
    status = driver(remote, remote_ref, argc, argv);
    cc_supervisor_close(sv);
    return status;
}

static int seconds_option(const char *flag, const char *value, void *dest, cc_error *err) {
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !(v >= 0.1 && v <= 86400.0))
        return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not a number of seconds in 0.1..86400",
                       flag, value);
    *(double *)dest = v;
    return CC_OK;
}

static int mib_option(const char *flag, const char *value, void *dest, cc_error *err) {
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !(v >= 1.0 && v <= 1048576.0))
        return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not a number of MiB in 1..1048576", flag,
                       value);
    *(double *)dest = v;
    return CC_OK;
}

static int sandbox_option(const char *flag, const char *value, void *dest, cc_error *err) {
    if (strcmp(value, "on") && strcmp(value, "off"))
        return cc_fail(err, CC_ERR_ARG, "%s: '%s' is neither on nor off", flag, value);
    *(int *)dest = !strcmp(value, "off");
    return CC_OK;
}

void cc_supervision_option_rows(cc_campaign_options *opt,
                                cc_option rows[CC_SUPERVISION_OPTION_COUNT]) {
    const cc_option table[CC_SUPERVISION_OPTION_COUNT] = {
        CC_OPTION_CUSTOM("time-limit", "SECONDS", &opt->time_limit_s, seconds_option,
                         "the least time any engine call is given before its worker is ended "
                         "(default 60; a step gets 20x its work at the slowest rate the engine "
                         "showed, when that is more)"),
        CC_OPTION_CUSTOM("memory-margin", "MIB", &opt->memory_margin_mib, mib_option,
                         "memory a worker may hold beyond 1.5x the engine's own estimate "
                         "(default 1024)"),
        CC_OPTION_CUSTOM("sandbox", "on|off", &opt->sandbox_off, sandbox_option,
                         "run every worker in the sandbox: no network, no files outside the "
                         "system's, the engine's and a scratch directory, no caller's environment, "
                         "no fork, exec or signal to others (default on; off is the gap "
                         "sandbox:asked)"),
    };
    memcpy(rows, table, sizeof table);
}

void cc_supervision_apply(const cc_engine *engine, const cc_campaign_options *opt) {
    cc_supervisor *sv = cc_supervisor_of(engine);
    if (!sv) return;
    cc_supervisor_options o = cc_supervisor_get_options(sv);
    if (opt->time_limit_s > 0) o.time_floor_s = opt->time_limit_s;
    if (opt->memory_margin_mib > 0) o.memory_margin = opt->memory_margin_mib * 1024.0 * 1024.0;
    o.sandbox = !opt->sandbox_off;
    /* In-flight lines go where progress lines go (harness/progress.h). */
    o.progress = opt->progress > 0 || (opt->progress == 0 && isatty(STDERR_FILENO)) ? stderr : NULL;
    cc_supervisor_set_options(sv, &o);
}

void cc_supervision_options_of_argv(int argc, char **argv, cc_supervisor_options *o) {
    cc_supervisor_options_init(o);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--sandbox=off") ||
            (!strcmp(argv[i], "--sandbox") && i + 1 < argc && !strcmp(argv[i + 1], "off")))
            o->sandbox = 0;
}

int cc_harness_supervise(int argc, char **argv, const cc_engine *const *tables,
                         cc_supervisor **sv, int *status) {
    *sv = NULL;
    if (cc_worker_hook(argc, argv, tables, status)) return 1;
    cc_error err;
    char ignored[512];
    if (cc_settings_check(ignored, sizeof ignored, &err)) {
        fprintf(stderr, "%s: %s\n", argc > 0 ? argv[0] : "supervisor", err.msg);
        *status = 2;
        return 1;
    }
    if (ignored[0])
        fprintf(stderr, "%s: note: %s in the environment: no setting of cellcheck's, ignored\n",
                argc > 0 ? argv[0] : "supervisor", ignored);
    cc_supervisor_options o;
    cc_supervision_options_of_argv(argc, argv, &o);
    if (cc_supervisor_open(NULL, 0, &o, sv, &err)) {
        fprintf(stderr, "%s: %s\n", argc > 0 ? argv[0] : "supervisor", err.msg);
        *status = 2;
        return 1;
    }
    return 0;
}

const cc_engine *cc_supervised(const cc_supervisor *sv, const cc_engine *table) {
    return table ? cc_supervisor_find(sv, table->name) : NULL;
}
