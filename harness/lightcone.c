/* Light-cone verification (see lightcone.h). */
#include "harness/lightcone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/slabs/slabs.h"
#include "oracle/oracle.h"

typedef struct anchor {
    int32_t x0, y0; /* the block's top-left cell; the block may wrap over the torus seams */
    uint32_t classes;
} anchor;

typedef struct anchors {
    anchor *a;
    size_t n, cap;
} anchors;

typedef struct block_result {
    int rc;
    cc_error err;
    uint64_t differing;
    int32_t x, y;
    uint8_t engine_value, oracle_value;
} block_result;

/* One axis of a window: its length and where its first cell sits on the grid. */
typedef struct axis {
    int32_t side;   /* the grid's side */
    int32_t block;  /* the block's side along it */
    int32_t margin; /* r*k, or 0 when the window is the whole side */
    int32_t len;    /* the window's side */
    int plane;      /* the bounded plane: blocks and windows stay within the grid, and a window
                     * stepped as a plane is exact at the grid's edges */
} axis;

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int32_t wrap(int64_t v, int32_t n) {
    int64_t m = v % n;
    return (int32_t)(m < 0 ? m + n : m);
}

static axis axis_of(int32_t side, int32_t block, int64_t reach, int plane) {
    axis a = {side, block < side ? block : side, 0, 0, plane};
    if ((int64_t)a.block + 2 * reach >= side) {
        a.len = side; /* the whole side: the grid's own torus along this axis */
    } else {
        a.margin = (int32_t)reach;
        a.len = a.block + 2 * a.margin;
    }
    return a;
}

/* On the plane, where a window starts: the margin before the block, moved back inside the grid
 * where it would leave it. The window then reaches the grid's edge, which the plane's dead
 * outside makes exact, and keeps at least the margin on its other side. */
static int32_t plane_start(const axis *a, int32_t a0) {
    int32_t s = a0 - a->margin;
    if (s < 0) s = 0;
    if (s > a->side - a->len) s = a->side - a->len;
    return s;
}

/* The grid coordinate of window cell i, for a block anchored at a0. */
static int32_t window_to_grid(const axis *a, int32_t a0, int32_t i) {
    if (a->len == a->side) return i;
    if (a->plane) return plane_start(a, a0) + i;
    return wrap((int64_t)a0 - a->margin + i, a->side);
}

/* The window coordinate of block cell i. */
static int32_t block_to_window(const axis *a, int32_t a0, int32_t i) {
    if (a->len == a->side) return a->plane ? a0 + i : wrap((int64_t)a0 + i, a->side);
    return a->plane ? a0 - plane_start(a, a0) + i : a->margin + i;
}

/* Where a block may start: anywhere on the torus (it wraps), within the grid on the plane. */
static int32_t anchor_of(const axis *a, int64_t v) {
    if (!a->plane) return wrap(v, a->side);
    if (v < 0) return 0;
    return v > a->side - a->block ? a->side - a->block : (int32_t)v;
}

static int push(anchors *list, int32_t x0, int32_t y0, uint32_t classes, const axis *ax,
                const axis *ay, cc_error *err) {
    if (list->n == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 64;
        anchor *a = realloc(list->a, cap * sizeof *a);
        if (!a) return cc_fail(err, CC_ERR_NOMEM, "light cones: cannot allocate %zu blocks", cap);
        list->a = a;
        list->cap = cap;
    }
    list->a[list->n++] = (anchor){anchor_of(ax, x0), anchor_of(ay, y0), classes};
    return CC_OK;
}

/* Seam positions 1..count of a tiled axis, at most max of them, evenly spread with the first
 * and the last always in. */
static int32_t seam_pick(int32_t count, int32_t max, int32_t i) {
    if (count <= max) return i + 1;
    return 1 + (int32_t)((int64_t)i * (count - 1) / (max - 1));
}

