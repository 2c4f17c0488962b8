/* One JUnit suite (junit.h), built in memory and written in one piece. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, strdup */
#include "harness/junit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/files.h"

void cc_junit_init(cc_junit *j, const char *suite) {
    memset(j, 0, sizeof *j);
    snprintf(j->suite, sizeof j->suite, "%s", suite);
}

static char *copy_or_null(const char *s, int *failed) {
    if (!s) return NULL;
    char *c = strdup(s);
    if (!c) *failed = 1;
    return c;
}

void cc_junit_add(cc_junit *j, const char *name, double seconds, cc_junit_outcome outcome,
                  const char *message, const char *text) {
    if (j->n == j->room) {
        size_t room = j->room ? 2 * j->room : 64;
        cc_junit_case *grown = realloc(j->cases, room * sizeof *grown);
        if (!grown) {
            j->out_of_memory = 1;
            return;
        }
        j->cases = grown;
        j->room = room;
    }
    int failed = 0;
    cc_junit_case c = {copy_or_null(name, &failed), seconds, outcome,
                       copy_or_null(message, &failed), copy_or_null(text, &failed)};
    if (failed || !c.name) {
        free(c.name);
        free(c.message);
        free(c.text);
        j->out_of_memory = 1;
        return;
    }
    j->cases[j->n++] = c;
}

int cc_junit_path_check(const char *flag, const char *path, cc_error *err) {
    struct stat st;
    if (!path[0]) return cc_fail(err, CC_ERR_ARG, "%s: an empty file name", flag);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return cc_fail(err, CC_ERR_ARG, "%s %s is not a regular file", flag, path);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0)
        return cc_fail(err, CC_ERR_ARG, "%s %s: %s is not a writable directory", flag, path, dir);
    return CC_OK;
}

void cc_junit_free(cc_junit *j) {
    for (size_t i = 0; i < j->n; i++) {
        free(j->cases[i].name);
        free(j->cases[i].message);
        free(j->cases[i].text);
    }
    free(j->cases);
    memset(j, 0, sizeof *j);
}

void cc_junit_xml_text(FILE *f, const char *s) {
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(c < 0x20 && c != '\n' && c != '\t' ? '?' : c, f);
        }
    }
}

int cc_junit_write(const cc_junit *j, const char *path, cc_error *err) {
    if (j->out_of_memory)
        return cc_fail(err, CC_ERR_NOMEM, "out of memory for the JUnit report %s", path);
    size_t failures = 0, skipped = 0;
    double total = 0.0;
    for (size_t i = 0; i < j->n; i++) {
        failures += j->cases[i].outcome == CC_JUNIT_FAILED;
        skipped += j->cases[i].outcome == CC_JUNIT_SKIPPED;
        total += j->cases[i].seconds;
    }
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    if (!f) return cc_fail(err, CC_ERR_NOMEM, "out of memory for the JUnit report %s", path);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"", f);
    cc_junit_xml_text(f, j->suite);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n",
            j->n, failures, skipped, total);
    for (size_t i = 0; i < j->n; i++) {
        const cc_junit_case *c = &j->cases[i];
        fputs("    <testcase classname=\"", f);
        cc_junit_xml_text(f, j->suite);
        fputs("\" name=\"", f);
        cc_junit_xml_text(f, c->name);
        fprintf(f, "\" time=\"%.3f\"", c->seconds);
        if (c->outcome == CC_JUNIT_PASSED) {
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n      <", f);
        fputs(c->outcome == CC_JUNIT_FAILED ? "failure" : "skipped", f);
        fputs(" message=\"", f);
        cc_junit_xml_text(f, c->message);
        if (c->text && c->text[0]) {
            fputs("\">", f);
            cc_junit_xml_text(f, c->text);
            fprintf(f, "</%s>\n", c->outcome == CC_JUNIT_FAILED ? "failure" : "skipped");
        } else {
            fputs("\"/>\n", f);
        }
        fputs("    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    if (fclose(f) != 0) {
        free(xml);
        return cc_fail(err, CC_ERR_NOMEM, "out of memory for the JUnit report %s", path);
    }
    int rc = cc_write_file_atomic(path, xml, len, err);
    free(xml);
    return rc;
}
