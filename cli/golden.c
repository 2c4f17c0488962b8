/* cellcheck golden verify | update: the golden catalogue's command line. verify checks that the
 * oracle reproduces every hash and snapshot; update recomputes them (review the diff). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "golden/golden.h"
#include "harness/limits.h"

enum { DIR_OPTION, CATALOGUE, BUDGET, NOPTIONS };

typedef struct golden_args {
    const char *dir, *catalogue;
    double budget;
    cc_option opts[NOPTIONS];
    cc_command cmd;
} golden_args;

static void golden_table(golden_args *a, int update) {
    memset(a, 0, sizeof *a);
    const cc_option opts[NOPTIONS] = {
        [DIR_OPTION] = CC_OPTION_STRING("dir", "ROOT", &a->dir,
                                        "the source tree (default: see above)"),
        [CATALOGUE] = CC_OPTION_STRING("catalogue", "FILE", &a->catalogue,
                                       "the catalogue (default ROOT/golden/catalogue.txt)"),
        [BUDGET] = cli_budget_option(&a->budget),
    };
    memcpy(a->opts, opts, sizeof opts);
    a->cmd = (cc_command){
        update ? "cellcheck golden update" : "cellcheck golden verify",
        update ? "Recomputes every hash and snapshot of the catalogue with the oracle and makes\n"
                 "them, with a copy of the catalogue, the goldens in force: a new generation\n"
                 "directory beside it, switched in by one rename of the link `current`, so an\n"
                 "update stopped at any moment leaves the old goldens or the new ones, whole\n"
                 "(review the diff). ROOT defaults to $BUILD_WORKSPACE_DIRECTORY (bazel run),\n"
                 "else the current directory; give --dir or --catalogue, not both."
               : "Checks that the oracle reproduces every hash and snapshot of the goldens in\n"
                 "force (the generation `current` names, with its copy of the catalogue), and\n"
                 "that neither names a case that copy lacks. A catalogue edited since the last\n"
                 "update is noted, not failed: the goldens in force are verified. ROOT defaults\n"
                 "to $BUILD_WORKSPACE_DIRECTORY (bazel run), else the current directory, and\n"
                 "where that holds no golden/catalogue.txt, to the goldens installed with this\n"
                 "program (PREFIX/share/cellcheck); give --dir or --catalogue, not both.",
        a->opts, NOPTIONS};
}

/* The oracle's work for every case, under the limits of run: each case within the work cap and
 * the memory limit (the oracle's two grids and a snapshot's), all of them within the budget. */
static int within_limits(const golden_catalogue *cat, const char *command, double budget,
                         cc_error *err) {
    double seconds = 0.0;
    char what[GOLDEN_PATH_MAX + GOLDEN_NAME_MAX + 64];
    for (size_t i = 0; i < cat->count; i++) {
        const golden_entry *e = &cat->entries[i];
        snprintf(what, sizeof what, "%s: case %s", command, e->name);
        int rc = cc_limit_work(what, &e->rule, e->w, e->h, e->steps, CC_RUN_WORK_MAX, err);
        if (!rc) rc = cc_limit_memory(what, e->w, e->h, 3.0, err);
        if (rc) return rc;
        seconds += cc_time_lower_bound(NULL, &e->rule, e->w, e->h, e->steps);
    }
    char basis[128];
    snprintf(basis, sizeof basis, "the oracle at no more than %.0e cell-neighbour visits a second",
             CC_RATE_ORACLE);
    snprintf(what, sizeof what, "%s: the %zu cases of %s", command, cat->count, cat->path);
    return cc_limit_time(what, seconds, budget, basis, err);
}

static int golden_run(int update, int argc, char **argv) {
    golden_args a;
    golden_table(&a, update);
    int status;
    if (cli_parse(&a.cmd, argc, argv, &status)) return status;
    cc_error err = {0};
    if (a.dir && a.catalogue) {
        cc_fail(&err, CC_ERR_ARG, "give --dir or --catalogue, not both");
        return cli_bad_usage(&a.cmd, &err);
    }
    char path[GOLDEN_PATH_MAX];
    const char *catalogue = a.catalogue;
    if (!catalogue) {
        const char *dir = a.dir;
        if (!dir) dir = getenv("BUILD_WORKSPACE_DIRECTORY"); /* bazel run */
        if (!dir || !*dir) dir = ".";
        /* verify reads the goldens installed with this program outside a source tree; update
         * rewrites a source tree's goldens only. */
        if (update ? golden_catalogue_path(dir, path, sizeof path, &err)
                   : a.dir ? golden_catalogue_path(dir, path, sizeof path, &err)
                           : golden_default_catalogue(dir, path, sizeof path, &err))
            /* A catalogue that is not there is a failure to read, as anywhere else. */
            return err.code == CC_ERR_IO ? cli_failed(&err) : cli_bad_usage(&a.cmd, &err);
        if (update && access(path, R_OK) != 0) {
            cc_fail(&err, CC_ERR_IO,
                    "cannot read %s: %s; golden update rewrites the goldens of a source tree: "
                    "run it from the repository root or give --dir ROOT",
                    path, strerror(errno));
            return cli_failed(&err);
        }
        catalogue = path;
    }
    golden_catalogue cat;
    /* update computes the edited catalogue; verify reads the goldens in force. */
    if (update ? golden_load(catalogue, &cat, &err) : golden_open(catalogue, &cat, stderr, &err))
        return cli_failed(&err);
    int rc = within_limits(&cat, update ? "golden update" : "golden verify", a.budget, &err);
    if (rc) {
        golden_free(&cat);
        return rc == CC_ERR_ARG ? cli_bad_usage(&a.cmd, &err) : cli_failed(&err);
    }
    if (update) {
        rc = golden_update(&cat, stdout, &err);
    } else {
        golden_report report;
        rc = golden_verify_oracle(&cat, stderr, &report, &err);
        if (!rc)
            printf("golden verify: the oracle reproduces all %zu cases of %s%s\n", report.passed,
                   cat.path, cat.edited ? " (the catalogue in force; see the note above)" : "");
    }
    golden_free(&cat);
    return rc ? cli_failed(&err) : 0;
}

/* Both subcommands' usage lines, from their tables. */
static void golden_usage(FILE *out) {
    for (int update = 0; update <= 1; update++) {
        golden_args a;
        golden_table(&a, update);
        cc_options_usage(&a.cmd, out);
    }
    fputs("(cellcheck golden verify --help, cellcheck golden update --help say more)\n", out);
}

int cli_cmd_golden(const cc_engine_set *engines, int argc, char **argv) {
    (void)engines; /* the catalogue is the oracle's; engines meet it through certify */
    const char *sub = argc >= 2 ? argv[1] : NULL;
    if (sub && (!strcmp(sub, "verify") || !strcmp(sub, "update")))
        return golden_run(!strcmp(sub, "update"), argc - 1, argv + 1);
    if (sub && (!strcmp(sub, "--help") || !strcmp(sub, "-h"))) {
        golden_usage(stdout);
        return 0;
    }
    if (sub)
        fprintf(stderr, "cellcheck golden: unknown subcommand '%s' (verify or update)\n\n", sub);
    else
        fprintf(stderr, "cellcheck golden: verify or update?\n\n");
    golden_usage(stderr);
    return 2;
}