static int plan(const cc_case *c, const cc_lightcone_options *opt, const axis *ax,
                const axis *ay, double visits_per_block, anchors *list, cc_error *err) {
    uint64_t state = 0;
    for (int i = 0; i < 8; i++) state = state << 8 | c->seed[i];
    state ^= 0x6c69676874636f6eull; /* "lightcon": a stream apart from the grid's */
    const int32_t w = ax->side, h = ay->side, bx = ax->block, by = ay->block;
#define RAND_X ((int32_t)(splitmix(&state) % (uint64_t)w))
#define RAND_Y ((int32_t)(splitmix(&state) % (uint64_t)h))
    int rc = push(list, w - bx / 2, h - by / 2,
                  CC_SEAM_TORUS_CORNER | CC_SEAM_TORUS_X | CC_SEAM_TORUS_Y, ax, ay, err);
    if (!rc) rc = push(list, w - bx, h - by, CC_SEAM_FAR_END, ax, ay, err);
    if (!rc) rc = push(list, w - bx / 2, RAND_Y, CC_SEAM_TORUS_X, ax, ay, err);
    if (!rc) rc = push(list, RAND_X, h - by / 2, CC_SEAM_TORUS_Y, ax, ay, err);
    int32_t max_seams = opt->max_seams > 1 ? opt->max_seams : 32;
    int32_t seams_x = opt->tile_w > 0 && opt->tile_w < w ? (w - 1) / opt->tile_w : 0;
    int32_t seams_y = opt->tile_h > 0 && opt->tile_h < h ? (h - 1) / opt->tile_h : 0;
    int32_t nx = seams_x < max_seams ? seams_x : max_seams;
    int32_t ny = seams_y < max_seams ? seams_y : max_seams;
    for (int32_t i = 0; i < nx && !rc; i++)
        rc = push(list, seam_pick(seams_x, max_seams, i) * opt->tile_w - bx / 2, RAND_Y,
                  CC_SEAM_TILE_X, ax, ay, err);
    for (int32_t i = 0; i < ny && !rc; i++)
        rc = push(list, RAND_X, seam_pick(seams_y, max_seams, i) * opt->tile_h - by / 2,
                  CC_SEAM_TILE_Y, ax, ay, err);
    /* Tile corners: the first, the last and one between, on each axis. */
    for (int32_t i = 0; i < 3 && i < nx && !rc; i++) {
        for (int32_t j = 0; j < 3 && j < ny && !rc; j++) {
            int32_t sx = seam_pick(seams_x, 3, i), sy = seam_pick(seams_y, 3, j);
            rc = push(list, sx * opt->tile_w - bx / 2, sy * opt->tile_h - by / 2,
                      CC_SEAM_TILE_CORNER | CC_SEAM_TILE_X | CC_SEAM_TILE_Y, ax, ay, err);
        }
    }
    /* Every device seam (a handful: one a device), with its corner on the torus's column seam. */
    const int32_t devices = opt->devices > h ? h : opt->devices;
    for (int32_t d = 1; d < devices && !rc; d++) {
        const int32_t y = cc_slabs_first_row(h, devices, d) - by / 2;
        rc = push(list, RAND_X, y, CC_SEAM_DEVICE_Y, ax, ay, err);
        if (!rc)
            rc = push(list, w - bx / 2, y, CC_SEAM_DEVICE_CORNER | CC_SEAM_DEVICE_Y | CC_SEAM_TORUS_X,
                      ax, ay, err);
    }
    uint64_t target = opt->cells_target ? opt->cells_target : CC_LIGHTCONE_DEFAULT_CELLS;
    uint64_t per_block = (uint64_t)bx * (uint64_t)by;
    uint64_t total = (uint64_t)w * (uint64_t)h;
    if (target > total) target = total;
    double spent = 0.0;
    /* Random blocks until the target is met; at least one, and never past the budget after it. */
    for (uint64_t randoms = 0; !rc; randoms++) {
        int met = list->n * per_block >= target;
        int over = opt->visits_budget > 0 && spent + visits_per_block > opt->visits_budget;
        if (randoms > 0 && (met || over)) break;
        spent += visits_per_block;
        rc = push(list, RAND_X, RAND_Y, CC_SEAM_RANDOM, ax, ay, err);
    }
#undef RAND_X
#undef RAND_Y
    return rc;
}

