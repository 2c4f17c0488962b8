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

/* Eight cells as one word, cell j in byte j, whatever the host's byte order (one load). */
static uint64_t load8(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static void store8(uint8_t *p, uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, 8);
}

/* Bytes of 0 or 1 to their 8 bits: byte j's bit lands at 56 + j and no two products meet. */
static uint8_t pack8(uint64_t w) { return (uint8_t)((w * UINT64_C(0x0102040810204080)) >> 56); }

/* 8 bits to bytes of 0 or 1: byte j keeps bit j of b, which the add carries to its top bit. */
static uint64_t unpack8(uint8_t b) {
    uint64_t x = ((uint64_t)b * UINT64_C(0x0101010101010101)) & UINT64_C(0x8040201008040201);
    return ((x + UINT64_C(0x7f7f7f7f7f7f7f7f)) >> 7) & UINT64_C(0x0101010101010101);
}

static int bit_at(const uint64_t *bits, size_t i) { return (int)(bits[i / 64] >> (i % 64) & 1); }

void cc_cells_pack(uint64_t *bits, const uint8_t *cells, size_t n) {
    size_t chunks = (n + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (n >= PARALLEL_FROM)
    for (size_t c = 0; c < chunks; c++) {
        size_t at = c * CHUNK, end = chunk_end(at, n);
        for (size_t i = at; i < end; i += 64) {
            uint64_t word = 0;
            if (end - i >= 64) {
                for (int b = 0; b < 8; b++) word |= (uint64_t)pack8(load8(cells + i + 8 * b)) << (8 * b);
            } else {
                for (size_t j = 0; j < end - i; j++) word |= (uint64_t)(cells[i + j] & 1) << j;
            }
            bits[i / 64] = word;
        }
    }
}

void cc_cells_unpack(uint8_t *cells, const uint64_t *bits, size_t first, size_t n) {
    size_t chunks = (n + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(static) if (n >= PARALLEL_FROM)
    for (size_t c = 0; c < chunks; c++) {
        size_t at = c * CHUNK, end = chunk_end(at, n), i = at;
        /* Cell by cell up to a byte of the packed grid, then eight at a time. */
        for (; i < end && (first + i) % 8; i++) cells[i] = (uint8_t)bit_at(bits, first + i);
        for (; i + 8 <= end; i += 8) {
            size_t k = first + i;
            store8(cells + i, unpack8((uint8_t)(bits[k / 64] >> (k % 64))));
        }
        for (; i < end; i++) cells[i] = (uint8_t)bit_at(bits, first + i);
    }
}

size_t cc_cells_count_differing_packed(const uint8_t *cells, const uint64_t *bits, size_t n,
                                       size_t *first) {
    size_t chunks = (n + CHUNK - 1) / CHUNK, count = 0, lowest = n;
#pragma omp parallel for schedule(static) reduction(+ : count) reduction(min : lowest) \
    if (n >= PARALLEL_FROM)
    for (size_t c = 0; c < chunks; c++) {
        size_t at = c * CHUNK, end = chunk_end(at, n);
        for (size_t i = at; i < end; i += 64) {
            size_t len = end - i < 64 ? end - i : 64;
            if (len == 64) {
                /* A word of the packed grid against its 64 cells, cell by cell only where one
                 * differs. */
                uint64_t diff = 0, b = bits[i / 64];
                for (int j = 0; j < 8; j++)
                    diff |= load8(cells + i + 8 * j) ^ unpack8((uint8_t)(b >> (8 * j)));
                if (!diff) continue;
            }
            for (size_t j = i; j < i + len; j++)
                if (cells[j] != bit_at(bits, j)) {
                    if (j < lowest) lowest = j;
                    count++;
                }
        }
    }
    if (first) *first = lowest;
    return count;
}
