#define _POSIX_C_SOURCE 200809L
/* cellcheck: the command-line front end. It loads the plugins asked for, then dispatches: each
 * command (commands.h) parses its own flags from an option table and answers `cellcheck COMMAND
 * --help`. Every wrong argument gets a message, the usage line and exit status 2; every failure a
 * message and status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "harness/limits.h"
#include "supervise/supervisor.h"
#include "supervise/worker.h"
#include "cli/commands.h"
#include "cli/version.h"

typedef struct command {
    const char *name;
    int (*run)(const cc_engine_set *engines, int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"list", cli_cmd_list, "engines, capabilities, whether each runs here"},
    {"run", cli_cmd_run, "one engine (or 'oracle') on one grid file (.rle or .txt)"},
    {"check", cli_cmd_check, "a seeded campaign against the oracle, or one case replayed"},
    {"certify", cli_cmd_certify, "every check for one engine or all that run here; certificates"},
    {"golden", cli_cmd_golden, "verify | update: the golden catalogue's hashes and snapshots"},
    {"bench", cli_cmd_bench, "median ms per step and cells/s, against the reference engine"},
    {"gate", cli_cmd_gate, "the performance gate against the per-device baselines"},
    {"ranks", cli_cmd_ranks, "one rank of an engine run as one process per device (srun, mpirun)"},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void usage(FILE *out) {
    fputs("usage: cellcheck [--plugin PATH]... COMMAND [options]\n"
          "       cellcheck COMMAND --help   (the command's options)\n"
          "       cellcheck --version   (or -V)\n\n"
          "  --plugin PATH   load the engines of a plugin (a shared library built against\n"
          "                  engines/plugin.h); CELLCHECK_PLUGINS=a.so:b.so loads them too\n"
          "  --plugin PATH:PREFIX  load them as PREFIX.NAME, so a twin runs beside its original\n\n",
          out);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
}

/* --plugin PATH (or --plugin=PATH) before the command, after those of CELLCHECK_PLUGINS, into
 * paths. Returns the index of the command, or -1. */
static int plugin_flags(int argc, char **argv, const char **paths, size_t *n, cc_error *err) {
    int i = 1;
    while (i < argc && strncmp(argv[i], "--plugin", 8) == 0 &&
           (argv[i][8] == '\0' || argv[i][8] == '=')) {
        const char *path = argv[i][8] == '=' ? argv[i] + 9 : (i + 1 < argc ? argv[i + 1] : NULL);
        if (!path || !*path) {
            cc_fail(err, CC_ERR_ARG, "--plugin needs the path of a shared library");
            return -1;
        }
        char file[4096];
        const char *prefix;
        if (cc_plugin_spec_split(path, file, sizeof file, &prefix, err)) return -1;
        paths[(*n)++] = path;
        i += argv[i][8] == '=' ? 1 : 2;
    }
    return i;
}

static int dispatch(const cc_engine_set *set, int argc, char **argv) {
    if (argc < 1) {
        fprintf(stderr, "cellcheck: no command given\n\n");
        usage(stderr);
        return 2;
    }
    const char *name = argv[0];
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(name, commands[i].name) == 0) return commands[i].run(set, argc, argv);
    if (!strcmp(name, "--version") || !strcmp(name, "-V") || !strcmp(name, "version")) {
        printf("cellcheck %s (commit %s)\n", cli_version, cli_commit);
        return 0;
    }
    if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "cellcheck: unknown command '%s'\n\n", name);
    usage(stderr);
    return 2;
}

int main(int argc, char **argv) {
    int status;
    /* Engines run in workers of this executable; plugins are opened there only. */
    if (cc_worker_hook(argc, argv, NULL, &status)) return status;
    cc_error err = {0};
    const char **paths = calloc((size_t)argc + 1024, sizeof *paths);
    size_t n = 0;
    char *list = getenv("CELLCHECK_PLUGINS") ? strdup(getenv("CELLCHECK_PLUGINS")) : NULL;
    if (!paths || (getenv("CELLCHECK_PLUGINS") && !list)) {
        fprintf(stderr, "cellcheck: out of memory\n");
        return 1;
    }
    if (list) n = cc_plugin_list_split(list, paths, 1024);
    cc_supervisor *sv = NULL;
    cc_supervisor_options so;
    cc_supervision_options_of_argv(argc, argv, &so);
    int first = plugin_flags(argc, argv, paths, &n, &err);
    char ignored[512] = "";
    if (first >= 0 && cc_settings_check(ignored, sizeof ignored, &err)) first = -1;
    if (first >= 0 && ignored[0])
        fprintf(stderr, "cellcheck: note: %s in the environment: no setting of cellcheck's, "
                        "ignored\n",
                ignored);
    if (first < 0) {
        fprintf(stderr, "cellcheck: %s\n\n", err.msg);
        usage(stderr);
        status = 2;
    } else if (cc_supervisor_open(paths, n, &so, &sv, &err)) {
        /* A plugin whose loading killed its worker is a failed engine; one refused, an argument. */
        status = cc_code_is_fault(err.code) ? 1 : 2;
        fprintf(stderr, "cellcheck: %s\n%s", err.msg, status == 2 ? "\n" : "");
        if (status == 2) usage(stderr);
    } else if (cc_engine_set_export(cc_supervisor_set(sv), &err)) {
        fprintf(stderr, "cellcheck: %s\n", err.msg);
        status = 1;
    } else {
        status = dispatch(cc_supervisor_set(sv), argc - first, argv + first);
    }
    cc_supervisor_close(sv);
    free(paths);
    free(list);
    return status;
}
