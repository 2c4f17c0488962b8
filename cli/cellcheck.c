/* cellcheck: the command-line front end. It loads the plugins asked for, then dispatches: each
 * command (commands.h) parses its own flags from an option table and answers `cellcheck COMMAND
 * --help`. Every wrong argument gets a message, the usage line and exit status 2; every failure a
 * message and status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/replay.h"
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
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void usage(FILE *out) {
    fputs("usage: cellcheck [--plugin PATH]... COMMAND [options]\n"
          "       cellcheck COMMAND --help   (the command's options)\n"
          "       cellcheck --version\n\n"
          "  --plugin PATH   load the engines of a plugin (a shared library built against\n"
          "                  engines/plugin.h); CELLCHECK_PLUGINS=a.so:b.so loads them too\n\n",
          out);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
}

static const cc_engine *find_engine(const char *name, void *arg) {
    return cc_engine_set_find(arg, name);
}

/* --plugin PATH (or --plugin=PATH) before the command: each loaded by its absolute path, which
 * the process then exports in CELLCHECK_PLUGINS, so that a case replayed in a new process and
 * every printed reproducer find the same engines. Returns the index of the command, or -1. */
static int load_plugin_flags(cc_engine_set *set, int argc, char **argv, cc_error *err) {
    int i = 1;
    while (i < argc && strncmp(argv[i], "--plugin", 8) == 0 &&
           (argv[i][8] == '\0' || argv[i][8] == '=')) {
        const char *path = argv[i][8] == '=' ? argv[i] + 9 : (i + 1 < argc ? argv[i + 1] : NULL);
        if (!path || !*path) {
            cc_fail(err, CC_ERR_ARG, "--plugin needs the path of a shared library");
            return -1;
        }
        if (cc_engine_set_load_file(set, path, err)) return -1;
        i += argv[i][8] == '=' ? 1 : 2;
    }
    return cc_engine_set_export(set, err) ? -1 : i;
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
    if (!strcmp(name, "--version") || !strcmp(name, "version")) {
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
    cc_engine_set set;
    cc_error err = {0};
    if (cc_engine_set_init(&set, &err)) {
        fprintf(stderr, "cellcheck: %s\n", err.msg);
        return 1;
    }
    /* The plugins of CELLCHECK_PLUGINS first: a replaying process finds its engine among them. */
    int status;
    if (cc_engine_set_load_list(&set, getenv("CELLCHECK_PLUGINS"), &err)) {
        fprintf(stderr, "cellcheck: CELLCHECK_PLUGINS: %s\n\n", err.msg);
        usage(stderr);
        status = 2;
    } else if (cc_replay_hook(find_engine, &set, &status)) {
        /* status is the replay's */
    } else {
        int first = load_plugin_flags(&set, argc, argv, &err);
        if (first < 0) {
            fprintf(stderr, "cellcheck: %s\n\n", err.msg);
            usage(stderr);
            status = 2;
        } else {
            status = dispatch(&set, argc - first, argv + first);
        }
    }
    cc_engine_set_free(&set);
    return status;
}
