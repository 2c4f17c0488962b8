/* Golly's pattern files as Golly means them: RLE topology suffixes with and without sides, an
 * unbounded pattern that has no grid until one is stated, and macrocell files read cell by cell
 * against hand-drawn pictures, against the RLE of the same pattern, and refused by name. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/gridio.h"
#include "testing/check.h"
#include "testing/grid_picture.h"

typedef int (*parse_fn)(const char *, size_t, cc_grid *, cc_rule *, cc_grid_meta *, cc_error *);

/* Parses text, checks the grid's picture and its meta (has_topology, unbounded), and the rule's
 * topology where the file names one. */
static void check_read(checks *t, parse_fn parse, const char *text, const char *want,
                       int has_topology, int unbounded, cc_topology topology) {
    cc_grid g;
    cc_rule rule;
    cc_grid_meta meta;
    cc_error err = {0};
    if (!CHECK_EQ(t, parse(text, strlen(text), &g, &rule, &meta, &err), CC_OK)) {
        fprintf(stderr, "  \"%s\": %s\n", text, err.msg);
        return;
    }
    char buf[1200];
    grid_picture(&g, buf, sizeof buf);
    if (!CHECK_STR(t, buf, want)) fprintf(stderr, "  from \"%s\"\n", text);
    CHECK_EQ(t, meta.has_topology, has_topology);
    CHECK_EQ(t, meta.unbounded, unbounded);
    if (meta.has_rule) CHECK_EQ(t, (int)rule.topology, (int)topology);
    cc_grid_free(&g);
}

static void check_parse_refused(checks *t, parse_fn parse, const char *text, int code,
                                const char *needle) {
    cc_grid g;
    cc_grid_meta meta;
    cc_error err = {0};
    CHECK_REFUSED(t, parse(text, strlen(text), &g, NULL, &meta, &err), &err, needle, text);
    CHECK_EQ(t, err.code, code);
}

static void check_rle_topology(checks *t) {
    parse_fn rle = cc_rle_parse_meta;
    /* No suffix: the 3x3 bounding box, unbounded; a bare :T or :P takes x and y as the sides. */
    check_read(t, rle, "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!", ".o./..o/ooo", 0, 1,
               CC_TOPOLOGY_TORUS);
    check_read(t, rle, "x = 3, y = 3\nbo$2bo$3o!", ".o./..o/ooo", 0, 1, CC_TOPOLOGY_TORUS);
    check_read(t, rle, "x = 3, y = 1, rule = B3/S23:P\n3o!", "ooo", 1, 0, CC_TOPOLOGY_PLANE);
    check_read(t, rle, "x = 2, y = 3, rule = B3/S23:T\no$bo$o!", "o./.o/o.", 1, 0,
               CC_TOPOLOGY_TORUS);
    check_read(t, rle, "x = 3, y = 1, rule = B3/S23:P5,2\n3o!", "ooo../.....", 1, 0,
               CC_TOPOLOGY_PLANE);
    check_parse_refused(t, rle, "x = 0, y = 0, rule = B3/S23:P\n!", CC_ERR_ARG,
                  "a :P without sides takes them from x and y");
    check_parse_refused(t, rle, "x = 4, y = 1, rule = B3/S23:P3,3\n4o!", CC_ERR_ARG,
                  "larger than the bounded plane 3x3");
    check_parse_refused(t, rle, "x = 3, y = 1, rule = B3/S23:P3\n3o!", CC_ERR_ARG,
                  "the bounded plane suffix needs two sides :PW,H");
    check_parse_refused(t, rle, "x = 3, y = 1, rule = B3/S23:P0,4\n3o!", CC_ERR_UNSUPPORTED,
                  "a plane side of 0");
}

static void check_place(checks *t) {
    cc_grid pattern, g;
    cc_error err = {0};
    CHECK_EQ(t, cc_grid_alloc(&pattern, 3, 2, &err), CC_OK);
    pattern.cells[1] = pattern.cells[5] = 1;
    if (CHECK_EQ(t, cc_grid_place(&pattern, 5, 3, &g, &err), CC_OK)) {
        char buf[64];
        grid_picture(&g, buf, sizeof buf);
        CHECK_STR(t, buf, ".o.../..o../.....");
        cc_grid_free(&g);
    }
    CHECK_REFUSED(t, cc_grid_place(&pattern, 2, 9, &g, &err), &err,
                  "a 3x2 pattern does not fit a 2x9 grid", "place into a narrower grid");
    cc_grid_free(&pattern);
}

