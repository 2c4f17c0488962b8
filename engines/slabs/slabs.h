/* How an engine over several devices cuts a W x H torus into row slabs, one a device, and where
 * each slab's halo rows come from. The engines use it to exchange halos; the harness uses the same
 * cut to put its seams where the devices meet.
 *
 * Device d owns rows [d H / D, (d + 1) H / D) (rounded down), so heights differ by at most one
 * and a device owns no row when H < D. Its buffer holds `halo` rows above its own and `halo`
 * below: buffer row i is global row y0 - halo + i, modulo H. A halo may reach past the next slab
 * (slabs thinner than the halo) and around the torus, so each halo is a list of pieces, runs of
 * rows copied from one device's own rows. */
#ifndef CELLCHECK_ENGINES_SLABS_SLABS_H
#define CELLCHECK_ENGINES_SLABS_SLABS_H

#include <stdint.h>

#include "oracle/error.h"

/* count rows of the source device's buffer from src_row on go to this device's buffer from
 * dst_row on. */
typedef struct cc_slab_piece {
    int32_t dst_row, src_device, src_row, count;
} cc_slab_piece;

typedef struct cc_slab {
    int32_t y0, rows;     /* the global rows it owns: y0 .. y0 + rows - 1 */
    int32_t pieces;       /* its halo, above then below (0 when it owns no row) */
    cc_slab_piece *piece; /* into cc_slabs.pieces */
} cc_slab;

typedef struct cc_slabs {
    int32_t h, devices, halo;
    cc_slab *slab; /* devices of them */
    cc_slab_piece *pieces;
} cc_slabs;

/* The cut of h rows over `devices` devices with `halo` rows either side. CC_ERR_ARG for h < 1,
 * devices < 1 or halo < 0 (each named); CC_ERR_NOMEM. *out is valid only on CC_OK. */
int cc_slabs_cut(int32_t h, int32_t devices, int32_t halo, cc_slabs *out, cc_error *err);
void cc_slabs_free(cc_slabs *s);

/* The first row device d owns in a cut of h rows over `devices` (d = devices: h). */
int32_t cc_slabs_first_row(int32_t h, int32_t devices, int32_t d);

/* The device owning global row y (0 <= y < h). */
int32_t cc_slabs_owner(const cc_slabs *s, int32_t y);

#endif
