/* The certificate as JSON (render.h, cli/certificate.schema.json), built as a jansson tree and
 * written by jansson: a top-level field a line and an engine a line, so the file still reads and
 * diffs by line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/certificate/render.h"
#include "harness/lightcone.h"
#include "harness/step_counts.h"

/* A value set into an object or appended to an array; any failure (out of memory, a NULL value)
 * leaves *failed set, and jansson has released the value. */
static void put(json_t *obj, const char *key, json_t *value, int *failed) {
    if (json_object_set_new(obj, key, value)) *failed = 1;
}

static void append(json_t *array, json_t *value, int *failed) {
    if (json_array_append_new(array, value)) *failed = 1;
}

/* s as a JSON string; bytes that are not UTF-8 (a command line, an engine's message) become '?'
 * rather than an unreadable file. */
static json_t *text(const char *s) {
    json_t *v = json_string(s);
    if (v) return v;
    char *copy = strdup(s);
    if (!copy) return NULL;
    for (char *c = copy; *c; c++)
        if ((unsigned char)*c >= 0x80) *c = '?';
    v = json_string(copy);
    free(copy);
    return v;
}

/* s, or null where s is NULL or "". */
static json_t *text_or_null(const char *s) { return s && s[0] ? text(s) : json_null(); }

/* Seconds as the certificate has always given them: to the millisecond. */
static json_t *seconds(double s) { return json_real(floor(s * 1000.0 + 0.5) / 1000.0); }

/* Where each section's time went, for the sections that ran: the oracle, the engine in its
 * worker, the exchange with it, drawing cases, shrinking a failure; the rest of a section's
 * seconds is the harness's own (comparisons, the oracle of call sequences and step counts). */
static json_t *time_parts(const cc_conformance_summary *conf, int *failed) {
    json_t *parts = json_object();
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
        const cc_section_tally *t = &conf->sections[s];
        if (!t->run) continue;
        json_t *o = json_object();
        put(o, "oracle", seconds(t->oracle_seconds), failed);
        put(o, "engine", seconds(t->engine_seconds), failed);
        put(o, "exchange", seconds(t->exchange_seconds), failed);
        put(o, "drawing", seconds(t->draw_seconds), failed);
        put(o, "shrink", seconds(t->shrink_seconds), failed);
        put(parts, cc_check_section_name((cc_check_section)s), o, failed);
    }
    return parts;
}

/* A section's coverage (cc_coverage's fields, and its line of text). */
static json_t *coverage(const cc_coverage *v, int *failed) {
    json_t *o = json_object(), *shapes = json_array(), *centres = json_array(),
           *topologies = json_array(), *teams = json_array();
    for (int sh = 0; sh < CC_SHAPE_COUNT; sh++)
        if (v->shapes & CC_SHAPE_BIT(sh)) append(shapes, text(cc_shape_code((cc_shape)sh)), failed);
    if (v->centres & 1u) append(centres, json_string("M0"), failed);
    if (v->centres & 2u) append(centres, json_string("M1"), failed);
    if (v->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS))
        append(topologies, json_string("torus"), failed);
    if (v->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE))
        append(topologies, json_string("plane"), failed);
    for (int b = 0; b < 64; b++)
        if (v->teams & (1ull << b)) append(teams, json_integer(b + 1), failed);
    char line[400];
    cc_coverage_describe(v, line, sizeof line);
    put(o, "cases", json_integer(v->cases), failed);
    put(o, "shapes", shapes, failed);
    put(o, "radius_min", json_integer(v->radius_min), failed);
    put(o, "radius_max", json_integer(v->radius_max), failed);
    put(o, "centres", centres, failed);
    put(o, "topologies", topologies, failed);
    put(o, "teams", teams, failed);
    put(o, "default_team", json_boolean(v->default_team), failed);
    put(o, "steps_max", json_integer(v->steps_max), failed);
    put(o, "cells_max", json_integer((json_int_t)(v->cells_max + 0.5)), failed); /* a count */
    put(o, "side_max", json_integer(v->side_max), failed);
    put(o, "text", text(line), failed);
    return o;
}

static json_t *gaps(const cc_gap_list *l, int *failed) {
    json_t *a = json_array();
    for (int g = 0; g < l->n; g++) {
        const cc_gap *gap = &l->gaps[g];
        char id[64];
        cc_gap_id(gap, id, sizeof id);
        json_t *o = json_object();
        put(o, "id", text(id), failed);
        put(o, "section", text(cc_check_section_name((cc_check_section)gap->section)), failed);
        put(o, "kind", text(cc_gap_kind_name((cc_gap_kind)gap->kind)), failed);
        put(o, "count", json_integer(gap->count), failed);
        put(o, "accepted", json_boolean(gap->accepted), failed);
        put(o, "reason", text(gap->reason), failed);
        append(a, o, failed);
    }
    return a;
}

