/* A JUnit XML report of one suite, for the commands whose results a CI reads case by case:
 * `cellcheck check` (a test case per campaign case) and the conformance driver (a test case per
 * section). certify's own report (cli/certificate/junit.c) has a suite per engine.
 *
 *     cc_junit j;
 *     cc_junit_init(&j, "cpu.ref");
 *     cc_junit_add(&j, "case 0", 0.12, CC_JUNIT_PASSED, NULL, NULL);
 *     cc_junit_add(&j, "case 1", 0.08, CC_JUNIT_FAILED, "mismatch", "case: rule=...");
 *     cc_junit_write(&j, "junit.xml", &err);   // whole or not at all
 *     cc_junit_free(&j);
 */
#ifndef CELLCHECK_HARNESS_JUNIT_H
#define CELLCHECK_HARNESS_JUNIT_H

#include <stddef.h>
#include <stdio.h>

#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { CC_JUNIT_PASSED, CC_JUNIT_FAILED, CC_JUNIT_SKIPPED } cc_junit_outcome;

typedef struct cc_junit_case {
    char *name;
    double seconds;
    cc_junit_outcome outcome;
    char *message; /* the failure's or skip's one line; NULL for a pass */
    char *text;    /* the failure's body (case line, reproducer); may be NULL */
} cc_junit_case;

typedef struct cc_junit {
    char suite[128];
    cc_junit_case *cases;
    size_t n, room;
    int out_of_memory; /* an add that failed: cc_junit_write says so rather than drop a case */
} cc_junit;

void cc_junit_init(cc_junit *j, const char *suite);
/* Copies its strings. A failed allocation is remembered and reported by cc_junit_write. */
void cc_junit_add(cc_junit *j, const char *name, double seconds, cc_junit_outcome outcome,
                  const char *message, const char *text);
/* The report at path, written whole or not at all. CC_ERR_NOMEM when an add failed. */
int cc_junit_write(const cc_junit *j, const char *path, cc_error *err);
void cc_junit_free(cc_junit *j);
/* Whether path can take the report, checked before any work: not a directory or another
 * non-regular file, in a writable directory. CC_ERR_ARG naming flag and path. */
int cc_junit_path_check(const char *flag, const char *path, cc_error *err);
/* s (NULL: nothing) as XML character data or an attribute value; control characters XML cannot
 * carry become '?'. For every JUnit report of the project (the certificate's too). */
void cc_junit_xml_text(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif
