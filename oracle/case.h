/* A case is (rule, W, H, steps, density, seed): everything needed to rebuild its initial grid and
 * its verdict on any machine. It prints as one line that `cellcheck check --case` takes back:
 *
 *   rule=R5,C2,M0,S34..58,B34..45,NM size=64x48 steps=3 density=0.2500 seed=<64 hex digits>
 */
#ifndef CELLCHECK_ORACLE_CASE_H
#define CELLCHECK_ORACLE_CASE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/error.h"
#include "oracle/grid.h"
#include "oracle/rule.h"

#define CC_SEED_BYTES 32
#define CC_CASE_TEXT_MAX 256

typedef struct cc_case {
    cc_rule rule;
    int32_t w, h;
    int64_t steps;
    double density; /* in [0, 1]; a cell is alive iff its 16-bit draw < round(density * 65536) */
    uint8_t seed[CC_SEED_BYTES];
} cc_case;

/* The initial grid: W*H 16-bit little-endian draws from randombytes_buf_deterministic(seed),
 * row-major, one per cell. Streamed in chunks, so the largest grids need no W*H*2 buffer. */
int case_grid(const cc_case *c, cc_grid *out, cc_error *err);

/* Bytes offset .. offset+len-1 of the stream randombytes_buf_deterministic(buf, n, seed) writes
 * for any n > offset+len (ChaCha20-IETF, nonce "LibsodiumDRG"). offset must be a multiple of 64. */
int case_stream(const uint8_t seed[CC_SEED_BYTES], uint64_t offset, uint8_t *buf, size_t len,
                cc_error *err);

/* The alive threshold for a density: round(density * 65536), so 0 is all dead and 1 all alive. */
uint32_t case_density_threshold(double density);

/* Case i of a campaign: seed = BLAKE2b-256(master || i as 8 little-endian bytes). */
void case_seed_derive(const uint8_t master[CC_SEED_BYTES], uint64_t i, uint8_t out[CC_SEED_BYTES]);

int case_format(const cc_case *c, char *buf, size_t size, cc_error *err);
int case_parse(const char *line, cc_case *out, cc_error *err);

int case_seed_parse_hex(const char *hex, uint8_t out[CC_SEED_BYTES], cc_error *err);
void case_seed_format_hex(const uint8_t seed[CC_SEED_BYTES], char out[2 * CC_SEED_BYTES + 1]);

#endif
