/* The main of a test driver (CC_HARNESS: the conformance driver, or the golden one in golden/) for
 * an engine of a plugin, which no test binary was compiled with:
 *   DRIVER [--plugin PATH]... --engine NAME [the driver's own flags]
 * CELLCHECK_PLUGINS=a.so:b.so loads plugins too. ci/install.sh installs the two drivers as
 * cellcheck-conformance and cellcheck-golden. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine_set.h"
#include "harness/harness.h"
#include "harness/options.h"
#include "supervise/supervisor.h"
#include "supervise/worker.h"

int CC_HARNESS(const cc_engine *engine, const cc_engine *reference, int argc, char **argv);
void CC_HARNESS_HELP(const char *program, FILE *out);

#define MAX_ARGS 64

/* The value of --NAME VALUE or --NAME=VALUE at argv[*i], advancing *i past it; NULL otherwise. */
static const char *flag_value(const char *name, int argc, char **argv, int *i) {
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, n) != 0) return NULL;
    if (a[2 + n] == '=') {
        (*i)++;
        return a + 3 + n;
    }
    if (a[2 + n] != '\0' || *i + 1 >= argc) return NULL;
    *i += 2;
    return argv[*i - 1];
}

static int usage_error(const char *program, const char *msg) {
    fprintf(stderr, "%s: %s\nusage: %s [--plugin PATH]... --engine NAME [options]\n", program, msg,
            program);
    return 2;
}

/* --help or -h anywhere: this program's own flags, then the driver's; nothing is loaded. */
static int help_asked(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
    return 0;
}

static void help(const char *program) {
    printf("usage: %s [--plugin PATH]... --engine NAME [options]\n\n"
           "  --plugin PATH   load the engines of a plugin (a shared library built against\n"
           "                  engines/plugin.h); CELLCHECK_PLUGINS=a.so:b.so loads them too\n"
           "  --plugin PATH:PREFIX  load them as PREFIX.NAME, so a twin runs beside its original\n"
           "  --engine NAME   the engine of those plugins to test\n\n"
           "The options after them are the driver's:\n\n",
           program);
    CC_HARNESS_HELP(program, stdout);
}

int main(int argc, char **argv) {
    int status = 2;
    /* Plugins are opened in workers only: this process learns their tables from one. */
    if (cc_worker_hook(argc, argv, NULL, &status)) return status;
    if (help_asked(argc, argv)) {
        help(cc_options_program(argc, argv, "driver"));
        return 0;
    }
    cc_error err = {0};
    const char **plugins = calloc((size_t)argc + 64, sizeof *plugins);
    size_t nplugins = 0;
    cc_supervisor *sv = NULL;
    if (!plugins) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 2;
    }
    /* CELLCHECK_PLUGINS first, then --plugin in order. */
    char *list = getenv("CELLCHECK_PLUGINS") ? strdup(getenv("CELLCHECK_PLUGINS")) : NULL;
    if (list) nplugins = cc_plugin_list_split(list, plugins, 63);
    const char *engine_name = NULL, *value;
    int i = 1;
    while (i < argc) {
        if ((value = flag_value("plugin", argc, argv, &i))) {
            plugins[nplugins++] = value;
        } else if ((value = flag_value("engine", argc, argv, &i))) {
            engine_name = value;
        } else {
            break;
        }
    }
    cc_supervisor_options so;
    cc_supervision_options_of_argv(argc, argv, &so);
    if (cc_supervisor_open(plugins, nplugins, &so, &sv, &err)) goto bad;
    const cc_engine *engine = engine_name ? cc_supervisor_find(sv, engine_name) : NULL;
    if (!engine) {
        cc_fail(&err, CC_ERR_ARG, engine_name ? "no engine named %s in the plugins loaded"
                                              : "--engine NAME is required%s",
                engine_name ? engine_name : "");
        goto bad;
    }
    if (cc_engine_set_export(cc_supervisor_set(sv), &err)) goto bad;
    char *args[MAX_ARGS + 2];
    int n = 0;
    args[n++] = argv[0];
    for (; i < argc && n < MAX_ARGS; i++) args[n++] = argv[i];
#ifdef CC_HARNESS_REPLAY
    char replay[] = "--replay-alone"; /* a failure is replayed alone in a fresh worker */
    args[n++] = replay;
#endif
    args[n] = NULL;
    status = CC_HARNESS(engine, NULL, n, args);
    cc_supervisor_close(sv);
    free(plugins);
    free(list);
    return status;
bad:
    status = usage_error(argv[0], err.msg);
    cc_supervisor_close(sv);
    free(plugins);
    free(list);
    return status;
}
