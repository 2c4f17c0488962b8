/* The whole-grid passes against plain byte loops, on sizes that cross the chunk and the
 * parallel threshold, with differences and bad cells placed at both ends and mid-word. */
#include "oracle/cells.h"

#include <stdlib.h>
#include <string.h>

#include "testing/check.h"

#define BIG (((size_t)1 << 24) + ((size_t)1 << 22) + 13) /* parallel, several chunks, a tail */

static size_t plain_differing(const uint8_t *a, const uint8_t *b, size_t n, size_t *first) {
    size_t count = 0;
    *first = n;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            if (count++ == 0) *first = i;
        }
    return count;
}

static void differing_at(checks *t, size_t n, const size_t *where, int count) {
    uint8_t *a = calloc(n, 1), *b = calloc(n, 1);
    if (!CHECK(t, a && b)) goto done;
    for (size_t i = 0; i < n; i++) a[i] = b[i] = (uint8_t)((i * 2654435761u) >> 31 & 1);
    for (int k = 0; k < count; k++) b[where[k]] ^= 1;
    size_t want_first, got_first = 12345;
    size_t want = plain_differing(a, b, n, &want_first);
    CHECK_EQ(t, (long long)cc_cells_count_differing(a, b, n, &got_first), (long long)want);
    CHECK_EQ(t, (long long)got_first, (long long)want_first);
    CHECK_EQ(t, (long long)want, count); /* the places are distinct */
done:
    free(a);
    free(b);
}

static void copy_checked_at(checks *t, size_t n, const size_t *where, int count) {
    uint8_t *from = calloc(n, 1), *to = malloc(n);
    if (!CHECK(t, from && to)) goto done;
    for (size_t i = 0; i < n; i++) from[i] = (uint8_t)(i % 3 == 0);
    for (int k = 0; k < count; k++) from[where[k]] = (uint8_t)(2 + k);
    size_t first = 7;
    CHECK_EQ(t, (long long)cc_cells_copy_checked(to, from, n, &first), count);
    CHECK_EQ(t, (long long)first, count ? (long long)where[0] : (long long)n);
    CHECK(t, memcmp(to, from, n) == 0);
    CHECK_EQ(t, (long long)cc_cells_first_not_binary(from, n), count ? (long long)where[0] : (long long)n);
done:
    free(from);
    free(to);
}

/* Packing against bit i of word i / 64, unpacking from offsets that are and are not whole bytes,
 * and the packed comparison against the plain one, a cell of 2 counted as differing. */
static void packed_at(checks *t, size_t n, const size_t *where, int count) {
    size_t words = (n + 63) / 64;
    uint8_t *cells = calloc(n, 1), *back = malloc(n), *other = malloc(n);
    uint64_t *bits = malloc(words * 8);
    if (!CHECK(t, cells && back && other && bits)) goto done;
    for (size_t i = 0; i < n; i++) cells[i] = (uint8_t)((i * 2654435761u) >> 29 & 1);
    memset(bits, 0xa5, words * 8);
    cc_cells_pack(bits, cells, n);
    size_t wrong_bits = 0;
    for (size_t i = 0; i < n; i++) wrong_bits += (size_t)((bits[i / 64] >> (i % 64) & 1) != cells[i]);
    CHECK_EQ(t, (long long)wrong_bits, 0);
    const size_t offsets[] = {0, 1, 7, 8, 63, 64, 65};
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0] && offsets[o] < n; o++) {
        size_t from = offsets[o], len = n - from;
        memset(back, 9, n);
        cc_cells_unpack(back, bits, from, len);
        CHECK(t, memcmp(back, cells + from, len) == 0);
    }
    memcpy(other, cells, n);
    for (int k = 0; k < count; k++) other[where[k]] = k == 1 ? 2 : (uint8_t)(other[where[k]] ^ 1);
    size_t want_first, got_first = 12345;
    size_t want = plain_differing(other, cells, n, &want_first);
    CHECK_EQ(t, (long long)cc_cells_count_differing_packed(other, bits, n, &got_first),
             (long long)want);
    CHECK_EQ(t, (long long)got_first, (long long)want_first);
    CHECK_EQ(t, (long long)want, count);
done:
    free(cells);
    free(back);
    free(other);
    free(bits);
}

int main(void) {
    checks t = {"cells_test", 0, 0};
    const size_t sizes[] = {1, 7, 8, 9, 128, 4099, BIG};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        differing_at(&t, n, NULL, 0);
        size_t last[] = {n - 1};
        differing_at(&t, n, last, 1);
        copy_checked_at(&t, n, NULL, 0);
        copy_checked_at(&t, n, last, 1);
        if (n > 8) {
            /* The first in a later chunk than a second one would be if order were lost. */
            size_t several[] = {3, n / 2 + 1, n - 2};
            differing_at(&t, n, several, 3);
            copy_checked_at(&t, n, several, 3);
            packed_at(&t, n, several, 3);
        }
        packed_at(&t, n, NULL, 0);
        packed_at(&t, n, last, 1);
    }
    uint8_t *buf = malloc(BIG);
    if (CHECK(&t, buf != NULL)) {
        cc_cells_fill(buf, 1, BIG);
        CHECK_EQ(&t, (long long)cc_cells_first_not_binary(buf, BIG), (long long)BIG);
        uint8_t *copy = malloc(BIG);
        if (CHECK(&t, copy != NULL)) {
            buf[BIG - 1] = 0;
            cc_cells_copy(copy, buf, BIG);
            CHECK(&t, memcmp(copy, buf, BIG) == 0);
        }
        free(copy);
    }
    free(buf);
    return check_summary(&t);
}