static void check_block(const cc_case *c, const cc_grid *initial, const cc_grid *final,
                        const axis *ax, const axis *ay, const anchor *an, block_result *out) {
    memset(out, 0, sizeof *out);
    cc_grid cur = {0}, next = {0};
    int rc = cc_grid_alloc(&cur, ax->len, ay->len, &out->err);
    if (!rc && c->steps > 0) rc = cc_grid_alloc(&next, ax->len, ay->len, &out->err);
    if (rc) {
        out->rc = rc;
        cc_grid_free(&cur);
        return;
    }
    for (int32_t j = 0; j < ay->len; j++) {
        const uint8_t *row = initial->cells + (size_t)window_to_grid(ay, an->y0, j) * (size_t)initial->w;
        uint8_t *dst = cur.cells + (size_t)j * (size_t)ax->len;
        for (int32_t i = 0; i < ax->len; i++) dst[i] = row[window_to_grid(ax, an->x0, i)];
    }
    for (int64_t s = 0; s < c->steps && !rc; s++) {
        rc = oracle_step(&c->rule, &cur, &next, &out->err);
        uint8_t *t = cur.cells;
        cur.cells = next.cells;
        next.cells = t;
    }
    if (rc) {
        out->rc = rc;
    } else {
        for (int32_t j = 0; j < ay->block; j++) {
            int32_t gy = wrap((int64_t)an->y0 + j, ay->side); /* on the plane, within it */
            int32_t wy = block_to_window(ay, an->y0, j);
            for (int32_t i = 0; i < ax->block; i++) {
                int32_t gx = wrap((int64_t)an->x0 + i, ax->side);
                uint8_t want = cur.cells[(size_t)wy * (size_t)ax->len + (size_t)block_to_window(ax, an->x0, i)];
                uint8_t got = final->cells[(size_t)gy * (size_t)final->w + (size_t)gx];
                if (got != want && out->differing++ == 0) {
                    out->x = gx;
                    out->y = gy;
                    out->engine_value = got;
                    out->oracle_value = want;
                }
            }
        }
    }
    cc_grid_free(&cur);
    cc_grid_free(&next);
}

int cc_lightcone_verify(const cc_case *c, const cc_grid *initial, const cc_grid *engine_final,
                        const cc_lightcone_options *opt, cc_lightcone_result *res, cc_error *err) {
    memset(res, 0, sizeof *res);
    if (!c || !initial || !engine_final || !opt)
        return cc_fail(err, CC_ERR_ARG, "light cones: no case, grid or options");
    if (initial->w != c->w || initial->h != c->h || engine_final->w != c->w ||
        engine_final->h != c->h)
        return cc_fail(err, CC_ERR_ARG, "light cones: grids are not the case's %dx%d", (int)c->w,
                       (int)c->h);
    int64_t reach = (int64_t)c->rule.radius * c->steps;
    int32_t block = reach * 2 < CC_LIGHTCONE_BLOCK_MIN ? CC_LIGHTCONE_BLOCK_MIN
                    : reach * 2 > 64                 ? 64
                                                     : (int32_t)(reach * 2);
    int plane = c->rule.topology == CC_TOPOLOGY_PLANE;
    axis ax = axis_of(c->w, block, reach, plane), ay = axis_of(c->h, block, reach, plane);
    double per_cell = (double)cc_rule_max_count(&c->rule);
    double visits_per_block = (double)c->steps * (double)ax.len * (double)ay.len * per_cell;
    anchors list = {0};
    int rc = plan(c, opt, &ax, &ay, visits_per_block, &list, err);
    block_result *out = rc ? NULL : calloc(list.n, sizeof *out);
    if (!rc && !out) rc = cc_fail(err, CC_ERR_NOMEM, "light cones: cannot allocate %zu results", list.n);
    if (rc) {
        free(list.a);
        return rc;
    }
    const long n = (long)list.n;
#pragma omp parallel for schedule(dynamic, 1)
    for (long i = 0; i < n; i++) check_block(c, initial, engine_final, &ax, &ay, &list.a[i], &out[i]);
    res->block = ax.block > ay.block ? ax.block : ay.block;
    for (long i = 0; i < n && !rc; i++) {
        if (out[i].rc) {
            *err = out[i].err;
            rc = out[i].rc;
            break;
        }
        res->blocks++;
        res->cells += (uint64_t)ax.block * (uint64_t)ay.block;
        res->classes |= list.a[i].classes;
        res->visits += visits_per_block;
        if (out[i].differing && res->differing == 0) {
            res->x = out[i].x;
            res->y = out[i].y;
            res->engine_value = out[i].engine_value;
            res->oracle_value = out[i].oracle_value;
        }
        res->differing += out[i].differing;
    }
    free(out);
    free(list.a);
    return rc;
}

void cc_seam_classes_describe(uint32_t mask, char *buf, size_t size) {
    static const char *const names[CC_SEAM_CLASS_COUNT] = {
        "torus corner", "torus x seam", "torus y seam", "far end",
        "tile x seams", "tile y seams", "tile corners", "random", "device seams",
        "device corners"};
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < CC_SEAM_CLASS_COUNT; i++) {
        if (!(mask & (1u << i))) continue;
        int k = snprintf(buf + used, size > used ? size - used : 0, "%s%s", used ? ", " : "",
                         names[i]);
        if (k < 0 || used + (size_t)k >= size) break;
        used += (size_t)k;
    }
}
