/* The contract's entry points: the generic checks, done once for every engine. */
#define _POSIX_C_SOURCE 200809L
#define _GNU_SOURCE /* sched_getaffinity */
#include "engines/engine.h"

#include <sched.h>
#include <stdarg.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/cells.h"
#include "oracle/grid.h"

static int check_set_within(const char *engine, const cc_set *set, const char *which,
                            int32_t count_max, cc_error *err) {
    for (int i = 0; i < set->n; i++) {
        if (set->r[i].hi > count_max)
            return cc_fail(err, CC_ERR_UNSUPPORTED,
                           "%s: %s range %d..%d names counts above %d, the largest count this "
                           "engine supports",
                           engine, which, (int)set->r[i].lo, (int)set->r[i].hi,
                           (int)count_max);
    }
    return CC_OK;
}

static int check_set_ranges(const char *engine, const cc_set *set, const char *which,
                            int32_t ranges_max, cc_error *err) {
    int n = set->n; /* a valid rule's ranges are sorted, apart and not adjacent */
    if (ranges_max > 0 && n > ranges_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: %s has %d intervals, more than the %d this engine takes", engine,
                       which, n, (int)ranges_max);
    return CC_OK;
}

static int check_side(const char *engine, const char *which, int32_t side, int32_t multiple,
                      int32_t side_max, int32_t min, int32_t radius, cc_error *err) {
    if (side < min)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: %s %d is smaller than 2r+1 = %d (radius %d)", engine, which,
                       (int)side, (int)min, (int)radius);
    if (side > CC_GRID_SIDE_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: %s %d is above the largest side %d",
                       engine, which, (int)side, CC_GRID_SIDE_MAX);
    if (side_max > 0 && side > side_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: %s %d is above this engine's limit %d",
                       engine, which, (int)side, (int)side_max);
    if (multiple > 1 && side % multiple != 0)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: %s %d is not a multiple of %d",
                       engine, which, (int)side, (int)multiple);
    return CC_OK;
}

/* The tighter of two limits where 0 (or less) means none. */
static int64_t tighter(int64_t wide, int64_t narrow) {
    return narrow > 0 && (wide <= 0 || narrow < wide) ? narrow : wide;
}

cc_engine_caps cc_engine_caps_resolved(const cc_engine *engine) {
    cc_engine_caps caps = engine->caps;
    if (caps.shapes == 0) caps.shapes = (1u << CC_SHAPE_COUNT) - 1u;
    if (caps.radius_min <= 0) caps.radius_min = 1;
    if (caps.radius_max <= 0) caps.radius_max = CC_RADIUS_MAX;
    if (caps.centres == 0) caps.centres = CC_CENTRE_M0 | CC_CENTRE_M1;
    if (caps.topologies == 0) caps.topologies = CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS);
    if (caps.w_multiple <= 0) caps.w_multiple = 1;
    if (caps.h_multiple <= 0) caps.h_multiple = 1;
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        cc_shape_limits *l = &caps.shape_limits[s];
        l->radius_min = l->radius_min > caps.radius_min ? l->radius_min : caps.radius_min;
        l->radius_max = (int32_t)tighter(caps.radius_max, l->radius_max);
        l->w_max = (int32_t)tighter(caps.w_max, l->w_max);
        l->h_max = (int32_t)tighter(caps.h_max, l->h_max);
        l->cells_max = tighter(caps.cells_max, l->cells_max);
    }
    return caps;
}

cc_engine_caps cc_engine_caps_for_shape(const cc_engine_caps *caps, cc_shape shape) {
    cc_engine_caps c = *caps;
    if ((unsigned)shape >= CC_SHAPE_COUNT) return c;
    const cc_shape_limits *l = &caps->shape_limits[shape];
    if (l->radius_min > c.radius_min) c.radius_min = l->radius_min;
    c.radius_max = (int32_t)tighter(c.radius_max, l->radius_max);
    c.w_max = (int32_t)tighter(c.w_max, l->w_max);
    c.h_max = (int32_t)tighter(c.h_max, l->h_max);
    c.cells_max = tighter(c.cells_max, l->cells_max);
    return c;
}

int cc_engine_caps_shape_narrowed(const cc_engine_caps *caps, cc_shape shape) {
    const cc_engine_caps s = cc_engine_caps_for_shape(caps, shape);
    return s.radius_min != caps->radius_min || s.radius_max != caps->radius_max ||
           s.w_max != caps->w_max || s.h_max != caps->h_max || s.cells_max != caps->cells_max;
}

