/* Band matrices on the tensor cores, the second count of cuda.runsum (band_mma.cuh; where it is
 * the faster: runsum_kernels.h) and of its CPU counterpart cpu.runsum-mma-emu. The
 * words are those of runsum_program.h (32 cells, a halo word each side of a row, rows mod H); on
 * the device they lie in columns, word e of row y at e H + y, so that a warp's 32 rows of one word
 * are 128 contiguous bytes (rows of words cost 2.1x: a store a row, each its own sector). What a
 * lane of a warp holds is fixed here, for the device and the host alike; the MMAs are those of
 * cat1_program.h (the PTX fragment layouts: lane = 4 g + t; an s32 result d0 (row g, column 2t),
 * d1 (g, 2t+1), d2 (g+8, 2t), d3 (g+8, 2t+1)).
 *
 * Row sums. For the word e of columns 32 (e - 1) .. and 8 rows, two m16n8k128 .b1 MMAs (m-tiles
 * h = 0, 1): B is the rows' windows, lane (g, t) holding word e - 1 + t of row g (k = 32 t + i is
 * column 32 (e - 2) + k); row m of A is the band of the word's column x(h, m) = 4 (m % 8) + 2 h +
 * m / 8 (runsum_mma_column_of), A[m][k] = 1 iff |k - 32 - x| <= r. r <= 32 keeps every window in
 * words e - 1 .. e + 1. The order of the columns is the one the exchanges below need.
 *
 * Chunks. 32 rows are 4 such groups q; their sums, at most 2r + 1 <= 65, packed as s8
 * (runsum_mma_pack) into the vertical pass's A registers, no value moving between lanes:
 * a0 = (d0, d1 of q 0, d0, d1 of q 1), a1 = (d2, d3 of q 0, of q 1), a2 and a3 the same of q 2 and
 * 3. Slot k of the vertical A (byte k % 4 of register k / 4 ...) then holds chunk row
 * runsum_mma_slot_row(k).
 *
 * Counts. Output rows come 8 at a time (group gp of an iteration's 32): for each m-tile, one
 * m16n8k32 s8 MMA per chunk within r (runsum_mma_chunk_used: chunk ch of an iteration holds rows
 * 32 (ch - 1) .. 32 ch - 1 of it), by B[k][n] = 1 iff |row of slot k - (8 gp + n)| <= r
 * (runsum_mma_column_band). d then holds the raw counts, the centre included: lane (g, t) has
 * columns x(m, g), x(m, g + 8) of rows 8 gp + 2t, + 1.
 *
 * The rule (runsum_mma_rule). raw * 0x10001 + K puts raw + K_lo in the low half and raw + K_hi in
 * the high one, no carry between them (raw <= 4225); with K = 0x8000 - threshold, bit 15 or 31 says
 * raw >= threshold. Two such multiply-adds test S's range in the high half and B's in the low, and
 * one logic op x_lo & ~x_hi leaves bit 31 = in S, bit 15 = in B.
 *
 * Words. A lane puts its 32 cells' bits into two words (S and B), cell (gp, b, m, hh) at bit
 * 8 gp + 4 b + 2 m + hh (register 2 hh + b of m-tile m: column x(m, g + 8 hh), row 8 gp + 2 t + b):
 * on the device, 16 cells' test results (bits 31 and 15, the rest masked off) each shifted down to
 * their place and added into a half word, S's half and B's half then split by two byte permutes.
 * Three exchanges (bit s of the lane with bit s of the word, s = 2, 3, 4) leave lane 4 (2 gp + b) + t
 * with row 8 gp + 2 t + b (runsum_mma_row_of_lane), bit 4 g + 2 m + hh = its column: the grid's
 * own word, whose cells keep S where alive and B where dead.
 *
 * The cross. The chunks hold each cell's own bit (the row band of radius 0), so the counts are the
 * vertical arms; the first vertical MMA of each group starts from the horizontal arms of its 8
 * output rows instead of 0: a binary MMA of the band of radius r by those rows' words, whose D
 * (row m of A: column x(h, m); column n of B: row 8 gp + n) is laid out as the vertical D. raw is
 * then the two arms, the centre in both, as runsum_program.h's cross counts it (raw max 4r + 2). */
#ifndef CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_MMA_PROGRAM_H
#define CELLCHECK_ENGINES_CUDA_RUNSUM_RUNSUM_MMA_PROGRAM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "engines/cuda/runsum/runsum_program.h"
#include "oracle/error.h"

#define RUNSUM_MMA_CHUNK 32 /* rows a chunk, and an iteration */
#define RUNSUM_MMA_RADIUS_MAX 32

/* The word's column of row m (0 .. 15) of m-tile h (0, 1). */
static inline RUNSUM_HD int32_t runsum_mma_column_of(int h, int m) {
    return 4 * (m % 8) + 2 * h + m / 8;
}

/* Row (0 .. 31) of a chunk held in slot k of the vertical A. */
static inline RUNSUM_HD int32_t runsum_mma_slot_row(int k) {
    return 16 * (k >> 4) + 8 * ((k & 3) >> 1) + 2 * ((k >> 2) & 3) + (k & 1);
}

