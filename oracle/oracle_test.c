/* The oracle against hand-counted neighbourhoods and hand-drawn grids: every shape's size, the
 * wrap, counts drawn by hand, the hex orientation, uniform grids, the largest count and what it
 * refuses (the known Life patterns: oracle_patterns_test.c). Every expected value here was worked
 * out by hand (the comments show how), never by the oracle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/grid.h"
#include "oracle/oracle.h"
#include "oracle/rule.h"
#include "oracle/test_grids.h"
#include "testing/check.h"

/* Shape sizes, counted by hand on the (2r+1)^2 square minus the centre. */
static void check_shape_sizes(checks *t) {
    /* Moore: (2r+1)^2 - 1: r=1: 9-1 = 8; r=2: 25-1 = 24; r=3: 49-1 = 48. */
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_MOORE, 1), 8);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_MOORE, 2), 24);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_MOORE, 3), 48);
    /* von Neumann diamond rows: r=1: 1+3+1 = 5, minus centre 4; r=2: 1+3+5+3+1 = 13 -> 12;
     * r=3: 1+3+5+7+5+3+1 = 25 -> 24. */
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_VON_NEUMANN, 1), 4);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_VON_NEUMANN, 2), 12);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_VON_NEUMANN, 3), 24);
    /* Cross: r cells in each of 4 directions: 4, 8, 12. */
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_CROSS, 1), 4);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_CROSS, 2), 8);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_CROSS, 3), 12);
    /* Circular dx^2+dy^2 <= r^2+r. r=1: <= 2, all 8 of the square. r=2: <= 6: the 25-square
     * loses its 4 corners (8 > 6), 25-4-1 = 20. r=3: <= 12: the 49-square loses (+-3,+-3) = 18,
     * (+-3,+-2) and (+-2,+-3) = 13, 4+4+4 = 12 cells; (+-3,+-1) = 10 and (+-2,+-2) = 8 stay:
     * 49-12-1 = 36. */
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_CIRCULAR, 1), 8);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_CIRCULAR, 2), 20);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_CIRCULAR, 3), 36);
    /* Hex: 8 Moore neighbours minus NE and SW. */
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_HEX, 1), 6);
    /* Large radii: Moore r=16: 33^2-1 = 1088; r=500: 1001^2-1 = 1002000. */
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_MOORE, 16), 1088);
    CHECK_EQ(t, cc_shape_size(CC_SHAPE_MOORE, 500), 1002000);

    /* Membership of specific offsets, by the definitions. */
    CHECK(t, !cc_shape_contains(CC_SHAPE_MOORE, 2, 0, 0));
    CHECK(t, cc_shape_contains(CC_SHAPE_MOORE, 2, -2, 2));
    CHECK(t, !cc_shape_contains(CC_SHAPE_MOORE, 2, 3, 0));
    CHECK(t, cc_shape_contains(CC_SHAPE_VON_NEUMANN, 2, 1, -1));
    CHECK(t, !cc_shape_contains(CC_SHAPE_VON_NEUMANN, 2, 2, 1));
    CHECK(t, cc_shape_contains(CC_SHAPE_CROSS, 2, 0, -2));
    CHECK(t, !cc_shape_contains(CC_SHAPE_CROSS, 2, 1, 1));
    CHECK(t, cc_shape_contains(CC_SHAPE_CIRCULAR, 2, 2, 1));  /* 5 <= 6 */
    CHECK(t, !cc_shape_contains(CC_SHAPE_CIRCULAR, 2, 2, 2)); /* 8 > 6 */
    CHECK(t, !cc_shape_contains(CC_SHAPE_MOORE, 2, -2147483647 - 1, 0));

    /* The count on an all-alive (2r+1)^2 grid under M0 is the shape's size, hand-counted above;
     * under M1 one more. */
    static const struct {
        cc_shape shape;
        int r, size;
    } sizes[] = {
        {CC_SHAPE_MOORE, 1, 8},     {CC_SHAPE_MOORE, 2, 24},    {CC_SHAPE_MOORE, 3, 48},
        {CC_SHAPE_VON_NEUMANN, 1, 4}, {CC_SHAPE_VON_NEUMANN, 2, 12}, {CC_SHAPE_VON_NEUMANN, 3, 24},
        {CC_SHAPE_CROSS, 1, 4},     {CC_SHAPE_CROSS, 2, 8},     {CC_SHAPE_CROSS, 3, 12},
        {CC_SHAPE_CIRCULAR, 1, 8},  {CC_SHAPE_CIRCULAR, 2, 20}, {CC_SHAPE_CIRCULAR, 3, 36},
        {CC_SHAPE_HEX, 1, 6},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int side = 2 * sizes[i].r + 1;
        cc_grid g = blank(side, side, 1);
        cc_rule m0 = shape_rule(sizes[i].shape, sizes[i].r, 0);
        cc_rule m1 = shape_rule(sizes[i].shape, sizes[i].r, 1);
        for (int y = 0; y < side; y++)
            for (int x = 0; x < side; x++) {
                CHECK_EQ(t, oracle_count(&m0, &g, x, y), sizes[i].size);
                CHECK_EQ(t, oracle_count(&m1, &g, x, y), sizes[i].size + 1);
            }
        CHECK_EQ(t, cc_rule_max_count(&m1), sizes[i].size + 1);
        cc_grid_free(&g);
    }
}