int cc_engine_caps_check(const cc_engine *engine, cc_error *err) {
    const cc_engine_caps *c = &engine->caps;
    const char *name = engine->name ? engine->name : "(unnamed)";
    /* A negative cap would read as "no limit" (0): refused, so a typo cannot lift a limit. */
    const struct {
        const char *name;
        int64_t value;
    } caps[] = {{"radius_min", c->radius_min}, {"radius_max", c->radius_max},
                {"w_multiple", c->w_multiple}, {"h_multiple", c->h_multiple},
                {"w_max", c->w_max},           {"h_max", c->h_max},
                {"count_max", c->count_max},   {"tile_w", c->tile_w},
                {"tile_h", c->tile_h},         {"steps_per_launch", c->steps_per_launch},
                {"s_ranges_max", c->s_ranges_max},
                {"b_ranges_max", c->b_ranges_max}, {"cells_max", c->cells_max}};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        if (caps[i].value < 0)
            return cc_fail(err, CC_ERR_ARG,
                           "%s: negative cap %s = %lld (0 means no limit; a limit is positive)",
                           name, caps[i].name, (long long)caps[i].value);
    if (c->topologies & ~((1u << CC_TOPOLOGY_COUNT) - 1u))
        return cc_fail(err, CC_ERR_ARG,
                       "%s: caps topologies 0x%x names topologies past the torus (bit 0) and the "
                       "bounded plane (bit 1)",
                       name, (unsigned)c->topologies);
    if (c->radius_min > 0 && c->radius_max > 0 && c->radius_min > c->radius_max)
        return cc_fail(err, CC_ERR_ARG, "%s: caps radius_min = %d above radius_max = %d", name,
                       (int)c->radius_min, (int)c->radius_max);
    const cc_engine_caps resolved = cc_engine_caps_resolved(engine);
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        const cc_shape_limits *l = &c->shape_limits[s];
        const char *code = cc_shape_code((cc_shape)s);
        const struct {
            const char *name;
            int64_t value;
        } own[] = {{"radius_min", l->radius_min}, {"radius_max", l->radius_max},
                   {"w_max", l->w_max}, {"h_max", l->h_max}, {"cells_max", l->cells_max}};
        for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
            if (own[i].value < 0)
                return cc_fail(err, CC_ERR_ARG,
                               "%s: negative cap shape_limits[%s].%s = %lld (0 means as the "
                               "engine-wide caps; a limit is positive)",
                               name, code, own[i].name, (long long)own[i].value);
        /* A shape the caps name must keep a radius (hex: r = 1) once its limits narrow them. */
        if (!(resolved.shapes & CC_SHAPE_BIT(s))) continue;
        const cc_engine_caps sc = cc_engine_caps_for_shape(&resolved, (cc_shape)s);
        int32_t lo = s == CC_SHAPE_HEX ? 1 : sc.radius_min, hi = s == CC_SHAPE_HEX ? 1 : sc.radius_max;
        if (sc.radius_min > lo || sc.radius_max < hi || lo > hi)
            return cc_fail(err, CC_ERR_ARG,
                           "%s: caps shape_limits[%s] leave %s no radius (r %d..%d; the "
                           "engine's r %d..%d%s): drop the shape from caps.shapes instead",
                           name, code, code, (int)sc.radius_min, (int)sc.radius_max,
                           (int)resolved.radius_min, (int)resolved.radius_max,
                           s == CC_SHAPE_HEX ? "; hex is r = 1 only" : "");
    }
    return CC_OK;
}

int cc_engine_check(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                    cc_error *err) {
    if (!engine || !rule) return cc_fail(err, CC_ERR_ARG, "cc_engine_check: no engine or rule");
    const cc_engine_caps resolved = cc_engine_caps_resolved(engine);
    return cc_engine_check_resolved(engine->name, &resolved, rule, w, h, err);
}

