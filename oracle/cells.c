/* Whole-grid cell passes (cells.h). */
#include "oracle/cells.h"

#include <string.h>

#define CHUNK ((size_t)1 << 22)
#define PARALLEL_FROM ((size_t)1 << 24)
#define HIGH_BITS UINT64_C(0xfefefefefefefefe) /* any bit above a byte's lowest: not 0 or 1 */

static size_t chunk_end(size_t at, size_t n) { return n - at < CHUNK ? n : at + CHUNK; }

void cc_cells_copy(uint8_t *to, const uint8_t *from, size_t n) {
    size_t chunks = (n + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (n >= PARALLEL_FROM)
    for (size_t c = 0; c < chunks; c++) {
        size_t at = c * CHUNK;
        memcpy(to + at, from + at, chunk_end(at, n) - at);
    }
}

void cc_cells_fill(uint8_t *to, int value, size_t n) {
    size_t chunks = (n + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (n >= PARALLEL_FROM)
    for (size_t c = 0; c < chunks; c++) {
        size_t at = c * CHUNK;
        memset(to + at, value, chunk_end(at, n) - at);
    }
}

size_t cc_cells_count_differing(const uint8_t *a, const uint8_t *b, size_t n, size_t *first) {
    size_t chunks = (n + CHUNK - 1) / CHUNK, count = 0, lowest = n;
#pragma omp parallel for schedule(static) reduction(+ : count) reduction(min : lowest) \
    if (n >= PARALLEL_FROM)
    for (size_t c = 0; c < chunks; c++) {
        size_t at = c * CHUNK, end = chunk_end(at, n);
        if (memcmp(a + at, b + at, end - at) == 0) continue;
        for (size_t i = at; i < end; i++)
            if (a[i] != b[i]) {
                if (i < lowest) lowest = i;
                count++;
            }
    }
    if (first) *first = lowest;
    return count;
}

size_t cc_cells_copy_checked(uint8_t *to, const uint8_t *from, size_t n, size_t *first) {
    size_t chunks = (n + CHUNK - 1) / CHUNK, bad = 0, lowest = n;
#pragma omp parallel for schedule(static) reduction(+ : bad) reduction(min : lowest) \
    if (n >= PARALLEL_FROM)
    for (size_t c = 0; c < chunks; c++) {
        size_t at = c * CHUNK, end = chunk_end(at, n), i = at;
        uint64_t high = 0;
        for (; i + 8 <= end; i += 8) {
            uint64_t word;
            memcpy(&word, from + i, 8);
            memcpy(to + i, &word, 8);
            high |= word & HIGH_BITS;
        }
        for (; i < end; i++) {
            to[i] = from[i];
            high |= from[i] & 0xfe;
        }
        if (high)
            for (i = at; i < end; i++)
                if (from[i] > 1) {
                    if (i < lowest) lowest = i;
                    bad++;
                }
    }
    *first = lowest;
    return bad;
}

size_t cc_cells_first_not_binary(const uint8_t *cells, size_t n) {
    size_t i = 0;
    /* A word at a time; the byte loop only where a word holds such a cell, and for the tail. */
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, cells + i, 8);
        if (word & HIGH_BITS) break;
    }
    for (; i < n; i++)
        if (cells[i] > 1) return i;
    return n;
}
