/* Rule notations: Golly's Larger than Life "R5,C2,M0,S34..58,B34..45,NM" (and the comma-less
 * "R5C2M0S34..58B34..45NM"), Life-like "B3/S23" and hexagonal "B2/S34H". Every refusal names the
 * rule and what is wrong with it. The parser works on a bounded copy and never reads past it. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "oracle/rule.h"

/* Longer input is refused before parsing; the longest valid rule is well under this. */
#define RULE_INPUT_MAX 256
/* Numbers in rules stop here: far above any valid radius or count, far below INT32_MAX. */
#define RULE_NUMBER_MAX 100000000

/* The rule as shown in messages: printable, bounded. */
typedef struct shown_rule {
    char text[80];
} shown_rule;

static void show_rule(shown_rule *shown, const char *s, size_t n) {
    size_t out = 0, limit = sizeof shown->text - 4;
    for (size_t i = 0; i < n && out < limit; i++) {
        unsigned char c = (unsigned char)s[i];
        shown->text[out++] = (c >= 0x20 && c < 0x7f && c != '"') ? (char)c : '?';
    }
    if (n > out) {
        memcpy(shown->text + out, "...", 3);
        out += 3;
    }
    shown->text[out] = '\0';
}

/* A character as a message shows it: 'x', or \xNN when not printable, or "the end". */
static const char *show_char(char buf[8], const char *p, const char *end) {
    if (p >= end) return "the end of the rule";
    unsigned char c = (unsigned char)*p;
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, 8, "'%c'", (char)c);
    else
        snprintf(buf, 8, "\\x%02x", (unsigned)c);
    return buf;
}

typedef struct parser {
    const char *p, *end;
    const char *shown;
    cc_error *err;
} parser;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int upper(char c) { return toupper((unsigned char)c); }

/* Reads a decimal number of at least one digit; what names the field in messages. */
static int read_number(parser *ps, const char *what, int32_t *out) {
    char cb[8];
    if (ps->p < ps->end && *ps->p == '-')
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": %s is negative", ps->shown, what);
    if (ps->p >= ps->end || !is_digit(*ps->p))
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": %s needs a number, found %s", ps->shown,
                       what, show_char(cb, ps->p, ps->end));
    int64_t v = 0;
    while (ps->p < ps->end && is_digit(*ps->p)) {
        v = v * 10 + (*ps->p - '0');
        if (v > RULE_NUMBER_MAX)
            return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": %s is too large (over %d)",
                           ps->shown, what, RULE_NUMBER_MAX);
        ps->p++;
    }
    *out = (int32_t)v;
    return CC_OK;
}

/* ---- Life-like and hexagonal: B<digits>/S<digits>[H] ---- */

static int read_digits(parser *ps, const char *which, int32_t max, const char *kind, cc_set *set,
                       char stop) {
    unsigned seen = 0;
    char cb[8];
    while (ps->p < ps->end && *ps->p != stop) {
        char c = *ps->p;
        if (!is_digit(c))
            return cc_fail(ps->err, CC_ERR_ARG,
                           "rule \"%s\": unexpected %s in the %s counts (digits 0..%d expected)",
                           ps->shown, show_char(cb, ps->p, ps->end), which, (int)max);
        int d = c - '0';
        if (d > max)
            return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": %s count %d exceeds %d for a %s rule",
                           ps->shown, which, d, (int)max, kind);
        if (seen & (1u << d))
            return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": %s count %d appears twice", ps->shown,
                           which, d);
        seen |= 1u << d;
        int rc = cc_set_add(set, d, d, ps->err);
        if (rc) return cc_prefix(ps->err, "rule \"%s\"", ps->shown);
        ps->p++;
    }
    return CC_OK;
}

static int parse_life(parser *ps, cc_rule *out) {
    char cb[8];
    cc_rule rule;
    memset(&rule, 0, sizeof rule);
    rule.radius = 1;
    rule.centre = 0;
    rule.shape = CC_SHAPE_MOORE;
    const char *kind = "Life-like";
    int32_t max = 8;
    char last = upper(ps->end[-1]);
    if (last == 'H') {
        rule.shape = CC_SHAPE_HEX;
        kind = "hexagonal";
        max = 6;
        ps->end--;
    } else if (last == 'V') {
        return cc_fail(ps->err, CC_ERR_UNSUPPORTED,
                       "rule \"%s\": the von Neumann suffix V is unsupported; write it as "
                       "R1,C2,M0,S..,B..,NN",
                       ps->shown);
    }
    if (ps->p >= ps->end || upper(*ps->p) != 'B')
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": a Life-like rule starts with B, found %s",
                       ps->shown, show_char(cb, ps->p, ps->end));
    ps->p++;
    int rc = read_digits(ps, "birth", max, kind, &rule.birth, '/');
    if (rc) return rc;
    if (ps->p >= ps->end)
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": missing '/' and the S counts after B",
                       ps->shown);
    ps->p++; /* the '/' */
    if (ps->p >= ps->end || upper(*ps->p) != 'S')
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": expected S after '/', found %s",
                       ps->shown, show_char(cb, ps->p, ps->end));
    ps->p++;
    if ((rc = read_digits(ps, "survival", max, kind, &rule.survive, '\0'))) return rc;
    if ((rc = cc_rule_validate(&rule, ps->err))) return cc_prefix(ps->err, "rule \"%s\"", ps->shown);
    *out = rule;
    return CC_OK;
}

