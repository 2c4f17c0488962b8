/* Timing one engine against its reference in the same run (see bench.h). */
#define _POSIX_C_SOURCE 200809L

#include "harness/bench.h"
#include "harness/limits.h"
#include "supervise/supervisor.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/case.h"
#include "oracle/table6.h"
#include "oracle/grid.h"

#define BENCH_REPEATS_MAX 1000

static const int32_t default_radii[] = {1, 4, 8, 16};

void cc_bench_options_init(cc_bench_options *opt) {
    memset(opt, 0, sizeof *opt);
    opt->warmup = -1;
}

/* A whole number in [lo, hi] from text[0..len). */
static int parse_whole(const char *what, const char *text, size_t len, int64_t lo, int64_t hi,
                       int64_t *out, cc_error *err) {
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return cc_fail(err, CC_ERR_ARG, "%s '%.*s' is not a whole number", what, (int)len, text);
    memcpy(buf, text, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (buf[i] < '0' || buf[i] > '9')
            return cc_fail(err, CC_ERR_ARG, "%s '%s' is not a whole number", what, buf);
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno || v < lo || v > hi)
        return cc_fail(err, CC_ERR_ARG, "%s %s is outside %lld..%lld", what, buf, (long long)lo,
                       (long long)hi);
    *out = v;
    return CC_OK;
}

/* Calls item(start, len) for every comma-separated item of text; refuses empty items. */
typedef int (*item_fn)(const char *item, size_t len, cc_bench_options *opt, cc_error *err);

static int for_each_item(const char *flag, const char *text, item_fn item, cc_bench_options *opt,
                         cc_error *err) {
    if (!text || !*text) return cc_fail(err, CC_ERR_ARG, "%s needs a value", flag);
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) return cc_fail(err, CC_ERR_ARG, "%s '%s' has an empty item", flag, text);
        int rc = item(p, len, opt, err);
        if (rc) return rc;
        if (!comma) return CC_OK;
        p = comma + 1;
    }
}

static int radius_item(const char *item, size_t len, cc_bench_options *opt, cc_error *err) {
    if (opt->radius_count >= CC_BENCH_LIST_MAX)
        return cc_fail(err, CC_ERR_ARG, "--radius lists more than %d radii", CC_BENCH_LIST_MAX);
    int64_t r;
    int rc = parse_whole("radius", item, len, 1, CC_RADIUS_MAX, &r, err);
    if (rc) return rc;
    opt->radii[opt->radius_count++] = (int32_t)r;
    return CC_OK;
}

static int size_item(const char *item, size_t len, cc_bench_options *opt, cc_error *err) {
    if (opt->size_count >= CC_BENCH_LIST_MAX)
        return cc_fail(err, CC_ERR_ARG, "--size lists more than %d sizes", CC_BENCH_LIST_MAX);
    const char *x = memchr(item, 'x', len);
    int64_t w, h;
    int rc = parse_whole("size", item, x ? (size_t)(x - item) : len, 1, CC_GRID_SIDE_MAX, &w, err);
    if (rc) return rc;
    h = w;
    if (x && (rc = parse_whole("size", x + 1, len - (size_t)(x - item) - 1, 1, CC_GRID_SIDE_MAX, &h,
                               err)))
        return rc;
    opt->widths[opt->size_count] = (int32_t)w;
    opt->heights[opt->size_count] = (int32_t)h;
    opt->size_count++;
    return CC_OK;
}

int cc_bench_parse_radii(const char *text, cc_bench_options *opt, cc_error *err) {
    opt->radius_count = 0;
    return for_each_item("--radius", text, radius_item, opt, err);
}

int cc_bench_parse_sizes(const char *text, cc_bench_options *opt, cc_error *err) {
    opt->size_count = 0;
    return for_each_item("--size", text, size_item, opt, err);
}

static int radii_option(const char *flag, const char *value, void *dest, cc_error *err) {
    (void)flag;
    return cc_bench_parse_radii(value, dest, err);
}

