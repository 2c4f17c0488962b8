/* Golly RLE, with the grid as a topology suffix to the rule (:TW,H the torus, :PW,H the bounded
 * plane, either without sides for the header's x and y; none: an unbounded pattern). The parser
 * works on (text, len), never past len, and refuses anything inconsistent by name. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/rle.h"

/* Golly wraps RLE lines at 70 characters. */
#define RLE_LINE_MAX 70
/* A rule in a header longer than this cannot be valid. */
#define RLE_RULE_MAX 200

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* ---- reading ---- */

typedef struct rle_reader {
    const char *s;
    size_t len, pos;
    long line; /* 1-based line of pos */
    cc_error *err;
} rle_reader;

/* Reads a non-negative side length from [*p, end); what names it ("x", "y", "torus width"). */
static int read_side(const char **p, const char *end, const char *what, long line, int32_t *out,
                     cc_error *err) {
    char cb[8];
    if (*p < end && **p == '-')
        return cc_fail(err, CC_ERR_ARG, "RLE line %ld: %s is negative", line, what);
    if (*p >= end || !is_digit(**p))
        return cc_fail(err, CC_ERR_ARG, "RLE line %ld: %s needs a number, found %s", line, what,
                       *p < end ? cc_show_byte(cb, **p) : "the end of the line");
    int64_t v = 0;
    while (*p < end && is_digit(**p)) {
        v = v * 10 + (**p - '0');
        if (v > CC_GRID_SIDE_MAX)
            return cc_fail(err, CC_ERR_UNSUPPORTED, "RLE line %ld: %s is too large (over %d)",
                           line, what, CC_GRID_SIDE_MAX);
        (*p)++;
    }
    *out = (int32_t)v;
    return CC_OK;
}

static void skip_blanks(const char **p, const char *end) {
    while (*p < end && is_blank(**p)) (*p)++;
}

static int expect_char(const char **p, const char *end, char want, const char *context, long line,
                       cc_error *err) {
    char cb[8];
    skip_blanks(p, end);
    if (*p >= end || **p != want)
        return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): expected '%c' %s, found %s", line,
                       want, context, *p < end ? cc_show_byte(cb, **p) : "the end of the line");
    (*p)++;
    skip_blanks(p, end);
    return CC_OK;
}

typedef struct rle_header {
    int32_t x, y;         /* the pattern's size */
    int32_t tw, th;       /* the torus's size (the plane's, where plane) */
    int has_rule, has_torus; /* has_torus: a :T or :P suffix */
    int has_sides;           /* the suffix gave W,H */
    int plane;            /* the suffix was :PW,H, the bounded plane */
    cc_rule rule;
} rle_header;

/* The topology suffix after ':' in the rule: a torus "TW,H" or a bounded plane "PW,H". */
static int parse_topology(const char *p, const char *end, long line, rle_header *h,
                          cc_error *err) {
    char cb[8];
    if (p >= end)
        return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): empty topology after ':'", line);
    char kind = *p;
    if (kind == 'K' || kind == 'C' || kind == 'S')
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): topology ':%c...' is unsupported (a torus :TW,H or "
                       "a bounded plane :PW,H)",
                       line, kind);
    if (kind != 'T' && kind != 'P')
        return cc_fail(err, CC_ERR_ARG,
                       "RLE header (line %ld): unknown topology %s after ':' (expected :TW,H or "
                       ":PW,H)",
                       line, cc_show_byte(cb, kind));
    h->plane = kind == 'P';
    h->has_torus = 1;
    p++;
    /* Golly writes the sides, but a bare :T or :P is read as the pattern's own x and y. */
    if (p >= end) return CC_OK;
    const char *name = h->plane ? "bounded plane" : "torus";
    char what[40];
    snprintf(what, sizeof what, "the %s width", name);
    int rc = read_side(&p, end, what, line, &h->tw, err);
    if (rc) return rc;
    if (p < end && (*p == '+' || *p == '-' || *p == '*'))
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): shifted or twisted torus is unsupported", line);
    if (p >= end || *p != ',')
        return cc_fail(err, CC_ERR_ARG,
                       "RLE header (line %ld): the %s suffix needs two sides :%cW,H, found %s after "
                       "the width",
                       line, name, kind,
                       p < end ? cc_show_byte(cb, *p) : "the end");
    p++;
    snprintf(what, sizeof what, "the %s height", name);
    if ((rc = read_side(&p, end, what, line, &h->th, err))) return rc;
    if (p < end && (*p == '+' || *p == '-' || *p == '*'))
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): shifted or twisted torus is unsupported", line);
    if (p < end)
        return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): unexpected %s after the %s size",
                       line, cc_show_byte(cb, *p), name);
    if (h->tw == 0 || h->th == 0)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): a %s side of 0 (unbounded) is unsupported", line,
                       h->plane ? "plane" : "torus");
    h->has_sides = 1;
    return CC_OK;
}

