/* The PNG writer: known CRC-32 and Adler-32 values, and images read back by an independent
 * walk of the chunks and the stored deflate blocks. */
#include "harness/png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/gridio.h"
#include "testing/check.h"

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A bitwise CRC-32 written out differently from the encoder's: the table-free MSB-first form
 * of the reflected polynomial would differ, so this uses a 256-entry table. */
static uint32_t crc_table_crc(const uint8_t *data, size_t len) {
    uint32_t table[256];
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[n] = c;
    }
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < len; i++) c = table[(c ^ data[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

typedef struct decoded {
    uint32_t w, h;
    int colour_type, depth;
    uint8_t palette[768];
    int colours;
    uint8_t *raw; /* filter byte + pixels per row */
    size_t raw_len;
    int blocks;
} decoded;

/* Walks the file: signature, chunks with CRCs, IHDR, PLTE, IDAT's zlib header, stored blocks
 * with LEN/NLEN, Adler-32, IEND last. Returns 0 on any inconsistency. */
static int decode(const uint8_t *png, size_t len, decoded *d) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memset(d, 0, sizeof *d);
    if (len < 8 || memcmp(png, sig, 8) != 0) return 0;
    size_t pos = 8;
    uint8_t *idat = NULL;
    size_t idat_len = 0;
    int saw_iend = 0;
    while (pos + 12 <= len) {
        uint32_t n = be32(png + pos);
        if (pos + 12 + n > len) return 0;
        const uint8_t *type = png + pos + 4, *body = png + pos + 8;
        if (be32(body + n) != crc_table_crc(type, n + 4)) return 0;
        if (!memcmp(type, "IHDR", 4)) {
            d->w = be32(body);
            d->h = be32(body + 4);
            d->depth = body[8];
            d->colour_type = body[9];
        } else if (!memcmp(type, "PLTE", 4)) {
            memcpy(d->palette, body, n);
            d->colours = (int)(n / 3);
        } else if (!memcmp(type, "IDAT", 4)) {
            idat = realloc(idat, idat_len + n);
            memcpy(idat + idat_len, body, n);
            idat_len += n;
        } else if (!memcmp(type, "IEND", 4)) {
            saw_iend = 1;
        }
        pos += 12 + n;
    }
    if (!saw_iend || pos != len || !idat || idat_len < 6) return 0;
    if (idat[0] != 0x78 || ((idat[0] << 8) | idat[1]) % 31 != 0) return 0;
    size_t z = 2;
    d->raw = malloc(idat_len);
    for (;;) {
        if (z + 5 > idat_len) return 0;
        int final = idat[z] & 1, type = (idat[z] >> 1) & 3;
        uint32_t n = idat[z + 1] | (uint32_t)idat[z + 2] << 8;
        uint32_t nn = idat[z + 3] | (uint32_t)idat[z + 4] << 8;
        if (type != 0 || (n ^ 0xffffu) != nn || z + 5 + n > idat_len) return 0;
        memcpy(d->raw + d->raw_len, idat + z + 5, n);
        d->raw_len += n;
        d->blocks++;
        z += 5 + n;
        if (final) break;
    }
    if (z + 4 != idat_len || be32(idat + z) != png_adler32(d->raw, d->raw_len)) return 0;
    free(idat);
    return 1;
}

static void test_checksums(checks *t) {
    const uint8_t check[] = "123456789";
    CHECKF(t, png_crc32(check, 9) == 0xcbf43926u, "crc32 %08x", png_crc32(check, 9));
    const uint8_t wiki[] = "Wikipedia";
    CHECKF(t, png_adler32(wiki, 9) == 0x11e60398u, "adler32 %08x", png_adler32(wiki, 9));
    CHECKF(t, png_adler32(NULL, 0) == 1, "adler32 of nothing");
    /* Adler-32 sums wrap at 65521: 100000 bytes of 0xff. */
    uint8_t *ff = malloc(100000);
    memset(ff, 0xff, 100000);
    uint64_t a = 1, b = 0;
    for (int i = 0; i < 100000; i++) {
        a = (a + 255) % 65521;
        b = (b + a) % 65521;
    }
    CHECKF(t, png_adler32(ff, 100000) == (uint32_t)(b << 16 | a), "adler32 wrap");
    CHECKF(t, png_crc32(ff, 100000) == crc_table_crc(ff, 100000), "crc32 long");
    free(ff);
}

static void test_encode(checks *t, int32_t w, int32_t h, int want_blocks) {
    uint8_t *pixels = malloc((size_t)w * (size_t)h);
    for (int32_t i = 0; i < w * h; i++) pixels[i] = (uint8_t)((i * 7 + i / w) % 3);
    const uint8_t rgb[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    uint8_t *png = NULL;
    size_t len = 0;
    cc_error err;
    int rc = png_encode_indexed(pixels, w, h, rgb, 3, &png, &len, &err);
    CHECKF(t, rc == CC_OK, "%s", err.msg);
    decoded d;
    int ok = rc == CC_OK && decode(png, len, &d);
    CHECKF(t, ok, "%dx%d does not decode", (int)w, (int)h);
    if (ok) {
        CHECKF(t, d.w == (uint32_t)w && d.h == (uint32_t)h && d.depth == 8 && d.colour_type == 3,
               "header");
        CHECKF(t, d.colours == 3 && memcmp(d.palette, rgb, 9) == 0, "palette");
        CHECKF(t, d.blocks == want_blocks, "%d stored blocks, want %d", d.blocks, want_blocks);
        CHECKF(t, d.raw_len == (size_t)h * ((size_t)w + 1), "raw length %zu", d.raw_len);
        int same = 1;
        for (int32_t y = 0; y < h && same; y++) {
            same &= d.raw[(size_t)y * (w + 1)] == 0;
            same &= !memcmp(d.raw + (size_t)y * (w + 1) + 1, pixels + (size_t)y * w, (size_t)w);
        }
        CHECKF(t, same, "pixels differ after a round trip");
        free(d.raw);
        printf("png %dx%d: %zu bytes, %d stored block(s), decodes to the same pixels\n", (int)w,
               (int)h, len, d.blocks);
    }
    free(png);
    free(pixels);
}

static void test_diff_file(checks *t, const char *dir) {
    cc_grid engine, oracle;
    cc_error err;
    cc_grid_alloc(&engine, 2, 2, &err);
    cc_grid_alloc(&oracle, 2, 2, &err);
    /* (0,0) both alive, (1,0) engine only, (0,1) oracle only, (1,1) both dead. */
    engine.cells[0] = 1, oracle.cells[0] = 1;
    engine.cells[1] = 1;
    oracle.cells[2] = 1;
    char path[1024];
    snprintf(path, sizeof path, "%s/diff_test.png", dir);
    int rc = png_write_diff(path, &engine, &oracle, &err);
    CHECKF(t, rc == CC_OK, "%s", err.msg);
    char *text = NULL;
    size_t len = 0;
    rc = rc ? rc : cc_read_file(path, &text, &len, &err);
    decoded d;
    if (CHECKF(t, rc == CC_OK && decode((const uint8_t *)text, len, &d), "cannot read back %s: %s",
               path, err.msg)) {
        int32_t s = png_diff_scale(2, 2);
        CHECKF(t, s == 16 && d.w == 32 && d.h == 32, "scale %d, %ux%u", (int)s, d.w, d.h);
        /* Pixel (x, y) of the picture is raw[y * (w + 1) + 1 + x]. */
        uint8_t tl = d.raw[1], tr = d.raw[1 + 16], bl = d.raw[16 * 33 + 1],
                br = d.raw[31 * 33 + 1 + 31];
        CHECKF(t,
               tl == PNG_DIFF_BOTH_ALIVE && tr == PNG_DIFF_ENGINE_ONLY &&
                   bl == PNG_DIFF_ORACLE_ONLY && br == PNG_DIFF_BOTH_DEAD,
               "pixels %d %d %d %d", tl, tr, bl, br);
        const uint8_t *p = d.palette;
        CHECKF(t, p[0] == 255 && p[1] == 255 && p[2] == 255, "both dead is white");
        CHECKF(t, p[3] == p[4] && p[4] == p[5] && p[3] < 128, "both alive is dark grey");
        CHECKF(t, p[6] > 128 && p[7] < 64 && p[8] < 64, "engine only is red");
        CHECKF(t, p[8 + 3] > 128 && p[6 + 3] < 64, "oracle only is blue");
        free(d.raw);
        printf("difference picture %s: 32x32, the four colours where expected\n", path);
    }
    free(text);
    cc_grid_free(&engine);
    cc_grid_free(&oracle);
    CHECKF(t,
           png_diff_scale(1000, 10) == 1 && png_diff_scale(100, 3) == 2 &&
               png_diff_scale(3, 3) == 16,
           "scales");
    cc_grid other;
    cc_grid_alloc(&other, 3, 2, &err);
    cc_grid_alloc(&engine, 2, 2, &err);
    cc_error_clear(&err);
    CHECKF(t, png_write_diff(path, &engine, &other, &err) != CC_OK && err.msg[0], "size mismatch");
    snprintf(path, sizeof path, "%s/no/such/dir/x.png", dir);
    CHECKF(t, png_write_diff(path, &engine, &engine, &err) == CC_ERR_IO, "unwritable path");
    printf("refused as expected: %s\n", err.msg);
    cc_grid_free(&other);
    cc_grid_free(&engine);
}

int main(void) {
    checks t = {"png_test", 0, 0};
    const char *dir = getenv("TEST_TMPDIR");
    test_checksums(&t);
    test_encode(&t, 1, 1, 1);
    test_encode(&t, 7, 3, 1);
    test_encode(&t, 300, 300, 2); /* 90300 raw bytes: two stored blocks */
    test_encode(&t, 65534, 1, 1); /* exactly 65535 raw bytes: one full block */
    test_encode(&t, 65535, 1, 2); /* one byte more */
    test_diff_file(&t, dir ? dir : "/tmp");
    return check_summary(&t);
}