int cc_engine_check_resolved(const char *engine, const cc_engine_caps *caps, const cc_rule *rule,
                             int32_t w, int32_t h, cc_error *err) {
    if (!caps || !rule)
        return cc_fail(err, CC_ERR_ARG, "cc_engine_check_resolved: no caps or rule");
    int rc = cc_rule_validate(rule, err);
    if (rc) return cc_prefix(err, "%s", engine);
    if (!(caps->shapes & CC_SHAPE_BIT(rule->shape))) {
        char have[64];
        size_t used = 0;
        have[0] = '\0';
        for (int s = 0; s < CC_SHAPE_COUNT; s++) {
            if (!(caps->shapes & CC_SHAPE_BIT(s))) continue;
            int n = snprintf(have + used, sizeof have - used, "%s%s", used ? "," : "",
                             cc_shape_code((cc_shape)s));
            if (n < 0 || (size_t)n >= sizeof have - used) break;
            used += (size_t)n;
        }
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: neighbourhood %s is not supported (shapes: %s)", engine,
                       cc_shape_code(rule->shape), used ? have : "none");
    }
    if (rule->radius < caps->radius_min || rule->radius > caps->radius_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: radius %d is outside %d..%d", engine,
                       (int)rule->radius, (int)caps->radius_min, (int)caps->radius_max);
    /* From here on the shape's own limits: the engine-wide ones narrowed by its shape_limits. */
    const cc_engine_caps shaped = cc_engine_caps_for_shape(caps, rule->shape);
    const char *code = cc_shape_code(rule->shape);
    if (rule->radius < shaped.radius_min || rule->radius > shaped.radius_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: radius %d is outside %d..%d, the radii of neighbourhood %s "
                       "(caps.shape_limits[%s])",
                       engine, (int)rule->radius, (int)shaped.radius_min,
                       (int)shaped.radius_max, code, code);
    if (!(caps->topologies & CC_TOPOLOGY_BIT(rule->topology)))
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: the %s is not supported (it simulates the %s)",
                       engine, cc_topology_name(rule->topology),
                       caps->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) ? "torus" : "plane");
    uint32_t centre_bit = rule->centre ? CC_CENTRE_M1 : CC_CENTRE_M0;
    if (!(caps->centres & centre_bit))
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: centre handling M%d is not supported",
                       engine, rule->centre);
    if (caps->count_max > 0) {
        if ((rc = check_set_within(engine, &rule->survive, "S", caps->count_max, err))) return rc;
        if ((rc = check_set_within(engine, &rule->birth, "B", caps->count_max, err))) return rc;
    }
    if ((rc = check_set_ranges(engine, &rule->survive, "S", caps->s_ranges_max, err)) ||
        (rc = check_set_ranges(engine, &rule->birth, "B", caps->b_ranges_max, err)))
        return rc;
    if (caps->no_b0 && cc_set_has(&rule->birth, 0))
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: B contains 0 (birth with no live neighbour), which this engine cannot "
                       "do",
                       engine);
    int32_t min = 2 * rule->radius + 1;
    if ((rc = check_side(engine, "W", w, caps->w_multiple, caps->w_max, min, rule->radius, err)))
        return rc;
    if ((rc = check_side(engine, "H", h, caps->h_multiple, caps->h_max, min, rule->radius, err)))
        return rc;
    if (shaped.w_max > 0 && w > shaped.w_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: W %d is above %d, this engine's limit for neighbourhood %s "
                       "(caps.shape_limits[%s])",
                       engine, (int)w, (int)shaped.w_max, code, code);
    if (shaped.h_max > 0 && h > shaped.h_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: H %d is above %d, this engine's limit for neighbourhood %s "
                       "(caps.shape_limits[%s])",
                       engine, (int)h, (int)shaped.h_max, code, code);
    if (caps->square_only && w != h)
        return cc_fail(err, CC_ERR_UNSUPPORTED, "%s: grid %dx%d is not square (this engine takes "
                       "W = H only)", engine, (int)w, (int)h);
    if (caps->cells_max > 0 && (int64_t)w * (int64_t)h > caps->cells_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: grid %dx%d has %lld cells, above this engine's limit of %lld",
                       engine, (int)w, (int)h, (long long)w * (long long)h,
                       (long long)caps->cells_max);
    if (shaped.cells_max > 0 && (int64_t)w * (int64_t)h > shaped.cells_max)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: grid %dx%d has %lld cells, above %lld, this engine's limit for "
                       "neighbourhood %s (caps.shape_limits[%s])",
                       engine, (int)w, (int)h, (long long)w * (long long)h,
                       (long long)shaped.cells_max, code, code);
    return CC_OK;
}

int cc_engine_check_cells(const char *engine, const uint8_t *cells, size_t n, cc_error *err) {
    size_t i = cc_cells_first_not_binary(cells, n);
    if (i < n)
        return cc_fail(err, CC_ERR_ARG, "%s: cell %zu is %u, not 0 or 1", engine, i,
                       (unsigned)cells[i]);
    return CC_OK;
}