/* "x = X, y = Y[, rule = RULE[:TW,H]]" on [p, end), '\r' already removed. */
static int parse_header(const char *p, const char *end, long line, rle_header *h, cc_error *err) {
    char cb[8];
    int rc;
    memset(h, 0, sizeof *h);
    skip_blanks(&p, end);
    p++; /* the 'x', checked by the caller */
    if ((rc = expect_char(&p, end, '=', "after x", line, err))) return rc;
    if ((rc = read_side(&p, end, "x", line, &h->x, err))) return rc;
    if ((rc = expect_char(&p, end, ',', "after x's value", line, err))) return rc;
    if (p >= end || *p != 'y')
        return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): missing y (found %s)", line,
                       p < end ? cc_show_byte(cb, *p) : "the end of the line");
    p++;
    if ((rc = expect_char(&p, end, '=', "after y", line, err))) return rc;
    if ((rc = read_side(&p, end, "y", line, &h->y, err))) return rc;
    skip_blanks(&p, end);
    if (p < end) {
        if ((rc = expect_char(&p, end, ',', "after y's value", line, err))) return rc;
        if ((size_t)(end - p) < 4 || memcmp(p, "rule", 4) != 0)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): expected \"rule = ...\" after y, found %s", line,
                           p < end ? cc_show_byte(cb, *p) : "the end of the line");
        p += 4;
        if ((rc = expect_char(&p, end, '=', "after rule", line, err))) return rc;
        const char *rule_end = end;
        while (rule_end > p && is_blank(rule_end[-1])) rule_end--;
        const char *colon = NULL;
        for (const char *q = p; q < rule_end && !colon; q++)
            if (*q == ':') colon = q;
        const char *text_end = colon ? colon : rule_end;
        while (text_end > p && is_blank(text_end[-1])) text_end--;
        size_t n = (size_t)(text_end - p);
        if (n == 0)
            return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): empty rule", line);
        if (n > RLE_RULE_MAX)
            return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): rule longer than %d characters",
                           line, RLE_RULE_MAX);
        char text[RLE_RULE_MAX + 1];
        memcpy(text, p, n);
        text[n] = '\0';
        if (memchr(text, '\0', n))
            return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): NUL byte in the rule", line);
        if ((rc = cc_rule_parse(text, &h->rule, err)))
            return cc_prefix(err, "RLE header (line %ld)", line);
        h->has_rule = 1;
        if (colon) {
            const char *t = colon + 1;
            skip_blanks(&t, rule_end);
            if ((rc = parse_topology(t, rule_end, line, h, err))) return rc;
            if (h->plane) h->rule.topology = CC_TOPOLOGY_PLANE;
        }
    }
    if (h->has_torus && !h->has_sides) {
        if (h->x < 1 || h->y < 1)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): x = %d, y = %d: a :%c without sides takes them "
                           "from x and y, which must then be positive",
                           line, (int)h->x, (int)h->y, h->plane ? 'P' : 'T');
        h->tw = h->x;
        h->th = h->y;
    } else if (h->has_torus) {
        if (h->x > h->tw || h->y > h->th)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): pattern x = %d, y = %d is larger than the %s "
                           "%dx%d",
                           line, (int)h->x, (int)h->y, h->plane ? "bounded plane" : "torus",
                           (int)h->tw, (int)h->th);
        /* Golly writes an empty pattern as x = 0, y = 0. */
        if ((h->x == 0) != (h->y == 0))
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): x = %d, y = %d: one side is 0 and the other not",
                           line, (int)h->x, (int)h->y);
    } else {
        if (h->x < 1 || h->y < 1)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): x = %d, y = %d: both must be positive when there "
                           "is no :TW,H or :PW,H grid size",
                           line, (int)h->x, (int)h->y);
        h->tw = h->x;
        h->th = h->y;
    }
    if ((int64_t)h->tw * h->th > CC_GRID_FILE_CELLS_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): a %dx%d grid is %lld cells; grid files hold at most "
                       "%lld (2^30)",
                       line, (int)h->tw, (int)h->th, (long long)h->tw * h->th,
                       (long long)CC_GRID_FILE_CELLS_MAX);
    return CC_OK;
}