/* ---- Larger than Life: R<r>,C<c>,M<m>,S<lo>..<hi>,B<lo>..<hi>,N<code> ---- */

/* The separator before every field after R: a comma in the comma form, nothing in the other. */
static int read_separator(parser *ps, int commas, char next_field) {
    int has = ps->p < ps->end && *ps->p == ',';
    if (commas && !has) {
        char cb[8];
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": expected ',' before %c, found %s",
                       ps->shown, next_field, show_char(cb, ps->p, ps->end));
    }
    if (!commas && has)
        return cc_fail(ps->err, CC_ERR_ARG,
                       "rule \"%s\": unexpected ',' before %c in a rule without commas after R",
                       ps->shown, next_field);
    if (has) ps->p++;
    return CC_OK;
}

static int read_field_letter(parser *ps, char letter, const char *meaning) {
    char cb[8];
    if (ps->p >= ps->end || upper(*ps->p) != letter)
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": expected %c (%s), found %s", ps->shown,
                       letter, meaning, show_char(cb, ps->p, ps->end));
    ps->p++;
    return CC_OK;
}

static int read_range(parser *ps, char letter, cc_set *set) {
    char what[24], cb[8];
    int32_t lo, hi;
    snprintf(what, sizeof what, "the %c range", letter);
    int rc = read_number(ps, what, &lo);
    if (rc) return rc;
    if (ps->end - ps->p < 2 || ps->p[0] != '.' || ps->p[1] != '.')
        return cc_fail(ps->err, CC_ERR_ARG,
                       "rule \"%s\": %c needs a range lo..hi (e.g. %c34..58), found %s after %d",
                       ps->shown, letter, letter, show_char(cb, ps->p, ps->end), (int)lo);
    ps->p += 2;
    if ((rc = read_number(ps, what, &hi))) return rc;
    if (lo > hi)
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": %c range %d..%d is empty (lo > hi)",
                       ps->shown, letter, (int)lo, (int)hi);
    if (ps->end - ps->p >= 2 && ps->p[0] == ',' && is_digit(ps->p[1]))
        return cc_fail(ps->err, CC_ERR_UNSUPPORTED,
                       "rule \"%s\": %c has more than one range; Larger than Life takes one", ps->shown,
                       letter);
    cc_set_clear(set);
    if ((rc = cc_set_add(set, lo, hi, ps->err))) return cc_prefix(ps->err, "rule \"%s\"", ps->shown);
    return CC_OK;
}