static int sizes_option(const char *flag, const char *value, void *dest, cc_error *err) {
    (void)flag;
    return cc_bench_parse_sizes(value, dest, err);
}

void cc_bench_option_rows(cc_bench_options *opt, cc_option rows[CC_BENCH_OPTION_COUNT]) {
    const cc_option table[CC_BENCH_OPTION_COUNT] = {
        CC_OPTION_CUSTOM("radius", "R,...", opt, radii_option,
                         "radii to time (default 1,4,8,16, within both caps)"),
        CC_OPTION_CUSTOM("size", "N|WxH,...", opt, sizes_option,
                         "grid sizes (default 1024 on a CPU, 8192 on a GPU)"),
        CC_OPTION_INT64("steps", "K", &opt->steps, 1, INT32_MAX,
                        "steps per timed repeat (default 2 CPU, 25 GPU; rounded up to whole "
                        "launches)"),
        CC_OPTION_INT("repeats", "N", &opt->repeats, 1, BENCH_REPEATS_MAX,
                      "median of N timed repeats (default 3 CPU, 5 GPU)"),
        CC_OPTION_INT64("warmup", "K", &opt->warmup, 0, INT32_MAX,
                        "untimed steps first (default 1 CPU, 3 GPU)"),
        CC_OPTION_CUSTOM("budget", "SECONDS", &opt->budget, cc_budget_parse,
                         "refuse a run estimated to take longer (default 3600)"),
    };
    memcpy(rows, table, sizeof table);
}

const char *cc_bench_default_reference(const cc_engine *engine) {
    return engine->hardware == CC_HW_GPU ? "cuda.base" : "cpu.ref";
}

void cc_bench_cpu_model(char *buf, size_t size) {
    snprintf(buf, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *colon = strchr(line, ':');
        if (!colon) continue;
        colon++;
        while (*colon == ' ' || *colon == '\t') colon++;
        size_t len = strlen(colon);
        while (len > 0 && (colon[len - 1] == '\n' || colon[len - 1] == ' ')) len--;
        snprintf(buf, size, "%.*s", (int)len, colon);
        break;
    }
    fclose(f);
}

/* ---- measuring ------------------------------------------------------------------------------ */

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct measurement {
    double ms_per_step; /* median */
    char device[CC_BENCH_DEVICE_MAX];
    int engine_clock; /* timed by the engine's timed_step */
} measurement;

/* Creates the engine on the grid, runs warmup untimed steps, then repeats x steps timed; the
 * final grid goes to final_cells. */
static int measure(const cc_engine *engine, const cc_rule *rule, const cc_grid *initial,
                   int64_t warmup, int64_t steps, int repeats, uint8_t *final_cells, measurement *m,
                   cc_error *err) {
    cc_context *ctx = NULL;
    int rc = cc_call_create(engine, rule, initial->w, initial->h, &ctx, err);
    if (rc) return rc;
    double times[BENCH_REPEATS_MAX];
    cc_call_device_name(ctx, m->device, sizeof m->device);
    if (!m->device[0])
        cc_bench_cpu_model(m->device, sizeof m->device);
    if (!(rc = cc_call_load(ctx, initial->cells, err)) && warmup > 0)
        rc = cc_call_step(ctx, warmup, err);
    for (int i = 0; i < repeats && !rc; i++) {
        double ms = 0.0;
        rc = cc_call_timed_step(ctx, steps, &ms, &m->engine_clock, err);
        times[i] = ms / (double)steps;
    }
    if (!rc) rc = cc_call_store(ctx, final_cells, err);
    cc_call_destroy(ctx, NULL);
    if (rc) return cc_prefix(err, "%s", engine->name);
    qsort(times, (size_t)repeats, sizeof times[0], compare_double);
    m->ms_per_step =
        repeats % 2 ? times[repeats / 2] : (times[repeats / 2 - 1] + times[repeats / 2]) / 2.0;
    return CC_OK;
}

/* ---- the run -------------------------------------------------------------------------------- */

