/* Checks for the tests, with no state outside the `checks` a test passes along: each failing
 * check prints its expression and line (and, for CHECKF, an explanation), the test keeps going,
 * and check_summary's result is 1 if anything failed. */
#ifndef CELLCHECK_TESTING_CHECK_H
#define CELLCHECK_TESTING_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/error.h"

#if defined(__GNUC__)
#define CHECK_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define CHECK_PRINTF(fmt_index, first_arg)
#endif

typedef struct checks {
    const char *name;
    long run, failed;
} checks;

/* Counts one check; the caller prints what failed. */
static inline int check_record(checks *t, int ok) {
    t->run++;
    if (!ok) t->failed++;
    return ok;
}

static inline int check_true(checks *t, int ok, const char *expr, const char *file, int line) {
    if (!check_record(t, ok)) fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, expr);
    return ok;
}

static inline void check_explain(const char *file, int line, const char *expr, const char *fmt,
                                 ...) CHECK_PRINTF(4, 5);
static inline void check_explain(const char *file, int line, const char *expr, const char *fmt,
                                 ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: CHECK failed: %s: ", file, line, expr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static inline int check_eq_long(checks *t, long long got, long long want, const char *expr,
                                const char *file, int line) {
    if (!check_record(t, got == want)) {
        fprintf(stderr, "%s:%d: CHECK failed: %s is %lld, expected %lld\n", file, line, expr, got,
                want);
        return 0;
    }
    return 1;
}

static inline int check_str(checks *t, const char *got, const char *want, const char *expr,
                            const char *file, int line) {
    if (!check_record(t, got && strcmp(got, want) == 0)) {
        fprintf(stderr, "%s:%d: CHECK failed: %s is \"%s\", expected \"%s\"\n", file, line, expr,
                got ? got : "(null)", want);
        return 0;
    }
    return 1;
}

/* A call refused with a non-zero code whose message contains the given text. */
static inline int check_refused(checks *t, int rc, const cc_error *err, const char *needle,
                                const char *what, const char *file, int line) {
    if (!check_record(t, rc != CC_OK && err->code == rc && strstr(err->msg, needle))) {
        fprintf(stderr,
                "%s:%d: CHECK failed: %s: expected a refusal mentioning \"%s\", got code %d (%s) "
                "and message \"%s\"\n",
                file, line, what, needle, rc, cc_code_name(rc), rc ? err->msg : "");
        return 0;
    }
    return 1;
}

/* 1 if a check failed or none ran: a test that checked nothing has not passed. */
static inline int check_summary(const checks *t) {
    printf("%s: %ld checks, %ld failed\n", t->name, t->run, t->failed);
    if (t->run == 0) printf("%s: FAILED: no check ran\n", t->name);
    return t->failed || t->run == 0 ? 1 : 0;
}

/* Each evaluates to 1 if the check passed, 0 if it failed. */
#define CHECK(t, cond) check_true((t), (cond) != 0, #cond, __FILE__, __LINE__)
/* CHECKF(t, cond, fmt, ...): the format and its arguments are evaluated only on failure. */
#define CHECKF(t, cond, ...)        \
    (check_record((t), (cond) != 0) \
         ? 1                        \
         : (check_explain(__FILE__, __LINE__, #cond, __VA_ARGS__), 0))
#define CHECK_EQ(t, got, want) \
    check_eq_long((t), (long long)(got), (long long)(want), #got, __FILE__, __LINE__)
#define CHECK_STR(t, got, want) check_str((t), (got), (want), #got, __FILE__, __LINE__)
#define CHECK_REFUSED(t, rc, err, needle, what) \
    check_refused((t), (rc), (err), (needle), (what), __FILE__, __LINE__)

/* Bazel's test sharding: this shard's index and the shard count (0 of 1 outside Bazel), and the
 * status file touched to say the test shards itself. */
static inline void check_shard(size_t *index, size_t *count) {
    const char *total = getenv("TEST_TOTAL_SHARDS"), *mine = getenv("TEST_SHARD_INDEX");
    *count = total ? strtoul(total, NULL, 10) : 1;
    *index = mine ? strtoul(mine, NULL, 10) : 0;
    if (*count == 0) *count = 1;
    const char *status_file = getenv("TEST_SHARD_STATUS_FILE");
    FILE *touched = status_file ? fopen(status_file, "w") : NULL;
    if (touched) fclose(touched);
}

#endif
