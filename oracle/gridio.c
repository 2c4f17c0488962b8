/* Grid files: Golly RLE (with the torus size as a :TW,H suffix to the rule) and rows of 0 and 1.
 * Parsers work on (text, len), never past len, and refuse anything inconsistent by name. */
#define _POSIX_C_SOURCE 200809L

#include "oracle/gridio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Golly wraps RLE lines at 70 characters. */
#define RLE_LINE_MAX 70
/* A rule in a header longer than this cannot be valid. */
#define RLE_RULE_MAX 200

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A byte as a message shows it. */
static const char *show_byte(char buf[8], char c) {
    unsigned char u = (unsigned char)c;
    if (u >= 0x20 && u < 0x7f)
        snprintf(buf, 8, "'%c'", c);
    else
        snprintf(buf, 8, "\\x%02x", (unsigned)u);
    return buf;
}

/* ---- RLE reading ---- */

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
                       *p < end ? show_byte(cb, **p) : "the end of the line");
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
                       want, context, *p < end ? show_byte(cb, **p) : "the end of the line");
    (*p)++;
    skip_blanks(p, end);
    return CC_OK;
}

typedef struct rle_header {
    int32_t x, y;         /* the pattern's size */
    int32_t tw, th;       /* the torus's size */
    int has_rule, has_torus;
    cc_rule rule;
} rle_header;

/* The topology suffix after ':' in the rule: only a torus "TW,H". */
static int parse_topology(const char *p, const char *end, long line, rle_header *h,
                          cc_error *err) {
    char cb[8];
    if (p >= end)
        return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): empty topology after ':'", line);
    char kind = *p;
    if (kind == 'P' || kind == 'K' || kind == 'C' || kind == 'S')
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): topology ':%c...' is unsupported (only a torus "
                       ":TW,H)",
                       line, kind);
    if (kind != 'T')
        return cc_fail(err, CC_ERR_ARG,
                       "RLE header (line %ld): unknown topology %s after ':' (expected :TW,H)", line,
                       show_byte(cb, kind));
    p++;
    int rc = read_side(&p, end, "the torus width", line, &h->tw, err);
    if (rc) return rc;
    if (p < end && (*p == '+' || *p == '-' || *p == '*'))
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): shifted or twisted torus is unsupported", line);
    if (p >= end || *p != ',')
        return cc_fail(err, CC_ERR_ARG,
                       "RLE header (line %ld): torus suffix needs two sides :TW,H, found %s after "
                       "the width",
                       line, p < end ? show_byte(cb, *p) : "the end");
    p++;
    if ((rc = read_side(&p, end, "the torus height", line, &h->th, err))) return rc;
    if (p < end && (*p == '+' || *p == '-' || *p == '*'))
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): shifted or twisted torus is unsupported", line);
    if (p < end)
        return cc_fail(err, CC_ERR_ARG, "RLE header (line %ld): unexpected %s after the torus size",
                       line, show_byte(cb, *p));
    if (h->tw == 0 || h->th == 0)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "RLE header (line %ld): a torus side of 0 (unbounded) is unsupported", line);
    h->has_torus = 1;
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
                       p < end ? show_byte(cb, *p) : "the end of the line");
    p++;
    if ((rc = expect_char(&p, end, '=', "after y", line, err))) return rc;
    if ((rc = read_side(&p, end, "y", line, &h->y, err))) return rc;
    skip_blanks(&p, end);
    if (p < end) {
        if ((rc = expect_char(&p, end, ',', "after y's value", line, err))) return rc;
        if ((size_t)(end - p) < 4 || memcmp(p, "rule", 4) != 0)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): expected \"rule = ...\" after y, found %s", line,
                           p < end ? show_byte(cb, *p) : "the end of the line");
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
        }
    }
    if (h->has_torus) {
        if (h->x > h->tw || h->y > h->th)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): pattern x = %d, y = %d is larger than the torus "
                           "%dx%d",
                           line, (int)h->x, (int)h->y, (int)h->tw, (int)h->th);
        /* Golly writes an empty pattern as x = 0, y = 0. */
        if ((h->x == 0) != (h->y == 0))
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): x = %d, y = %d: one side is 0 and the other not",
                           line, (int)h->x, (int)h->y);
    } else {
        if (h->x < 1 || h->y < 1)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE header (line %ld): x = %d, y = %d: both must be positive when there "
                           "is no :TW,H torus size",
                           line, (int)h->x, (int)h->y);
        h->tw = h->x;
        h->th = h->y;
    }
    return CC_OK;
}

