/* The golden test of an engine: every catalogue case it supports reproduces its golden hash. */
#include <stdio.h>
#include <string.h>

#include "harness/harness.h"
#include "golden/golden.h"

int cc_harness_golden(const cc_engine *engine, const cc_engine *reference, int argc, char **argv) {
    (void)reference;
    int status = 0;
    if (cc_harness_skip(engine, &status)) return status;
    const char *catalogue = "golden/catalogue.txt";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--catalogue") == 0 && i + 1 < argc) {
            catalogue = argv[++i];
        } else if (strncmp(argv[i], "--catalogue=", 12) == 0 && argv[i][12]) {
            catalogue = argv[i] + 12;
        } else {
            fprintf(stderr, "%s golden test: unexpected argument '%s' (takes --catalogue FILE)\n",
                    engine->name, argv[i]);
            return 2;
        }
    }
    golden_catalogue cat;
    cc_error err = {0};
    if (golden_load(catalogue, &cat, &err)) {
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
