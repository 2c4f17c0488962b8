/* The oracle against known Life patterns: a glider crossing every edge of the torus, a field of
 * gliders, the blinker and the centre cell's part, and the bounded plane. Every expected grid here
 * was drawn by hand (the comments show how), never by the oracle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/grid.h"
#include "oracle/oracle.h"
#include "oracle/rule.h"
#include "oracle/test_grids.h"
#include "testing/check.h"

/* g shifted by (sx, sy) on its torus, computed by index arithmetic alone. */
static cc_grid shifted(const cc_grid *g, int sx, int sy) {
    cc_grid s = blank(g->w, g->h, 0);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            s.cells[((y + sy) % g->h) * g->w + (x + sx) % g->w] = g->cells[y * g->w + x];
    return s;
}

static void check_glider(checks *t, int w, int h, int x0, int y0) {
    /* .o.
     * ..o
     * ooo   moves (+1,+1) every 4 generations. */
    cc_grid g = blank(w, h, 0);
    static const int cells[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
    for (int i = 0; i < 5; i++) set(&g, (x0 + cells[i][0]) % w, (y0 + cells[i][1]) % h, 1);
    cc_grid start, want;
    cc_error err;
    CHECK_EQ(t, cc_grid_copy(&start, &g, &err), CC_OK);
    want = shifted(&start, 1, 1);
    cc_rule life = rule_of("B3/S23");
    for (int s = 0; s < 4; s++) {
        if (!step_ok(t, &life, &g)) break;
        CHECK_EQ(t, cc_grid_population(&g), 5);
        if (s < 3) CHECK(t, !cc_grid_equal(&g, &want));
    }
    if (!CHECK(t, cc_grid_equal(&g, &want))) fprintf(stderr, "  glider on %dx%d\n", w, h);
    /* After 4*w*h steps it has moved (w*h, w*h), a whole number of laps both ways. */
    CHECK_EQ(t, oracle_run(&life, &g, 4 * (int64_t)w * h - 4, &err), CC_OK);
    CHECK(t, cc_grid_equal(&g, &start));
    cc_grid_free(&g);
    cc_grid_free(&start);
    cc_grid_free(&want);
}

/* A field of gliders 10 cells apart on a grid large enough for the rows to be shared among
 * threads: four steps later the whole field has moved (+1,+1), seams included. */
static void check_glider_field(checks *t) {
    const int w = 1000, h = 1010;
    cc_grid g = blank(w, h, 0);
    static const int cells[5][2] = {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
    for (int y0 = 8; y0 < h + 8; y0 += 10)
        for (int x0 = 7; x0 < w + 7; x0 += 10)
            for (int i = 0; i < 5; i++) set(&g, (x0 + cells[i][0]) % w, (y0 + cells[i][1]) % h, 1);
    cc_grid want = shifted(&g, 1, 1);
    cc_rule life = rule_of("B3/S23");
    cc_error err;
    CHECK_EQ(t, oracle_run(&life, &g, 4, &err), CC_OK);
    CHECK_EQ(t, cc_grid_population(&g), 5 * (w / 10) * (h / 10));
    CHECK(t, cc_grid_equal(&g, &want));
    cc_grid_free(&g);
    cc_grid_free(&want);
}

static void check_blinker_and_centre(checks *t) {
    static const char *const horizontal[] = {".....", ".....", ".ooo.", ".....", "....."};
    static const char *const vertical[] = {".....", "..o..", "..o..", "..o..", "....."};
    /* Under M1 with S2..3 B3..3: ends (1,2),(3,2): 1 neighbour + itself = 2: live; middle:
     * 2 + 1 = 3: live; (2,1) and (2,3): 3 live neighbours, dead centre adds nothing: born;
     * (1,1): (1,2),(2,2) = 2: no; (0,2): 1: no. A plus sign. */
    static const char *const plus[] = {".....", "..o..", ".ooo.", "..o..", "....."};
    cc_grid g = draw(horizontal, 5), h0 = draw(horizontal, 5), v = draw(vertical, 5),
            p = draw(plus, 5);
    cc_rule life = rule_of("B3/S23");
    cc_rule life_m0 = rule_of("R1,C2,M0,S2..3,B3..3,NM");
    cc_rule life_m1 = rule_of("R1,C2,M1,S2..3,B3..3,NM");
    CHECK(t, cc_rule_equal(&life, &life_m0));
    if (step_ok(t, &life, &g)) {
        CHECK(t, cc_grid_equal(&g, &v));
        CHECK(t, !cc_grid_equal(&g, &h0)); /* not period 1 */
    }
    if (step_ok(t, &life, &g)) CHECK(t, cc_grid_equal(&g, &h0)); /* period 2 */
    cc_grid_free(&g);
    g = draw(horizontal, 5);
    if (step_ok(t, &life_m1, &g)) CHECK(t, cc_grid_equal(&g, &p));
    CHECK(t, !cc_grid_equal(&p, &v));
    cc_grid_free(&g);
    cc_grid_free(&h0);
    cc_grid_free(&v);
    cc_grid_free(&p);
}

/* The bounded plane, counted by hand: a vertical blinker against the left edge of a 5x5 grid.
 * On the torus it turns horizontal across the seam, (4,2) (0,2) (1,2), and back. On the plane
 * (1,2) is born (3 neighbours), (0,2) survives (2), the cell left of it does not exist, and the
 * two left die next (1 neighbour each, and no cell has 3). */
static void check_plane(checks *t) {
    static const char *const edge[] = {".....", "o....", "o....", "o....", "....."};
    static const char *const torus_next[] = {".....", ".....", "oo..o", ".....", "....."};
    static const char *const plane_next[] = {".....", ".....", "oo...", ".....", "....."};
    cc_rule torus = rule_of("B3/S23"), plane = rule_of("B3/S23:P");
    cc_grid g = draw(edge, 5), want_t = draw(torus_next, 5), want_p = draw(plane_next, 5);
    cc_grid start = draw(edge, 5);
    if (step_ok(t, &torus, &g)) CHECK(t, cc_grid_equal(&g, &want_t));
    if (step_ok(t, &torus, &g)) CHECK(t, cc_grid_equal(&g, &start));
    cc_grid_free(&g);
    g = draw(edge, 5);
    if (step_ok(t, &plane, &g)) CHECK(t, cc_grid_equal(&g, &want_p));
    if (step_ok(t, &plane, &g)) CHECK_EQ(t, cc_grid_population(&g), 0);
    /* oracle_count sees the same: (0,2) has 2 on the plane, 2 on the torus too at the start;
     * (4,2) has 3 on the torus and does not neighbour the column on the plane. */
    CHECK_EQ(t, oracle_count(&plane, &start, 4, 2), 0);
    CHECK_EQ(t, oracle_count(&torus, &start, 4, 2), 3);
    CHECK_EQ(t, oracle_count(&plane, &start, 0, 2), 2);
    cc_grid_free(&g);
    cc_grid_free(&start);
    cc_grid_free(&want_t);
    cc_grid_free(&want_p);
    /* A glider that runs into the corner of a bounded grid settles as a block there, as Golly's
     * bounded grids show it; on the 8x8 torus it would come back whole after 32 steps. */
    static const char *const glider[] = {".o......", "..o.....", "ooo.....", "........",
                                         "........", "........", "........", "........"};
    static const char *const block[] = {"........", "........", "........", "........",
                                        "........", "........", "......oo", "......oo"};
    cc_grid gl = draw(glider, 8), bl = draw(block, 8);
    cc_error err;
    CHECK_EQ(t, oracle_run(&plane, &gl, 40, &err), CC_OK);
    CHECK(t, cc_grid_equal(&gl, &bl));
    CHECK_EQ(t, oracle_run(&plane, &gl, 7, &err), CC_OK); /* and stays */
    CHECK(t, cc_grid_equal(&gl, &bl));
    cc_grid_free(&gl);
    cc_grid_free(&bl);
}

int main(void) {
    checks t = {"oracle_patterns_test", 0, 0};
    check_glider(&t, 8, 8, 0, 0);
    check_glider(&t, 8, 8, 6, 5); /* straddling the right and bottom edges */
    check_glider(&t, 10, 7, 0, 0);
    check_glider(&t, 10, 7, 8, 6);
    check_glider_field(&t);
    check_blinker_and_centre(&t);
    check_plane(&t);
    return check_summary(&t);
}
