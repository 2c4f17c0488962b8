/* Golly's macrocell format, read into the live cells' bounding box and then placed as RLE would
 * be. The reader works on (text, len), never past len, and refuses anything inconsistent by name,
 * with its line. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/macrocell.h"

#define MC_LEAF_LEVEL 3 /* a leaf line is an 8x8 square */
/* A level-K node's quadrants sit 2^(K-1) apart: past 62 that no longer fits an int64. */
#define MC_LEVEL_MAX 62
#define MC_RULE_MAX 200

typedef struct mc_node {
    int level;
    uint64_t bits;          /* a leaf's cells: bit y * 8 + x */
    uint32_t child[4];      /* NW NE SW SE; 0 the empty node */
    int64_t x0, y0, x1, y1; /* the live cells' box within the node; x1 < x0 when empty */
} mc_node;

typedef struct mc_reader {
    mc_node *nodes; /* nodes[0] is the empty node */
    size_t count;   /* nodes defined, the empty one included */
    size_t cap;
    long line;
    cc_error *err;
} mc_reader;

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int mc_push(mc_reader *r, const mc_node *n) {
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        mc_node *grown = realloc(r->nodes, cap * sizeof *grown);
        if (!grown)
            return cc_fail(r->err, CC_ERR_NOMEM, "macrocell line %ld: out of memory at %zu nodes",
                           r->line, r->count);
        r->nodes = grown;
        r->cap = cap;
    }
    r->nodes[r->count++] = *n;
    return CC_OK;
}

static void box_empty(mc_node *n) {
    n->x0 = n->y0 = 0;
    n->x1 = n->y1 = -1;
}

static void box_add(mc_node *n, int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
    if (x1 < x0) return;
    if (n->x1 < n->x0) {
        n->x0 = x0, n->y0 = y0, n->x1 = x1, n->y1 = y1;
        return;
    }
    if (x0 < n->x0) n->x0 = x0;
    if (y0 < n->y0) n->y0 = y0;
    if (x1 > n->x1) n->x1 = x1;
    if (y1 > n->y1) n->y1 = y1;
}

/* A leaf line on [p, end): rows of '.' and '*', each ended by '$', top row first. */
static int parse_leaf(mc_reader *r, const char *p, const char *end) {
    char cb[8];
    mc_node n = {.level = MC_LEAF_LEVEL};
    box_empty(&n);
    int x = 0, y = 0;
    for (; p < end && !is_blank(*p); p++) {
        if (*p == '*') {
            if (x > 7 || y > 7)
                return cc_fail(r->err, CC_ERR_ARG,
                               "macrocell line %ld: a live cell at column %d, row %d of a leaf, "
                               "outside its 8x8 square",
                               r->line, x + 1, y + 1);
            n.bits |= UINT64_C(1) << (y * 8 + x);
            box_add(&n, x, y, x, y);
            x++;
        } else if (*p == '.') {
            x++;
        } else if (*p == '$') {
            x = 0;
            y++;
        } else {
            return cc_fail(r->err, CC_ERR_ARG,
                           "macrocell line %ld: %s in a leaf (expected '.', '*' or '$')", r->line,
                           cc_show_byte(cb, *p));
        }
    }
    while (p < end && is_blank(*p)) p++;
    if (p < end)
        return cc_fail(r->err, CC_ERR_ARG, "macrocell line %ld: %s after a leaf's cells", r->line,
                       cc_show_byte(cb, *p));
    return mc_push(r, &n);
}