static int parse_ltl(parser *ps, cc_rule *out) {
    char cb[8];
    cc_rule rule;
    memset(&rule, 0, sizeof rule);
    int32_t states, centre;
    int rc;
    ps->p++; /* the R */
    if ((rc = read_number(ps, "the radius R", &rule.radius))) return rc;
    int commas = ps->p < ps->end && *ps->p == ',';

    if ((rc = read_separator(ps, commas, 'C'))) return rc;
    if ((rc = read_field_letter(ps, 'C', "the number of states"))) return rc;
    if ((rc = read_number(ps, "the number of states C", &states))) return rc;
    if (states > 2)
        return cc_fail(ps->err, CC_ERR_UNSUPPORTED,
                       "rule \"%s\": C%d: multi-state rules are unsupported (C0, C1 and C2 mean "
                       "2 states)",
                       ps->shown, (int)states);

    if ((rc = read_separator(ps, commas, 'M'))) return rc;
    if ((rc = read_field_letter(ps, 'M', "whether the centre counts"))) return rc;
    if ((rc = read_number(ps, "the centre flag M", &centre))) return rc;
    if (centre > 1)
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": M%d: the centre flag must be M0 or M1",
                       ps->shown, (int)centre);
    rule.centre = (int)centre;

    if ((rc = read_separator(ps, commas, 'S'))) return rc;
    if ((rc = read_field_letter(ps, 'S', "the survival range"))) return rc;
    if ((rc = read_range(ps, 'S', &rule.survive))) return rc;

    if ((rc = read_separator(ps, commas, 'B'))) return rc;
    if ((rc = read_field_letter(ps, 'B', "the birth range"))) return rc;
    if ((rc = read_range(ps, 'B', &rule.birth))) return rc;

    if ((rc = read_separator(ps, commas, 'N'))) return rc;
    if ((rc = read_field_letter(ps, 'N', "the neighbourhood"))) return rc;
    if (ps->p >= ps->end)
        return cc_fail(ps->err, CC_ERR_ARG,
                       "rule \"%s\": N needs a neighbourhood code (NM, NN, NC, N+ or NH)", ps->shown);
    char code = (char)upper(*ps->p);
    switch (code) {
    case 'M': rule.shape = CC_SHAPE_MOORE; break;
    case 'N': rule.shape = CC_SHAPE_VON_NEUMANN; break;
    case 'C': rule.shape = CC_SHAPE_CIRCULAR; break;
    case '+': rule.shape = CC_SHAPE_CROSS; break;
    case 'H': rule.shape = CC_SHAPE_HEX; break;
    case 'X': case '*': case '#': case 'B': case 'D': case '3': case 'A': case '@': case 'G': case 'W':
        return cc_fail(ps->err, CC_ERR_UNSUPPORTED,
                       "rule \"%s\": neighbourhood N%c is unsupported (NM, NN, NC, N+, NH only)",
                       ps->shown, *ps->p);
    default:
        return cc_fail(ps->err, CC_ERR_ARG,
                       "rule \"%s\": unknown neighbourhood N followed by %s (NM, NN, NC, N+, NH)",
                       ps->shown, show_char(cb, ps->p, ps->end));
    }
    ps->p++;
    if (ps->p < ps->end)
        return cc_fail(ps->err, CC_ERR_ARG,
                       "rule \"%s\": trailing text after the neighbourhood, starting at %s",
                       ps->shown, show_char(cb, ps->p, ps->end));
    if ((rc = cc_rule_validate(&rule, ps->err))) return cc_prefix(ps->err, "rule \"%s\"", ps->shown);
    *out = rule;
    return CC_OK;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Golly's topology suffix, after the ':': T or P, with the grid's sides W,H or none. */
static int parse_topology(parser *ps, const char *suffix, cc_topology *topology, int32_t *w,
                          int32_t *h) {
    char cb[8];
    *w = *h = 0;
    char kind = (char)upper(*suffix);
    if (suffix >= ps->end || (kind != 'T' && kind != 'P'))
        return cc_fail(ps->err, suffix < ps->end && (kind == 'K' || kind == 'C' || kind == 'S')
                                    ? CC_ERR_UNSUPPORTED
                                    : CC_ERR_ARG,
                       "rule \"%s\": topology %s: only :T (torus) and :P (bounded plane) are "
                       "supported",
                       ps->shown, show_char(cb, suffix, ps->end));
    *topology = kind == 'P' ? CC_TOPOLOGY_PLANE : CC_TOPOLOGY_TORUS;
    parser sides = {suffix + 1, ps->end, ps->shown, ps->err};
    if (sides.p == sides.end) return CC_OK;
    int rc = read_number(&sides, "the topology's width", w);
    if (rc) return rc;
    if (sides.p >= sides.end || *sides.p != ',')
        return cc_fail(ps->err, CC_ERR_ARG,
                       "rule \"%s\": the topology's sides are W,H (as in :P64,48)", ps->shown);
    sides.p++;
    if ((rc = read_number(&sides, "the topology's height", h))) return rc;
    if (sides.p < sides.end)
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": trailing text after the topology at %s",
                       ps->shown, show_char(cb, sides.p, sides.end));
    if (*w < 1 || *h < 1)
        return cc_fail(ps->err, CC_ERR_ARG, "rule \"%s\": the topology's sides %dx%d must be positive",
                       ps->shown, (int)*w, (int)*h);
    return CC_OK;
}

int cc_rule_parse(const char *text, cc_rule *out, cc_error *err) {
    int32_t w, h;
    return cc_rule_parse_sized(text, out, &w, &h, err);
}

int cc_rule_parse_sized(const char *text, cc_rule *out, int32_t *w, int32_t *h, cc_error *err) {
    int stated;
    return cc_rule_parse_stated(text, out, &stated, w, h, err);
}

