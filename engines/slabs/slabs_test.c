/* The cut against hand-counted slabs and halos, and against its definition (every halo row of
 * every device holds global row y0 - halo + i modulo H, from the device that owns it) for every
 * H up to 40, up to 9 devices and halos up to 13: thin slabs, empty slabs and halos longer than
 * the torus included. */
#include "engines/slabs/slabs.h"

#include <stdio.h>

#include "testing/check.h"

static void hand_counted(checks *t) {
    cc_slabs s;
    cc_error err;
    if (!CHECKF(t, cc_slabs_cut(10, 3, 2, &s, &err) == CC_OK, "%s", err.msg)) return;
    /* Rows 0..2, 3..5, 6..9. */
    CHECK_EQ(t, s.slab[0].y0, 0);
    CHECK_EQ(t, s.slab[0].rows, 3);
    CHECK_EQ(t, s.slab[1].y0, 3);
    CHECK_EQ(t, s.slab[1].rows, 3);
    CHECK_EQ(t, s.slab[2].y0, 6);
    CHECK_EQ(t, s.slab[2].rows, 4);
    /* Device 0: above, rows 8 and 9 (device 2's buffer rows 4, 5); below, rows 3, 4 (device 1's
     * buffer rows 2, 3), into its buffer rows 5, 6. */
    CHECK_EQ(t, s.slab[0].pieces, 2);
    const cc_slab_piece *p = s.slab[0].piece;
    CHECK(t, p[0].dst_row == 0 && p[0].src_device == 2 && p[0].src_row == 4 && p[0].count == 2);
    CHECK(t, p[1].dst_row == 5 && p[1].src_device == 1 && p[1].src_row == 2 && p[1].count == 2);
    /* Device 2: below wraps to rows 0 and 1 of device 0 (buffer rows 2, 3). */
    p = s.slab[2].piece;
    CHECK(t, p[1].dst_row == 6 && p[1].src_device == 0 && p[1].src_row == 2 && p[1].count == 2);
    cc_slabs_free(&s);

    /* Slabs thinner than the halo: 5 rows over 4 devices (1, 1, 1, 2), halo 3. Device 1 owns
     * row 1; above it are rows 3, 4 (device 3's buffer rows 3, 4) and 0 (device 0's row 3);
     * below, row 2 (device 2) and rows 3, 4 (device 3). */
    if (!CHECKF(t, cc_slabs_cut(5, 4, 3, &s, &err) == CC_OK, "%s", err.msg)) return;
    CHECK_EQ(t, s.slab[3].y0, 3);
    CHECK_EQ(t, s.slab[3].rows, 2);
    p = s.slab[1].piece;
    CHECK_EQ(t, s.slab[1].pieces, 4);
    CHECK(t, p[0].dst_row == 0 && p[0].src_device == 3 && p[0].src_row == 3 && p[0].count == 2);
    CHECK(t, p[1].dst_row == 2 && p[1].src_device == 0 && p[1].src_row == 3 && p[1].count == 1);
    CHECK(t, p[2].dst_row == 4 && p[2].src_device == 2 && p[2].src_row == 3 && p[2].count == 1);
    CHECK(t, p[3].dst_row == 5 && p[3].src_device == 3 && p[3].src_row == 3 && p[3].count == 2);
    cc_slabs_free(&s);
}

static void refusals(checks *t) {
    cc_slabs s;
    cc_error err;
    CHECK_REFUSED(t, cc_slabs_cut(0, 2, 1, &s, &err), &err, "0 rows", "no rows");
    CHECK_REFUSED(t, cc_slabs_cut(8, 0, 1, &s, &err), &err, "0 devices", "no devices");
    CHECK_REFUSED(t, cc_slabs_cut(8, 2, -1, &s, &err), &err, "halo of -1", "a negative halo");
}

static void every_small_cut(checks *t) {
    long cuts = 0, wrong = 0;
    for (int32_t h = 1; h <= 40; h++)
        for (int32_t devices = 1; devices <= 9; devices++)
            for (int32_t halo = 0; halo <= 13; halo++) {
                cc_slabs s;
                cc_error err;
                if (!CHECKF(t, cc_slabs_cut(h, devices, halo, &s, &err) == CC_OK, "%s", err.msg))
                    return;
                cuts++;
                int bad = 0;
                int32_t next = 0;
                for (int32_t d = 0; d < devices; d++) {
                    const cc_slab *sl = &s.slab[d];
                    bad |= sl->y0 != next || sl->rows < h / devices || sl->rows > h / devices + 1;
                    next += sl->rows;
                    for (int32_t y = sl->y0; y < sl->y0 + sl->rows; y++)
                        bad |= cc_slabs_owner(&s, y) != d;
                    if (sl->rows == 0) {
                        bad |= sl->pieces != 0;
                        continue;
                    }
                    /* Each buffer row of the halo filled exactly once, with the right row. */
                    int filled[2 * 13 + 40] = {0};
                    for (int32_t k = 0; k < sl->pieces; k++) {
                        const cc_slab_piece *p = &sl->piece[k];
                        const cc_slab *src = &s.slab[p->src_device];
                        for (int32_t i = 0; i < p->count; i++) {
                            const int32_t dst = p->dst_row + i, from = p->src_row + i;
                            const int32_t want = (int32_t)((((int64_t)sl->y0 - halo + dst) % h + h) % h);
                            bad |= from < halo || from >= halo + src->rows;
                            bad |= src->y0 + (from - halo) != want;
                            bad |= (dst >= halo && dst < halo + sl->rows) || dst < 0 ||
                                   dst >= 2 * halo + sl->rows;
                            if (dst >= 0 && dst < 2 * 13 + 40) filled[dst]++;
                        }
                    }
                    for (int32_t i = 0; i < 2 * halo + sl->rows; i++)
                        bad |= filled[i] != (i < halo || i >= halo + sl->rows ? 1 : 0);
                }
                bad |= next != h;
                if (bad && wrong++ < 3)
                    fprintf(stderr, "the cut of %d rows over %d devices, halo %d, is wrong\n",
                            (int)h, (int)devices, (int)halo);
                cc_slabs_free(&s);
            }
    printf("%ld cuts checked, %ld wrong\n", cuts, wrong);
    CHECK_EQ(t, wrong, 0);
    CHECK_EQ(t, cuts, 40L * 9 * 14);
}

int main(void) {
    checks t = {"slabs_test", 0, 0};
    hand_counted(&t);
    refusals(&t);
    every_small_cut(&t);
    return check_summary(&t);
}
