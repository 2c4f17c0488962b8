/* Grid files: Golly RLE samples read cell by cell, hand-written RLE output, round trips of both
 * forms, malformed inputs refused by name, and whole-or-nothing file writes. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/gridio.h"
#include "testing/check.h"
#include "testing/grid_picture.h"

/* Parses RLE from a C string, reporting the message if it fails. */
static int rle(checks *t, const char *text, cc_grid *g, cc_rule *rule, int *has_rule) {
    cc_error err;
    cc_error_clear(&err);
    int rc = cc_rle_parse(text, strlen(text), g, rule, has_rule, &err);
    if (!CHECK_EQ(t, rc, CC_OK)) fprintf(stderr, "  RLE \"%s\": %s\n", text, err.msg);
    return rc == CC_OK;
}

static void check_picture(checks *t, const char *text, int w, int h, const char *want) {
    cc_grid g;
    if (!rle(t, text, &g, NULL, NULL)) return;
    CHECK_EQ(t, g.w, w);
    CHECK_EQ(t, g.h, h);
    char buf[512];
    grid_picture(&g, buf, sizeof buf);
    if (!CHECK_STR(t, buf, want)) fprintf(stderr, "  from RLE \"%s\"\n", text);
    cc_grid_free(&g);
}

static void check_golly_samples(checks *t) {
    cc_grid g;
    cc_rule rule, life;
    cc_error err;
    int has_rule = -1;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &life, &err), CC_OK);
    /* A glider as Golly saves it, comments included. */
    const char *glider = "#N Glider\n#O Richard K. Guy\n#C The smallest spaceship.\n"
                         "x = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n";
    if (rle(t, glider, &g, &rule, &has_rule)) {
        CHECK_EQ(t, has_rule, 1);
        CHECK(t, cc_rule_equal(&rule, &life));
        char buf[64];
        grid_picture(&g, buf, sizeof buf);
        CHECK_STR(t, buf, ".o./..o/ooo");
        cc_grid_free(&g);
    }
    /* The same on an 8x6 torus: the pattern at the top-left. */
    check_picture(t, "x = 3, y = 3, rule = B3/S23:T8,6\nbob$2bo$3o!\n", 8, 6,
                  ".o....../..o...../ooo...../......../......../........");
    /* No rule: the torus is x by y, has_rule is 0. */
    has_rule = -1;
    if (rle(t, "x = 2, y = 2\n2o$o!", &g, NULL, &has_rule)) {
        CHECK_EQ(t, has_rule, 0);
        cc_grid_free(&g);
    }
    check_picture(t, "x = 2, y = 2\n2o$o!", 2, 2, "oo/o.");
    /* Run counts, "2$" skipping an empty row, counts across lines. */
    check_picture(t, "x = 5, y = 5\n2o2$3bo$o3bo!", 5, 5, "oo.../...../...o./o...o/.....");
    check_picture(t, "x = 5, y = 3\no$$4o!", 5, 3, "o..../...../oooo.");
    check_picture(t, "x = 12, y = 1\n6o\n6o!", 12, 1, "oooooooooooo");
    /* Whitespace and newlines anywhere in the body, CRLF line ends, '.' and 'A'. */
    check_picture(t, "x = 4, y = 2\r\n2o\r\n 2b$\t\r\n4o\n!", 4, 2, "oo../oooo");
    check_picture(t, "x = 3, y = 1\n.A.!", 3, 1, ".o.");
    check_picture(t, "x = 3, y = 2\n2.A$A!", 3, 2, "..o/o..");
    /* A run count separated from its tag by whitespace. */
    check_picture(t, "x = 3, y = 1\n3 o!", 3, 1, "ooo");
    /* Tight spacing, a Larger than Life rule with commas, blank and comment lines first. */
    check_picture(t, "\n#C comment\n\nx=3,y=2,rule=R2,C2,M0,S1..2,B3..4,NN:T12,9\n3o$obo!", 12, 9,
                  "ooo........./o.o........./............/............/............/"
                  "............/............/............/............");
    if (rle(t, "x=3,y=2,rule=R2,C2,M0,S1..2,B3..4,NN:T12,9\n3o$obo!", &g, &rule, &has_rule)) {
        CHECK_EQ(t, rule.shape, CC_SHAPE_VON_NEUMANN);
        CHECK_EQ(t, rule.radius, 2);
        cc_grid_free(&g);
    }
    /* Text after '!' is Golly's trailing comment area: ignored. */
    check_picture(t, "x = 1, y = 1\no!\nanything here is a comment 123 $$", 1, 1, "o");
    /* Golly writes an empty pattern on a torus as x = 0, y = 0. */
    check_picture(t, "x = 0, y = 0, rule = B3/S23:T3,3\n!\n", 3, 3, ".../.../...");
    /* Trailing '$' after the last row is harmless. */
    check_picture(t, "x = 2, y = 2\no$bo$!", 2, 2, "o./.o");
    /* A hexagonal rule in the header. */
    if (rle(t, "x = 1, y = 1, rule = B2/S34H:T4,4\no!", &g, &rule, &has_rule)) {
        CHECK_EQ(t, rule.shape, CC_SHAPE_HEX);
        CHECK_EQ(t, g.w, 4);
        CHECK_EQ(t, g.h, 4);
        cc_grid_free(&g);
    }
    /* A multi-line body as Golly wraps it at 70 characters. */
    check_picture(t, "x = 80, y = 1\n"
                     "obobobobobobobobobobobobobobobobobobobobobobobobobobobobobobobobobobob\n"
                     "obobobobob!",
                  80, 1,
                  "o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o.o."
                  "");
}

