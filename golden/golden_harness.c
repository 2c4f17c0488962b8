/* The golden test of an engine: every catalogue case it supports reproduces its golden hash. */
#include <stdio.h>

#include "harness/harness.h"
#include "golden/golden.h"

/* The golden driver's option table, writing into *catalogue. */
typedef struct golden_table {
    cc_option rows[1];
    cc_command cmd;
} golden_table;

static void golden_table_init(golden_table *t, const char **catalogue, const char *program) {
    t->rows[0] = (cc_option)CC_OPTION_STRING(
        "catalogue", "FILE", catalogue,
        "the catalogue (default golden/catalogue.txt, or outside a\n"
        "source tree the one installed with this program under\n"
        "PREFIX/share/cellcheck); the goldens in force beside it (its\n"
        "directory's `current`) are what is checked");
    t->cmd = (cc_command){program,
                          "The engine's golden test: every catalogue case within its capabilities\n"
                          "reproduces its golden hash.",
                          t->rows, 1};
}

void cc_harness_golden_help(const char *program, FILE *out) {
    const char *catalogue = NULL;
    golden_table t;
    golden_table_init(&t, &catalogue, program);
    cc_options_help(&t.cmd, out);
}

static int golden_main(const cc_engine *engine, const cc_engine *reference, int argc,
                       char **argv) {
    (void)reference;
    int status = 0;
    const char *catalogue = NULL;
    golden_table t;
    golden_table_init(&t, &catalogue, cc_options_program(argc, argv, "golden test"));
    cc_command cmd = t.cmd;
    if (cc_options_parse_or_usage(&cmd, argc, argv, stdout, stderr, &status)) return status;
    if (cc_harness_skip(engine, &status)) return status;
    golden_catalogue cat;
    cc_error err = {0};
    char found[GOLDEN_PATH_MAX];
    if (!catalogue) {
        if (golden_default_catalogue(".", found, sizeof found, &err)) {
            printf("%s: %s\n", engine->name, err.msg);
            return 1;
        }
        catalogue = found;
    }
    if (golden_open(catalogue, &cat, stdout, &err)) {
        printf("%s: %s\n", engine->name, err.msg);
        return 1;
    }
    golden_report report;
    int rc = golden_verify_engine(&cat, engine, stdout, &report, &err);
    golden_free(&cat);
    if (rc && rc != CC_ERR_MISMATCH) {
        printf("%s: %s\n", engine->name, err.msg);
        return 1;
    }
    printf("%s: %zu golden cases passed, %zu not supported\n", engine->name, report.passed,
           report.unsupported);
    if (rc) {
        printf("%s: %zu of %zu golden cases FAILED (each printed above with its case line)\n",
               engine->name, report.failed, report.checked);
        return 1;
    }
    if (report.checked == 0) {
        printf("%s: no golden case is within this engine's capabilities, so nothing was checked\n",
               engine->name);
        return 1;
    }
    return 0;
}

int cc_harness_golden(const cc_engine *engine, const cc_engine *reference, int argc, char **argv) {
    return cc_harness_drive(golden_main, engine, reference, argc, argv);
}