/* One live cell at (cx, cy) on a W x H torus: which cells count it. */
static int counts_of_single(const cc_rule *rule, int w, int h, int cx, int cy, int x, int y) {
    cc_grid g = blank(w, h, 0);
    set(&g, cx, cy, 1);
    int c = oracle_count(rule, &g, x, y);
    cc_grid_free(&g);
    return c;
}

static void check_wrap(checks *t) {
    cc_rule moore = shape_rule(CC_SHAPE_MOORE, 1, 0);
    cc_rule moore_m1 = shape_rule(CC_SHAPE_MOORE, 1, 1);
    const int w = 5, h = 4;
    /* Each corner alive alone: the other three corners are its neighbours across the edges
     * (x: 0 and 4 are 1 apart mod 5; y: 0 and 3 are 1 apart mod 4); the middle (2,2) is not. */
    static const int corners[4][2] = {{0, 0}, {4, 0}, {0, 3}, {4, 3}};
    for (int c = 0; c < 4; c++) {
        for (int o = 0; o < 4; o++) {
            int want = o == c ? 0 : 1;
            CHECK_EQ(t, counts_of_single(&moore, w, h, corners[c][0], corners[c][1], corners[o][0],
                                         corners[o][1]),
                     want);
            /* M1: the live corner counts itself. */
            CHECK_EQ(t, counts_of_single(&moore_m1, w, h, corners[c][0], corners[c][1],
                                         corners[o][0], corners[o][1]),
                     1);
        }
        CHECK_EQ(t, counts_of_single(&moore, w, h, corners[c][0], corners[c][1], 2, 2), 0);
    }
    /* Top edge (2,0) alive: the bottom row's (1,3), (2,3), (3,3) see it across the top/bottom
     * edge; (2,2) does not. */
    CHECK_EQ(t, counts_of_single(&moore, w, h, 2, 0, 1, 3), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 2, 0, 2, 3), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 2, 0, 3, 3), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 2, 0, 2, 2), 0);
    /* Bottom edge (2,3) alive: the top row's (1,0), (2,0), (3,0). */
    CHECK_EQ(t, counts_of_single(&moore, w, h, 2, 3, 1, 0), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 2, 3, 3, 0), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 2, 3, 2, 1), 0);
    /* Left edge (0,1) alive: the right column's (4,0), (4,1), (4,2); (3,1) does not. */
    CHECK_EQ(t, counts_of_single(&moore, w, h, 0, 1, 4, 0), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 0, 1, 4, 1), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 0, 1, 4, 2), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 0, 1, 3, 1), 0);
    /* Right edge (4,2) alive: the left column's (0,1), (0,2), (0,3). */
    CHECK_EQ(t, counts_of_single(&moore, w, h, 4, 2, 0, 1), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 4, 2, 0, 3), 1);
    CHECK_EQ(t, counts_of_single(&moore, w, h, 4, 2, 1, 2), 0);

    /* Moore r=2 on a 5x5 torus: every cell is within 2 of (0,0) both ways round, so a single live
     * cell at (0,0) is counted once by every other cell. */
    cc_rule moore2 = shape_rule(CC_SHAPE_MOORE, 2, 0);
    cc_grid g = blank(5, 5, 0);
    set(&g, 0, 0, 1);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++) CHECK_EQ(t, oracle_count(&moore2, &g, x, y), x || y ? 1 : 0);
    cc_grid_free(&g);

    /* von Neumann r=2 on 7x7, (0,0) alive: counted by the 12 cells within |dx|+|dy| <= 2 mod 7:
     * (+-1,0) (+-2,0) (0,+-1) (0,+-2) (+-1,+-1). (5,0) is dx = -2 across the left edge: yes;
     * (5,1): 2+1 = 3: no; (6,6): dx = dy = -1 across the corner: yes; (5,6): 3: no. */
    cc_rule nn2 = shape_rule(CC_SHAPE_VON_NEUMANN, 2, 0);
    g = blank(7, 7, 0);
    set(&g, 0, 0, 1);
    CHECK_EQ(t, oracle_count(&nn2, &g, 5, 0), 1);
    CHECK_EQ(t, oracle_count(&nn2, &g, 0, 5), 1);
    CHECK_EQ(t, oracle_count(&nn2, &g, 5, 1), 0);
    CHECK_EQ(t, oracle_count(&nn2, &g, 6, 6), 1);
    CHECK_EQ(t, oracle_count(&nn2, &g, 1, 6), 1);
    CHECK_EQ(t, oracle_count(&nn2, &g, 5, 6), 0);
    CHECK_EQ(t, oracle_count(&nn2, &g, 3, 3), 0);
    int total = 0;
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 7; x++) total += oracle_count(&nn2, &g, x, y);
    CHECK_EQ(t, total, 12);
    /* Cross r=2: (5,0) yes (on the axis, 2 away across the edge), (6,6) no (off the axes). */
    cc_rule cross2 = shape_rule(CC_SHAPE_CROSS, 2, 0);
    CHECK_EQ(t, oracle_count(&cross2, &g, 5, 0), 1);
    CHECK_EQ(t, oracle_count(&cross2, &g, 0, 5), 1);
    CHECK_EQ(t, oracle_count(&cross2, &g, 6, 6), 0);
    CHECK_EQ(t, oracle_count(&cross2, &g, 1, 1), 0);
    /* Circular r=2 (<= 6): (5,6) is (-2,-1) away, 5: yes; (5,5) is (-2,-2), 8: no. */
    cc_rule nc2 = shape_rule(CC_SHAPE_CIRCULAR, 2, 0);
    CHECK_EQ(t, oracle_count(&nc2, &g, 5, 6), 1);
    CHECK_EQ(t, oracle_count(&nc2, &g, 2, 1), 1);
    CHECK_EQ(t, oracle_count(&nc2, &g, 5, 5), 0);
    CHECK_EQ(t, oracle_count(&nc2, &g, 2, 2), 0);
    cc_grid_free(&g);
}