/* The body after the header: runs of b . o A $, ended by '!'. Anything after '!' is ignored. */
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
                               show_byte(cb, c));
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
            if (c == 'o' || c == 'A')
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
                               r->line, show_byte(cb, c));
            return cc_fail(err, CC_ERR_ARG,
                           "RLE line %ld: unknown token %s (expected b . o A $ ! or a run count)",
                           r->line, show_byte(cb, c));
        }
    }
    if (count >= 0)
        return cc_fail(err, CC_ERR_ARG, "RLE: truncated after run count %lld: missing '!' at the end",
                       (long long)count);
    return cc_fail(err, CC_ERR_ARG, "RLE: missing '!' at the end of the pattern (truncated?)");
}

int cc_rle_parse(const char *text, size_t len, cc_grid *out, cc_rule *rule, int *has_rule,
                 cc_error *err) {
    if (!out) return cc_fail(err, CC_ERR_ARG, "cc_rle_parse: NULL output grid");
    out->w = out->h = 0;
    out->cells = NULL;
    if (has_rule) *has_rule = 0;
    if (!text && len) return cc_fail(err, CC_ERR_ARG, "cc_rle_parse: NULL text");
    rle_reader r = {text, len, 0, 1, err};
    /* Comment and blank lines, then the header. */
    for (;;) {
        if (r.pos >= len)
            return cc_fail(err, CC_ERR_ARG,
                           "RLE: missing header line \"x = ..., y = ...\" (only comments or "
                           "nothing)");
        const char *line = text + r.pos;
        const char *nl = memchr(line, '\n', len - r.pos);
        const char *end = nl ? nl : text + len;
        const char *p = line;
        skip_blanks(&p, end);
        if (p == end || *p == '#') {
            r.pos = (size_t)(end - text) + (nl ? 1 : 0);
            r.line++;
            continue;
        }
        if (*p != 'x')
            return cc_fail(err, CC_ERR_ARG,
                           "RLE line %ld: missing header line \"x = ..., y = ...\" before the "
                           "pattern",
                           r.line);
        const char *hend = end;
        while (hend > p && hend[-1] == '\r') hend--;
        rle_header h;
        int rc = parse_header(p, hend, r.line, &h, err);
        if (rc) return rc;
        r.pos = (size_t)(end - text) + (nl ? 1 : 0);
        r.line++;
        cc_grid g;
        if ((rc = cc_grid_alloc(&g, h.tw, h.th, err))) return cc_prefix(err, "RLE torus");
        if ((rc = parse_body(&r, &h, &g))) {
            cc_grid_free(&g);
            return rc;
        }
        *out = g;
        if (h.has_rule && rule) *rule = h.rule;
        if (has_rule) *has_rule = h.has_rule;
        return CC_OK;
    }
}

/* ---- RLE writing ---- */

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
    char rule_text[CC_RULE_TEXT_MAX];
    if (rule && cc_rule_print(rule, rule_text, sizeof rule_text, err))
        return cc_prefix(err, "formatting RLE");
    char *buf = NULL;
    size_t size = 0;
    rle_writer w = {open_memstream(&buf, &size), 0};
    if (!w.out) return cc_fail(err, CC_ERR_NOMEM, "formatting RLE: out of memory");
    if (rule)
        fprintf(w.out, "x = %d, y = %d, rule = %s:T%d,%d\n", (int)g->w, (int)g->h, rule_text,
                (int)g->w, (int)g->h);
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
/* ---- text rows ---- */

