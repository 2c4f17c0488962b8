/* A case is (rule, W, H, steps, density, grid kind, seed): everything needed to rebuild its
 * initial grid and its verdict on any machine. It prints as one line that `cellcheck check --case`
 * takes back:
 *
 *   rule=R5,C2,M0,S34..58,B34..45,NM size=64x48 steps=3 density=0.2500 seed=<64 hex digits>
 *   rule=R5,C2,M0,S34..58,B34..45,NM size=64x48 steps=3 density=0.2500 grid=bands seed=<...>
 *
 * grid= is left out for the uniform kind, so lines written before grid kinds existed still name
 * the same cases.
 */
#ifndef CELLCHECK_ORACLE_CASE_H
#define CELLCHECK_ORACLE_CASE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/rule.h"

/* C++ callers (CUDA engines, ports) see C linkage. */
#ifdef __cplusplus
extern "C" {
#endif

#define CC_SEED_BYTES 32
#define CC_CASE_TEXT_MAX 320

/* How the initial grid is laid out. Uniform soups rarely put a live cell at a word or tile
 * boundary beside an empty word, or leave a whole block dead or alive; the other kinds do. */
typedef enum cc_grid_kind {
    CC_GRID_UNIFORM = 0, /* every cell alive with probability density (the cell draws below) */
    CC_GRID_PATCHES,     /* dead, but for rectangular patches (sides 1..64) covering 5..30% of
                          * the torus, alive inside with probability density */
    CC_GRID_BANDS,       /* dead bands at least 64 cells wide (or side - 1 on shorter axes)
                          * between live bands 1..96 wide of density soup: rows, columns or both
                          * (then live rectangles between dead crosses) */
    CC_GRID_CELLS,       /* dead, but for single live cells, about density * W * H / 64 of them
                          * (at least one when density > 0), each in a column and a row at a word
                          * or tile boundary: k*8-1, k*8, k*32-1, k*32, k*64-1, k*64, k*224-1,
                          * k*224, k*224+1 (mod the side) or the last; one cell in eight has one
                          * of its two coordinates random instead, never both */
    CC_GRID_HOLES,       /* alive, but for dead rectangular holes (sides 1..8, half of them single
                          * cells) covering density / 4 of the torus: at least 3/4 alive */
    CC_GRID_CHECKER,     /* a checkerboard of 2^j x 2^j blocks, j in 0..6, at a drawn phase;
                          * density is not used */
    CC_GRID_KIND_COUNT
} cc_grid_kind;

/* "uniform", "patches", ...; NULL for a value outside the enum. */
const char *case_grid_kind_name(cc_grid_kind kind);

typedef struct cc_case {
    cc_rule rule;
    int32_t w, h;
    int64_t steps;
    double density; /* in [0, 1]; a cell is alive iff its 16-bit draw < round(density * 65536) */
    cc_grid_kind grid_kind; /* 0, the uniform kind, for a zeroed case */
    uint8_t seed[CC_SEED_BYTES];
    /* The OpenMP team the engine runs this case with (threads=N in the line, 1..CC_CASE_THREADS_MAX):
     * not the automaton's, which the oracle ignores, but the run's, so that a verdict that
     * depends on it is reproduced anywhere. 0: the worker's default, not written. */
    int32_t threads;
    /* How the worker disturbs a GPU engine's timing between streams while it runs this case
     * (timing=A+B+... in the line, CC_TIMING_* below): like threads, a setting of the run, part
     * of the line so that a verdict that depends on it is reproduced. 0: undisturbed, not
     * written. */
    uint32_t timing;
    /* Where the worker puts load's input and store's output for the engine (buffers=N or
     * buffers=guard in the line, CC_BUFFERS_* below): like threads and timing, a setting of the
     * run, part of the line so that a verdict that depends on it is reproduced. 0: the shared
     * grid, page-aligned between guard bands, not written. */
    int32_t buffers;
} cc_case;

#define CC_CASE_THREADS_MAX 1024

/* The disturbances of timing=, each a word of the line. The worker keeps a background load on
 * the engine's devices and, for load and store, hands the engine a host buffer of its own
 * (pageable unless `pinned`), overwritten as soon as load returns. */
enum {
    CC_TIMING_LEGACY = 1u,  /* "legacy": a kernel on a blocking stream before each call, so that
                             * work on the legacy default stream waits behind it */
    CC_TIMING_COPIES = 2u,  /* "copies": large host-to-device and device-to-host copies on a
                             * non-blocking stream, occupying the copy engines */
    CC_TIMING_KERNEL = 4u,  /* "kernel": a kernel occupying the multiprocessors, on a
                             * non-blocking stream */
    CC_TIMING_DELAYS = 8u,  /* "delays": a short pause (up to 200 us) before each call */
    CC_TIMING_PINNED = 16u  /* "pinned": load and store get page-locked host memory */
};
#define CC_TIMING_ALL 31u
#define CC_TIMING_TEXT_MAX 48 /* "legacy+copies+kernel+delays+pinned" and its NUL */

/* "legacy+copies+pinned" for a set of CC_TIMING_* bits ("" for 0); CC_ERR_ARG for bits outside
 * CC_TIMING_ALL. */
int case_timing_format(uint32_t timing, char *buf, size_t size, cc_error *err);
/* The bits of such a text; CC_ERR_ARG naming an unknown or repeated word. */
int case_timing_parse(const char *text, uint32_t *timing, cc_error *err);

/* The placements of buffers=: N in 1..CC_BUFFERS_ALIGN puts both buffers N bytes past a 64-byte
 * boundary (N = 64: aligned to 64, not to a page) inside a larger allocation, guard bands around
 * them; CC_BUFFERS_GUARD ("guard") ends each right before an unmapped page, so one byte read or
 * written past the last cell faults. timing=pinned, whose buffers are page-locked memory of the
 * disturbance's, takes no buffers= beside it. */
#define CC_BUFFERS_ALIGN 64
#define CC_BUFFERS_GUARD (CC_BUFFERS_ALIGN + 1)
#define CC_BUFFERS_TEXT_MAX 96

/* "17" or "guard" for a placement ("" for 0); CC_ERR_ARG outside 0..CC_BUFFERS_GUARD. */
int case_buffers_format(int32_t buffers, char *buf, size_t size, cc_error *err);
/* What a placement is, for messages: "buffers=17: 17 bytes past a 64-byte boundary" ("" for 0). */
void case_buffers_describe(int32_t buffers, char *buf, size_t size);
/* The placement of a text: 1..64 or guard; CC_ERR_ARG naming what it takes otherwise. */
int case_buffers_parse(const char *text, int32_t *buffers, cc_error *err);

/* The initial grid. Cell (x, y)'s draw is the 16-bit little-endian value at byte 2*(y*W + x) of
 * randombytes_buf_deterministic(seed): the uniform kind is these draws alone; patches and bands
 * keep them inside their live regions. Every structure (patch and hole places, band widths, cell
 * places, the checker's block and phase) comes from a second stream, keyed by
 * BLAKE2b-256(seed || "grid"). Streamed in chunks, so the largest grids need no buffer beyond the
 * grid itself (bands and cells use W + H bytes more). */
int case_grid(const cc_case *c, cc_grid *out, cc_error *err);

/* Cells first .. first+n-1 (row-major) of a uniform case's grid, exactly as case_grid gives
 * them, drawn from the seed without the rest: so a grid too large to hold twice is written in
 * place and compared piece by piece. CC_ERR_UNSUPPORTED for the other kinds, whose structure
 * spans the grid. */
int case_grid_cells(const cc_case *c, uint64_t first, uint8_t *out, size_t n, cc_error *err);

/* Bytes offset .. offset+len-1 of the stream randombytes_buf_deterministic(buf, n, seed) writes
 * for any n > offset+len (ChaCha20-IETF, nonce "LibsodiumDRG"). offset must be a multiple of 64. */
int case_stream(const uint8_t seed[CC_SEED_BYTES], uint64_t offset, uint8_t *buf, size_t len,
                cc_error *err);

/* A stream of 32-bit values: randombytes_buf_deterministic keyed by BLAKE2b-256(seed || label),
 * read in 64-byte blocks, little-endian. */
typedef struct cc_param_stream {
    uint8_t key[CC_SEED_BYTES];
    uint8_t block[64];
    size_t pos;
    uint64_t offset;
} cc_param_stream;

int case_param_init(cc_param_stream *ps, const uint8_t seed[CC_SEED_BYTES], const char *label,
                    cc_error *err);
uint32_t case_param_u32(cc_param_stream *ps);
/* Uniform in 0 .. n-1 (n >= 1; 0 for n <= 1), without modulo bias. */
uint32_t case_param_uniform(cc_param_stream *ps, uint32_t n);

/* The alive threshold for a density: round(density * 65536), so 0 is all dead and 1 all alive. */
uint32_t case_density_threshold(double density);

/* Case i of a campaign: seed = BLAKE2b-256(master || i as 8 little-endian bytes). */
void case_seed_derive(const uint8_t master[CC_SEED_BYTES], uint64_t i, uint8_t out[CC_SEED_BYTES]);

int case_format(const cc_case *c, char *buf, size_t size, cc_error *err);
int case_parse(const char *line, cc_case *out, cc_error *err);

int case_seed_parse_hex(const char *hex, uint8_t out[CC_SEED_BYTES], cc_error *err);
void case_seed_format_hex(const uint8_t seed[CC_SEED_BYTES], char out[2 * CC_SEED_BYTES + 1]);

#ifdef __cplusplus
}
#endif

#endif
