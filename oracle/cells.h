/* Whole-grid passes over cell arrays (copy, fill, compare, copy with a 0/1 check) that stay fast
 * past 2^32 cells: chunked, on every core from 2^24 cells, a memcmp or a word at a time inside
 * a chunk. The supervisor moves every grid through them, the harness compares with them. */
#ifndef CELLCHECK_ORACLE_CELLS_H
#define CELLCHECK_ORACLE_CELLS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void cc_cells_copy(uint8_t *to, const uint8_t *from, size_t n);
void cc_cells_fill(uint8_t *to, int value, size_t n);

/* Cells where a and b differ; the first of them in *first (n when none; first may be NULL). */
size_t cc_cells_count_differing(const uint8_t *a, const uint8_t *b, size_t n, size_t *first);

/* Copies n cells, counting those that are neither 0 nor 1 (the first in *first, n when none). */
size_t cc_cells_copy_checked(uint8_t *to, const uint8_t *from, size_t n, size_t *first);

/* The first cell that is neither 0 nor 1, or n when every cell is 0 or 1. */
size_t cc_cells_first_not_binary(const uint8_t *cells, size_t n);

/* Grids packed a bit a cell (cell i is bit i % 64 of word i / 64), an eighth of their bytes: a
 * grid past 2^32 cells kept beside the one the worker holds. cells must be 0 or 1. */
void cc_cells_pack(uint64_t *bits, const uint8_t *cells, size_t n);
/* Cells first .. first+n-1 of a packed grid. */
void cc_cells_unpack(uint8_t *cells, const uint64_t *bits, size_t first, size_t n);
/* Cells that differ from a packed grid's (any that is neither 0 nor 1 does); the first of them
 * in *first (n when none; first may be NULL). */
size_t cc_cells_count_differing_packed(const uint8_t *cells, const uint64_t *bits, size_t n,
                                       size_t *first);

#ifdef __cplusplus
}
#endif

#endif