/* A hand-drawn 6x6 grid, counts read off the drawing. */
static void check_drawn_counts(checks *t) {
    static const char *const rows[] = {
        "oo...o", /* y=0 */
        "o.....", /* y=1 */
        "..oo..", /* y=2 */
        "..o...", /* y=3 */
        "......", /* y=4 */
        "o....o", /* y=5 */
    };
    cc_grid g = draw(rows, 6);
    cc_rule moore = shape_rule(CC_SHAPE_MOORE, 1, 0);
    cc_rule moore_m1 = shape_rule(CC_SHAPE_MOORE, 1, 1);
    cc_rule nn = shape_rule(CC_SHAPE_VON_NEUMANN, 1, 0);
    cc_rule cross = shape_rule(CC_SHAPE_CROSS, 1, 0);
    cc_rule hex = shape_rule(CC_SHAPE_HEX, 1, 0);
    /* (0,0): (5,5)=o (0,5)=o (1,5)=. (5,0)=o (1,0)=o (5,1)=. (0,1)=o (1,1)=. -> 5; M1 adds itself. */
    CHECK_EQ(t, oracle_count(&moore, &g, 0, 0), 5);
    CHECK_EQ(t, oracle_count(&moore_m1, &g, 0, 0), 6);
    /* von Neumann and cross at r=1: (0,5) (5,0) (1,0) (0,1) are all alive -> 4. */
    CHECK_EQ(t, oracle_count(&nn, &g, 0, 0), 4);
    CHECK_EQ(t, oracle_count(&cross, &g, 0, 0), 4);
    /* Hex at (0,0): (-1,-1)=(5,5)o (0,-1)=(0,5)o (-1,0)=(5,0)o (1,0)o (0,1)o (1,1)=. -> 5. */
    CHECK_EQ(t, oracle_count(&hex, &g, 0, 0), 5);
    /* (2,2): only (3,2) and (2,3) of its 8 are alive -> 2; M1: 3. */
    CHECK_EQ(t, oracle_count(&moore, &g, 2, 2), 2);
    CHECK_EQ(t, oracle_count(&moore_m1, &g, 2, 2), 3);
    /* (3,3): (2,2) (3,2) (2,3) -> 3; dead, so M1 is also 3. */
    CHECK_EQ(t, oracle_count(&moore, &g, 3, 3), 3);
    CHECK_EQ(t, oracle_count(&moore_m1, &g, 3, 3), 3);
    /* Hex at (3,3): (2,2)o (3,2)o (2,3)o (4,3). (3,4). (4,4). -> 3; the excluded (4,2) and
     * (2,4) are dead anyway. Hex at (1,3): (0,2). (1,2). (0,3). (2,3)o (1,4). (2,4). -> 1, and
     * the excluded NE (2,2) is alive: not counted. */
    CHECK_EQ(t, oracle_count(&hex, &g, 3, 3), 3);
    CHECK_EQ(t, oracle_count(&hex, &g, 1, 3), 1);
    CHECK_EQ(t, oracle_count(&moore, &g, 1, 3), 2); /* Moore does see (2,2) and (2,3) */
    /* (5,4): (4,3). (5,3). (0,3). (4,4). (0,4). (4,5). (5,5)o (0,5)o -> 2. */
    CHECK_EQ(t, oracle_count(&moore, &g, 5, 4), 2);
    /* (4,0): (3,5). (4,5). (5,5)o (3,0). (5,0)o (3,1). (4,1). (5,1). -> 2. */
    CHECK_EQ(t, oracle_count(&moore, &g, 4, 0), 2);

    /* One Life step of the drawing, by hand (B3/S23, counts as above):
     * alive (0,0): 5 -> dies; (1,0): (0,5)o (1,5). (2,5). (0,0)o (2,0). (0,1)o (1,1). (2,1). = 3
     * -> lives; (5,0): (4,5). (5,5)o (0,5)o (4,0). (0,0)o (4,1). (5,1). (0,1)o = 4 -> dies;
     * (0,1): (5,0)o (0,0)o (1,0)o (5,1). (1,1). (5,2). (0,2). (1,2). = 3 -> lives;
     * (2,2): 2 -> lives; (3,2): (2,1). (3,1). (4,1). (2,2)o (4,2). (2,3)o (3,3). (4,3). = 2 ->
     * lives; (2,3): (1,2). (2,2)o (3,2)o (1,3). (3,3). (1,4). (2,4). (3,4). = 2 -> lives;
     * (0,5): (5,4). (0,4). (1,4). (5,5)o (1,5). (5,0)o (0,0)o (1,0)o = 4 -> dies;
     * (5,5): (4,4). (5,4). (0,4). (4,5). (0,5)o (4,0). (5,0)o (0,0)o = 3 -> lives.
     * births (dead, count 3): (3,3) -> yes; (1,1): (0,0)o (1,0)o (2,0). (0,1)o (2,1). (0,2).
     * (1,2). (2,2)o = 4 -> no; (5,1): (4,0). (5,0)o (0,0)o (4,1). (0,1)o (4,2). (5,2). (0,2). = 3
     * -> yes; (1,2): (0,1)o (1,1). (2,1). (0,2). (2,2)o (0,3). (1,3). (2,3)o = 3 -> yes;
     * (1,5): (0,4). (1,4). (2,4). (0,5)o (2,5). (0,0)o (1,0)o (2,0). = 3 -> yes;
     * (2,1): (1,0)o (2,0). (3,0). (1,1). (3,1). (1,2). (2,2)o (3,2)o = 3 -> yes;
     * (3,1): (2,0). (3,0). (4,0). (2,1). (4,1). (2,2)o (3,2)o (4,2). = 2 -> no;
     * (4,0) 2, (5,4) 2, (1,3) 2 -> no. Other dead cells see at most 2 (checked on the drawing). */
    static const char *const next_rows[] = {
        ".o....", /* y=0 */
        "o.o..o", /* y=1 */
        ".ooo..", /* y=2 */
        "..oo..", /* y=3 */
        "......", /* y=4 */
        ".o...o", /* y=5 */
    };
    cc_grid want = draw(next_rows, 6);
    cc_rule life = rule_of("B3/S23");
    if (step_ok(t, &life, &g)) CHECK(t, cc_grid_equal(&g, &want));
    cc_grid_free(&g);
    cc_grid_free(&want);
}