/* Output written by hand. */
static void check_rle_format(checks *t) {
    cc_error err;
    cc_grid g;
    cc_rule life, bosco;
    char *text;
    size_t len;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &life, &err), CC_OK);
    CHECK_EQ(t, cc_rule_parse("R5,C2,M0,S34..58,B34..45,NM", &bosco, &err), CC_OK);
    /* Glider on 5x4. */
    CHECK_EQ(t, cc_grid_alloc(&g, 5, 4, &err), CC_OK);
    g.cells[0 * 5 + 1] = g.cells[1 * 5 + 2] = 1;
    g.cells[2 * 5 + 0] = g.cells[2 * 5 + 1] = g.cells[2 * 5 + 2] = 1;
    CHECK_EQ(t, cc_rle_format(&g, &life, &text, &len, &err), CC_OK);
    CHECK_STR(t, text, "x = 5, y = 4, rule = B3/S23:T5,4\nbo$2bo$3o!\n");
    CHECK_EQ(t, len, strlen("x = 5, y = 4, rule = B3/S23:T5,4\nbo$2bo$3o!\n"));
    free(text);
    /* On the bounded plane, as Golly writes it, and read back as the plane with its size. */
    cc_rule plane = life, plane_back;
    plane.topology = CC_TOPOLOGY_PLANE;
    CHECK_EQ(t, cc_rle_format(&g, &plane, &text, &len, &err), CC_OK);
    CHECK_STR(t, text, "x = 5, y = 4, rule = B3/S23:P5,4\nbo$2bo$3o!\n");
    free(text);
    cc_grid plane_read = {0};
    int plane_has_rule = 0;
    static const char golly[] = "x = 3, y = 3, rule = B3/S23:P7,6\nbo$2bo$3o!\n";
    CHECK_EQ(t, cc_rle_parse(golly, strlen(golly), &plane_read, &plane_back, &plane_has_rule, &err),
             CC_OK);
    CHECK(t, plane_has_rule && plane_back.topology == CC_TOPOLOGY_PLANE && plane_read.w == 7 &&
                 plane_read.h == 6 && cc_grid_population(&plane_read) == 5);
    cc_grid_free(&plane_read);
    /* Empty rows in between and at the start; a Larger than Life rule; no rule. */
    memset(g.cells, 0, 20);
    g.cells[1 * 5 + 4] = g.cells[3 * 5 + 0] = 1;
    CHECK_EQ(t, cc_rle_format(&g, &bosco, &text, &len, &err), CC_OK);
    CHECK_STR(t, text, "x = 5, y = 4, rule = R5,C2,M0,S34..58,B34..45,NM:T5,4\n$4bo2$o!\n");
    free(text);
    CHECK_EQ(t, cc_rle_format(&g, NULL, &text, &len, &err), CC_OK);
    CHECK_STR(t, text, "x = 5, y = 4\n$4bo2$o!\n");
    free(text);
    memset(g.cells, 0, 20);
    CHECK_EQ(t, cc_rle_format(&g, NULL, &text, &len, &err), CC_OK);
    CHECK_STR(t, text, "x = 5, y = 4\n!\n");
    free(text);
    cc_grid_free(&g);
    /* A rule with no Larger than Life text cannot be written. */
    cc_rule split;
    CHECK_EQ(t, cc_rule_parse("R2,C2,M0,S1..1,B2..2,NM", &split, &err), CC_OK);
    CHECK_EQ(t, cc_set_add(&split.survive, 3, 3, &err), CC_OK);
    CHECK_EQ(t, cc_grid_alloc(&g, 5, 5, &err), CC_OK);
    CHECK_REFUSED(t, cc_rle_format(&g, &split, &text, &len, &err), &err, "one non-empty range",
                  "RLE with S = {1, 3}");
    cc_grid_free(&g);
    /* Lines stay within 70 characters: alternating cells on a 200-wide row. */
    CHECK_EQ(t, cc_grid_alloc(&g, 200, 3, &err), CC_OK);
    for (int x = 0; x < 200; x += 2) g.cells[x] = 1;
    for (int x = 0; x < 200; x++) g.cells[400 + x] = (uint8_t)(x % 3 == 0 || x % 7 == 0);
    CHECK_EQ(t, cc_rle_format(&g, &life, &text, &len, &err), CC_OK);
    size_t line = 0, longest = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') line = 0;
        else if (++line > longest) longest = line;
    }
    CHECK(t, longest <= 70);
    CHECK(t, longest >= 60); /* the body is wrapped near 70, not one token per line */
    cc_grid back;
    int has_rule;
    cc_rule rule;
    CHECK_EQ(t, cc_rle_parse(text, len, &back, &rule, &has_rule, &err), CC_OK);
    CHECK(t, cc_grid_equal(&g, &back));
    free(text);
    cc_grid_free(&back);
    cc_grid_free(&g);
}