/* A glider, as HashLife writes one that fits an 8x8 leaf. */
static const char mc_glider[] = "[M2] (golly 3.3)\n#R B3/S23\n.*$..*$***$\n";

static void check_macrocell(checks *t) {
    parse_fn mc = cc_mc_parse;
    check_read(t, mc, mc_glider, ".o./..o/ooo", 0, 1, CC_TOPOLOGY_TORUS);
    /* The same cells through the RLE reader: the same grid. */
    cc_grid a, b;
    cc_grid_meta meta;
    cc_error err = {0};
    const char *rle = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";
    if (CHECK_EQ(t, cc_mc_parse(mc_glider, strlen(mc_glider), &a, NULL, &meta, &err), CC_OK)) {
        if (CHECK_EQ(t, cc_rle_parse_meta(rle, strlen(rle), &b, NULL, &meta, &err), CC_OK)) {
            CHECK(t, cc_grid_equal(&a, &b));
            cc_grid_free(&b);
        }
        cc_grid_free(&a);
    }
    /* A bounded plane named by the rule: the box at its top-left; a bare :T makes it the grid. */
    check_read(t, mc, "[M2]\n#R B3/S23:P4,3\n.*$..*$***$\n", ".o../..o./ooo.", 1, 0,
               CC_TOPOLOGY_PLANE);
    check_read(t, mc, "[M2]\n#R B3/S23:T\n#G 12\n\n$..*$.*$\n", ".o/o.", 1, 0, CC_TOPOLOGY_TORUS);
    /* Nodes: a cell at a leaf's top-left (1) and a block at another's bottom-right (2), the first
     * in NW and the second in SE of a 16x16 node (3): live cells at (0,0) and (14..15,14..15). */
    const char *tree16 = "[M2] (golly 3.3)\n#R B3/S23\n*$\n$$$$$$......**$......**$\n4 1 0 0 2\n";
    char want16[17 * 16 + 1];
    for (int y = 0, n = 0; y < 16; y++) {
        for (int x = 0; x < 16; x++)
            want16[n++] = (x == 0 && y == 0) || (x >= 14 && y >= 14) ? 'o' : '.';
        want16[n++] = y < 15 ? '/' : '\0';
    }
    check_read(t, mc, tree16, want16, 0, 1, CC_TOPOLOGY_TORUS);
    /* The same 16x16 node in the SW quadrant of a 32x32 root: only the box is kept, so the grid
     * is the same 16x16. */
    char tree32[256];
    snprintf(tree32, sizeof tree32, "%s5 0 0 3 0\n", tree16);
    check_read(t, mc, tree32, want16, 0, 1, CC_TOPOLOGY_TORUS);
    /* Two copies, NW and SE: 32x32, ten live cells at hand-counted places. */
    snprintf(tree32, sizeof tree32, "%s5 3 0 0 3\n", tree16);
    cc_grid g;
    if (CHECK_EQ(t, cc_mc_parse(tree32, strlen(tree32), &g, NULL, &meta, &err), CC_OK)) {
        CHECK(t, g.w == 32 && g.h == 32);
        CHECK_EQ(t, cc_grid_population(&g), 10);
        CHECK(t, g.cells[0] && g.cells[14 * 32 + 15] && g.cells[16 * 32 + 16] &&
                     g.cells[31 * 32 + 31] && g.cells[30 * 32 + 30] && !g.cells[16 * 32 + 17]);
        cc_grid_free(&g);
    }

    check_parse_refused(t, mc, "x = 3, y = 3\nbo$2bo$3o!", CC_ERR_ARG, "must start with [M2]");
    check_parse_refused(t, mc, "[M2]\n#R B3/S23\n1 0 1 0 0\n", CC_ERR_UNSUPPORTED,
                  "multi-state macrocell files are unsupported");
    check_parse_refused(t, mc, "[M2]\n*$\n4 0 0 0 5\n", CC_ERR_ARG, "refers to node 5, but only 1");
    check_parse_refused(t, mc, "[M2]\n*$\n5 1 0 0 0\n", CC_ERR_ARG, "its quadrants are level 4");
    check_parse_refused(t, mc, "[M2]\n*********$\n", CC_ERR_ARG, "column 9, row 1 of a leaf");
    check_parse_refused(t, mc, "[M2]\n$$$$$$$$*$\n", CC_ERR_ARG, "column 1, row 9 of a leaf");
    check_parse_refused(t, mc, "[M2]\n*o$\n", CC_ERR_ARG, "'o' in a leaf");
    check_parse_refused(t, mc, "[M2]\n4 0 0 0\n", CC_ERR_ARG, "five numbers");
    check_parse_refused(t, mc, "[M2]\n63 0 0 0 0\n", CC_ERR_UNSUPPORTED, "level 63 is outside 4..62");
    check_parse_refused(t, mc, "[M2]\n#R B3/S23:K\n*$\n", CC_ERR_UNSUPPORTED, "macrocell line 2");
    check_parse_refused(t, mc, "[M2]\n#R R2,C3,M0,S1..2,B1..2,NM\n*$\n", CC_ERR_UNSUPPORTED,
                  "multi-state");
    check_parse_refused(t, mc, "[M2]\n#R B3/S23\n", CC_ERR_ARG, "no live cells, and no grid size");
    check_parse_refused(t, mc, "[M2]\n#R B3/S23:T2,2\n.*$..*$***$\n", CC_ERR_ARG,
                  "span 3x3, more than the torus 2x2");
    check_parse_refused(t, mc, "[M2]\nhello\n", CC_ERR_ARG, "'h' starts neither a leaf");
    /* An empty pattern on a grid its rule names is an empty grid. */
    check_read(t, mc, "[M2]\n#R B3/S23:P2,2\n", "../..", 1, 0, CC_TOPOLOGY_PLANE);
}