static void check_hex_orientation(checks *t) {
    cc_rule hex = shape_rule(CC_SHAPE_HEX, 1, 0);
    /* Centre (2,2) of a 5x5 grid; one live cell at each Moore offset in turn. */
    static const struct {
        int dx, dy, counted;
    } offsets[8] = {
        {-1, -1, 1}, {0, -1, 1}, {1, -1, 0}, /* NE (+1,-1) is not a neighbour */
        {-1, 0, 1},  {1, 0, 1},                  /* W, E */
        {-1, 1, 0},  {0, 1, 1},  {1, 1, 1},   /* SW (-1,+1) is not a neighbour */
    };
    for (int i = 0; i < 8; i++) {
        cc_grid g = blank(5, 5, 0);
        set(&g, 2 + offsets[i].dx, 2 + offsets[i].dy, 1);
        if (!CHECK_EQ(t, oracle_count(&hex, &g, 2, 2), offsets[i].counted))
            fprintf(stderr, "  hex offset (%d,%d)\n", offsets[i].dx, offsets[i].dy);
        cc_grid_free(&g);
    }
    /* B1/SH: one live cell gives birth to its 6 hex neighbours and dies (S is empty). */
    static const char *const start[] = {".....", ".....", "..o..", ".....", "....."};
    static const char *const after[] = {".....", ".oo..", ".o.o.", "..oo.", "....."};
    cc_grid g = draw(start, 5), want = draw(after, 5);
    cc_rule b1 = rule_of("B1/SH");
    if (step_ok(t, &b1, &g)) CHECK(t, cc_grid_equal(&g, &want));
    cc_grid_free(&g);
    cc_grid_free(&want);
}