int cc_rule_parse_stated(const char *text, cc_rule *out, int *stated, int32_t *w, int32_t *h,
                         cc_error *err) {
    *stated = 0;
    *w = *h = 0;
    if (!text || !out) return cc_fail(err, CC_ERR_ARG, "cc_rule_parse: NULL argument");
    size_t n = 0;
    while (n <= RULE_INPUT_MAX && text[n]) n++;
    shown_rule shown;
    show_rule(&shown, text, n);
    if (n > RULE_INPUT_MAX)
        return cc_fail(err, CC_ERR_ARG, "rule \"%s\": longer than %d characters", shown.text,
                       RULE_INPUT_MAX);
    const char *begin = text, *end = text + n;
    while (begin < end && is_space(*begin)) begin++;
    while (end > begin && is_space(end[-1])) end--;
    if (begin == end) return cc_fail(err, CC_ERR_ARG, "rule \"%s\": empty rule", shown.text);
    /* The topology suffix first: the notations' parsers see the rule alone. */
    cc_topology topology = CC_TOPOLOGY_TORUS;
    const char *colon = memchr(begin, ':', (size_t)(end - begin));
    if (colon) {
        parser whole = {begin, end, shown.text, err};
        int rc = parse_topology(&whole, colon + 1, &topology, w, h);
        if (rc) return rc;
        *stated = 1;
        end = colon;
        if (begin == end) return cc_fail(err, CC_ERR_ARG, "rule \"%s\": empty rule", shown.text);
    }
    parser ps = {begin, end, shown.text, err};
    char first = (char)upper(*begin);
    int rc;
    if (first == 'R' || first == 'B') {
        rc = first == 'R' ? parse_ltl(&ps, out) : parse_life(&ps, out);
        if (!rc) out->topology = topology;
        return rc;
    }
    if (first == 'S' || is_digit(first))
        return cc_fail(err, CC_ERR_ARG,
                       "rule \"%s\": unrecognised notation; write Life-like rules as B3/S23 "
                       "(B first)",
                       shown.text);
    return cc_fail(err, CC_ERR_ARG,
                   "rule \"%s\": unrecognised notation (expected R..,C..,M..,S..,B..,N.., "
                   "B../S.. or B../S..H)",
                   shown.text);
}

/* ---- printing ---- */

static int print_digits(char *p, const cc_set *set, int32_t max) {
    int n = 0;
    for (int32_t c = 0; c <= max; c++)
        if (cc_set_has(set, c)) p[n++] = (char)('0' + c);
    p[n] = '\0';
    return n;
}

int cc_rule_print(const cc_rule *rule, char *buf, size_t size, cc_error *err) {
    if (!rule || !buf || size == 0)
        return cc_fail(err, CC_ERR_ARG, "cc_rule_print: NULL argument or empty buffer");
    buf[0] = '\0';
    int rc = cc_rule_validate(rule, err);
    if (rc) return cc_prefix(err, "cannot print rule");
    char text[CC_RULE_TEXT_MAX];
    int len;
    int life_like = rule->shape == CC_SHAPE_MOORE && rule->radius == 1 && rule->centre == 0;
    int hex = rule->shape == CC_SHAPE_HEX && rule->centre == 0;
    if (life_like || hex) {
        int32_t max = hex ? 6 : 8;
        char b[12], s[12];
        print_digits(b, &rule->birth, max);
        print_digits(s, &rule->survive, max);
        len = snprintf(text, sizeof text, "B%s/S%s%s", b, s, hex ? "H" : "");
    } else {
        if (rule->survive.n != 1 || rule->birth.n != 1)
            return cc_fail(err, CC_ERR_UNSUPPORTED,
                           "cannot print rule: Larger than Life notation needs S and B to be one "
                           "non-empty range each (S has %d ranges, B has %d)",
                           rule->survive.n, rule->birth.n);
        len = snprintf(text, sizeof text, "R%d,C2,M%d,S%d..%d,B%d..%d,%s", (int)rule->radius,
                       rule->centre, (int)rule->survive.r[0].lo, (int)rule->survive.r[0].hi,
                       (int)rule->birth.r[0].lo, (int)rule->birth.r[0].hi,
                       cc_shape_code(rule->shape));
    }
    if (len >= 0 && (size_t)len < sizeof text && rule->topology == CC_TOPOLOGY_PLANE)
        len += snprintf(text + len, sizeof text - (size_t)len, ":P");
    if (len < 0 || (size_t)len >= sizeof text)
        return cc_fail(err, CC_ERR_ARG, "cannot print rule: longer than %d characters",
                       CC_RULE_TEXT_MAX - 1);
    if ((size_t)len >= size)
        return cc_fail(err, CC_ERR_ARG, "cannot print rule %s: a buffer of %zu bytes is too small",
                       text, size);
    memcpy(buf, text, (size_t)len + 1);
    return CC_OK;
}
