/* Grids and rules the oracle's tests draw by hand: a grid from rows of '.' and 'o', a blank one,
 * a rule from its text or its shape alone, one checked step. Test code: a failure to allocate or
 * parse ends the test. */
#ifndef CELLCHECK_ORACLE_TEST_GRIDS_H
#define CELLCHECK_ORACLE_TEST_GRIDS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/grid.h"
#include "oracle/oracle.h"
#include "oracle/rule.h"
#include "testing/check.h"

/* A grid drawn as rows of '.' (dead) and 'o' (alive). */
static inline cc_grid draw(const char *const *rows, int h) {
    cc_grid g;
    cc_error err;
    int w = (int)strlen(rows[0]);
    if (cc_grid_alloc(&g, w, h, &err)) {
        fprintf(stderr, "draw: %s\n", err.msg);
        exit(2);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) g.cells[y * w + x] = rows[y][x] == 'o';
    return g;
}

static inline cc_grid blank(int w, int h, uint8_t value) {
    cc_grid g;
    cc_error err;
    if (cc_grid_alloc(&g, w, h, &err)) {
        fprintf(stderr, "blank: %s\n", err.msg);
        exit(2);
    }
    memset(g.cells, value, (size_t)w * (size_t)h);
    return g;
}

static inline void set(cc_grid *g, int x, int y, uint8_t v) { g->cells[y * g->w + x] = v; }

static inline cc_rule rule_of(const char *text) {
    cc_rule r;
    cc_error err;
    if (cc_rule_parse(text, &r, &err)) {
        fprintf(stderr, "rule_of: %s\n", err.msg);
        exit(2);
    }
    return r;
}

static inline cc_rule shape_rule(cc_shape shape, int r, int centre) {
    cc_rule rule;
    memset(&rule, 0, sizeof rule);
    rule.shape = shape;
    rule.radius = r;
    rule.centre = centre;
    return rule;
}

static inline int step_ok(checks *t, const cc_rule *rule, cc_grid *g) {
    cc_error err;
    cc_error_clear(&err);
    int rc = oracle_run(rule, g, 1, &err);
    if (!CHECK_EQ(t, rc, CC_OK)) fprintf(stderr, "  oracle_run: %s\n", err.msg);
    return rc == CC_OK;
}

#endif
