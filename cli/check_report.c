/* check's per-case reports (check_report.h): a JUnit suite of one case each, and a JSON
 * document whose cases a script can read without parsing the text report. */
#define _POSIX_C_SOURCE 200809L
#include "cli/check_report.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engines/engine_set.h"
#include "oracle/case.h"

static const char *const outcome_names[3] = {"passed", "refused", "failed"};

void cli_check_report_init(cli_check_report *r, const char *engine, const char *reproduce,
                           int junit, int json) {
    memset(r, 0, sizeof *r);
    snprintf(r->engine, sizeof r->engine, "%s", engine);
    snprintf(r->reproduce, sizeof r->reproduce, "%s", reproduce);
    r->junit_wanted = junit;
    r->json_wanted = json;
    cc_junit_init(&r->junit, engine);
    if (json && !(r->cases = json_array())) r->out_of_memory = 1;
}

static void add(cli_check_report *r, const char *name, int64_t index, const char *line,
                int outcome, const char *kind, const char *detail, double seconds) {
    if (outcome < 0 || outcome > 2) outcome = 2;
    if (r->junit_wanted) {
        /* A refusal within the campaign is the engine doing as its caps say: it passes. */
        char message[800], text[CC_CASE_TEXT_MAX + 1200];
        snprintf(message, sizeof message, "%s%s%s", kind, kind[0] ? ": " : "", detail);
        snprintf(text, sizeof text, "case: %s\nreproduce: %s --case '%s'", line, r->reproduce,
                 line);
        char label[CC_CASE_TEXT_MAX + 64];
        if (index >= 0) snprintf(label, sizeof label, "case %lld: %s", (long long)index, line);
        else snprintf(label, sizeof label, "%s", line);
        cc_junit_add(&r->junit, name ? name : label, seconds,
                     outcome == 2 ? CC_JUNIT_FAILED : CC_JUNIT_PASSED,
                     outcome == 2 ? message : NULL, outcome == 2 ? text : NULL);
    }
    if (r->json_wanted && r->cases) {
        json_t *o = json_object();
        int failed = !o;
        if (o) {
            failed |= json_object_set_new(o, "index", index >= 0 ? json_integer(index)
                                                                 : json_null());
            failed |= json_object_set_new(o, "case", json_string(line));
            failed |= json_object_set_new(o, "outcome", json_string(outcome_names[outcome]));
            failed |= json_object_set_new(o, "class", outcome == 2 ? json_string(kind)
                                                                   : json_null());
            /* An engine's message may hold bytes that are not UTF-8: kept as null, not lost
             * with the whole document. */
            json_t *d = detail[0] ? json_string(detail) : json_null();
            failed |= json_object_set_new(o, "detail", d ? d : json_null());
            failed |= json_object_set_new(o, "seconds", json_real(seconds));
            failed |= json_array_append_new(r->cases, o);
        }
        if (failed) r->out_of_memory = 1;
    }
}

void cli_check_report_case(void *ctx, const cc_case_outcome *o) {
    cli_check_report *r = ctx;
    char line[CC_CASE_TEXT_MAX];
    if (case_format(o->c, line, sizeof line, NULL)) snprintf(line, sizeof line, "(unprintable)");
    char name[48];
    snprintf(name, sizeof name, "case %llu", (unsigned long long)o->index);
    add(r, name, (int64_t)o->index, line, o->outcome, o->kind, o->detail, o->seconds);
}

void cli_check_report_line(cli_check_report *r, const char *line, int outcome,
                           const char *detail, double seconds) {
    add(r, NULL, -1, line, outcome, outcome == 2 ? "failed" : "", detail, seconds);
}

int cli_check_report_finish(cli_check_report *r, const char *junit_path, FILE *out,
                            const char *seed_hex, uint64_t asked, int keep_going, cc_error *err) {
    if (r->out_of_memory) return cc_fail(err, CC_ERR_NOMEM, "out of memory for check's reports");
    if (junit_path) {
        int rc = cc_junit_write(&r->junit, junit_path, err);
        if (rc) return cc_prefix(err, "--junit");
    }
    if (!r->json_wanted) return CC_OK;
    size_t counts[3] = {0, 0, 0};
    size_t i;
    json_t *c;
    json_array_foreach((json_t *)r->cases, i, c) {
        const char *o = json_string_value(json_object_get(c, "outcome"));
        for (int k = 0; k < 3; k++) counts[k] += o && !strcmp(o, outcome_names[k]);
    }
    json_t *doc = json_pack("{s:s, s:s?, s:I, s:b, s:I, s:I, s:I, s:I, s:O}", "engine", r->engine,
                            "seed", seed_hex, "cases_asked", (json_int_t)asked, "keep_going",
                            keep_going, "run", (json_int_t)json_array_size(r->cases), "passed",
                            (json_int_t)counts[0], "refused", (json_int_t)counts[1], "failed",
                            (json_int_t)counts[2], "cases", (json_t *)r->cases);
    if (!doc) return cc_fail(err, CC_ERR_NOMEM, "out of memory for check's JSON");
    int rc = json_dumpf(doc, out, JSON_INDENT(1) | JSON_ENSURE_ASCII);
    json_decref(doc);
    if (rc || fputc('\n', out) == EOF || fflush(out))
        return cc_fail(err, CC_ERR_IO, "writing check's JSON to stdout failed");
    return CC_OK;
}

void cli_check_report_free(cli_check_report *r) {
    cc_junit_free(&r->junit);
    json_decref((json_t *)r->cases);
    r->cases = NULL;
}
