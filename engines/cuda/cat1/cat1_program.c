/* cat1's geometry and exactness check (cat1_program.h). */
#include "engines/cuda/cat1/cat1_program.h"

#include <string.h>

#include "oracle/grid.h"

int cat1_check(const char *engine, cc_shape shape, int32_t r, cc_error *err) {
    if (shape != CC_SHAPE_MOORE && shape != CC_SHAPE_CROSS)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: shape %s is not a band-matrix shape (Moore NM and cross N+ only)",
                       engine, cc_shape_code(shape));
    if (r < 1 || r > CAT1_RADIUS_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "%s: radius %d is outside 1..%d (the horizontal window reaches one 32-bit "
                       "word past its strip, the vertical window 4 groups of 8 rows above)",
                       engine, (int)r, CAT1_RADIUS_MAX);
    /* The horizontal sums are popcounts of 2r+1 band bits: at most 65 here, well inside 256 bits
     * and an s32; what binds is H as the vertical pass's s8 operand and its s32 sums. */
    return cat_check_exact(engine, shape, r, CAT_NUM_S8, CAT_NUM_S32, err);
}

int cat1_geometry_init(cat1_geometry *g, int32_t w, int32_t h, int32_t r, cc_error *err) {
    memset(g, 0, sizeof *g);
    if (w < 1 || h < 1 || w > CC_GRID_SIDE_MAX || h > CC_GRID_SIDE_MAX || r < 1 ||
        r > CAT1_RADIUS_MAX)
        return cc_fail(err, CC_ERR_ARG, "cat1: a %dx%d grid at radius %d", (int)w, (int)h,
                       (int)r);
    const int64_t strip = CAT1_STRIP_WORDS * CAT1_WORD;
    g->w = w;
    g->h = h;
    g->r = r;
    g->gh = cat1_gh(r);
    g->kv = cat1_kv(r);
    g->strips = ((int64_t)w + strip - 1) / strip;
    g->fww = g->strips * CAT1_STRIP_WORDS;
    g->fg = ((int64_t)h + CAT1_GROUP - 1) / CAT1_GROUP;
    g->top = (int64_t)CAT1_GROUP * g->gh;
    g->bottom = (int64_t)CAT1_GROUP * (4 * g->kv - 1 - g->gh);
    g->eww = g->fww + 2;
    g->eh = g->top + CAT1_GROUP * g->fg + g->bottom;
    g->full_words = w / CAT1_WORD;
    g->tiles_x = (g->strips + CAT1_WARPS - 1) / CAT1_WARPS;
    g->tiles_y = (g->fg + CAT1_TILE_GROUPS - 1) / CAT1_TILE_GROUPS;
    g->tiles = g->tiles_x * g->tiles_y;
    return CC_OK;
}

size_t cat1_geometry_words(const cat1_geometry *g) { return (size_t)g->eww * (size_t)g->eh; }

int64_t cat1_border_words(const cat1_geometry *g) {
    return (g->eh - g->h) * g->eww + (int64_t)g->h * (g->eww - g->full_words);
}

void cat1_emulate_mma_b1(int32_t d[32][4], const uint32_t a[32][4], const uint32_t b[32][2]) {
    for (int lane = 0; lane < 32; lane++)
        for (int q = 0; q < 4; q++) {
            const int m = (lane >> 2) + 8 * (q >> 1), n = 2 * (lane & 3) + (q & 1);
            int32_t sum = 0;
            for (int kt = 0; kt < 4; kt++)
                for (int half = 0; half < 2; half++)
                    sum += __builtin_popcount(a[4 * (m & 7) + kt][(m >> 3) + 2 * half] &
                                              b[4 * n + kt][half]);
            d[lane][q] += sum;
        }
}

void cat1_emulate_mma_s8(int32_t d[32][4], const uint32_t a[32][4], const uint32_t b[32][2]) {
    for (int lane = 0; lane < 32; lane++)
        for (int q = 0; q < 4; q++) {
            const int m = (lane >> 2) + 8 * (q >> 1), n = 2 * (lane & 3) + (q & 1);
            int32_t sum = 0;
            for (int s = 0; s < 32; s++) {
                const int kt = (s & 15) >> 2, half = s >> 4, e = s & 3;
                const int8_t av = (int8_t)(a[4 * (m & 7) + kt][(m >> 3) + 2 * half] >> (8 * e));
                const int8_t bv = (int8_t)(b[4 * n + kt][half] >> (8 * e));
                sum += (int32_t)av * (int32_t)bv;
            }
            d[lane][q] += sum;
        }
}