static int32_t gcd32(int32_t a, int32_t b) {
    while (b) {
        int32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int32_t lcm32(int32_t a, int32_t b) {
    if (a < 1) a = 1;
    if (b < 1) b = 1;
    return a / gcd32(a, b) * b;
}

static int32_t round_up(int32_t v, int32_t multiple) {
    return (v + multiple - 1) / multiple * multiple;
}

/* A JSON string body: quotes, backslashes and control characters escaped. */
static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* The radii to time: the list asked for, less those outside either engine's range (noted on
 * out), or by default 1, 4, 8, 16 clamped to the range both share with Table VI. */
static int resolve_radii(const cc_engine *engine, const cc_engine *reference,
                         const cc_bench_options *opt, FILE *out, int32_t *radii, int *count,
                         cc_error *err) {
    *count = 0;
    /* The radii of the shape the workload runs (Table VI's Moore rules), within its own limits
     * (caps.shape_limits). */
    cc_engine_caps caps = cc_bench_workload_caps(engine);
    int32_t lo = caps.radius_min, hi = caps.radius_max;
    if (reference) {
        cc_engine_caps ref = cc_bench_workload_caps(reference);
        if (ref.radius_min > lo) lo = ref.radius_min;
        if (ref.radius_max < hi) hi = ref.radius_max;
    }
    if (opt->radius_count > 0) {
        for (int i = 0; i < opt->radius_count; i++) {
            if (opt->radii[i] >= lo && opt->radii[i] <= hi)
                radii[(*count)++] = opt->radii[i];
            else
                fprintf(out, "bench: radius %d skipped: %s%s%s take r %d..%d\n", (int)opt->radii[i],
                        engine->name, reference ? " and " : "", reference ? reference->name : "",
                        (int)lo, (int)hi);
        }
        if (*count == 0)
            return cc_fail(err, CC_ERR_UNSUPPORTED, "no radius asked for is within r %d..%d",
                           (int)lo, (int)hi);
        return CC_OK;
    }
    if (hi > CC_TABLE6_COUNT) hi = CC_TABLE6_COUNT;
    if (lo > hi)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s and %s share no radius with a Table VI rule (1..%d)", engine->name,
                       reference ? reference->name : engine->name, CC_TABLE6_COUNT);
    for (size_t i = 0; i < sizeof default_radii / sizeof default_radii[0]; i++) {
        int32_t r = default_radii[i] < lo ? lo : default_radii[i] > hi ? hi : default_radii[i];
        if (*count == 0 || radii[*count - 1] != r) radii[(*count)++] = r;
    }
    return CC_OK;
}

cc_engine_caps cc_bench_workload_caps(const cc_engine *engine) {
    const cc_engine_caps all = cc_engine_caps_resolved(engine);
    int hex = !(all.shapes & CC_SHAPE_BIT(CC_SHAPE_MOORE)) && (all.shapes & CC_SHAPE_BIT(CC_SHAPE_HEX));
    return cc_engine_caps_for_shape(&all, hex ? CC_SHAPE_HEX : CC_SHAPE_MOORE);
}

int cc_bench_workload(const cc_engine *engine, int32_t r, cc_rule *rule, double *density,
                      cc_error *err) {
    uint32_t shapes = cc_engine_caps_resolved(engine).shapes;
    if (!(shapes & CC_SHAPE_BIT(CC_SHAPE_MOORE)) && (shapes & CC_SHAPE_BIT(CC_SHAPE_HEX))) {
        *density = 0.5;
        return cc_rule_parse("B2/S34H", rule, err);
    }
    const cc_table6_instance *t = cc_table6_find(r);
    if (!t)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "radius %d: Table VI has rules for radius 1..%d only",
                       (int)r, CC_TABLE6_COUNT);
    *density = t->density;
    int rc = cc_rule_parse(r == 1 ? "B3/S23" : t->rule, rule, err);
    return rc ? cc_prefix(err, "Table VI rule of radius %d", (int)r) : CC_OK;
}