static uint32_t next_random(uint32_t *state) {
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void check_round_trips(checks *t) {
    static const int sizes[][2] = {{1, 1}, {1, 9}, {9, 1}, {3, 3}, {8, 8}, {70, 2},
                                   {71, 3}, {100, 37}, {257, 5}, {13, 200}};
    static const char *const rules[] = {"B3/S23", "B2/S34H", "R5,C2,M1,S34..58,B34..45,NC",
                                        "B/S"};
    static const unsigned densities[] = {0, 3, 50, 97, 100};
    uint32_t state = 2024u;
    cc_error err;
    int cases = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t d = 0; d < sizeof densities / sizeof densities[0]; d++) {
            cc_grid g, back;
            cc_rule rule, got_rule;
            int has_rule;
            char *text;
            size_t len;
            CHECK_EQ(t, cc_grid_alloc(&g, sizes[s][0], sizes[s][1], &err), CC_OK);
            for (size_t i = 0; i < cc_grid_cells(&g); i++)
                g.cells[i] = (uint8_t)(next_random(&state) % 100 < densities[d]);
            CHECK_EQ(t, cc_rule_parse(rules[(s + d) % 4], &rule, &err), CC_OK);
            /* RLE with a rule, RLE without, text. */
            CHECK_EQ(t, cc_rle_format(&g, &rule, &text, &len, &err), CC_OK);
            if (CHECK_EQ(t, cc_rle_parse(text, len, &back, &got_rule, &has_rule, &err), CC_OK)) {
                CHECK(t, cc_grid_equal(&g, &back));
                CHECK_EQ(t, has_rule, 1);
                CHECK(t, cc_rule_equal(&rule, &got_rule));
                cc_grid_free(&back);
            } else {
                fprintf(stderr, "  %s\n", err.msg);
            }
            free(text);
            CHECK_EQ(t, cc_rle_format(&g, NULL, &text, &len, &err), CC_OK);
            if (CHECK_EQ(t, cc_rle_parse(text, len, &back, NULL, &has_rule, &err), CC_OK)) {
                CHECK(t, cc_grid_equal(&g, &back));
                CHECK_EQ(t, has_rule, 0);
                cc_grid_free(&back);
            }
            free(text);
            CHECK_EQ(t, cc_text_format(&g, &text, &len, &err), CC_OK);
            CHECK_EQ(t, len, (size_t)(g.w + 1) * (size_t)g.h);
            if (CHECK_EQ(t, cc_text_parse(text, len, &back, &err), CC_OK)) {
                CHECK(t, cc_grid_equal(&g, &back));
                cc_grid_free(&back);
            }
            free(text);
            cc_grid_free(&g);
            cases++;
        }
    CHECK_EQ(t, cases, 50);
}