/* The body after the header: runs of b . o A $, ended by '!'. Anything after '!' is ignored.
 * g NULL: only checks it. */
static int parse_body(rle_reader *r, const rle_header *h, cc_grid *g) {
    cc_error *err = r->err;
    char cb[8];
    int32_t row = 0, col = 0;
    int64_t count = -1;     /* -1: no run count pending */
    int count_closed = 0;   /* whitespace came after the pending count's digits */
    long count_line = 0;
    for (; r->pos < r->len; r->pos++) {
        char c = r->s[r->pos];
        if (c == '\n') {
            r->line++;
            if (count >= 0) count_closed = 1;
            continue;
        }
        if (is_blank(c)) {
            if (count >= 0) count_closed = 1;
            continue;
        }
        if (is_digit(c)) {
            if (count >= 0 && count_closed)
                return cc_fail(err, CC_ERR_ARG,
                               "RLE line %ld: two run counts in a row (%lld, then a digit)", r->line,
                               (long long)count);
            if (count < 0) {
                count = 0;
                count_line = r->line;
            }
            count = count * 10 + (c - '0');
            if (count > CC_GRID_SIDE_MAX)
                return cc_fail(err, CC_ERR_ARG, "RLE line %ld: run count is too large (over %d)",
                               r->line, CC_GRID_SIDE_MAX);
            continue;
        }
        int32_t n = 1;
        if (count >= 0) {
            if (count == 0)
                return cc_fail(err, CC_ERR_ARG, "RLE line %ld: run count 0 before %s", count_line,
                               cc_show_byte(cb, c));
            n = (int32_t)count;
        }
        int had_count = count >= 0;
        count = -1;
        count_closed = 0;
        switch (c) {
        case 'b':
        case '.':
        case 'o':
        case 'A':
            if (row >= h->y)
                return cc_fail(err, CC_ERR_ARG, "RLE line %ld: more rows than y = %d", r->line,
                               (int)h->y);
            if (n > h->x - col)
                return cc_fail(err, CC_ERR_ARG,
                               "RLE line %ld: row %d is longer than x = %d (%d cells)", r->line,
                               (int)row + 1, (int)h->x, (int)(col + n));
            if (g && (c == 'o' || c == 'A'))
                memset(g->cells + (size_t)row * (size_t)g->w + (size_t)col, 1, (size_t)n);
            col += n;
            break;
        case '$':
            if (n > h->y - row)
                return cc_fail(err, CC_ERR_ARG,
                               "RLE line %ld: more rows than y = %d ('$' moves to row %lld)",
                               r->line, (int)h->y, (long long)row + n + 1);
            row += n;
            col = 0;
            break;
        case '!':
            if (had_count)
                return cc_fail(err, CC_ERR_ARG, "RLE line %ld: run count %d before '!'", r->line,
                               (int)n);
            r->pos++;
            return CC_OK;
        default:
            if ((c >= 'B' && c <= 'X') || (c >= 'p' && c <= 'y'))
                return cc_fail(err, CC_ERR_UNSUPPORTED,
                               "RLE line %ld: multi-state cell %s is unsupported (2 states: b or . "
                               "dead, o or A alive)",
                               r->line, cc_show_byte(cb, c));
            return cc_fail(err, CC_ERR_ARG,
                           "RLE line %ld: unknown token %s (expected b . o A $ ! or a run count)",
                           r->line, cc_show_byte(cb, c));
        }
    }
    if (count >= 0)
        return cc_fail(err, CC_ERR_ARG, "RLE: truncated after run count %lld: missing '!' at the end",
                       (long long)count);
    return cc_fail(err, CC_ERR_ARG, "RLE: missing '!' at the end of the pattern (truncated?)");
}

