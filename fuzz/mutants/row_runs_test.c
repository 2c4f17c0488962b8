/* row_runs against the offsets one by one: every shape at radii 1..6 (hexagonal at 1), grids
 * from narrower than the neighbourhood (it wraps onto itself) to wider, every row of the grid in
 * turn, whole and clipped at max_dx as the right-edge mutant clips it. */
#include <stdint.h>
#include <stdio.h>

#include "fuzz/mutants/row_runs.h"
#include "oracle/oracle.h"
#include "testing/check.h"

/* The live cells at shape's offsets from (x, y) with dx <= max_dx, a modulo a neighbour. */
static int32_t by_offsets(const cc_grid *g, cc_shape shape, int32_t r, int32_t x, int32_t y,
                          int32_t max_dx) {
    int32_t count = 0;
    for (int32_t dy = -r; dy <= r; dy++)
        for (int32_t dx = -r; dx <= r && dx <= max_dx; dx++) {
            if (!cc_shape_contains(shape, r, dx, dy)) continue;
            int32_t nx = ((x + dx) % g->w + g->w) % g->w, ny = ((y + dy) % g->h + g->h) % g->h;
            count += g->cells[(size_t)ny * (size_t)g->w + (size_t)nx] != 0;
        }
    return count;
}

int main(void) {
    checks t = {"row_runs_test", 0, 0};
    static const cc_shape shapes[] = {CC_SHAPE_MOORE, CC_SHAPE_VON_NEUMANN, CC_SHAPE_CROSS,
                                       CC_SHAPE_CIRCULAR, CC_SHAPE_HEX};
    static const int32_t sizes[][2] = {{1, 1}, {2, 3}, {5, 4}, {9, 13}, {17, 6}, {31, 29}};
    uint32_t state = 2024u;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int32_t r = 1; r <= (shapes[s] == CC_SHAPE_HEX ? 1 : 6); r++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                const int32_t w = sizes[z][0], h = sizes[z][1];
                cc_grid g;
                cc_error err;
                if (!CHECK_EQ(&t, cc_grid_alloc(&g, w, h, &err), CC_OK)) continue;
                for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
                    state = state * 1103515245u + 12345u;
                    g.cells[i] = (state >> 16) % 3 == 0;
                }
                row_runs rr;
                if (!CHECK_EQ(&t, row_runs_init(&rr, shapes[s], r, w, h), CC_OK)) {
                    cc_grid_free(&g);
                    continue;
                }
                long wrong = 0;
                for (int32_t y = 0; y < h; y++) {
                    row_runs_at_row(&rr, g.cells, y);
                    for (int32_t x = 0; x < w; x++) {
                        wrong += row_runs_count(&rr, x, INT32_MAX) !=
                                 by_offsets(&g, shapes[s], r, x, y, INT32_MAX);
                        wrong += row_runs_count(&rr, x, w - 1 - x) !=
                                 by_offsets(&g, shapes[s], r, x, y, w - 1 - x);
                    }
                }
                if (!CHECK_EQ(&t, wrong, 0))
                    fprintf(stderr, "  shape %d, r = %d, %dx%d\n", (int)shapes[s], (int)r,
                            (int)w, (int)h);
                row_runs_free(&rr);
                cc_grid_free(&g);
            }
    return check_summary(&t);
}
