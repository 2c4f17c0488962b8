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
 * h = 0, 1): B is the rows' windows, lane (g, t) holding word e - 1 + t of row y(g) of the 8
 * (runsum_mma_row_of_column: y(n) = n / 2 + 4 (n % 2), rows 0, 4, 1, 5, ...; k = 32 t + i is
 * column 32 (e - 2) + k); row m of A is the band of the word's column x(h, m) = 16 h + m
 * (runsum_mma_column_of), A[m][k] = 1 iff |k - 32 - x| <= r. r <= 32 keeps every window in words
 * e - 1 .. e + 1. With y and x so, the 32 lanes of one result register hold 8 adjacent columns of
 * 4 adjacent rows, and the counts one table load reads lie close together: fewer bank conflicts
 * (below).
 *
 * Chunks. 32 rows are 4 such groups q; their sums, at most 2r + 1 <= 65, packed as s8
 * (runsum_mma_pack) into the vertical pass's A registers, no value moving between lanes:
 * a0 = (d0, d1 of q 0, d0, d1 of q 1), a1 = (d2, d3 of q 0, of q 1), a2 and a3 the same of q 2 and
 * 3. Slot k of the vertical A (byte k % 4 of register k / 4 ...) then holds chunk row
 * runsum_mma_slot_row(k).
 *
 * Counts. Output rows come 8 at a time (group gp of an iteration's 32): for each m-tile, one
 * m16n8k32 s8 MMA per chunk within r (runsum_mma_chunk_used: chunk ch of an iteration holds rows
 * 32 (ch - 1) .. 32 ch - 1 of it), by B[k][n] = 1 iff |row of slot k - (8 gp + y(n))| <= r
 * (runsum_mma_column_band). d then holds the raw counts, the centre included: lane (g, t) has
 * columns x(m, g), x(m, g + 8) of rows 8 gp + y(2t), y(2t + 1) (register 2 hh + b:
 * x(m, g + 8 hh), row 8 gp + t + 4 b). So the lanes of one register hold 8 adjacent columns of
 * 4 adjacent rows.
 *
 * The rule, by lookup. Four tables of a byte a raw count (runsum_mma_table_build, from
 * runsum_mma_rule's tests): table j holds S's bit (alive: the next state) at bit 7 - j and B's
 * (dead) at 3 - j. Cell i (0 .. 31) of a lane adds entry raw of table i % 4 into byte i / 4 of its
 * own: a load and half a three-way add a cell, the table's offset a constant of the instruction
 * (the tables sit a stride apart that the kernel's reach fixes). Byte i / 4 then holds S's bits of
 * cells 4 (i / 4) .. + 3 in its high nibble and B's in its low one; runsum_mma_words_of_bytes
 * turns the 8 bytes into the S word and the B word, cell i at bit 31 - i of each. Shared memory
 * serves 32 banks of 4 bytes at once; a load's lanes conflict where their counts lie in different
 * words of one bank, 128 or more apart: Table VI's rule at r = 16 after 100 steps takes 1.27
 * passes a load with 8 adjacent columns of 4 adjacent rows, 1.44 with 8 columns of rows 2 apart,
 * 2.16 with 8 columns 4 apart (H200, ncu).
 *
 * Words. A lane's cell (gp, b, m, hh) sits at bit 16 m + 8 hh + 2 gp + b of its words
 * (runsum_mma_bit_of_cell; i = 31 - that bit). Three exchanges (bit s of the lane with bit s - 2
 * of the word, s = 2, 3, 4) leave lane 4 (2 gp + b) + t with row 8 gp + t + 4 b
 * (runsum_mma_row_of_lane), bit 16 m + 8 hh + g = its column: the grid's own word, whose cells
 * keep S where alive and B where dead.
 *
 * The cross. The chunks hold each cell's own bit (the row band of radius 0), so the counts are the
 * vertical arms; the first vertical MMA of each group starts from the horizontal arms of its 8
 * output rows instead of 0: a binary MMA of the band of radius r by those rows' words, whose D
 * (row m of A: column x(h, m); column n of B: row 8 gp + y(n)) is laid out as the vertical D.
 * raw is then the two arms, the centre in both, as runsum_program.h's cross counts it (raw max
 * 4r + 2). */
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
static inline RUNSUM_HD int32_t runsum_mma_column_of(int h, int m) { return 16 * h + m; }

/* The bit of a lane's words, before the exchanges, of its cell of group gp, register 2 hh + b of
 * m-tile m: the exchanges then bring bits 0 .. 2 (gp, b) to the lane and its g to them. */
static inline RUNSUM_HD int runsum_mma_bit_of_cell(int gp, int b, int m, int hh) {
    return 16 * m + 8 * hh + 2 * gp + b;
}

/* The row (0 .. 7) of a group of 8 that column n of a B operand (lane g = n) holds, and its
 * inverse: n = 2 t + b holds row t + 4 b, so that a result register's lanes (one b, t = 0 .. 3)
 * hold 4 adjacent rows. */
static inline RUNSUM_HD int runsum_mma_row_of_column(int n) { return (n >> 1) + 4 * (n & 1); }
static inline RUNSUM_HD int runsum_mma_column_of_row(int y) { return 2 * (y & 3) + (y >> 2); }

/* Row (0 .. 31) of a chunk held in slot k of the vertical A. */
static inline RUNSUM_HD int32_t runsum_mma_slot_row(int k) {
    const int n = 2 * ((k >> 2) & 3) + (k & 1); /* the row-sum MMA's column */
    return 16 * (k >> 4) + 8 * ((k & 3) >> 1) + runsum_mma_row_of_column(n);
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
        const int32_t dy = runsum_mma_slot_row(16 * s + 4 * t + i) + 32 * (ch - 1) -
                           (8 * gp + runsum_mma_row_of_column(g));
        if (dy >= -r && dy <= r) v |= 1u << (8 * i);
    }
    return v;
}

/* Four sums (0 .. 127) as the bytes of an s8 register, the first lowest. */
static inline RUNSUM_HD uint32_t runsum_mma_pack(int32_t v0, int32_t v1, int32_t v2, int32_t v3) {
#ifdef __CUDA_ARCH__
    /* two packs of two (d = c's low half, a, b from the top), not three multiply-adds */
    uint32_t high, d;
    asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(high) : "r"(v3), "r"(v2), "r"(0));
    asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(v1), "r"(v0), "r"(high));
    return d;