/* A node line "K NW NE SW SE" on [p, end). */
static int parse_node(mc_reader *r, const char *p, const char *end) {
    char cb[8];
    uint64_t v[5];
    for (int i = 0; i < 5; i++) {
        while (p < end && is_blank(*p)) p++;
        if (p >= end || !is_digit(*p))
            return cc_fail(r->err, CC_ERR_ARG,
                           "macrocell line %ld: a node is \"K NW NE SW SE\" (five numbers), found "
                           "%s where number %d should be",
                           r->line, p < end ? cc_show_byte(cb, *p) : "the end of the line", i + 1);
        v[i] = 0;
        while (p < end && is_digit(*p)) {
            v[i] = v[i] * 10 + (uint64_t)(*p++ - '0');
            if (v[i] > UINT32_MAX)
                return cc_fail(r->err, CC_ERR_ARG, "macrocell line %ld: number %d is too large",
                               r->line, i + 1);
        }
    }
    while (p < end && is_blank(*p)) p++;
    if (p < end)
        return cc_fail(r->err, CC_ERR_ARG, "macrocell line %ld: %s after a node's five numbers",
                       r->line, cc_show_byte(cb, *p));
    if (v[0] >= 1 && v[0] < 4)
        return cc_fail(r->err, CC_ERR_UNSUPPORTED,
                       "macrocell line %ld: a node of level %d holds cell states: multi-state "
                       "macrocell files are unsupported (2 states: 8x8 leaf lines of '.' and '*', "
                       "nodes of level 4 and up)",
                       r->line, (int)v[0]);
    if (v[0] < 4 || v[0] > MC_LEVEL_MAX)
        return cc_fail(r->err, v[0] ? CC_ERR_UNSUPPORTED : CC_ERR_ARG,
                       "macrocell line %ld: node level %d is outside 4..%d", r->line, (int)v[0],
                       MC_LEVEL_MAX);
    mc_node n = {.level = (int)v[0]};
    box_empty(&n);
    int64_t half = INT64_C(1) << (n.level - 1);
    for (int q = 0; q < 4; q++) {
        if (v[q + 1] >= r->count)
            return cc_fail(r->err, CC_ERR_ARG,
                           "macrocell line %ld: refers to node %llu, but only %zu are defined "
                           "before it",
                           r->line, (unsigned long long)v[q + 1], r->count - 1);
        n.child[q] = (uint32_t)v[q + 1];
        if (!n.child[q]) continue;
        const mc_node *c = &r->nodes[n.child[q]];
        if (c->level != n.level - 1)
            return cc_fail(r->err, CC_ERR_ARG,
                           "macrocell line %ld: a node of level %d refers to node %u of level %d "
                           "(its quadrants are level %d)",
                           r->line, n.level, (unsigned)n.child[q], c->level, n.level - 1);
        int64_t dx = q & 1 ? half : 0, dy = q & 2 ? half : 0;
        box_add(&n, c->x0 + dx, c->y0 + dy, c->x1 + dx, c->y1 + dy);
    }
    return mc_push(r, &n);
}

/* "#R RULE" on [p, end), p after the "#R". */
static int parse_rule(mc_reader *r, const char *p, const char *end, cc_rule *rule, int *stated,
                      int32_t *w, int32_t *h) {
    while (p < end && is_blank(*p)) p++;
    const char *q = p;
    while (q < end && !is_blank(*q)) q++;
    size_t n = (size_t)(q - p);
    if (n == 0 || n > MC_RULE_MAX)
        return cc_fail(r->err, CC_ERR_ARG, "macrocell line %ld: #R needs a rule of 1..%d characters",
                       r->line, MC_RULE_MAX);
    char text[MC_RULE_MAX + 1];
    memcpy(text, p, n);
    text[n] = '\0';
    if (memchr(text, '\0', n))
        return cc_fail(r->err, CC_ERR_ARG, "macrocell line %ld: NUL byte in the rule", r->line);
    if (cc_rule_parse_stated(text, rule, stated, w, h, r->err))
        return cc_prefix(r->err, "macrocell line %ld", r->line);
    return CC_OK;
}

/* Sets the live cells of node i, whose top-left corner is (x, y) in g's coordinates. */
static void paint(const mc_reader *r, uint32_t i, int64_t x, int64_t y, cc_grid *g) {
    const mc_node *n = &r->nodes[i];
    if (n->x1 < n->x0) return;
    if (n->level == MC_LEAF_LEVEL) {
        for (int b = 0; b < 64; b++)
            if (n->bits >> b & 1)
                g->cells[(size_t)(y + b / 8) * (size_t)g->w + (size_t)(x + b % 8)] = 1;
        return;
    }
    int64_t half = INT64_C(1) << (n->level - 1);
    for (int q = 0; q < 4; q++)
        if (n->child[q]) paint(r, n->child[q], x + (q & 1 ? half : 0), y + (q & 2 ? half : 0), g);
}