/* The comment and blank lines, then the header, into *h; r->pos then starts the body. A UTF-8
 * byte-order mark before the first line is skipped (editors on some systems write one). */
static int read_header(rle_reader *r, rle_header *h) {
    const char *text = r->s;
    size_t len = r->len;
    cc_error *err = r->err;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) r->pos = 3;
    for (;;) {
        if (r->pos >= len)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE: missing header line \"x = ..., y = ...\" (only comments or "
                           "nothing)");
        const char *line = text + r->pos;
        const char *nl = memchr(line, '\n', len - r->pos);
        const char *end = nl ? nl : text + len;
        const char *p = line;
        skip_blanks(&p, end);
        if (p == end || *p == '#') {
            r->pos = (size_t)(end - text) + (nl ? 1 : 0);
            r->line++;
            continue;
        }
        if (*p != 'x') {
            char cb[16];
            return cc_fail(err, CC_ERR_ARG,
                           "RLE line %ld: missing header line \"x = ..., y = ...\" before the "
                           "pattern (the line starts with %s)",
                           r->line, cc_show_byte(cb, *p));
        }
        const char *hend = end;
        while (hend > p && hend[-1] == '\r') hend--;
        int rc = parse_header(p, hend, r->line, h, err);
        if (rc) return rc;
        r->pos = (size_t)(end - text) + (nl ? 1 : 0);
        r->line++;
        return CC_OK;
    }
}

int cc_rle_bytes_max(const char *text, size_t len, int64_t *max, cc_error *err) {
    if (!text || !max) return cc_fail(err, CC_ERR_ARG, "cc_rle_bytes_max: NULL argument");
    rle_reader r = {text, len, 0, 1, err};
    rle_header h;
    int rc = read_header(&r, &h);
    if (rc) return rc;
    /* Four bytes a cell and a row end: a run token per cell with line breaks and blanks between
     * them, and room for trailing comments. parse_header bounds x*y, so this cannot overflow. */
    *max = (int64_t)r.pos + 4 * ((int64_t)h.x + 1) * (int64_t)h.y + CC_RLE_SLACK_BYTES;
    return CC_OK;
}

int cc_rle_parse(const char *text, size_t len, cc_grid *out, cc_rule *rule, int *has_rule,
                 cc_error *err) {
    cc_grid_meta meta;
    int rc = cc_rle_parse_meta(text, len, out, rule, &meta, err);
    if (has_rule) *has_rule = rc ? 0 : meta.has_rule;
    return rc;
}