int cc_text_parse(const char *text, size_t len, cc_grid *out, cc_error *err) {
    char cb[8];
    if (!out) return cc_fail(err, CC_ERR_ARG, "cc_text_parse: NULL output grid");
    out->w = out->h = 0;
    out->cells = NULL;
    if (!text || len == 0) return cc_fail(err, CC_ERR_ARG, "text grid: empty file");
    /* First pass: check every character and the row lengths. */
    int64_t w = -1, h = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        size_t next = pos + n + (nl ? 1 : 0);
        if (nl && n > 0 && line[n - 1] == '\r') n--;
        h++;
        for (size_t i = 0; i < n; i++)
            if (line[i] != '0' && line[i] != '1')
                return cc_fail(err, CC_ERR_ARG,
                               "text grid line %lld, column %zu: unexpected %s (only 0 and 1)",
                               (long long)h, i + 1, show_byte(cb, line[i]));
        if (n == 0)
            return cc_fail(err, CC_ERR_ARG, "text grid line %lld: empty row", (long long)h);
        if (w < 0) {
            w = (int64_t)n;
            if (w > CC_GRID_SIDE_MAX)
                return cc_fail(err, CC_ERR_UNSUPPORTED,
                               "text grid: rows of %lld cells exceed the largest side %d",
                               (long long)w, CC_GRID_SIDE_MAX);
        } else if ((int64_t)n != w) {
            return cc_fail(err, CC_ERR_ARG,
                           "text grid line %lld: ragged rows: %zu cells where line 1 has %lld",
                           (long long)h, n, (long long)w);
        }
        if (h > CC_GRID_SIDE_MAX)
            return cc_fail(err, CC_ERR_UNSUPPORTED, "text grid: more than %d rows",
                           CC_GRID_SIDE_MAX);
        pos = next;
    }
    cc_grid g;
    int rc = cc_grid_alloc(&g, (int32_t)w, (int32_t)h, err);
    if (rc) return cc_prefix(err, "text grid");
    pos = 0;
    for (int32_t y = 0; y < g.h; y++) {
        for (int32_t x = 0; x < g.w; x++)
            g.cells[(size_t)y * (size_t)g.w + (size_t)x] = (uint8_t)(text[pos + (size_t)x] == '1');
        pos += (size_t)g.w;
        if (pos < len && text[pos] == '\r') pos++;
        if (pos < len && text[pos] == '\n') pos++;
    }
    *out = g;
    return CC_OK;
}

int cc_text_format(const cc_grid *g, char **text, size_t *len, cc_error *err) {
    if (!g || !g->cells || !text || !len)
        return cc_fail(err, CC_ERR_ARG, "cc_text_format: NULL argument");
    *text = NULL;
    *len = 0;
    size_t row = (size_t)g->w + 1;
    if (g->w < 1 || g->h < 1 || (size_t)g->h > (SIZE_MAX - 1) / row)
        return cc_fail(err, CC_ERR_NOMEM, "text grid %dx%d: size overflows", (int)g->w, (int)g->h);
    size_t n = row * (size_t)g->h;
    char *buf = malloc(n + 1);
    if (!buf)
        return cc_fail(err, CC_ERR_NOMEM, "text grid %dx%d: cannot allocate %zu bytes", (int)g->w,
                       (int)g->h, n + 1);
    for (int32_t y = 0; y < g->h; y++) {
        char *out = buf + (size_t)y * row;
        const uint8_t *cells = g->cells + (size_t)y * (size_t)g->w;
        for (int32_t x = 0; x < g->w; x++) out[x] = cells[x] ? '1' : '0';
        out[g->w] = '\n';
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return CC_OK;
}

/* ---- files ---- */

int cc_read_file(const char *path, char **text, size_t *len, cc_error *err) {
    if (!path || !text || !len) return cc_fail(err, CC_ERR_ARG, "cc_read_file: NULL argument");
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return cc_fail(err, CC_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    size_t cap = 4096;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if (st.st_size < 0 || (uintmax_t)st.st_size >= (uintmax_t)SIZE_MAX - 1) {
            fclose(f);
            return cc_fail(err, CC_ERR_NOMEM, "%s: %lld bytes are too big for memory", path,
                           (long long)st.st_size);
        }
        cap = (size_t)st.st_size + 1;
    } else if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return cc_fail(err, CC_ERR_IO, "cannot read %s: it is a directory", path);
    }
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate %zu bytes to read it", path, cap);
    }
    size_t n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > SIZE_MAX / 2) {
                free(buf);
                fclose(f);
                return cc_fail(err, CC_ERR_NOMEM, "%s: too big for memory", path);
            }
            char *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                fclose(f);
                return cc_fail(err, CC_ERR_NOMEM, "%s: too big for memory (%zu bytes read)", path,
                               n);
            }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return cc_fail(err, CC_ERR_IO, "reading %s failed: %s", path, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return CC_OK;
}