static void check_text_samples(checks *t) {
    cc_error err;
    cc_grid g;
    char buf[64];
    static const char *const samples[][2] = {
        {"010\n111\n", ".o./ooo"},
        {"010\n111", ".o./ooo"},
        {"010\r\n111\r\n", ".o./ooo"},
        {"1", "o"},
        {"0000\n", "...."},
    };
    for (int i = 0; i < 5; i++) {
        int rc = cc_text_parse(samples[i][0], strlen(samples[i][0]), &g, &err);
        if (!CHECK_EQ(t, rc, CC_OK)) {
            fprintf(stderr, "  text \"%s\": %s\n", samples[i][0], err.msg);
            continue;
        }
        grid_picture(&g, buf, sizeof buf);
        CHECK_STR(t, buf, samples[i][1]);
        cc_grid_free(&g);
    }
    CHECK_EQ(t, cc_text_parse("010\n111\n", 8, &g, &err), CC_OK);
    char *text;
    size_t len;
    CHECK_EQ(t, cc_text_format(&g, &text, &len, &err), CC_OK);
    CHECK_STR(t, text, "010\n111\n");
    free(text);
    cc_grid_free(&g);
}

typedef struct bad_input {
    const char *text;
    int code; /* 0: any non-zero code */
    const char *needle;
} bad_input;