int cc_bench_run(const cc_engine *engine, const cc_engine *reference, const cc_bench_options *opt,
                 FILE *out, cc_bench_row *rows, int max_rows, int *row_count, cc_error *err) {
    if (row_count) *row_count = 0;
    if (!engine || !opt) return cc_fail(err, CC_ERR_ARG, "cc_bench_run: no engine or options");
    int same = !reference || reference == engine || strcmp(reference->name, engine->name) == 0;
    if (same) reference = NULL;
    /* Timed as they run alone: a worker whose OpenMP team takes every core, and a heap that is
     * not poisoned. */
    const cc_engine *timed[] = {engine, reference};
    for (int i = 0; i < 2; i++) {
        cc_supervisor *sv = timed[i] ? cc_supervisor_of(timed[i]) : NULL;
        if (!sv) continue;
        cc_supervisor_options o = cc_supervisor_get_options(sv);
        if (o.spare_core || o.poison_heap) {
            o.spare_core = 0;
            o.poison_heap = 0;
            cc_supervisor_set_options(sv, &o);
            cc_supervisor_restart(sv);
        }
    }
    int gpu = engine->hardware == CC_HW_GPU;
    int64_t steps = opt->steps > 0 ? opt->steps : gpu ? 25 : 2;
    /* By default a repeat is whole launches of an engine that blocks steps in time, so the
     * figure is its steady rate, not its remainder's. */
    const int32_t per_launch = cc_engine_caps_resolved(engine).steps_per_launch;
    if (opt->steps <= 0 && per_launch > 1) steps = (steps + per_launch - 1) / per_launch * per_launch;
    int64_t warmup = opt->warmup >= 0 ? opt->warmup : gpu ? 3 : 1;
    int repeats = opt->repeats > 0 ? opt->repeats : gpu ? 5 : 3;
    if (repeats > BENCH_REPEATS_MAX)
        return cc_fail(err, CC_ERR_ARG, "%d repeats, at most %d", repeats, BENCH_REPEATS_MAX);

    int32_t radii[CC_BENCH_LIST_MAX], widths[CC_BENCH_LIST_MAX], heights[CC_BENCH_LIST_MAX];
    int nradii, nsizes;
    int rc = CC_OK;
    if (opt->rule_count > 0) nradii = opt->rule_count; /* one workload a rule */
    else rc = resolve_radii(engine, reference, opt, out, radii, &nradii, err);
    if (rc) return rc;
    if (opt->size_count > 0) {
        nsizes = opt->size_count;
        for (int i = 0; i < nsizes; i++) {
            widths[i] = opt->widths[i];
            heights[i] = opt->heights[i];
        }
    } else {
        int32_t side = gpu ? 8192 : 1024;
        cc_engine_caps caps = cc_engine_caps_resolved(engine);
        cc_engine_caps ref = reference ? cc_engine_caps_resolved(reference) : caps;
        int32_t wm = lcm32(caps.w_multiple, ref.w_multiple);
        int32_t hm = lcm32(caps.h_multiple, ref.h_multiple);
        nsizes = 1;
        widths[0] = round_up(side, wm);
        heights[0] = round_up(side, hm);
    }

    /* Every row is checked before any is timed, so a bad radius or size fails at once: each
     * within the engines' caps, the run cap and the memory limit (the initial grid and the two
     * final ones held here, and each engine's context), and all of them within the budget. */
    cc_rule rules[CC_BENCH_LIST_MAX];
    double densities[CC_BENCH_LIST_MAX];
    double seconds = 0.0;
    int64_t total_steps = warmup + steps * repeats;
    for (int i = 0; i < nradii; i++) {
        if (opt->rule_count > 0) rules[i] = opt->rules[i], densities[i] = CC_BENCH_RULE_DENSITY;
        else if ((rc = cc_bench_workload(engine, radii[i], &rules[i], &densities[i], err)))
            return rc;
        for (int s = 0; s < nsizes; s++) {
            if ((rc = cc_engine_check(engine, &rules[i], widths[s], heights[s], err))) return rc;
            if (reference &&
                (rc = cc_engine_check(reference, &rules[i], widths[s], heights[s], err)))
                return cc_prefix(err, "reference");
            if ((rc = cc_limit_work("bench", &rules[i], widths[s], heights[s], total_steps,
                                    CC_RUN_WORK_MAX, err)) ||
                (rc = cc_limit_engine_memory("bench", engine, &rules[i], widths[s], heights[s],
                                             3.0, err)) ||
                (reference && (rc = cc_limit_engine_memory("bench", reference, &rules[i],
                                                           widths[s], heights[s], 3.0, err))))
                return rc;
            seconds += cc_time_lower_bound(engine, &rules[i], widths[s], heights[s], total_steps);
            if (reference)
                seconds +=
                    cc_time_lower_bound(reference, &rules[i], widths[s], heights[s], total_steps);
        }
    }
    char what[160], basis[128];
    snprintf(what, sizeof what, "bench: %d radii x %d sizes x %lld steps of %s%s%s", nradii,
             nsizes, (long long)total_steps, engine->name, reference ? " and " : "",
             reference ? reference->name : "");
    snprintf(basis, sizeof basis, "at no more than %.0e cell-neighbour visits a second",
             gpu ? CC_RATE_GPU : CC_RATE_CPU);
    if ((rc = cc_limit_time(what, seconds, opt->budget, basis, err))) return rc;

    char cpu[CC_BENCH_DEVICE_MAX];
    cc_bench_cpu_model(cpu, sizeof cpu);
    fprintf(out,
            "bench: %s against %s; %lld steps per repeat, %d repeats, %lld warm-up steps; "
            "medians\n",
            engine->name, reference ? reference->name : engine->name, (long long)steps, repeats,
            (long long)warmup);
    fprintf(out, "host CPU: %s\n", cpu);

    uint8_t seed_master[CC_SEED_BYTES] = "cellcheck bench Table VI grids";
    size_t mismatches = 0;
    int row = 0;
    for (int s = 0; s < nsizes && !rc; s++) {
        for (int i = 0; i < nradii && !rc; i++, row++) {
            cc_case c;
            memset(&c, 0, sizeof c);
            c.rule = rules[i];
            c.w = widths[s];
            c.h = heights[s];
            c.steps = warmup + steps * repeats;
            c.density = densities[i];
            /* One grid per workload, whatever else the run measures. */
            case_seed_derive(seed_master,
                             (uint64_t)c.rule.radius << 42 | (uint64_t)c.w << 21 | (uint64_t)c.h,
                             c.seed);
            char line[CC_CASE_TEXT_MAX], rule_text[CC_RULE_TEXT_MAX];
            if ((rc = case_format(&c, line, sizeof line, err))) break;
            if ((rc = cc_rule_print(&c.rule, rule_text, sizeof rule_text, err))) break;
            cc_grid initial;
            if ((rc = case_grid(&c, &initial, err))) break;
            size_t cells = cc_grid_cells(&initial);
            uint8_t *engine_final = malloc(cells), *ref_final = reference ? malloc(cells) : NULL;
            measurement me, mr;
            memset(&mr, 0, sizeof mr);
            if (!engine_final || (reference && !ref_final))
                rc = cc_fail(err, CC_ERR_NOMEM, "cannot allocate two %dx%d grids", (int)c.w,
                             (int)c.h);
            if (!rc)
                rc = measure(engine, &c.rule, &initial, warmup, steps, repeats, engine_final, &me,
                             err);
            if (!rc && reference)
                rc = measure(reference, &c.rule, &initial, warmup, steps, repeats, ref_final, &mr,
                             err);
            cc_grid_free(&initial);
            if (!rc) {
                cc_bench_row r;
                memset(&r, 0, sizeof r);
                r.radius = c.rule.radius;
                r.w = c.w;
                r.h = c.h;
                snprintf(r.rule, sizeof r.rule, "%s", rule_text);
                r.density = c.density;
                r.steps = steps;
                r.repeats = repeats;
                r.engine_ms = me.ms_per_step;
                r.engine_cells_per_s =
                    me.ms_per_step > 0 ? (double)cells / (me.ms_per_step / 1e3) : 0;
                if (reference) {
                    r.reference_ms = mr.ms_per_step;
                    r.reference_cells_per_s =
                        mr.ms_per_step > 0 ? (double)cells / (mr.ms_per_step / 1e3) : 0;
                    r.speedup = me.ms_per_step > 0 ? mr.ms_per_step / me.ms_per_step : 0;
                    r.grids_match = memcmp(engine_final, ref_final, cells) == 0;
                    mismatches += !r.grids_match;
                } else {
                    r.reference_ms = r.engine_ms;
                    r.reference_cells_per_s = r.engine_cells_per_s;
                    r.speedup = 1.0;
                    r.grids_match = -1;
                }
                if (row == 0) {
                    fprintf(out, "engine device: %s%s\n", me.device,
                            me.engine_clock ? " (timed by the engine's own clock)" : "");
                    if (reference)
                        fprintf(out, "reference device: %s%s\n", mr.device,
                                mr.engine_clock ? " (timed by the engine's own clock)" : "");
                    fprintf(out, "%3s %13s %-34s %12s %10s %12s %10s %8s %6s\n", "r", "size",
                            "rule", "engine ms", "cells/s", "ref ms", "cells/s", "speedup",
                            "grids");
                }
                char size_text[32];
                snprintf(size_text, sizeof size_text, "%dx%d", (int)r.w, (int)r.h);
                fprintf(out, "%3d %13s %-34s %12.4f %10.3e %12.4f %10.3e %7.2fx %6s\n",
                        (int)r.radius, size_text, r.rule, r.engine_ms, r.engine_cells_per_s,
                        r.reference_ms, r.reference_cells_per_s, r.speedup,
                        r.grids_match < 0 ? "-"
                        : r.grids_match   ? "equal"
                                          : "DIFFER");
                fprintf(out, "BENCH {\"engine\":");
                json_string(out, engine->name);
                fprintf(out, ",\"reference\":");
                json_string(out, reference ? reference->name : engine->name);
                fprintf(out, ",\"engine_device\":");
                json_string(out, me.device);
                fprintf(out, ",\"reference_device\":");
                json_string(out, reference ? mr.device : me.device);
                fprintf(out, ",\"engine_timer\":\"%s\",\"radius\":%d,\"w\":%d,\"h\":%d,\"rule\":",
                        me.engine_clock ? "engine" : "monotonic", (int)r.radius, (int)r.w,
                        (int)r.h);
                json_string(out, r.rule);
                fprintf(out,
                        ",\"density\":%.4f,\"steps\":%lld,\"repeats\":%d,\"warmup\":%lld,"
                        "\"engine_ms_per_step\":%.6f,\"engine_cells_per_s\":%.6e,"
                        "\"reference_ms_per_step\":%.6f,\"reference_cells_per_s\":%.6e,"
                        "\"speedup\":%.4f,\"grids_match\":%s,\"case\":",
                        r.density, (long long)r.steps, r.repeats, (long long)warmup, r.engine_ms,
                        r.engine_cells_per_s, r.reference_ms, r.reference_cells_per_s, r.speedup,
                        r.grids_match < 0 ? "null"
                        : r.grids_match   ? "true"
                                          : "false");
                json_string(out, line);
                fprintf(out, "}\n");
                fflush(out);
                if (rows && row < max_rows) rows[row] = r;
                if (row_count) *row_count = row + 1;
                if (!r.grids_match)
                    fprintf(out, "MISMATCH: %s and %s disagree after %lld steps of %s\n",
                            engine->name, reference->name, (long long)c.steps, line);
            }
            free(engine_final);
            free(ref_final);
        }
    }
    if (rc) return rc;
    if (mismatches)
        return cc_fail(err, CC_ERR_MISMATCH, "%s and %s disagree on %zu benchmark grids",
                       engine->name, reference->name, mismatches);
    return CC_OK;
}
