/* Minimal checks for the oracle's tests: each failing check prints its expression and line, the
 * test keeps going, and the summary's exit status is 1 if anything failed. */
#ifndef CELLCHECK_ORACLE_CHECK_H
#define CELLCHECK_ORACLE_CHECK_H

#include <stdio.h>
#include <string.h>

#include "oracle/error.h"

typedef struct checks {
    const char *name;
    long run, failed;
} checks;

static inline int check_true(checks *t, int ok, const char *expr, const char *file, int line) {
    t->run++;
    if (!ok) {
        t->failed++;
        fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, expr);
    }
    return ok;
}

static inline int check_eq_long(checks *t, long long got, long long want, const char *expr,
                                const char *file, int line) {
    t->run++;
    if (got != want) {
        t->failed++;
        fprintf(stderr, "%s:%d: CHECK failed: %s is %lld, expected %lld\n", file, line, expr, got,
                want);
        return 0;
    }
    return 1;
}

static inline int check_str(checks *t, const char *got, const char *want, const char *expr,
                            const char *file, int line) {
    t->run++;
    if (!got || strcmp(got, want) != 0) {
        t->failed++;
        fprintf(stderr, "%s:%d: CHECK failed: %s is \"%s\", expected \"%s\"\n", file, line, expr,
                got ? got : "(null)", want);
        return 0;
    }
    return 1;
}

/* A call refused with a non-zero code whose message contains the given text. */
static inline int check_refused(checks *t, int rc, const cc_error *err, const char *needle,
                                const char *what, const char *file, int line) {
    t->run++;
    if (rc == CC_OK || err->code != rc || !strstr(err->msg, needle)) {
        t->failed++;
        fprintf(stderr, "%s:%d: CHECK failed: %s: expected a refusal mentioning \"%s\", got code %d "
                        "(%s) and message \"%s\"\n",
                file, line, what, needle, rc, cc_code_name(rc), rc ? err->msg : "");
        return 0;
    }
    return 1;
}

static inline int check_summary(const checks *t) {
    printf("%s: %ld checks, %ld failed\n", t->name, t->run, t->failed);
    return t->failed ? 1 : 0;
}

#define CHECK(t, cond) check_true((t), (cond) != 0, #cond, __FILE__, __LINE__)
#define CHECK_EQ(t, got, want) \
    check_eq_long((t), (long long)(got), (long long)(want), #got, __FILE__, __LINE__)
#define CHECK_STR(t, got, want) check_str((t), (got), (want), #got, __FILE__, __LINE__)
#define CHECK_REFUSED(t, rc, err, needle, what) \
    check_refused((t), (rc), (err), (needle), (what), __FILE__, __LINE__)

#endif