static const bad_input bad_rle[] = {
    {"", CC_ERR_ARG, "missing header"},
    {"#C only comments\n#N nothing else\n", CC_ERR_ARG, "missing header"},
    {"bob$2bo$3o!", CC_ERR_ARG, "missing header line"},
    {"x = 3\nbo!", CC_ERR_ARG, "after x's value"},
    {"x = 3 y = 3\nbo!", CC_ERR_ARG, "expected ',' after x's value, found 'y'"},
    {"x = ", CC_ERR_ARG, "x needs a number"},
    {"x = 3, z = 3\no!", CC_ERR_ARG, "missing y"},
    {"x = 0, y = 3\no!", CC_ERR_ARG, "both must be positive"},
    {"x = 3, y = 0\n!", CC_ERR_ARG, "both must be positive"},
    {"x = -3, y = 3\no!", CC_ERR_ARG, "x is negative"},
    {"x = 3, y = 99999999999\no!", CC_ERR_UNSUPPORTED, "y is too large"},
    {"x = 2000000, y = 1\no!", CC_ERR_UNSUPPORTED, "x is too large"},
    {"x = 3, y = 3, rule = B3/S23\nbo$2bo$3o", CC_ERR_ARG, "missing '!'"},
    {"x = 3, y = 3, rule = B3/S23\n", CC_ERR_ARG, "missing '!'"},
    {"x = 3, y = 3\n3o12", CC_ERR_ARG, "truncated after run count 12"},
    {"x = 3, y = 3\nbo$2bo$4o!", CC_ERR_ARG, "row 3 is longer than x = 3"},
    {"x = 4, y = 1\n2b3o!", CC_ERR_ARG, "row 1 is longer than x = 4"},
    {"x = 3, y = 1\n3o2b!", CC_ERR_ARG, "row 1 is longer than x = 3"},
    {"x = 3, y = 2\nbo$2bo$3o!", CC_ERR_ARG, "more rows than y = 2"},
    {"x = 3, y = 3\n4$!", CC_ERR_ARG, "more rows than y = 3"},
    {"x = 3, y = 3\nbo$2bo$3z!", CC_ERR_ARG, "unknown token 'z'"},
    {"x = 3, y = 3\n#C a comment in the body\no!", CC_ERR_ARG, "unknown token '#'"},
    {"x = 3, y = 3\no\x01o!", CC_ERR_ARG, "unknown token \\x01"},
    {"x = 3, y = 3\n2B!", CC_ERR_UNSUPPORTED, "multi-state cell 'B'"},
    {"x = 3, y = 3\npA!", CC_ERR_UNSUPPORTED, "multi-state cell 'p'"},
    {"x = 3, y = 3\n99999999999o!", CC_ERR_ARG, "run count is too large"},
    {"x = 3, y = 3\n0o!", CC_ERR_ARG, "run count 0"},
    {"x = 3, y = 3\n3o 3!", CC_ERR_ARG, "run count 3 before '!'"},
    {"x = 3, y = 3\n1 2o!", CC_ERR_ARG, "two run counts in a row"},
    {"x = 3, y = 3, rule = B3/S23:T2,2\no!", CC_ERR_ARG, "larger than the torus 2x2"},
    {"x = 3, y = 3, rule = B3/S23:T8,2\no!", CC_ERR_ARG, "larger than the torus 8x2"},
    {"x = 3, y = 3, rule = B3/S23:P2,8\no!", CC_ERR_ARG, "larger than the bounded plane 2x8"},
    {"x = 3, y = 3, rule = B3/S23:K8,8\no!", CC_ERR_UNSUPPORTED, "a torus :TW,H or a bounded plane"},
    {"x = 3, y = 3, rule = B3/S23:X8,8\no!", CC_ERR_ARG, "unknown topology 'X'"},
    {"x = 3, y = 3, rule = B3/S23:\no!", CC_ERR_ARG, "empty topology"},
    {"x = 3, y = 3, rule = B3/S23:T8\no!", CC_ERR_ARG, "needs two sides"},
    {"x = 3, y = 3, rule = B3/S23:T0,8\no!", CC_ERR_UNSUPPORTED, "unbounded"},
    {"x = 3, y = 3, rule = B3/S23:T8,8+1\no!", CC_ERR_UNSUPPORTED, "shifted"},
    {"x = 3, y = 3, rule = B3/S23:T8,8junk\no!", CC_ERR_ARG, "unexpected 'j' after the torus size"},
    {"x = 3, y = 3, rule = B3/S23:T8,99999999\no!", CC_ERR_UNSUPPORTED, "torus height is too large"},
    {"x = 0, y = 3, rule = B3/S23:T8,8\n!", CC_ERR_ARG, "one side is 0"},
    {"x = 3, y = 3, rule = B9/S23\no!", CC_ERR_ARG, "birth count 9 exceeds 8"},
    {"x = 3, y = 3, rule = R5,C3,M0,S34..58,B34..45,NM\no!", CC_ERR_UNSUPPORTED,
     "multi-state rules are unsupported"},
    {"x = 3, y = 3, rule = \no!", CC_ERR_ARG, "empty rule"},
    {"x = 3, y = 3, rul = B3/S23\no!", CC_ERR_ARG, "expected \"rule = ...\""},
    {"x = 3, y = 3, rule B3/S23\no!", CC_ERR_ARG, "expected '=' after rule"},
};

static const bad_input bad_text[] = {
    {"", CC_ERR_ARG, "empty file"},
    {"010\n01\n", CC_ERR_ARG, "ragged rows"},
    {"010\n0110", CC_ERR_ARG, "ragged rows"},
    {"012\n", CC_ERR_ARG, "unexpected '2'"},
    {"010\n\n010\n", CC_ERR_ARG, "line 2: empty row"},
    {"\n", CC_ERR_ARG, "empty row"},
    {"0 1\n", CC_ERR_ARG, "unexpected ' '"},
    {"01\r0\n", CC_ERR_ARG, "unexpected \\x0d"},
    {"abc", CC_ERR_ARG, "line 1, column 1: unexpected 'a'"},
    {"010\n0x0\n", CC_ERR_ARG, "line 2, column 2: unexpected 'x'"},
    {".o.\n", CC_ERR_ARG, "unexpected '.'"},
    {"010\n010\n\n", CC_ERR_ARG, "line 3: empty row"},
};