int cc_write_file_atomic(const char *path, const char *data, size_t len, cc_error *err) {
    if (!path || (!data && len)) return cc_fail(err, CC_ERR_ARG, "cc_write_file_atomic: NULL argument");
    size_t plen = strlen(path);
    if (plen == 0) return cc_fail(err, CC_ERR_ARG, "cannot write a file with an empty path");
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dir_len;
    if (*base == '\0') return cc_fail(err, CC_ERR_ARG, "cannot write %s: it names a directory", path);
    /* The temporary lives beside the target so that rename replaces it in one step. */
    size_t tlen = dir_len + 1 + strlen(base) + sizeof ".tmp.XXXXXX";
    char *tmp = malloc(tlen);
    if (!tmp) return cc_fail(err, CC_ERR_NOMEM, "writing %s: out of memory", path);
    snprintf(tmp, tlen, "%.*s.%s.tmp.XXXXXX", (int)dir_len, path, base);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return cc_fail(err, CC_ERR_IO, "cannot write %s: creating a temporary file failed: %s", path,
                       strerror(e));
    }
    const char *failed = NULL;
    int e = 0;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            failed = "write";
            e = errno;
            break;
        }
        done += (size_t)w;
    }
    if (!failed && fchmod(fd, 0644) != 0) failed = "chmod", e = errno;
    if (!failed && fsync(fd) != 0) failed = "fsync", e = errno;
    if (close(fd) != 0 && !failed) failed = "close", e = errno;
    if (!failed && rename(tmp, path) != 0) failed = "rename", e = errno;
    if (failed) {
        unlink(tmp);
        free(tmp);
        return cc_fail(err, CC_ERR_IO, "cannot write %s: %s failed: %s", path, failed, strerror(e));
    }
    free(tmp);
    /* Make the rename itself durable; a failure here leaves a complete file, so it is ignored. */
    char dir[PATH_MAX];
    if (dir_len == 0)
        snprintf(dir, sizeof dir, ".");
    else if (dir_len < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)dir_len, path);
    else
        dir[0] = '\0';
    if (dir[0]) {
        int dfd = open(dir, O_RDONLY);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    return CC_OK;
}

/* ".rle" or ".txt", any case. */
static int file_kind(const char *path) {
    size_t n = strlen(path);
    if (n < 4) return 0;
    const char *ext = path + n - 4;
    char low[5];
    for (int i = 0; i < 4; i++) low[i] = (char)((ext[i] >= 'A' && ext[i] <= 'Z') ? ext[i] + 32 : ext[i]);
    low[4] = '\0';
    if (strcmp(low, ".rle") == 0) return 'r';
    if (strcmp(low, ".txt") == 0) return 't';
    return 0;
}

int cc_grid_read_file(const char *path, cc_grid *out, cc_rule *rule, int *has_rule,
                      cc_error *err) {
    if (!path || !out) return cc_fail(err, CC_ERR_ARG, "cc_grid_read_file: NULL argument");
    out->w = out->h = 0;
    out->cells = NULL;
    if (has_rule) *has_rule = 0;
    int kind = file_kind(path);
    if (!kind)
        return cc_fail(err, CC_ERR_ARG, "%s: unknown grid file extension (expected .rle or .txt)",
                       path);
    char *text;
    size_t len;
    int rc = cc_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = kind == 'r' ? cc_rle_parse(text, len, out, rule, has_rule, err)
                     : cc_text_parse(text, len, out, err);
    free(text);
    if (rc) return cc_prefix(err, "loading %s", path);
    return CC_OK;
}

int cc_grid_write_file(const char *path, const cc_grid *g, const cc_rule *rule, cc_error *err) {
    if (!path || !g) return cc_fail(err, CC_ERR_ARG, "cc_grid_write_file: NULL argument");
    int kind = file_kind(path);
    if (!kind)
        return cc_fail(err, CC_ERR_ARG, "%s: unknown grid file extension (expected .rle or .txt)",
                       path);
    char *text;
    size_t len;
    int rc = kind == 'r' ? cc_rle_format(g, rule, &text, &len, err) : cc_text_format(g, &text, &len, err);
    if (rc) return cc_prefix(err, "writing %s", path);
    rc = cc_write_file_atomic(path, text, len, err);
    free(text);
    return rc;
}
