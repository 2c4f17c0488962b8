/* certificate.json as the renderer writes it: read back by jansson with every awkward string
 * whole (quotes, backslashes, line breaks, control characters; bytes that are not UTF-8 as '?'),
 * seconds to the millisecond, and the layout of a field a line and an engine a line that
 * readers grep. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/certificate/render.h"
#include "testing/check.h"

static const char awkward[] = "a \"quoted\" \\path\\\nnext line\ttab \x01 end";

static void fill(cc_certificate *c) {
    cc_error err;
    if (cc_certificate_alloc(c, 2, &err)) abort();
    cc_provenance *p = &c->prov;
    snprintf(p->build.version, sizeof p->build.version, "1.0");
    snprintf(p->build.commit, sizeof p->build.commit, "abc");
    snprintf(p->build.compiler, sizeof p->build.compiler, "gcc");
    snprintf(p->build.mode, sizeof p->build.mode, "opt");
    snprintf(p->build.flags, sizeof p->build.flags, "-DNAME=\"x\"");
    snprintf(p->date, sizeof p->date, "2026-01-02T03:04:05Z");
    snprintf(p->command, sizeof p->command, "cellcheck certify --engine 'caf\xe9'");
    snprintf(p->os, sizeof p->os, "Linux");
    snprintf(p->cpu_model, sizeof p->cpu_model, "a CPU");
    snprintf(p->golden_generation, sizeof p->golden_generation, ".gen-1");
    snprintf(p->seed, sizeof p->seed, "%064x", 5);
    p->cpu_family = p->cpu_model_number = p->cpu_stepping = -1;
    p->cases = 40;
    p->shard_index = 1;
    p->shard_count = 4;
    cc_certificate_engine *a = &c->engine[0], *b = &c->engine[1];
    snprintf(a->name, sizeof a->name, "cpu.a");
    a->verdict = CC_VERDICT_CERTIFIED;
    a->seconds = 1.23456;
    a->conf.first_index = -1;
    a->conf.sections[CC_CHECK_EDGE_CASES].run = 1;
    a->conf.sections[CC_CHECK_EDGE_CASES].seconds = 0.5;
    a->conf.sections[CC_CHECK_EDGE_CASES].oracle_seconds = 0.25;
    a->conf.sections[CC_CHECK_EDGE_CASES].engine_seconds = 0.125;
    cc_rule rule = {0};
    rule.radius = 2;
    rule.shape = CC_SHAPE_MOORE;
    cc_coverage_add(&a->conf.sections[CC_CHECK_EDGE_CASES].cov, &rule, 70000, 70000, 3, 0);
    snprintf(b->name, sizeof b->name, "mutant.b");
    b->verdict = CC_VERDICT_FAILED;
    b->seconds = 2.0;
    snprintf(b->reason, sizeof b->reason, "%s", awkward);
    b->conf.failed = 1;
    b->conf.first_kind = CC_FAILURE_MISMATCH;
    b->conf.first_index = -1;
    snprintf(b->conf.first_failure, sizeof b->conf.first_failure, "%s", awkward);
    snprintf(b->plugin, sizeof b->plugin, "/tmp/lib\"b\".so");
    snprintf(b->plugin_sha256, sizeof b->plugin_sha256, "%064x", 9);
}

static void read_back(checks *t) {
    cc_certificate c;
    fill(&c);
    char *text = NULL;
    size_t len = 0;
    cc_error err;
    if (!CHECKF(t, cc_certificate_json(&c, &text, &len, &err) == CC_OK, "%s", err.msg)) return;
    CHECK_EQ(t, strlen(text), len);
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    if (CHECKF(t, root != NULL, "not JSON: %s at line %d", jerr.text, jerr.line)) {
        json_t *engines = json_object_get(root, "engines");
        json_t *b = json_array_get(engines, 1);
        CHECK_EQ(t, (int)json_array_size(engines), 2);
        CHECK(t, !strcmp(json_string_value(json_object_get(b, "reason")), awkward));
        json_t *failure = json_object_get(b, "failure");
        CHECK(t, !strcmp(json_string_value(json_object_get(failure, "detail")), awkward));
        CHECK(t, !strcmp(json_string_value(json_object_get(failure, "class")), "mismatch with the oracle"));
        CHECK(t, json_is_null(json_object_get(failure, "case")));
        CHECK(t, !strcmp(json_string_value(json_object_get(json_object_get(b, "plugin"), "path")),
                         "/tmp/lib\"b\".so"));
        CHECKF(t, !strcmp(json_string_value(json_object_get(root, "command")),
                          "cellcheck certify --engine 'caf?'"),
               "command: %s", json_string_value(json_object_get(root, "command")));
        json_t *a = json_array_get(engines, 0);
        CHECK(t, json_is_null(json_object_get(a, "failure")));
        CHECK(t, json_real_value(json_object_get(a, "seconds")) == 1.235);
        json_t *cov = json_object_get(json_object_get(a, "coverage"), "edge cases");
        CHECK_EQ(t, (long long)json_integer_value(json_object_get(cov, "cells_max")),
                 4900000000LL);
        CHECK_EQ(t, (int)json_object_size(json_object_get(a, "section_seconds")),
                 CC_CHECK_SECTION_COUNT + 1);
        /* The split of the one section that ran, and no other section. */
        json_t *parts = json_object_get(a, "section_time_parts");
        json_t *edge = json_object_get(parts, "edge cases");
        CHECK_EQ(t, (int)json_object_size(parts), 1);
        CHECK(t, json_real_value(json_object_get(edge, "oracle")) == 0.25);
        CHECK(t, json_real_value(json_object_get(edge, "engine")) == 0.125);
        CHECK(t, json_real_value(json_object_get(edge, "shrink")) == 0.0);
        json_decref(root);
    }
    /* What readers grep, and a line each for the top-level fields and the engines. */
    CHECKF(t, strstr(text, "\"shard\": {\"index\": 1, \"count\": 4}") != NULL, "%s", text);
    CHECK(t, strstr(text, "\"seconds\": 1.235,") != NULL);
    CHECK(t, strstr(text, "\n  \"schema_version\": 2,\n  \"cellcheck\": {\"version\": \"1.0\", ") !=
                 NULL);
    CHECK(t, strstr(text, "\n  \"engines\": [\n    {\"engine\": \"cpu.a\", ") != NULL);
    CHECK(t, strstr(text, "},\n    {\"engine\": \"mutant.b\", ") != NULL);
    CHECKF(t, len > 8 && !strcmp(text + len - 8, "}\n  ]\n}\n"), "ends: %s", text + len - 8);
    free(text);
    cc_certificate_free(&c);
}

int main(void) {
    checks t = {"json_test", 0, 0};
    read_back(&t);
    return check_summary(&t);
}
