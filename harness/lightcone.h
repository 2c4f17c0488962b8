/* Light-cone verification of grids too large for the oracle to step whole.
 *
 * After k steps a cell depends only on the initial cells within r*k of it (on the torus). So the
 * oracle can recompute a block of B x B cells from a window of (B + 2rk) x (B + 2rk) initial
 * cells, stepped k times as a torus of its own: what wraps wrongly at the window's edges travels
 * inwards r cells a step and never reaches the block. Where B + 2rk covers a whole side, the
 * window takes that whole side and the torus along it is the grid's own.
 *
 * Blocks are placed on every seam class first (the torus seams and corner, the far end of the
 * grid where offsets are largest, every declared tile seam or an even spread of them, tile
 * corners, every seam between devices' slabs and its corner on the torus), then at random positions drawn from the case seed, until the cell target or the
 * oracle-work budget is reached. Blocks are checked in parallel (OpenMP); the verdict and the
 * first mismatch do not depend on the number of threads. */
#ifndef CELLCHECK_HARNESS_LIGHTCONE_H
#define CELLCHECK_HARNESS_LIGHTCONE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/case.h"
#include "oracle/error.h"
#include "oracle/grid.h"

/* Seam classes a block can cover (bits of cc_lightcone_result.classes). */
enum {
    CC_SEAM_TORUS_CORNER = 1u << 0, /* straddles (0,0): all four torus edges at once */
    CC_SEAM_TORUS_X = 1u << 1,      /* straddles the column seam x = 0 / W-1 */
    CC_SEAM_TORUS_Y = 1u << 2,      /* straddles the row seam y = 0 / H-1 */
    CC_SEAM_FAR_END = 1u << 3,      /* the last cells of the grid: the largest offsets */
    CC_SEAM_TILE_X = 1u << 4,       /* straddles a column seam between tiles */
    CC_SEAM_TILE_Y = 1u << 5,       /* straddles a row seam between tiles */
    CC_SEAM_TILE_CORNER = 1u << 6,  /* straddles a corner where four tiles meet */
    CC_SEAM_RANDOM = 1u << 7,       /* anywhere */
    CC_SEAM_DEVICE_Y = 1u << 8,     /* straddles a row seam between two devices' slabs */
    CC_SEAM_DEVICE_CORNER = 1u << 9 /* where a device seam meets the torus's column seam */
};
#define CC_SEAM_CLASS_COUNT 10

typedef struct cc_lightcone_options {
    int32_t tile_w, tile_h;  /* the engine's declared block geometry; 0: none */
    uint64_t cells_target;   /* cells to verify; 0: CC_LIGHTCONE_DEFAULT_CELLS */
    double visits_budget;    /* oracle cell-neighbour visits to spend at most on random blocks
                              * (seam blocks are always checked); 0: no bound */
    int32_t max_seams;       /* tile seams per axis checked, evenly spread; 0: 32 */
    int32_t devices;         /* an engine over several devices: the rows are cut into slabs as
                              * engines/slabs does over min(devices, H), and every seam between
                              * two slabs is checked, at a random column and at the torus's
                              * column seam; 0 or 1: one device */
} cc_lightcone_options;

#define CC_LIGHTCONE_DEFAULT_CELLS 100000
#define CC_LIGHTCONE_BLOCK_MIN 16 /* block sides run from 16 to 64 cells, twice r*k between */

typedef struct cc_lightcone_result {
    uint64_t cells;      /* cells verified */
    uint64_t blocks;
    int32_t block;       /* block side B */
    uint32_t classes;    /* CC_SEAM_* covered */
    double visits;       /* oracle work spent */
    uint64_t differing;  /* verified cells where the engine differs */
    int32_t x, y;        /* the first differing cell (lowest block, then row-major) */
    uint8_t engine_value, oracle_value;
} cc_lightcone_result;

/* Verifies engine_final (the engine's grid after c->steps steps from initial, the case's initial
 * grid) on light-cone windows. Returns CC_OK when the check ran (res->differing says whether it
 * passed); another code when it could not (memory). */
int cc_lightcone_verify(const cc_case *c, const cc_grid *initial, const cc_grid *engine_final,
                        const cc_lightcone_options *opt, cc_lightcone_result *res, cc_error *err);

/* The same in two halves, for a grid too large to hold twice: the windows' initial cells come
 * from source (cells first .. first+n-1, row-major, of the case's initial grid) and only the
 * oracle's blocks are kept, so the engine's grid can later take the initial grid's place. */
typedef int (*cc_cells_source)(void *arg, uint64_t first, uint8_t *out, size_t n, cc_error *err);
typedef struct cc_lightcones cc_lightcones;
int cc_lightcone_prepare(const cc_case *c, cc_cells_source source, void *arg,
                         const cc_lightcone_options *opt, cc_lightcones **out, cc_error *err);
/* The same from the case's whole initial grid. */
int cc_lightcone_prepare_grid(const cc_case *c, const cc_grid *initial,
                              const cc_lightcone_options *opt, cc_lightcones **out, cc_error *err);
/* engine_final: the engine's W x H cells after c->steps steps. */
void cc_lightcone_compare(const cc_lightcones *lc, const uint8_t *engine_final,
                          cc_lightcone_result *res);
void cc_lightcone_free(cc_lightcones *lc);

/* The prepared light cones as bytes (*out, the caller frees it), and back for the same case, so
 * that the oracle's blocks can be kept (oracle_cache.h); decode refuses bytes that do not fit the
 * case with CC_ERR_ARG. */
int cc_lightcone_encode(const cc_lightcones *lc, uint8_t **out, size_t *len, cc_error *err);
int cc_lightcone_decode(const cc_case *c, const uint8_t *bytes, size_t len, cc_lightcones **out,
                        cc_error *err);

/* "torus corner, torus x, ..." for the classes in mask, into buf. */
void cc_seam_classes_describe(uint32_t mask, char *buf, size_t size);

#endif