int cc_engine_check_steps(const char *engine, int64_t k, cc_error *err) {
    if (k < 0)
        return cc_fail(err, CC_ERR_ARG, "%s: negative step count %lld", engine, (long long)k);
    return CC_OK;
}

cc_memory cc_engine_memory_generic(const cc_engine *engine, int32_t w, int32_t h) {
    double generic = (double)w * (double)h * CC_GENERIC_ENGINE_BYTES_PER_CELL;
    if (engine->hardware == CC_HW_GPU) return (cc_memory){0.0, generic};
    return (cc_memory){generic, 0.0};
}

const char *cc_hardware_name(cc_hardware hw) {
    switch (hw) {
    case CC_HW_CPU: return "cpu";
    case CC_HW_GPU: return "gpu";
    case CC_HW_AMX: return "amx";
    case CC_HW_AVX2: return "avx2";
    case CC_HW_AVX512: return "avx512";
    }
    return "unknown";
}

/* Calls fn for each item of the comma-separated list in the environment variable var, trimmed of
 * blanks; empty items are skipped. Stops at the first non-zero fn returns and returns it. */
static int for_each_item(const char *var, int (*fn)(const char *item, size_t len, void *state),
                         void *state) {
    const char *p = getenv(var);
    while (p && *p) {
        while (*p == ',' || *p == ' ' || *p == '\t') p++;
        const char *start = p;
        while (*p && *p != ',') p++;
        const char *end = p;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t')) end--;
        int rc = end > start ? fn(start, (size_t)(end - start), state) : 0;
        if (rc) return rc;
    }
    return 0;
}

/* A hardware name, case aside: "GPU" is "gpu". */
static int names_hardware(const char *item, size_t len, cc_hardware hw) {
    const char *want = cc_hardware_name(hw);
    if (len != strlen(want)) return 0;
    for (size_t i = 0; i < len; i++) {
        char c = item[i] >= 'A' && item[i] <= 'Z' ? (char)(item[i] + 32) : item[i];
        if (c != want[i]) return 0;
    }
    return 1;
}

static int item_names(const char *item, size_t len, void *state) {
    return names_hardware(item, len, *(const cc_hardware *)state);
}

int cc_hardware_required(cc_hardware hw) {
    return for_each_item("CELLCHECK_REQUIRE", item_names, &hw);
}