static void check_uniform(checks *t) {
    cc_error err;
    /* All dead, no B0: nothing is ever born. */
    static const char *const no_b0[] = {"B3/S23", "B2/S34H", "R5,C2,M0,S35..59,B34..45,NM",
                                        "R3,C2,M1,S1..5,B1..3,NN"};
    for (int i = 0; i < 4; i++) {
        cc_rule r = rule_of(no_b0[i]);
        cc_grid g = blank(13, 11, 0);
        CHECK_EQ(t, oracle_run(&r, &g, 3, &err), CC_OK);
        CHECK_EQ(t, cc_grid_population(&g), 0);
        cc_grid_free(&g);
    }
    /* All dead under B0/S8: every cell sees 0 and is born; then every cell sees 8 and survives. */
    cc_rule b0 = rule_of("B0/S8");
    cc_grid g = blank(6, 7, 0);
    if (step_ok(t, &b0, &g)) CHECK_EQ(t, cc_grid_population(&g), 42);
    if (step_ok(t, &b0, &g)) CHECK_EQ(t, cc_grid_population(&g), 42);
    cc_grid_free(&g);
    /* All alive under Life: every count is 8, not in S: all die. Under B3/S2345678: all stay. */
    cc_rule life = rule_of("B3/S23");
    g = blank(6, 6, 1);
    if (step_ok(t, &life, &g)) CHECK_EQ(t, cc_grid_population(&g), 0);
    cc_grid_free(&g);
    cc_rule crowded = rule_of("B3/S2345678");
    g = blank(6, 6, 1);
    if (step_ok(t, &crowded, &g)) CHECK_EQ(t, cc_grid_population(&g), 36);
    cc_grid_free(&g);
    /* Hex all alive: count 6 everywhere; B2/S34H kills all, B2/S6H keeps all. */
    cc_rule hex_die = rule_of("B2/S34H"), hex_live = rule_of("B2/S6H");
    g = blank(5, 4, 1);
    if (step_ok(t, &hex_die, &g)) CHECK_EQ(t, cc_grid_population(&g), 0);
    cc_grid_free(&g);
    g = blank(5, 4, 1);
    if (step_ok(t, &hex_live, &g)) CHECK_EQ(t, cc_grid_population(&g), 20);
    cc_grid_free(&g);
    /* Bosco (r=5, M0) all alive on 11x12: count 120 > 59: all die. */
    cc_rule bosco = rule_of("R5,C2,M0,S35..59,B34..45,NM");
    g = blank(11, 12, 1);
    if (step_ok(t, &bosco, &g)) CHECK_EQ(t, cc_grid_population(&g), 0);
    cc_grid_free(&g);
    /* r=2 M1, S25: all alive on 5x5 counts 24 + itself = 25: all survive; with M0 (S25 would be
     * out of range) S24 keeps them. */
    cc_rule m1 = rule_of("R2,C2,M1,S25..25,B1..1,NM");
    g = blank(5, 5, 1);
    if (step_ok(t, &m1, &g)) CHECK_EQ(t, cc_grid_population(&g), 25);
    cc_grid_free(&g);
    cc_rule m0 = m1;
    m0.centre = 0;
    CHECK_REFUSED(t, cc_rule_validate(&m0, &err), &err, "exceeds the largest possible count 24",
                  "S25 at r=2 M0");
}

