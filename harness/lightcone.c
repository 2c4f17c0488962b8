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

struct cc_lightcones {
    cc_case c;
    axis ax, ay;
    anchors list;
    uint8_t *want; /* the oracle's block of each anchor, ax.block x ay.block cells each */
    double visits_per_block;
};

/* Row gy's cells at window columns 0..ax->len-1, in runs of consecutive grid columns. */
static int window_row(const axis *ax, int32_t x0, int32_t gy, cc_cells_source source, void *arg,
                      uint8_t *dst, cc_error *err) {
    const uint64_t row = (uint64_t)gy * (uint64_t)ax->side;
    for (int32_t i = 0; i < ax->len;) {
        int32_t gx = window_to_grid(ax, x0, i), run = 1;
        while (i + run < ax->len && window_to_grid(ax, x0, i + run) == gx + run) run++;
        int rc = source(arg, row + (uint64_t)gx, dst + i, (size_t)run, err);
        if (rc) return rc;
        i += run;
    }
    return CC_OK;
}

/* The oracle's block of anchor an: its window from source, stepped k times. */
static void oracle_block(const cc_lightcones *lc, const anchor *an, cc_cells_source source,
                         void *arg, uint8_t *want, block_result *out) {
    const axis *ax = &lc->ax, *ay = &lc->ay;
    memset(out, 0, sizeof *out);
    cc_grid cur = {0}, next = {0};
    int rc = cc_grid_alloc(&cur, ax->len, ay->len, &out->err);
    if (!rc && lc->c.steps > 0) rc = cc_grid_alloc(&next, ax->len, ay->len, &out->err);
    for (int32_t j = 0; j < ay->len && !rc; j++)
        rc = window_row(ax, an->x0, window_to_grid(ay, an->y0, j), source, arg,
                        cur.cells + (size_t)j * (size_t)ax->len, &out->err);
    for (int64_t s = 0; s < lc->c.steps && !rc; s++) {
        rc = oracle_step(&lc->c.rule, &cur, &next, &out->err);
        uint8_t *t = cur.cells;
        cur.cells = next.cells;
        next.cells = t;
    }
    if (!rc) {
        for (int32_t j = 0; j < ay->block; j++) {
            int32_t wy = block_to_window(ay, an->y0, j);
            for (int32_t i = 0; i < ax->block; i++)
                want[(size_t)j * (size_t)ax->block + (size_t)i] =
                    cur.cells[(size_t)wy * (size_t)ax->len + (size_t)block_to_window(ax, an->x0, i)];
        }
    }
    out->rc = rc;
    cc_grid_free(&cur);
    cc_grid_free(&next);
}

/* Light cones of case c with their windows' geometry and no blocks yet; NULL: out of memory. */
static cc_lightcones *lightcones_of(const cc_case *c) {
    cc_lightcones *lc = calloc(1, sizeof *lc);
    if (!lc) return NULL;
    lc->c = *c;
    int64_t reach = (int64_t)c->rule.radius * c->steps;
    int32_t block = reach * 2 < CC_LIGHTCONE_BLOCK_MIN ? CC_LIGHTCONE_BLOCK_MIN
                    : reach * 2 > 64                 ? 64
                                                     : (int32_t)(reach * 2);
    int plane = c->rule.topology == CC_TOPOLOGY_PLANE;
    lc->ax = axis_of(c->w, block, reach, plane);
    lc->ay = axis_of(c->h, block, reach, plane);
    double per_cell = (double)cc_rule_max_count(&c->rule);
    lc->visits_per_block = (double)c->steps * (double)lc->ax.len * (double)lc->ay.len * per_cell;
    return lc;
}

int cc_lightcone_prepare(const cc_case *c, cc_cells_source source, void *arg,
                         const cc_lightcone_options *opt, cc_lightcones **out, cc_error *err) {
    *out = NULL;
    if (!c || !source || !opt) return cc_fail(err, CC_ERR_ARG, "light cones: no case, cells or options");
    cc_lightcones *lc = lightcones_of(c);
    if (!lc) return cc_fail(err, CC_ERR_NOMEM, "light cones: out of memory");
    int rc = plan(c, opt, &lc->ax, &lc->ay, lc->visits_per_block, &lc->list, err);
    const size_t per_block = (size_t)lc->ax.block * (size_t)lc->ay.block, n = lc->list.n;
    block_result *res = NULL;
    if (!rc) {
        lc->want = malloc(n * per_block);
        res = calloc(n, sizeof *res);
        if (!lc->want || !res)
            rc = cc_fail(err, CC_ERR_NOMEM, "light cones: cannot allocate %zu blocks", n);
    }
    if (!rc) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long i = 0; i < (long)n; i++)
            oracle_block(lc, &lc->list.a[i], source, arg, lc->want + (size_t)i * per_block, &res[i]);
        for (size_t i = 0; i < n && !rc; i++)
            if (res[i].rc) *err = res[i].err, rc = res[i].rc;
    }
    free(res);
    if (rc) {
        cc_lightcone_free(lc);
        return rc;
    }
    *out = lc;
    return CC_OK;
}