static json_t *failure(const cc_certificate_engine *e, const char *seed, int *failed) {
    if (e->verdict != CC_VERDICT_FAILED) return json_null();
    cc_failure_view fv;
    cc_certificate_failure(e, &fv);
    json_t *o = json_object();
    put(o, "class", text(fv.klass), failed);
    put(o, "section", text_or_null(fv.section), failed);
    put(o, "detail", text(fv.detail), failed);
    put(o, "case", text_or_null(fv.case_line), failed);
    put(o, "calls", text_or_null(fv.calls), failed);
    put(o, "campaign_case", fv.index >= 0 ? json_integer(fv.index) : json_null(), failed);
    put(o, "master_seed", text(seed), failed);
    put(o, "reproducer", text_or_null(fv.reproducer), failed);
    return o;
}

/* A pair {a: x, b: y} of integers. */
static json_t *pair(const char *a, json_int_t x, const char *b, json_int_t y, int *failed) {
    json_t *o = json_object();
    put(o, a, json_integer(x), failed);
    put(o, b, json_integer(y), failed);
    return o;
}

static json_t *engine(const cc_certificate_engine *r, const char *seed, int *failed) {
    const cc_conformance_summary *conf = &r->conf;
    json_t *o = json_object();
    put(o, "engine", text(r->name), failed);
    put(o, "needs", text(cc_hardware_name(r->hardware)), failed);
    put(o, "verdict", text(cc_verdict_name(r->verdict)), failed);
    put(o, "failure_class",
        r->verdict == CC_VERDICT_FAILED && conf->first_kind != CC_FAILURE_NONE
            ? text(cc_failure_kind_name(conf->first_kind))
            : json_null(),
        failed);
    put(o, "reason", text(r->reason), failed);
    put(o, "gaps", gaps(&conf->gaps, failed), failed);
    put(o, "gaps_dropped", json_integer(conf->gaps.dropped), failed);
    json_t *plugin = json_null();
    if (r->plugin[0]) {
        plugin = json_object();
        put(plugin, "path", text(r->plugin), failed);
        put(plugin, "sha256", text(r->plugin_sha256), failed);
    }
    put(o, "plugin", plugin, failed);
    const cc_engine_source *src = &r->source;
    json_t *source = json_object();
    put(source, "name", text_or_null(src->name), failed);
    put(source, "version", text_or_null(src->version), failed);
    put(source, "commit", text_or_null(src->commit), failed);
    put(source, "flags", text_or_null(src->flags), failed);
    put(source, "build", text_or_null(src->build), failed);
    put(o, "source", source, failed);
    put(o, "failure", failure(r, seed, failed), failed);
    put(o, "caps", text(r->caps), failed);
    char tile[48], huge[240], classes[160];
    cc_conformance_geometry(conf, tile, sizeof tile, huge, sizeof huge);
    if (r->verdict == CC_VERDICT_NOT_RUN)
        snprintf(huge, sizeof huge, "not run: the engine's hardware (%s) is absent here",
                 cc_hardware_name(r->hardware));
    cc_seam_classes_describe(conf->seam_classes, classes, sizeof classes);
    put(o, "devices", json_integer(conf->devices ? conf->devices : 1), failed);
    put(o, "ranks", json_integer(conf->ranks > 0 ? conf->ranks : 1), failed);
    json_t *tiles = pair("passed", conf->scale_passed, "tile_w", conf->tile_w, failed);
    put(tiles, "tile_h", json_integer(conf->tile_h), failed);
    put(o, "past_the_tiles", tiles, failed);
    put(o, "past_2_32_cells", text(huge), failed);
    json_t *cones = json_object();
    put(cones, "cells", json_integer((json_int_t)conf->lightcone_cells), failed);
    put(cones, "seam_classes", text(classes), failed);
    put(o, "light_cones", cones, failed);
    put(o, "edge_cases", json_integer(conf->edge_passed), failed);
    put(o, "round_trips", json_integer(conf->round_trips), failed);
    put(o, "shapes", json_integer(conf->shapes_passed), failed);
    put(o, "seams",
        pair("passed", conf->seams_passed, "grids_per_alignment", CC_SEAM_GRIDS, failed), failed);
    put(o, "plane", json_integer(conf->plane_passed), failed);
    json_t *steps = pair("passed", conf->step_counts, "largest", conf->step_counts_max, failed);
    put(steps, "left_out", json_integer(conf->step_counts_blind), failed);
    json_t *longs = pair("tried", conf->step_counts_long, "running", conf->step_counts_running,
                         failed);
    put(longs, "wait_s", json_real(CC_LONG_COUNT_WAIT_S), failed);
    put(steps, "past_2_31", longs, failed);
    put(o, "step_counts", steps, failed);
    put(o, "call_sequences", json_integer(conf->sequences), failed);
    put(o, "call_transitions",
        pair("covered", cc_transitions_count(&conf->transitions), "reachable",
             cc_transitions_reachable_count(), failed),
        failed);
    put(o, "gpu_timing", json_integer(conf->timing_passed), failed);
    const cc_campaign_result *c = &conf->campaign;
    json_t *campaign = pair("run", (json_int_t)c->run, "passed", (json_int_t)c->passed, failed);
    put(campaign, "failed", json_integer((json_int_t)c->failed), failed);
    put(o, "campaign", campaign, failed);
    json_t *golden = pair("passed", (json_int_t)r->golden.passed, "failed",
                          (json_int_t)r->golden.failed, failed);
    put(golden, "unsupported", json_integer((json_int_t)r->golden.unsupported), failed);
    put(o, "golden", golden, failed);
    put(o, "seconds", seconds(r->seconds), failed);
    json_t *by_section = json_object(), *covered = json_object();
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
        const char *name = cc_check_section_name((cc_check_section)s);
        put(by_section, name, seconds(cc_certificate_section_seconds(r, s)), failed);
        if (conf->sections[s].cov.cases)
            put(covered, name, coverage(&conf->sections[s].cov, failed), failed);
    }
    put(by_section, "goldens", seconds(r->golden_seconds), failed);
    put(o, "section_seconds", by_section, failed);
    put(o, "section_time_parts", time_parts(conf, failed), failed);
    put(o, "coverage", covered, failed);
    return o;
}