static void check_largest_count(checks *t) {
    cc_error err;
    cc_rule m1 = shape_rule(CC_SHAPE_MOORE, 16, 1), m0 = shape_rule(CC_SHAPE_MOORE, 16, 0);
    /* 33x33 all alive at r=16: the square covers the whole torus once: 33*33 = 1089 with the
     * centre, 1088 without. On 40x37 every cell still sees 33*33 distinct live cells. */
    static const int sizes[3][2] = {{33, 33}, {40, 37}, {34, 50}};
    for (int s = 0; s < 3; s++) {
        int w = sizes[s][0], h = sizes[s][1];
        cc_grid g = blank(w, h, 1);
        int bad1 = 0, bad0 = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                bad1 += oracle_count(&m1, &g, x, y) != 1089;
                bad0 += oracle_count(&m0, &g, x, y) != 1088;
            }
        CHECK_EQ(t, bad1, 0);
        CHECK_EQ(t, bad0, 0);
        /* Through oracle_step: S1089..1089 under M1 keeps every cell; S1088..1088 kills all. */
        cc_rule keep = rule_of("R16,C2,M1,S1089..1089,B0..0,NM");
        cc_rule kill = rule_of("R16,C2,M1,S1088..1088,B0..0,NM");
        cc_rule keep0 = rule_of("R16,C2,M0,S1088..1088,B0..0,NM");
        cc_grid out;
        CHECK_EQ(t, cc_grid_alloc(&out, w, h, &err), CC_OK);
        CHECK_EQ(t, oracle_step(&keep, &g, &out, &err), CC_OK);
        CHECK_EQ(t, cc_grid_population(&out), (size_t)w * h);
        CHECK_EQ(t, oracle_step(&kill, &g, &out, &err), CC_OK);
        CHECK_EQ(t, cc_grid_population(&out), 0);
        CHECK_EQ(t, oracle_step(&keep0, &g, &out, &err), CC_OK);
        CHECK_EQ(t, cc_grid_population(&out), (size_t)w * h);
        cc_grid_free(&out);
        cc_grid_free(&g);
    }
    /* Near all alive: 33x33 with (0,0) dead. Every cell sees every cell once, so each count under
     * M1 is 1088; under S1088..1088 B1088..1088 everything is alive next step. */
    cc_grid g = blank(33, 33, 1);
    set(&g, 0, 0, 0);
    CHECK_EQ(t, oracle_count(&m1, &g, 0, 0), 1088);
    CHECK_EQ(t, oracle_count(&m1, &g, 17, 5), 1088);
    CHECK_EQ(t, oracle_count(&m0, &g, 0, 0), 1088);
    CHECK_EQ(t, oracle_count(&m0, &g, 17, 5), 1087);
    cc_rule near = rule_of("R16,C2,M1,S1088..1088,B1088..1088,NM");
    if (step_ok(t, &near, &g)) CHECK_EQ(t, cc_grid_population(&g), 1089);
    cc_grid_free(&g);
}

/* oracle_step (offset list) and oracle_count (membership test) are two independent readings of
 * the same definition; they must agree on every cell of a scrambled grid for every shape. */
/* oracle_step (row by row, offset by offset) against oracle_count (cell by cell, a modulo per
 * neighbour) on both topologies: the smallest grids, where every offset wraps, and one large
 * enough to be shared among threads. */