void cc_lightcone_compare(const cc_lightcones *lc, const uint8_t *engine_final,
                          cc_lightcone_result *res) {
    memset(res, 0, sizeof *res);
    const axis *ax = &lc->ax, *ay = &lc->ay;
    const size_t per_block = (size_t)ax->block * (size_t)ay->block;
    res->block = ax->block > ay->block ? ax->block : ay->block;
    for (size_t b = 0; b < lc->list.n; b++) {
        const anchor *an = &lc->list.a[b];
        const uint8_t *want = lc->want + b * per_block;
        res->blocks++;
        res->cells += per_block;
        res->classes |= an->classes;
        res->visits += lc->visits_per_block;
        for (int32_t j = 0; j < ay->block; j++) {
            int32_t gy = wrap((int64_t)an->y0 + j, ay->side); /* on the plane, within it */
            const uint8_t *row = engine_final + (size_t)gy * (size_t)ax->side;
            for (int32_t i = 0; i < ax->block; i++) {
                int32_t gx = wrap((int64_t)an->x0 + i, ax->side);
                uint8_t w = want[(size_t)j * (size_t)ax->block + (size_t)i], got = row[gx];
                if (got != w && res->differing++ == 0) {
                    res->x = gx;
                    res->y = gy;
                    res->engine_value = got;
                    res->oracle_value = w;
                }
            }
        }
    }
}

void cc_lightcone_free(cc_lightcones *lc) {
    if (!lc) return;
    free(lc->list.a);
    free(lc->want);
    free(lc);
}

/* The encoding: the block count, each anchor's x0, y0 and classes, then the blocks' cells, one
 * bit each (little-endian words of 32 bits throughout). */
static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int cc_lightcone_encode(const cc_lightcones *lc, uint8_t **out, size_t *len, cc_error *err) {
    const size_t cells = lc->list.n * (size_t)lc->ax.block * (size_t)lc->ay.block;
    *len = 4 + 12 * lc->list.n + (cells + 7) / 8;
    uint8_t *p = *out = calloc(1, *len);
    if (!p) return cc_fail(err, CC_ERR_NOMEM, "light cones: cannot encode %zu blocks", lc->list.n);
    put32(p, (uint32_t)lc->list.n);
    for (size_t i = 0; i < lc->list.n; i++) {
        put32(p + 4 + 12 * i, (uint32_t)lc->list.a[i].x0);
        put32(p + 8 + 12 * i, (uint32_t)lc->list.a[i].y0);
        put32(p + 12 + 12 * i, lc->list.a[i].classes);
    }
    uint8_t *bits = p + 4 + 12 * lc->list.n;
    for (size_t i = 0; i < cells; i++) bits[i / 8] |= (uint8_t)((lc->want[i] & 1u) << (i % 8));
    return CC_OK;
}

int cc_lightcone_decode(const cc_case *c, const uint8_t *bytes, size_t len, cc_lightcones **out,
                        cc_error *err) {
    *out = NULL;
    cc_lightcones *lc = lightcones_of(c);
    if (!lc) return cc_fail(err, CC_ERR_NOMEM, "light cones: out of memory");
    const size_t n = len >= 4 ? get32(bytes) : 0, per_block = (size_t)lc->ax.block * (size_t)lc->ay.block;
    int bad = len < 4 || n == 0 || n > (len - 4) / 12 || len != 4 + 12 * n + (n * per_block + 7) / 8;
    if (!bad) {
        lc->list.a = malloc(n * sizeof *lc->list.a);
        lc->want = malloc(n * per_block);
        if (!lc->list.a || !lc->want) {
            cc_lightcone_free(lc);
            return cc_fail(err, CC_ERR_NOMEM, "light cones: cannot decode %zu blocks", n);
        }
        lc->list.n = lc->list.cap = n;
    }
    for (size_t i = 0; i < n && !bad; i++) {
        anchor *an = &lc->list.a[i];
        an->x0 = (int32_t)get32(bytes + 4 + 12 * i);
        an->y0 = (int32_t)get32(bytes + 8 + 12 * i);
        an->classes = get32(bytes + 12 + 12 * i);
        bad = an->x0 < 0 || an->x0 >= c->w || an->y0 < 0 || an->y0 >= c->h;
    }
    if (bad) {
        cc_lightcone_free(lc);
        return cc_fail(err, CC_ERR_ARG, "light cones: an encoding that does not fit the case");
    }
    const uint8_t *bits = bytes + 4 + 12 * n;
    for (size_t i = 0; i < n * per_block; i++) lc->want[i] = (bits[i / 8] >> (i % 8)) & 1u;
    *out = lc;
    return CC_OK;
}

static int grid_source(void *arg, uint64_t first, uint8_t *out, size_t n, cc_error *err) {
    (void)err;
    memcpy(out, ((const cc_grid *)arg)->cells + first, n);
    return CC_OK;
}

int cc_lightcone_prepare_grid(const cc_case *c, const cc_grid *initial,
                              const cc_lightcone_options *opt, cc_lightcones **out, cc_error *err) {
    *out = NULL;
    if (!c || !initial || !opt) return cc_fail(err, CC_ERR_ARG, "light cones: no case, grid or options");
    if (initial->w != c->w || initial->h != c->h)
        return cc_fail(err, CC_ERR_ARG, "light cones: the grid is not the case's %dx%d", (int)c->w,
                       (int)c->h);
    return cc_lightcone_prepare(c, grid_source, (void *)initial, opt, out, err);
}

int cc_lightcone_verify(const cc_case *c, const cc_grid *initial, const cc_grid *engine_final,
                        const cc_lightcone_options *opt, cc_lightcone_result *res, cc_error *err) {
    memset(res, 0, sizeof *res);
    if (!engine_final || (c && (engine_final->w != c->w || engine_final->h != c->h)))
        return cc_fail(err, CC_ERR_ARG, "light cones: the engine's grid is not the case's size");
    cc_lightcones *lc;
    int rc = cc_lightcone_prepare_grid(c, initial, opt, &lc, err);
    if (rc) return rc;
    cc_lightcone_compare(lc, engine_final->cells, res);
    cc_lightcone_free(lc);
    return CC_OK;
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