/* Lane (g, t)'s A register of m-tile h for row m (g or g + 8): bit i is k = 32 t + i. */
static inline RUNSUM_HD uint32_t runsum_mma_row_band(int32_t r, int h, int m, int t) {
    const int32_t x = runsum_mma_column_of(h, m);
    uint32_t v = 0;
    for (int i = 0; i < 32; i++) {
        const int32_t dx = 32 * (t - 1) + i - x;
        if (dx >= -r && dx <= r) v |= 1u << i;
    }
    return v;
}

/* Whether chunk ch (rows 32 (ch - 1) .. 32 ch - 1) holds a row within r of output group gp. */
static inline RUNSUM_HD int runsum_mma_chunk_used(int32_t r, int gp, int ch) {
    return 8 * gp - r <= 32 * ch - 1 && 8 * gp + 7 + r >= 32 * (ch - 1);
}

/* Lane (g, t)'s B register s (0, 1) of output group gp and chunk ch: byte i is slot
 * k = 16 s + 4 t + i, column n = g. */
static inline RUNSUM_HD uint32_t runsum_mma_column_band(int32_t r, int gp, int ch, int s, int g,
                                                        int t) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        const int32_t dy = runsum_mma_slot_row(16 * s + 4 * t + i) + 32 * (ch - 1) - (8 * gp + g);
        if (dy >= -r && dy <= r) v |= 1u << (8 * i);
    }
    return v;
}

/* Four sums (0 .. 127) as the bytes of an s8 register, the first lowest. */
static inline RUNSUM_HD uint32_t runsum_mma_pack(int32_t v0, int32_t v1, int32_t v2, int32_t v3) {
    return ((uint32_t)v3 * 256u + (uint32_t)v2) * 65536u + ((uint32_t)v1 * 256u + (uint32_t)v0);
}

/* A lane's four vertical A registers of one m-tile from its row-sum results d[q][i] (register i
 * of the binary MMA of group q): a0 = (d0, d1 of q 0, d0, d1 of q 1), a1 = (d2, d3 of q 0, of
 * q 1), a2 and a3 the same of q 2 and 3. */
static inline RUNSUM_HD void runsum_mma_pack_chunk(const int32_t d[4][4], uint32_t a[4]) {
    RUNSUM_UNROLL
    for (int k = 0; k < 4; k++) {
        const int q = 2 * (k >> 1), i = 2 * (k & 1);
        a[k] = runsum_mma_pack(d[q][i], d[q][i + 1], d[q + 1][i], d[q + 1][i + 1]);
    }
}

/* Exchange s (2, 3, 4) swaps bit s of the lane with bit s of the word: the bits of its word a
 * lane keeps (those whose bit s equals the lane's), which are also where what it receives goes. */
static inline RUNSUM_HD uint32_t runsum_mma_exchange_keep(int lane, int s) {
    const uint32_t low = s == 2 ? 0x0f0f0f0fu : s == 3 ? 0x00ff00ffu : 0x0000ffffu;
    return ((lane >> s) & 1) ? ~low : low;
}

/* The row (0 .. 31 of an iteration) lane holds after the exchanges. */
static inline RUNSUM_HD int32_t runsum_mma_row_of_lane(int lane) {
    return 8 * (lane >> 3) + 2 * (lane & 3) + ((lane >> 2) & 1);
}

/* The rule as pairs of ranges, S's range q and B's range q each (an empty one where a set has
 * fewer): k_lo[q] = (0x8000 - lo of S) << 16 + 0x8000 - lo of B, k_hi[q] the same of hi + 1, raw
 * thresholds clamped to 0 .. raw max + 1. Plain data, passed to kernels. */
typedef struct runsum_mma_rule {
    int32_t pairs;
    uint32_t k_lo[CC_SET_MAX_RANGES];
    uint32_t k_hi[CC_SET_MAX_RANGES];
} runsum_mma_rule;

/* From the thresholds of runsum_rule_build. */
void runsum_mma_rule_build(const runsum_rule *rule, const runsum_geometry *g, runsum_mma_rule *out);

/* Bit 31: raw in S; bit 15: raw in B; the other bits are not defined. */
static inline RUNSUM_HD uint32_t runsum_mma_sets(const runsum_mma_rule *p, int32_t raw) {
    const uint32_t x = (uint32_t)raw * 0x10001u;
    uint32_t in = 0;
    RUNSUM_UNROLL
    for (int q = 0; q < CC_SET_MAX_RANGES; q++)
        if (q < p->pairs) in |= (x + p->k_lo[q]) & ~(x + p->k_hi[q]);
    return in;
}

/* The same for one pair (runsum_rule_single). */
static inline RUNSUM_HD uint32_t runsum_mma_sets_single(const runsum_mma_rule *p, int32_t raw) {
    const uint32_t x = (uint32_t)raw * 0x10001u;
    return (x + p->k_lo[0]) & ~(x + p->k_hi[0]);
}

#ifdef __cplusplus
}
#endif

#endif