/* Through files: an unbounded pattern is refused by the plain reader, given whole with its meta
 * by the other; .mc is read, never written. */
static void check_files(checks *t) {
    const char *base = getenv("TEST_TMPDIR");
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/patterns_XXXXXX", base && *base ? base : "/tmp");
    if (!CHECK(t, mkdtemp(dir) != NULL)) return;
    snprintf(path, sizeof path, "%s/glider.rle", dir);
    cc_error err = {0};
    cc_grid g;
    cc_rule rule;
    cc_grid_meta meta;
    const char *unbounded = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";
    CHECK_EQ(t, cc_write_file_atomic(path, unbounded, strlen(unbounded), &err), CC_OK);
    CHECK_REFUSED(t, cc_grid_read_file(path, &g, NULL, NULL, &err), &err,
                  "an unbounded pattern (its rule has no :T or :P topology)", "plain reader");
    if (CHECK_EQ(t, cc_grid_read_file_meta(path, &g, &rule, &meta, &err), CC_OK)) {
        CHECK(t, meta.unbounded && meta.has_rule && !meta.has_topology && g.w == 3 && g.h == 3);
        cc_grid_free(&g);
    }
    unlink(path);
    snprintf(path, sizeof path, "%s/glider.mc", dir);
    const char *plane = "[M2] (golly 3.3)\n#R B3/S23:P5,5\n.*$..*$***$\n";
    CHECK_EQ(t, cc_write_file_atomic(path, plane, strlen(plane), &err), CC_OK);
    int has_rule = 0;
    if (CHECK_EQ(t, cc_grid_read_file(path, &g, &rule, &has_rule, &err), CC_OK)) {
        CHECK(t, has_rule && rule.topology == CC_TOPOLOGY_PLANE && g.w == 5 && g.h == 5);
        CHECK_EQ(t, cc_grid_population(&g), 5);
        cc_grid_free(&g);
    }
    CHECK_REFUSED(t, cc_grid_check_output(path, &err), &err, "read, not written", "write .mc");
    CHECK_EQ(t, cc_grid_check_name(path, &err), CC_OK);
    unlink(path);
    CHECK_EQ(t, rmdir(dir), 0);
}

int main(void) {
    checks t = {"pattern_files_test", 0, 0};
    check_rle_topology(&t);
    check_place(&t);
    check_macrocell(&t);
    check_files(&t);
    return check_summary(&t);
}