static json_t *certificate(const cc_certificate *cert, int *failed) {
    const cc_provenance *p = &cert->prov;
    json_t *o = json_object();
    put(o, "schema_version", json_integer(CC_CERTIFICATE_SCHEMA_VERSION), failed);
    json_t *build = json_object();
    put(build, "version", text(p->build.version), failed);
    put(build, "commit", text(p->build.commit), failed);
    put(build, "compiler", text(p->build.compiler), failed);
    put(build, "compilation_mode", text(p->build.mode), failed);
    put(build, "flags", text(p->build.flags), failed);
    put(o, "cellcheck", build, failed);
    put(o, "date", text(p->date), failed);
    put(o, "command", text(p->command), failed);
    put(o, "gpu", text(p->gpu), failed);
    json_t *cuda = json_null();
    if (p->cuda_driver[0]) {
        cuda = json_object();
        put(cuda, "driver", text(p->cuda_driver), failed);
        put(cuda, "runtime", text(p->cuda_runtime), failed);
    }
    put(o, "cuda", cuda, failed);
    put(o, "cpu", text(p->cpu_model), failed);
    json_t *cpu = json_object();
    put(cpu, "vendor", text_or_null(p->cpu_vendor), failed);
    put(cpu, "family", json_integer(p->cpu_family), failed);
    put(cpu, "model", json_integer(p->cpu_model_number), failed);
    put(cpu, "stepping", json_integer(p->cpu_stepping), failed);
    put(cpu, "logical_cpus", json_integer(p->cpu_logical), failed);
    put(o, "cpu_details", cpu, failed);
    put(o, "os", text(p->os), failed);
    put(o, "golden_generation", text(p->golden_generation), failed);
    put(o, "sandbox", text_or_null(p->sandbox), failed);
    put(o, "shard",
        p->shard_count > 1 ? pair("index", p->shard_index, "count", p->shard_count, failed)
                           : json_null(),
        failed);
    put(o, "merged_shards", json_integer(p->merged), failed);
    put(o, "cases", json_integer((json_int_t)p->cases), failed);
    put(o, "quick", json_boolean(p->quick), failed);
    put(o, "seed", text(p->seed), failed);
    json_t *engines = json_array();
    for (int i = 0; i < cert->engines; i++)
        append(engines, engine(&cert->engine[i], p->seed, failed), failed);
    put(o, "engines", engines, failed);
    return o;
}

/* Reals to 15 digits: the milliseconds as written, not their nearest double's 17 digits. */
#define DUMP_FLAGS (JSON_ENCODE_ANY | JSON_REAL_PRECISION(15))

/* value as jansson writes it on one line, into f. */
static int dump(FILE *f, const json_t *value) {
    char *s = json_dumps(value, DUMP_FLAGS);
    if (!s) return -1;
    fputs(s, f);
    free(s);
    return 0;
}

int cc_certificate_json(const cc_certificate *c, char **out, size_t *len, cc_error *err) {
    *out = NULL;
    *len = 0;
    int failed = 0;
    json_t *root = certificate(c, &failed);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = failed ? NULL : open_memstream(&buf, &size);
    if (f) {
        /* The layout: each top-level field on a line, each engine on a line of its own. */
        const char *key;
        json_t *value;
        const char *sep = "{\n";
        json_object_foreach(root, key, value) {
            fprintf(f, "%s  \"%s\": ", sep, key);
            sep = ",\n";
            if (!json_is_array(value)) {
                failed |= dump(f, value);
                continue;
            }
            fputc('[', f);
            for (size_t i = 0; i < json_array_size(value); i++) {
                fputs(i ? ",\n    " : "\n    ", f);
                failed |= dump(f, json_array_get(value, i));
            }
            fputs("\n  ]", f);
        }
        fputs("\n}\n", f);
        failed |= fclose(f) != 0;
    }
    json_decref(root);
    if (!f || failed) {
        free(buf);
        return cc_fail(err, CC_ERR_NOMEM, "cannot build the JSON certificate in memory");
    }
    *out = buf;
    *len = size;
    return CC_OK;
}