static void check_malformed(checks *t, int *refused_rle, int *refused_text) {
    for (size_t i = 0; i < sizeof bad_rle / sizeof bad_rle[0]; i++) {
        cc_error err;
        cc_error_clear(&err);
        cc_grid g = {7, 7, NULL};
        int has_rule = -1;
        cc_rule rule;
        int rc = cc_rle_parse(bad_rle[i].text, strlen(bad_rle[i].text), &g, &rule, &has_rule, &err);
        if (CHECK_REFUSED(t, rc, &err, bad_rle[i].needle, bad_rle[i].text)) (*refused_rle)++;
        if (bad_rle[i].code) CHECK_EQ(t, rc, bad_rle[i].code);
        CHECK(t, g.cells == NULL && g.w == 0 && g.h == 0); /* nothing leaks out on failure */
        if (rc) cc_grid_free(&g);
    }
    /* A NUL byte inside the body (length given explicitly). */
    {
        static const char text[] = "x = 3, y = 1\no\0o!";
        cc_error err;
        cc_grid g;
        int rc = cc_rle_parse(text, sizeof text - 1, &g, NULL, NULL, &err);
        if (CHECK_REFUSED(t, rc, &err, "unknown token \\x00", "NUL in RLE body")) (*refused_rle)++;
    }
    /* The length bounds the parse: a valid pattern cut before its '!' is truncated. */
    {
        static const char text[] = "x = 3, y = 1\n3o!";
        cc_error err;
        cc_grid g;
        int rc = cc_rle_parse(text, sizeof text - 2, &g, NULL, NULL, &err);
        if (CHECK_REFUSED(t, rc, &err, "missing '!'", "RLE cut before '!'")) (*refused_rle)++;
    }
    for (size_t i = 0; i < sizeof bad_text / sizeof bad_text[0]; i++) {
        cc_error err;
        cc_error_clear(&err);
        cc_grid g;
        int rc = cc_text_parse(bad_text[i].text, strlen(bad_text[i].text), &g, &err);
        if (CHECK_REFUSED(t, rc, &err, bad_text[i].needle, bad_text[i].text)) (*refused_text)++;
        if (bad_text[i].code) CHECK_EQ(t, rc, bad_text[i].code);
    }
    {
        static const char text[] = "010\n0\0""0\n";
        cc_error err;
        cc_grid g;
        int rc = cc_text_parse(text, sizeof text - 1, &g, &err);
        if (CHECK_REFUSED(t, rc, &err, "unexpected \\x00", "NUL in text")) (*refused_text)++;
    }
}

/* The names in dir, other than . and .., joined by spaces. */
static void list_dir(const char *dir, char *buf, size_t size) {
    buf[0] = '\0';
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(buf, size, "(cannot open)");
        return;
    }
    struct dirent *e;
    size_t n = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? " " : "", e->d_name);
        if (w < 0 || (size_t)w >= size - n) break;
        n += (size_t)w;
    }
    closedir(d);
}