/* Every line after "[M2]" into r; the rule, where #R names one. */
static int read_lines(mc_reader *r, const char *text, size_t len, size_t pos, cc_rule *rule,
                      cc_grid_meta *meta, int32_t *w, int32_t *h) {
    char cb[8];
    while (pos < len) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        const char *end = nl ? nl : text + len;
        pos = (size_t)(end - text) + (nl ? 1 : 0);
        r->line++;
        const char *p = line;
        while (p < end && is_blank(*p)) p++;
        if (p == end) continue;
        int rc = CC_OK;
        if (*p == '#') {
            if (end - p >= 2 && p[1] == 'R') {
                rc = parse_rule(r, p + 2, end, rule, &meta->has_topology, w, h);
                meta->has_rule = 1;
            }
        } else if (*p == '.' || *p == '*' || *p == '$') {
            rc = parse_leaf(r, p, end);
        } else if (is_digit(*p)) {
            rc = parse_node(r, p, end);
        } else {
            rc = cc_fail(r->err, CC_ERR_ARG,
                         "macrocell line %ld: %s starts neither a leaf, a node nor a '#' line",
                         r->line, cc_show_byte(cb, *p));
        }
        if (rc) return rc;
    }
    return CC_OK;
}

/* The grid the pattern's box (bw x bh, 0 x 0 when empty) goes on. */
static int grid_size(const cc_grid_meta *meta, int32_t sw, int32_t sh, int64_t bw, int64_t bh,
                     int plane, int32_t *gw, int32_t *gh, cc_error *err) {
    const char *name = plane ? "bounded plane" : "torus";
    if (bw > CC_GRID_SIDE_MAX || bh > CC_GRID_SIDE_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "macrocell: the live cells span %lldx%lld, past the largest side %d",
                       (long long)bw, (long long)bh, CC_GRID_SIDE_MAX);
    if (meta->has_topology && sw) {
        if (bw > sw || bh > sh)
            return cc_fail(err, CC_ERR_ARG,
                           "macrocell: the live cells span %lldx%lld, more than the %s %dx%d its "
                           "rule names",
                           (long long)bw, (long long)bh, name, (int)sw, (int)sh);
        *gw = sw, *gh = sh;
    } else if (bw == 0) {
        return cc_fail(err, CC_ERR_ARG,
                       "macrocell: no live cells, and no grid size (:TW,H or :PW,H after the "
                       "#R rule) to give the empty pattern a size");
    } else {
        *gw = (int32_t)bw, *gh = (int32_t)bh;
    }
    if ((int64_t)*gw * *gh > CC_GRID_FILE_CELLS_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "macrocell: a %dx%d grid is %lld cells; grid files hold at most %lld (2^30)",
                       (int)*gw, (int)*gh, (long long)*gw * *gh, (long long)CC_GRID_FILE_CELLS_MAX);
    return CC_OK;
}

int cc_mc_parse(const char *text, size_t len, cc_grid *out, cc_rule *rule, cc_grid_meta *meta,
                cc_error *err) {
    if (!out || !meta || (!text && len))
        return cc_fail(err, CC_ERR_ARG, "cc_mc_parse: NULL argument");
    out->w = out->h = 0;
    out->cells = NULL;
    memset(meta, 0, sizeof *meta);
    size_t pos = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (len - pos < 4 || memcmp(text + pos, "[M2]", 4) != 0)
        return cc_fail(err, CC_ERR_ARG, "macrocell: the first line must start with [M2]");
    const char *nl = memchr(text + pos, '\n', len - pos);
    pos = nl ? (size_t)(nl - text) + 1 : len;
    mc_reader r = {NULL, 0, 0, 1, err};
    mc_node empty = {.level = 0};
    box_empty(&empty);
    cc_rule file_rule = {0};
    int32_t sw = 0, sh = 0;
    int rc = mc_push(&r, &empty);
    if (!rc) rc = read_lines(&r, text, len, pos, &file_rule, meta, &sw, &sh);
    if (rc) {
        free(r.nodes);
        return rc;
    }
    const mc_node *root = r.count > 1 ? &r.nodes[r.count - 1] : &r.nodes[0];
    int64_t bw = root->x1 - root->x0 + 1, bh = root->y1 - root->y0 + 1;
    if (root->x1 < root->x0) bw = bh = 0;
    int32_t gw = 0, gh = 0;
    int plane = file_rule.topology == CC_TOPOLOGY_PLANE;
    rc = grid_size(meta, sw, sh, bw, bh, plane, &gw, &gh, err);
    if (!rc) rc = cc_grid_alloc(out, gw, gh, err);
    if (!rc && bw) paint(&r, (uint32_t)(r.count - 1), -root->x0, -root->y0, out);
    free(r.nodes);
    if (rc) return rc;
    meta->unbounded = !meta->has_topology;
    if (rule && meta->has_rule) *rule = file_rule;
    return CC_OK;
}
