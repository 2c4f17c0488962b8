/* cellcheck: the command-line front end. It only dispatches: each command (commands.h) parses
 * its own flags from an option table and answers `cellcheck COMMAND --help`. Every wrong argument
 * gets a message, the usage line and exit status 2; every failure a message and status 1. */
#include <stdio.h>
#include <string.h>

#include "harness/replay.h"
#include "cli/commands.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
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
    fputs("usage: cellcheck COMMAND [options]\n"
          "       cellcheck COMMAND --help   (the command's options)\n\n",
          out);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
}

static const cc_engine *find_engine(const char *name, void *arg) {
    (void)arg;
    return cc_engine_find(name);
}

int main(int argc, char **argv) {
    int status;
    if (cc_replay_hook(find_engine, NULL, &status)) return status;
    if (argc < 2) {
        fprintf(stderr, "cellcheck: no command given\n\n");
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(name, commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "cellcheck: unknown command '%s'\n\n", name);
    usage(stderr);
    return 2;
}