static void check_files(checks *t) {
    const char *base = getenv("TEST_TMPDIR");
    char dir[512], path[600], listing[1024];
    snprintf(dir, sizeof dir, "%s/gridio_XXXXXX", base && *base ? base : "/tmp");
    if (!CHECK(t, mkdtemp(dir) != NULL)) return;
    cc_error err;
    cc_grid g, back;
    cc_rule life, rule;
    int has_rule;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &life, &err), CC_OK);
    CHECK_EQ(t, cc_grid_alloc(&g, 11, 7, &err), CC_OK);
    for (int i = 0; i < 77; i += 3) g.cells[i] = 1;

    /* A path in a directory that does not exist: refused, and nothing is created. */
    snprintf(path, sizeof path, "%s/missing/out.rle", dir);
    CHECK_REFUSED(t, cc_grid_write_file(path, &g, &life, &err), &err, "cannot write", path);
    CHECK_EQ(t, err.code, CC_ERR_IO);
    list_dir(dir, listing, sizeof listing);
    CHECK_STR(t, listing, "");

    /* RLE and text written, read back equal, no temporary left behind. */
    snprintf(path, sizeof path, "%s/grid.rle", dir);
    CHECK_EQ(t, cc_grid_write_file(path, &g, &life, &err), CC_OK);
    if (CHECK_EQ(t, cc_grid_read_file(path, &back, &rule, &has_rule, &err), CC_OK)) {
        CHECK(t, cc_grid_equal(&g, &back));
        CHECK_EQ(t, has_rule, 1);
        CHECK(t, cc_rule_equal(&rule, &life));
        cc_grid_free(&back);
    }
    snprintf(path, sizeof path, "%s/grid.txt", dir);
    CHECK_EQ(t, cc_grid_write_file(path, &g, NULL, &err), CC_OK);
    if (CHECK_EQ(t, cc_grid_read_file(path, &back, NULL, &has_rule, &err), CC_OK)) {
        CHECK(t, cc_grid_equal(&g, &back));
        CHECK_EQ(t, has_rule, 0);
        cc_grid_free(&back);
    }
    list_dir(dir, listing, sizeof listing);
    CHECK(t, strlen(listing) == strlen("grid.rle grid.txt") && strstr(listing, "grid.rle") &&
                 strstr(listing, "grid.txt"));

    /* Overwriting replaces the whole file. */
    snprintf(path, sizeof path, "%s/grid.rle", dir);
    cc_grid small;
    CHECK_EQ(t, cc_grid_alloc(&small, 3, 3, &err), CC_OK);
    small.cells[4] = 1;
    CHECK_EQ(t, cc_grid_write_file(path, &small, &life, &err), CC_OK);
    char *text;
    size_t len;
    if (CHECK_EQ(t, cc_read_file(path, &text, &len, &err), CC_OK)) {
        CHECK_STR(t, text, "x = 3, y = 3, rule = B3/S23:T3,3\n$bo!\n");
        free(text);
    }
    cc_grid_free(&small);

    /* Bytes, NULs included, survive a raw write and read. */
    snprintf(path, sizeof path, "%s/raw.bin", dir);
    static const char raw[] = "a\0b\nc";
    CHECK_EQ(t, cc_write_file_atomic(path, raw, sizeof raw - 1, &err), CC_OK);
    if (CHECK_EQ(t, cc_read_file(path, &text, &len, &err), CC_OK)) {
        CHECK_EQ(t, len, 5);
        CHECK(t, memcmp(text, raw, 5) == 0);
        CHECK_EQ(t, text[len], '\0');
        free(text);
    }
    /* An empty file reads as zero bytes. */
    snprintf(path, sizeof path, "%s/empty.txt", dir);
    CHECK_EQ(t, cc_write_file_atomic(path, "", 0, &err), CC_OK);
    CHECK_REFUSED(t, cc_grid_read_file(path, &back, NULL, NULL, &err), &err, "empty file",
                  "empty .txt");

    /* Refusals: unknown extension, missing file, a directory, a malformed file names its path. */
    snprintf(path, sizeof path, "%s/grid.png", dir);
    CHECK_REFUSED(t, cc_grid_write_file(path, &g, &life, &err), &err, "unknown grid file extension",
                  "write .png");
    CHECK_REFUSED(t, cc_grid_read_file(path, &back, NULL, NULL, &err), &err,
                  "unknown grid file extension", "read .png");
    snprintf(path, sizeof path, "%s/absent.rle", dir);
    CHECK_REFUSED(t, cc_grid_read_file(path, &back, NULL, NULL, &err), &err, "cannot open",
                  "absent file");
    CHECK_EQ(t, err.code, CC_ERR_IO);
    CHECK_REFUSED(t, cc_read_file(dir, &text, &len, &err), &err, "directory", "read a directory");
    snprintf(path, sizeof path, "%s/bad.rle", dir);
    CHECK_EQ(t, cc_write_file_atomic(path, "x = 2, y = 2\n3o!", 16, &err), CC_OK);
    CHECK_REFUSED(t, cc_grid_read_file(path, &back, NULL, NULL, &err), &err, "bad.rle: RLE line 2",
                  "bad.rle");
    CHECK(t, strstr(err.msg, "longer than x = 2") != NULL);
    snprintf(path, sizeof path, "%s/", dir);
    CHECK_REFUSED(t, cc_write_file_atomic(path, "x", 1, &err), &err, "names a directory",
                  "write to dir/");

    /* Only regular files: a FIFO without a writer is refused at once (not waited on), and so is
     * a link to /dev/zero (not read until memory runs out). */
    snprintf(path, sizeof path, "%s/fifo.rle", dir);
    if (CHECK_EQ(t, mkfifo(path, 0600), 0)) {
        CHECK_REFUSED(t, cc_grid_read_file(path, &back, NULL, NULL, &err), &err, "a FIFO",
                      "read a FIFO");
        CHECK(t, strstr(err.msg, "only regular files") != NULL);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/zero.rle", dir);
    if (CHECK_EQ(t, symlink("/dev/zero", path), 0)) {
        CHECK_REFUSED(t, cc_grid_read_file(path, &back, NULL, NULL, &err), &err,
                      "a character device", "read /dev/zero");
        unlink(path);
    }
    /* A file larger than its header justifies is refused by its size, unread: a 3x3 pattern
     * justifies its header line, 4 * 4 * 3 bytes and the slack, here 65597 bytes. */
    snprintf(path, sizeof path, "%s/padded.rle", dir);
    size_t padded_len = 2 << 20;
    char *padded = malloc(padded_len);
    if (CHECK(t, padded != NULL)) {
        memset(padded, '#', padded_len);
        memcpy(padded, "x = 3, y = 3\nbo$2bo$3o!\n", 24);
        CHECK_EQ(t, cc_write_file_atomic(path, padded, padded_len, &err), CC_OK);
        CHECK_REFUSED(t, cc_grid_read_file(path, &back, NULL, NULL, &err), &err,
                      "the file is 2097152 bytes", "padded RLE");
        CHECK(t, strstr(err.msg, "at most 65597 bytes") != NULL);
        free(padded);
        unlink(path);
    }
    /* A UTF-8 byte-order mark before the header or the first row is skipped. */
    snprintf(path, sizeof path, "%s/bom.rle", dir);
    static const char bom_rle[] = "\xEF\xBB\xBFx = 3, y = 1, rule = B3/S23:T\nobo!\n";
    CHECK_EQ(t, cc_write_file_atomic(path, bom_rle, sizeof bom_rle - 1, &err), CC_OK);
    if (CHECK_EQ(t, cc_grid_read_file(path, &back, NULL, NULL, &err), CC_OK)) {
        CHECK(t, back.w == 3 && back.h == 1 && back.cells[0] == 1 && back.cells[1] == 0 &&
                     back.cells[2] == 1);
        cc_grid_free(&back);
    }
    unlink(path);
    snprintf(path, sizeof path, "%s/bom.txt", dir);
    CHECK_EQ(t, cc_write_file_atomic(path, "\xEF\xBB\xBF" "01\n10\n", 9, &err), CC_OK);
    if (CHECK_EQ(t, cc_grid_read_file(path, &back, NULL, NULL, &err), CC_OK)) {
        CHECK(t, back.w == 2 && back.h == 2 && back.cells[1] == 1 && back.cells[2] == 1);
        cc_grid_free(&back);
    }
    unlink(path);

    /* Clean up what this test made. */
    static const char *const made[] = {"grid.rle", "grid.txt", "raw.bin", "empty.txt", "bad.rle"};
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, made[i]);
        unlink(path);
    }
    list_dir(dir, listing, sizeof listing);
    CHECK_STR(t, listing, "");
    rmdir(dir);
    cc_grid_free(&g);
}

int main(void) {
    checks t = {"gridio_test", 0, 0};
    int refused_rle = 0, refused_text = 0;
    check_golly_samples(&t);
    check_rle_format(&t);
    check_round_trips(&t);
    check_text_samples(&t);
    check_malformed(&t, &refused_rle, &refused_text);
    check_files(&t);
    printf("gridio_test: %d malformed RLE inputs and %d malformed text inputs refused with the "
           "expected message\n",
           refused_rle, refused_text);
    CHECK(&t, refused_rle + refused_text >= 30);
    CHECK(&t, refused_rle >= 30);
    return check_summary(&t);
}