static void check_step_matches_count(checks *t) {
    static const char *const rules[] = {
        "R1,C2,M0,S2..3,B3..3,NM", "R2,C2,M1,S3..7,B4..6,NN", "R3,C2,M0,S2..5,B3..4,N+",
        "R3,C2,M1,S10..20,B12..15,NC", "R1,C2,M1,S2..4,B2..3,NH", "R4,C2,M0,S20..40,B25..30,NM",
    };
    static const cc_topology topologies[] = {CC_TOPOLOGY_TORUS, CC_TOPOLOGY_PLANE};
    uint32_t state = 12345u;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        for (size_t o = 0; o < 2; o++)
            for (int size = 0; size < 3; size++) {
                cc_rule r = rule_of(rules[i]);
                r.topology = topologies[o];
                const int side = 2 * r.radius + 1;
                const int w = size == 0 ? side + (int)i : size == 1 ? side : 301;
                const int h = size == 0 ? side + 2 : size == 1 ? side : 203;
                cc_grid g = blank(w, h, 0), out;
                cc_error err;
                for (size_t k = 0; k < (size_t)w * h; k++) {
                    state = state * 1103515245u + 12345u;
                    g.cells[k] = (state >> 16) & 1;
                }
                CHECK_EQ(t, cc_grid_alloc(&out, w, h, &err), CC_OK);
                CHECK_EQ(t, oracle_step(&r, &g, &out, &err), CC_OK);
                int bad = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        int c = oracle_count(&r, &g, x, y);
                        int alive = g.cells[y * w + x];
                        int want = alive ? cc_set_has(&r.survive, c) : cc_set_has(&r.birth, c);
                        bad += out.cells[y * w + x] != want;
                    }
                if (!CHECK_EQ(t, bad, 0))
                    fprintf(stderr, "  rule %s, %s, %dx%d\n", rules[i], o ? "plane" : "torus", w,
                            h);
                cc_grid_free(&g);
                cc_grid_free(&out);
            }
}

static void check_refusals(checks *t) {
    cc_error err;
    cc_rule r16 = rule_of("R16,C2,M1,S1..5,B1..5,NM");
    cc_grid g = blank(32, 33, 0), out = blank(32, 33, 0);
    cc_error_clear(&err);
    CHECK_REFUSED(t, oracle_step(&r16, &g, &out, &err), &err, "smaller than 2r+1 = 33",
                  "32x33 at r=16");
    CHECK_REFUSED(t, oracle_run(&r16, &g, 1, &err), &err, "smaller than 2r+1 = 33",
                  "oracle_run 32x33 at r=16");
    cc_grid_free(&g);
    cc_grid_free(&out);
    cc_rule life = rule_of("B3/S23");
    g = blank(2, 5, 0);
    CHECK_REFUSED(t, oracle_run(&life, &g, 1, &err), &err, "smaller than 2r+1 = 3", "2x5 at r=1");
    cc_grid_free(&g);
    /* 33x33 at r=16 is the smallest accepted. */
    g = blank(33, 33, 0);
    CHECK_EQ(t, oracle_run(&r16, &g, 1, &err), CC_OK);
    /* in == out. */
    CHECK_REFUSED(t, oracle_step(&r16, &g, &g, &err), &err, "separate output grid", "in == out");
    /* Output of a different size. */
    out = blank(33, 34, 0);
    CHECK_REFUSED(t, oracle_step(&r16, &g, &out, &err), &err, "same size", "out 33x34");
    cc_grid_free(&out);
    /* Negative steps, invalid rules. */
    CHECK_REFUSED(t, oracle_run(&r16, &g, -1, &err), &err, "negative step count", "steps -1");
    cc_rule bad = r16;
    bad.radius = 0;
    CHECK_REFUSED(t, oracle_run(&bad, &g, 1, &err), &err, "radius 0", "radius 0");
    bad = r16;
    bad.centre = 2;
    CHECK_REFUSED(t, oracle_run(&bad, &g, 1, &err), &err, "M0 or M1", "centre 2");
    /* Zero steps leave the grid alone. */
    set(&g, 3, 4, 1);
    CHECK_EQ(t, oracle_run(&r16, &g, 0, &err), CC_OK);
    CHECK_EQ(t, cc_grid_population(&g), 1);
    cc_grid_free(&g);
}

int main(void) {
    checks t = {"oracle_test", 0, 0};
    check_shape_sizes(&t);
    check_wrap(&t);
    check_drawn_counts(&t);
    check_hex_orientation(&t);
    check_uniform(&t);
    check_largest_count(&t);
    check_step_matches_count(&t);
    check_refusals(&t);
    return check_summary(&t);
}