#else
    return ((uint32_t)v3 * 256u + (uint32_t)v2) * 65536u + ((uint32_t)v1 * 256u + (uint32_t)v0);
#endif
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

/* Exchange s (2, 3, 4) swaps bit s of the lane with bit s - 2 of the word: the bits of its word a
 * lane keeps (those whose bit s - 2 equals the lane's bit s), which are also where what it
 * receives goes. */
static inline RUNSUM_HD uint32_t runsum_mma_exchange_keep(int lane, int s) {
    const uint32_t low = s == 2 ? 0x55555555u : s == 3 ? 0x33333333u : 0x0f0f0f0fu;
    return ((lane >> s) & 1) ? ~low : low;
}

/* The row (0 .. 31 of an iteration) lane holds after the exchanges. */
static inline RUNSUM_HD int32_t runsum_mma_row_of_lane(int lane) {
    return 8 * (lane >> 3) + runsum_mma_row_of_column(2 * (lane & 3) + ((lane >> 2) & 1));
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

/* Bit 31: raw in S; bit 15: raw in B; the other bits are not defined. raw * 0x10001 + K puts
 * raw + K_lo in the low half and raw + K_hi in the high one, no carry between them (raw <= 4225);
 * with K = 0x8000 - threshold, bit 15 or 31 says raw >= threshold, and x_lo & ~x_hi is in the
 * range. */
static inline RUNSUM_HD uint32_t runsum_mma_sets(const runsum_mma_rule *p, int32_t raw) {
    const uint32_t x = (uint32_t)raw * 0x10001u;
    uint32_t in = 0;
    RUNSUM_UNROLL
    for (int q = 0; q < CC_SET_MAX_RANGES; q++)
        if (q < p->pairs) in |= (x + p->k_lo[q]) & ~(x + p->k_hi[q]);
    return in;
}

/* The reach of the kernel that takes radius r (8, 16, 24, 32): chunks none of whose rows lie
 * within it of a group take no MMA, and it fixes the tables' stride. */
static inline RUNSUM_HD int32_t runsum_mma_reach(int32_t r) {
    return r <= 8 ? 8 : r <= 16 ? 16 : r <= 24 ? 24 : 32;
}

#define RUNSUM_MMA_TABLES 4

/* Bytes a table for the kernel of that reach: every raw count up to Moore's largest there (the
 * cross's is smaller), rounded up to 16 bytes so that the tables copy as 16-byte words. */
static inline RUNSUM_HD int32_t runsum_mma_table_stride(int32_t reach) {
    const int32_t counts = (2 * reach + 1) * (2 * reach + 1) + 1;
    return (counts + 15) / 16 * 16;
}

/* The RUNSUM_MMA_TABLES tables, `stride` bytes apart: byte raw of table j is S's bit at 7 - j,
 * B's at 3 - j, for raw 0 .. raw_max; 0 past it. */
void runsum_mma_table_build(const runsum_mma_rule *rule, int32_t raw_max, int32_t stride,
                            uint8_t *tables);

/* The bytes of the tables the kernel for radius r reads, and the tables of a rule (thresholds of
 * runsum_rule_build) for geometry g, as that kernel reads them (the stride of its reach). */
static inline size_t runsum_mma_tables_bytes(int32_t r) {
    return (size_t)RUNSUM_MMA_TABLES * (size_t)runsum_mma_table_stride(runsum_mma_reach(r));
}
void runsum_mma_tables_of_rule(const runsum_rule *rule, const runsum_geometry *g, uint8_t *tables);

/* A lane's S and B words from its 8 bytes (byte k: S's bits of cells 4k .. 4k + 3 at bits
 * 7 .. 4, B's at 3 .. 0): cell i at bit 31 - i of each. x holds the even bytes from the top,
 * y the odd ones, so the S word is x's high nibbles with y's beside them. */
static inline RUNSUM_HD void runsum_mma_words_of_bytes(const uint32_t acc[8], uint32_t *stays,
                                                       uint32_t *born) {
#ifdef __CUDA_ARCH__
    const uint32_t x = __byte_perm(__byte_perm(acc[6], acc[4], 0x0040),
                                   __byte_perm(acc[2], acc[0], 0x0040), 0x5410);
    const uint32_t y = __byte_perm(__byte_perm(acc[7], acc[5], 0x0040),
                                   __byte_perm(acc[3], acc[1], 0x0040), 0x5410);
#else
    const uint32_t x = acc[0] << 24 | acc[2] << 16 | acc[4] << 8 | acc[6];
    const uint32_t y = acc[1] << 24 | acc[3] << 16 | acc[5] << 8 | acc[7];
#endif
    *stays = (x & 0xf0f0f0f0u) | (y >> 4 & 0x0f0f0f0fu);
    *born = (x << 4 & 0xf0f0f0f0u) | (y & 0x0f0f0f0fu);
}

#ifdef __cplusplus
}
#endif

#endif