long cc_cores_available(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

int cc_hardware_hidden(cc_hardware hw) {
    return for_each_item("CELLCHECK_ABSENT", item_names, &hw);
}

static const cc_hardware every_hardware[] = {CC_HW_CPU, CC_HW_GPU, CC_HW_AMX, CC_HW_AVX2,
                                             CC_HW_AVX512};

typedef struct item_check {
    const char *var;
    cc_error *err;
} item_check;

static int item_unknown(const char *item, size_t len, void *state) {
    const item_check *c = state;
    for (size_t i = 0; i < sizeof every_hardware / sizeof every_hardware[0]; i++)
        if (names_hardware(item, len, every_hardware[i])) return 0;
    return cc_fail(c->err, CC_ERR_ARG,
                   "unknown hardware '%.*s' in %s (it names cpu, gpu, amx, avx2, avx512, "
                   "comma-separated, in any case)",
                   len > 64 ? 64 : (int)len, item, c->var);
}

int cc_require_check(cc_error *err) {
    item_check require = {"CELLCHECK_REQUIRE", err}, absent = {"CELLCHECK_ABSENT", err};
    int rc = for_each_item(require.var, item_unknown, &require);
    if (!rc) rc = for_each_item(absent.var, item_unknown, &absent);
    /* Every engine runs on the CPU: hiding it would leave nothing to run. */
    if (!rc && cc_hardware_hidden(CC_HW_CPU))
        rc = cc_fail(err, CC_ERR_ARG,
                     "CELLCHECK_ABSENT names cpu; it names the hardware to treat as absent "
                     "(gpu, amx, avx2, avx512)");
    return rc;
}

/* Appends to buf at *used, never past size; output is cut short rather than overflowing. */
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void append(char *buf, size_t size, size_t *used, const char *fmt, ...) {
    if (*used >= size) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    *used += (size_t)n;
    if (*used >= size) *used = size - 1;
}

void cc_engine_describe_caps(const cc_engine *engine, char *buf, size_t size) {
    if (!buf || size == 0) return;
    buf[0] = '\0';
    if (!engine) return;
    const cc_engine_caps resolved = cc_engine_caps_resolved(engine);
    const cc_engine_caps *caps = &resolved;
    size_t used = 0;
    append(buf, size, &used, "shapes ");
    int first = 1;
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(caps->shapes & CC_SHAPE_BIT(s))) continue;
        append(buf, size, &used, "%s%s", first ? "" : ",", cc_shape_code((cc_shape)s));
        first = 0;
    }
    if (first) append(buf, size, &used, "none");
    append(buf, size, &used, "; r %d..%d; ", (int)caps->radius_min, (int)caps->radius_max);
    if ((caps->centres & CC_CENTRE_M0) && (caps->centres & CC_CENTRE_M1))
        append(buf, size, &used, "M0,M1");
    else if (caps->centres & CC_CENTRE_M0)
        append(buf, size, &used, "M0");
    else if (caps->centres & CC_CENTRE_M1)
        append(buf, size, &used, "M1");
    else
        append(buf, size, &used, "no centre handling");
    if (caps->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE))
        append(buf, size, &used,
               caps->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) ? "; torus and plane"
                                                                     : "; plane only");
    if (caps->w_multiple <= 1 && caps->h_multiple <= 1 && caps->w_max <= 0 && caps->h_max <= 0) {
        append(buf, size, &used, caps->square_only ? "; any W = H" : "; any W, H");
    } else {
        append(buf, size, &used, "; W ");
        if (caps->w_multiple > 1) append(buf, size, &used, "multiple of %d", (int)caps->w_multiple);
        else append(buf, size, &used, "any");
        if (caps->w_max > 0) append(buf, size, &used, " up to %d", (int)caps->w_max);
        append(buf, size, &used, ", H ");
        if (caps->h_multiple > 1) append(buf, size, &used, "multiple of %d", (int)caps->h_multiple);
        else append(buf, size, &used, "any");
        if (caps->h_max > 0) append(buf, size, &used, " up to %d", (int)caps->h_max);
    }
    if (caps->square_only && !(caps->w_multiple <= 1 && caps->h_multiple <= 1 && caps->w_max <= 0 &&
                               caps->h_max <= 0))
        append(buf, size, &used, "; square grids only");
    if (caps->cells_max > 0)
        append(buf, size, &used, "; at most %lld cells", (long long)caps->cells_max);
    if (caps->count_max > 0) append(buf, size, &used, "; counts up to %d", (int)caps->count_max);
    if (caps->s_ranges_max > 0)
        append(buf, size, &used, "; S in at most %d interval%s", (int)caps->s_ranges_max,
               caps->s_ranges_max == 1 ? "" : "s");
    if (caps->b_ranges_max > 0)
        append(buf, size, &used, "; B in at most %d interval%s", (int)caps->b_ranges_max,
               caps->b_ranges_max == 1 ? "" : "s");
    if (caps->no_b0) append(buf, size, &used, "; no B0");
    /* The limits of single shapes, after the engine-wide ones: "NN r 1..4, W up to 65536". */
    for (int s = 0; s < CC_SHAPE_COUNT; s++) {
        if (!(caps->shapes & CC_SHAPE_BIT(s)) || !cc_engine_caps_shape_narrowed(caps, (cc_shape)s))
            continue;
        const cc_engine_caps sc = cc_engine_caps_for_shape(caps, (cc_shape)s);
        const char *sep = "";
        append(buf, size, &used, "; %s ", cc_shape_code((cc_shape)s));
        if (sc.radius_min != caps->radius_min || sc.radius_max != caps->radius_max) {
            append(buf, size, &used, "r %d..%d", (int)sc.radius_min, (int)sc.radius_max);
            sep = ", ";
        }
        if (sc.w_max != caps->w_max) {
            append(buf, size, &used, "%sW up to %d", sep, (int)sc.w_max);
            sep = ", ";
        }
        if (sc.h_max != caps->h_max) {
            append(buf, size, &used, "%sH up to %d", sep, (int)sc.h_max);
            sep = ", ";
        }
        if (sc.cells_max != caps->cells_max)
            append(buf, size, &used, "%sat most %lld cells", sep, (long long)sc.cells_max);
    }
    if (caps->limits && caps->limits[0]) append(buf, size, &used, "; %s", caps->limits);
}

/* The registry defines cc_engines_all; binaries that check engines without it (every engine's own
 * tests) still link, and find nothing. */
#pragma weak cc_engines_all

const cc_engine *cc_engine_find(const char *name) {
    if (!name || !cc_engines_all) return NULL;
    const cc_engine *const *all = cc_engines_all();
    for (size_t i = 0; all && all[i]; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}
