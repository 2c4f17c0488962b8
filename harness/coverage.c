/* Sections and gaps (see coverage.h). */
#include "harness/coverage.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Each section's name in reports and its id on a command line, from the sections' list. */
static const struct {
    const char *name, *id;
} sections[CC_CHECK_SECTION_COUNT] = {
#define CC_SECTION_ROW(KEY, file, id_text, name_text) [CC_CHECK_##KEY] = {name_text, id_text},
#include "harness/sections/list.h"
#undef CC_SECTION_ROW
};

static const char *const kind_names[CC_GAP_KIND_COUNT] = {"asked", "memory", "time",
                                                         "budget", "blind", "absent"};

const char *cc_check_section_name(cc_check_section section) {
    return (unsigned)section < CC_CHECK_SECTION_COUNT ? sections[section].name : "unknown section";
}

const char *cc_check_section_id(cc_check_section section) {
    return (unsigned)section < CC_CHECK_SECTION_COUNT ? sections[section].id : "unknown";
}

const char *cc_gap_kind_name(cc_gap_kind kind) {
    return (unsigned)kind < CC_GAP_KIND_COUNT ? kind_names[kind] : "unknown";
}

void cc_gap_id(const cc_gap *gap, char *buf, size_t size) {
    snprintf(buf, size, "%s:%s", cc_check_section_id((cc_check_section)gap->section),
             cc_gap_kind_name((cc_gap_kind)gap->kind));
}

static cc_gap *find_or_add(cc_gap_list *list, int section, int kind) {
    for (int i = 0; i < list->n; i++)
        if (list->gaps[i].section == section && list->gaps[i].kind == kind) return &list->gaps[i];
    if (list->n == CC_GAPS_MAX) return NULL;
    cc_gap *g = &list->gaps[list->n++];
    memset(g, 0, sizeof *g);
    g->section = section;
    g->kind = kind;
    return g;
}

void cc_gap_note(cc_gap_list *list, cc_check_section section, cc_gap_kind kind, int count,
                 const char *fmt, ...) {
    cc_gap *g = find_or_add(list, (int)section, (int)kind);
    if (!g) {
        list->dropped += count;
        return;
    }
    if (g->count == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(g->reason, sizeof g->reason, fmt, ap);
        va_end(ap);
    }
    g->count += count;
}

void cc_gap_list_merge(cc_gap_list *into, const cc_gap_list *from) {
    for (int i = 0; i < from->n; i++) {
        const cc_gap *f = &from->gaps[i];
        cc_gap *g = find_or_add(into, f->section, f->kind);
        if (!g) {
            into->dropped += f->count;
            continue;
        }
        if (g->count == 0) snprintf(g->reason, sizeof g->reason, "%s", f->reason);
        /* A gap every shard notes (the options' own) is one gap, not one a shard. */
        g->count = f->kind == CC_GAP_ASKED && g->count ? g->count : g->count + f->count;
        g->accepted |= f->accepted;
    }
    into->dropped += from->dropped;
}

/* Does the item (len bytes) name gap g's section, or its section and kind? Item -1: unknown. */
static int item_matches(const char *item, size_t len, int section, int kind) {
    for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++) {
        size_t sl = strlen(sections[s].id);
        if (len < sl || strncmp(item, sections[s].id, sl) != 0) continue;
        if (len == sl) return s == section ? 1 : 0;
        if (item[sl] != ':') continue;
        for (int k = 0; k < CC_GAP_KIND_COUNT; k++)
            if (len - sl - 1 == strlen(kind_names[k]) &&
                strncmp(item + sl + 1, kind_names[k], len - sl - 1) == 0)
                return s == section && k == kind ? 1 : 0;
        return -1;
    }
    return -1;
}

int cc_gap_accept_check(const char *accept, cc_error *err) {
    for (const char *p = accept; p && *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || item_matches(p, len, -2, -2) < 0) {
            char ids[256] = "";
            for (int s = 0; s < CC_CHECK_SECTION_COUNT; s++)
                snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", s ? ", " : "",
                         sections[s].id);
            return cc_fail(err, CC_ERR_ARG,
                           "--accept-gap: '%.*s' names no gap (a section: %s; or SECTION:KIND, "
                           "KIND one of asked, memory, time, budget, blind, absent)",
                           len > 64 ? 64 : (int)len, p, ids);
        }
        p += len;
        if (*p == ',') p++;
    }
    return CC_OK;
}

void cc_gap_list_accept(cc_gap_list *list, const char *accept) {
    for (int i = 0; i < list->n; i++)
        for (const char *p = accept; p && *p;) {
            size_t len = strcspn(p, ",");
            if (item_matches(p, len, list->gaps[i].section, list->gaps[i].kind) == 1)
                list->gaps[i].accepted = 1;
            p += len;
            if (*p == ',') p++;
        }
}