int cc_rle_parse_meta(const char *text, size_t len, cc_grid *out, cc_rule *rule,
                      cc_grid_meta *meta, cc_error *err) {
    if (!out || !meta) return cc_fail(err, CC_ERR_ARG, "cc_rle_parse: NULL argument");
    out->w = out->h = 0;
    out->cells = NULL;
    memset(meta, 0, sizeof *meta);
    if (!text && len) return cc_fail(err, CC_ERR_ARG, "cc_rle_parse: NULL text");
    rle_reader r = {text, len, 0, 1, err};
    rle_header h;
    int rc = read_header(&r, &h);
    if (rc) return rc;
    /* The body is checked whole before the grid is allocated: a file that lies about its size is
     * refused without reserving what its header claims. */
    rle_reader check = r;
    if ((rc = parse_body(&check, &h, NULL))) return rc;
    cc_grid g;
    if ((rc = cc_grid_alloc(&g, h.tw, h.th, err)))
        return cc_prefix(err, "RLE %s", !h.has_torus ? "pattern" : h.plane ? "bounded plane" : "torus");
    if ((rc = parse_body(&r, &h, &g))) {
        cc_grid_free(&g);
        return rc;
    }
    *out = g;
    if (h.has_rule && rule) *rule = h.rule;
    meta->has_rule = h.has_rule;
    meta->has_topology = h.has_torus;
    meta->unbounded = !h.has_torus;
    return CC_OK;
}

/* ---- writing ---- */

/* Tokens go to a memory stream, wrapped at RLE_LINE_MAX like Golly's. */
typedef struct rle_writer {
    FILE *out;
    size_t line_len;
} rle_writer;

static void rle_token(rle_writer *w, int64_t n, char tag) {
    char tok[32];
    int len = n > 1 ? snprintf(tok, sizeof tok, "%lld%c", (long long)n, tag)
                    : snprintf(tok, sizeof tok, "%c", tag);
    if (w->line_len + (size_t)len > RLE_LINE_MAX) {
        fputc('\n', w->out);
        w->line_len = 0;
    }
    fwrite(tok, 1, (size_t)len, w->out);
    w->line_len += (size_t)len;
}

int cc_rle_format(const cc_grid *g, const cc_rule *rule, char **text, size_t *len, cc_error *err) {
    if (!g || !g->cells || !text || !len)
        return cc_fail(err, CC_ERR_ARG, "cc_rle_format: NULL argument");
    *text = NULL;
    *len = 0;
    /* The rule without its topology, which the suffix states with the grid's size. */
    char rule_text[CC_RULE_TEXT_MAX];
    cc_rule bare;
    if (rule) {
        bare = *rule;
        bare.topology = CC_TOPOLOGY_TORUS;
    }
    if (rule && cc_rule_print(&bare, rule_text, sizeof rule_text, err))
        return cc_prefix(err, "formatting RLE");
    char *buf = NULL;
    size_t size = 0;
    rle_writer w = {open_memstream(&buf, &size), 0};
    if (!w.out) return cc_fail(err, CC_ERR_NOMEM, "formatting RLE: out of memory");
    if (rule)
        fprintf(w.out, "x = %d, y = %d, rule = %s:%c%d,%d\n", (int)g->w, (int)g->h, rule_text,
                rule->topology == CC_TOPOLOGY_PLANE ? 'P' : 'T', (int)g->w, (int)g->h);
    else
        fprintf(w.out, "x = %d, y = %d\n", (int)g->w, (int)g->h);
    int32_t at_row = 0;
    for (int32_t y = 0; y < g->h; y++) {
        const uint8_t *row = g->cells + (size_t)y * (size_t)g->w;
        int32_t last = g->w - 1;
        while (last >= 0 && !row[last]) last--;
        if (last < 0) continue; /* empty rows travel in the next '$' run */
        if (y > at_row) rle_token(&w, y - at_row, '$');
        at_row = y;
        for (int32_t x = 0; x <= last;) {
            uint8_t v = row[x] != 0;
            int32_t run = 1;
            while (x + run <= last && (row[x + run] != 0) == v) run++;
            rle_token(&w, run, v ? 'o' : 'b');
            x += run;
        }
    }
    rle_token(&w, 1, '!');
    fputc('\n', w.out);
    /* A memory stream fails only for want of memory; the error flag stays set once it does. */
    int failed = ferror(w.out);
    if (fclose(w.out) != 0 || failed) {
        free(buf);
        return cc_fail(err, CC_ERR_NOMEM, "formatting RLE: out of memory");
    }
    *text = buf;
    *len = size;
    return CC_OK;
}
