/* A conformance run with stdout captured (captured.h). */
#define _POSIX_C_SOURCE 200809L /* dup, fileno */
#include "fuzz/mutants/captured.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int cc_mutants_conformance_captured(const cc_engine *engine, const cc_campaign_options *opt,
                                    const char *tag, char *report, size_t size,
                                    cc_conformance_summary *sum, cc_error *err) {
    char path[512];
    const char *tmp = getenv("TEST_TMPDIR");
    snprintf(path, sizeof path, "%s/%s%s%s.txt", tmp ? tmp : "/tmp", engine->name,
             tag[0] ? "-" : "", tag);
    FILE *f = fopen(path, "w+");
    fflush(stdout);
    const int saved = dup(1);
    if (!f || saved < 0) {
        if (f) fclose(f);
        if (saved >= 0) close(saved);
        return cc_fail(err, CC_ERR_IO, "cannot capture the output in %s", path);
    }
    dup2(fileno(f), 1);
    const int rc = cc_conformance_run(engine, opt, sum, err);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(f);
    const size_t n = fread(report, 1, size - 1, f);
    report[n] = '\0';
    fclose(f);
    return rc;
}
