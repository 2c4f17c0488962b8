/* The row slabs of a torus over several devices, and their halos (slabs.h). */
#include "engines/slabs/slabs.h"

#include <stdlib.h>

int32_t cc_slabs_first_row(int32_t h, int32_t devices, int32_t d) {
    return (int32_t)((int64_t)d * h / devices);
}

int32_t cc_slabs_owner(const cc_slabs *s, int32_t y) {
    /* The d with cc_slabs_first_row(d) <= y < cc_slabs_first_row(d + 1); the estimate is off by at most one. */
    int32_t d = (int32_t)(((int64_t)y * s->devices + s->devices - 1) / s->h);
    if (d >= s->devices) d = s->devices - 1;
    while (d > 0 && cc_slabs_first_row(s->h, s->devices, d) > y) d--;
    while (d + 1 < s->devices && cc_slabs_first_row(s->h, s->devices, d + 1) <= y) d++;
    return d;
}

/* Appends the pieces that fill buffer rows dst .. dst + n - 1, global rows from y on. */
static void add_run(cc_slabs *s, cc_slab *to, int32_t dst, int32_t y, int32_t n) {
    while (n > 0) {
        y %= s->h;
        const int32_t src = cc_slabs_owner(s, y);
        const cc_slab *from = &s->slab[src];
        int32_t take = from->y0 + from->rows - y;
        if (take > n) take = n;
        to->piece[to->pieces++] =
            (cc_slab_piece){dst, src, s->halo + (y - from->y0), take};
        dst += take;
        y += take;
        n -= take;
    }
}

int cc_slabs_cut(int32_t h, int32_t devices, int32_t halo, cc_slabs *out, cc_error *err) {
    if (h < 1) return cc_fail(err, CC_ERR_ARG, "slabs: %d rows; at least 1", (int)h);
    if (devices < 1) return cc_fail(err, CC_ERR_ARG, "slabs: %d devices; at least 1", (int)devices);
    if (halo < 0) return cc_fail(err, CC_ERR_ARG, "slabs: a halo of %d rows", (int)halo);
    cc_slabs s = {h, devices, halo, NULL, NULL};
    s.slab = calloc((size_t)devices, sizeof *s.slab);
    /* A run of halo rows splits at most once per slab it crosses and once at the wrap. */
    const int64_t per_side = (int64_t)halo + devices + 1;
    s.pieces = calloc((size_t)(2 * per_side * devices), sizeof *s.pieces);
    if (!s.slab || !s.pieces) {
        cc_slabs_free(&s);
        return cc_fail(err, CC_ERR_NOMEM, "slabs: cannot allocate the cut of %d rows over %d "
                                          "devices",
                       (int)h, (int)devices);
    }
    for (int32_t d = 0; d < devices; d++) {
        s.slab[d].y0 = cc_slabs_first_row(h, devices, d);
        s.slab[d].rows = cc_slabs_first_row(h, devices, d + 1) - s.slab[d].y0;
        s.slab[d].piece = s.pieces + 2 * per_side * d;
    }
    for (int32_t d = 0; d < devices; d++) {
        cc_slab *sl = &s.slab[d];
        if (sl->rows == 0 || halo == 0) continue;
        /* Above: global rows y0 - halo .. y0 - 1; below: y0 + rows .. y0 + rows + halo - 1. */
        const int64_t above = ((int64_t)sl->y0 - halo) % h + h;
        add_run(&s, sl, 0, (int32_t)(above % h), halo);
        add_run(&s, sl, halo + sl->rows, (sl->y0 + sl->rows) % h, halo);
    }
    *out = s;
    return CC_OK;
}

void cc_slabs_free(cc_slabs *s) {
    free(s->slab);
    free(s->pieces);
    s->slab = NULL;
    s->pieces = NULL;
}