int cc_gap_list_open(const cc_gap_list *list) {
    int open = list->dropped ? 1 : 0;
    for (int i = 0; i < list->n; i++) open += !list->gaps[i].accepted;
    return open;
}

void cc_gap_list_print(FILE *f, const char *engine, const cc_gap_list *list) {
    for (int i = 0; i < list->n; i++) {
        char id[64];
        cc_gap_id(&list->gaps[i], id, sizeof id);
        fprintf(f, "  %s: %s, %d left out: %s%s\n", engine, id, list->gaps[i].count,
                list->gaps[i].reason, list->gaps[i].accepted ? " (accepted)" : "");
    }
    if (list->dropped)
        fprintf(f, "  %s: %d checks more left out, past the %d gaps a certificate lists\n",
                engine, list->dropped, CC_GAPS_MAX);
}

void cc_coverage_add(cc_coverage *cov, const cc_rule *rule, int32_t w, int32_t h, int64_t steps,
                     int32_t threads) {
    if (cov->cases == 0 || rule->radius < cov->radius_min) cov->radius_min = rule->radius;
    if (rule->radius > cov->radius_max) cov->radius_max = rule->radius;
    cov->cases++;
    cov->shapes |= CC_SHAPE_BIT(rule->shape);
    cov->centres |= rule->centre ? 2u : 1u;
    cov->topologies |= CC_TOPOLOGY_BIT(rule->topology);
    if (threads > 0) cov->teams |= 1ull << (threads > 64 ? 63 : threads - 1);
    else cov->default_team = 1;
    if (steps > cov->steps_max) cov->steps_max = steps;
    if ((double)w * (double)h > cov->cells_max) cov->cells_max = (double)w * (double)h;
    if (w > cov->side_max) cov->side_max = w;
    if (h > cov->side_max) cov->side_max = h;
}

void cc_coverage_merge(cc_coverage *into, const cc_coverage *from) {
    if (from->cases == 0) return;
    if (into->cases == 0 || from->radius_min < into->radius_min) into->radius_min = from->radius_min;
    if (from->radius_max > into->radius_max) into->radius_max = from->radius_max;
    into->cases += from->cases;
    into->shapes |= from->shapes;
    into->centres |= from->centres;
    into->topologies |= from->topologies;
    into->teams |= from->teams;
    into->default_team |= from->default_team;
    if (from->steps_max > into->steps_max) into->steps_max = from->steps_max;
    if (from->cells_max > into->cells_max) into->cells_max = from->cells_max;
    if (from->side_max > into->side_max) into->side_max = from->side_max;
}

/* Appends to buf at *used, never past size. */
static void put(char *buf, size_t size, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void put(char *buf, size_t size, size_t *used, const char *fmt, ...) {
    if (*used >= size) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *used, size - *used, fmt, ap);
    va_end(ap);
    if (k > 0) *used += (size_t)k < size - *used ? (size_t)k : size - *used - 1;
}

void cc_coverage_describe(const cc_coverage *cov, char *buf, size_t size) {
    size_t used = 0;
    if (size) buf[0] = '\0';
    if (cov->cases == 0) {
        put(buf, size, &used, "none");
        return;
    }
    put(buf, size, &used, "%d case%s: shapes", cov->cases, cov->cases == 1 ? "" : "s");
    const char *sep = " ";
    for (int sh = 0; sh < CC_SHAPE_COUNT; sh++) {
        if (!(cov->shapes & CC_SHAPE_BIT(sh))) continue;
        put(buf, size, &used, "%s%s", sep, cc_shape_code((cc_shape)sh));
        sep = ",";
    }
    if (cov->radius_min == cov->radius_max) put(buf, size, &used, "; r %d", (int)cov->radius_min);
    else put(buf, size, &used, "; r %d..%d", (int)cov->radius_min, (int)cov->radius_max);
    put(buf, size, &used, "; %s%s%s", cov->centres & 1u ? "M0" : "",
        cov->centres == 3u ? "," : "", cov->centres & 2u ? "M1" : "");
    put(buf, size, &used, "; %s%s%s",
        cov->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) ? "torus" : "",
        cov->topologies == (CC_TOPOLOGY_BIT(CC_TOPOLOGY_TORUS) | CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE))
            ? ", "
            : "",
        cov->topologies & CC_TOPOLOGY_BIT(CC_TOPOLOGY_PLANE) ? "plane" : "");
    if (cov->teams) {
        put(buf, size, &used, "; teams");
        sep = " ";
        for (int b = 0; b < 64; b++) {
            if (!(cov->teams & (1ull << b))) continue;
            put(buf, size, &used, "%s%d%s", sep, b + 1, b == 63 ? "+" : "");
            sep = ",";
        }
        if (cov->default_team) put(buf, size, &used, ",default");
    } else {
        put(buf, size, &used, "; the worker's default team");
    }
    put(buf, size, &used, "; steps up to %lld; up to %.0f cells, sides up to %d",
        (long long)cov->steps_max, cov->cells_max, (int)cov->side_max);
}
