/* The PNG writer: known CRC-32 and Adler-32 values, and images read back by libpng's reader,
 * pixel by pixel. */
#include "harness/png.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "oracle/gridio.h"
#include "testing/check.h"

/* A bitwise CRC-32 written out differently from zlib's: a 256-entry table, byte at a time. */
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
    int colour_type, depth, interlace;
    uint8_t palette[768];
    int colours;
    uint8_t *pixels; /* w * h palette indices, row-major */
    char error[200]; /* why libpng refused the file */
} decoded;

typedef struct source {
    const uint8_t *data;
    size_t len, pos;
} source;

static void source_read(png_structp png, png_bytep out, size_t n) {
    source *s = png_get_io_ptr(png);
    if (n > s->len - s->pos) png_error(png, "read past the end of the file");
    memcpy(out, s->data + s->pos, n);
    s->pos += n;
}

static void decode_error(png_structp png, png_const_charp msg) {
    decoded *d = png_get_error_ptr(png);
    snprintf(d->error, sizeof d->error, "%s", msg);
    png_longjmp(png, 1);
}

/* A warning means the writer produced something odd: the decode fails on it too. */
static void decode_warning(png_structp png, png_const_charp msg) { png_error(png, msg); }

/* libpng's reader alone in a function, so that the setjmp frame changes nothing after it. */
static int read_png(png_structp png, png_infop info, decoded *d) {
    if (setjmp(png_jmpbuf(png))) return 0;
    png_read_info(png, info);
    int filter = 0, compression = 0;
    png_get_IHDR(png, info, &d->w, &d->h, &d->depth, &d->colour_type, &d->interlace,
                 &compression, &filter);
    png_colorp palette = NULL;
    if (png_get_PLTE(png, info, &palette, &d->colours) == PNG_INFO_PLTE)
        for (int i = 0; i < d->colours; i++) {
            d->palette[3 * i] = palette[i].red;
            d->palette[3 * i + 1] = palette[i].green;
            d->palette[3 * i + 2] = palette[i].blue;
        }
    if (d->depth != 8 || d->colour_type != PNG_COLOR_TYPE_PALETTE ||
        d->interlace != PNG_INTERLACE_NONE || png_get_rowbytes(png, info) != d->w)
        png_error(png, "not an 8-bit palette image without interlace");
    d->pixels = malloc((size_t)d->w * d->h);
    if (!d->pixels) png_error(png, "out of memory");
    for (uint32_t y = 0; y < d->h; y++) png_read_row(png, d->pixels + (size_t)y * d->w, NULL);
    png_read_end(png, NULL);
    return 1;
}

/* Decodes a whole PNG held in memory; 0 (and d->error) when libpng refuses it or warns. */
static int decode(const uint8_t *data, size_t len, decoded *d) {
    memset(d, 0, sizeof *d);
    source src = {data, len, 0};
    png_structp png =
        png_create_read_struct(PNG_LIBPNG_VER_STRING, d, decode_error, decode_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(d->error, sizeof d->error, "cannot start libpng");
        return 0;
    }
    png_set_read_fn(png, &src, source_read);
    int ok = read_png(png, info, d) && src.pos == len;
    png_destroy_read_struct(&png, &info, NULL);
    if (ok) return 1;
    if (!d->error[0])
        snprintf(d->error, sizeof d->error, "%zu bytes after IEND", len - src.pos);
    free(d->pixels);
    d->pixels = NULL;
    return 0;
}

/* The length of the first chunk of type in a PNG, or -1. */
static long chunk_len(const uint8_t *png, size_t len, const char type[4]) {
    for (size_t pos = 8; pos + 12 <= len;) {
        size_t n = (size_t)png[pos] << 24 | (size_t)png[pos + 1] << 16 | (size_t)png[pos + 2] << 8 |
                   png[pos + 3];
        if (!memcmp(png + pos + 4, type, 4)) return (long)n;
        pos += 12 + n;
    }
    return -1;
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

/* A w x h image of three colours in a repeating pattern, encoded and decoded by libpng. */
static void test_encode(checks *t, int32_t w, int32_t h) {
    uint8_t *pixels = malloc((size_t)w * (size_t)h);
    for (int32_t i = 0; i < w * h; i++) pixels[i] = (uint8_t)((i * 7 + i / w) % 3);
    const uint8_t rgb[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    uint8_t *png = NULL;
    size_t len = 0;
    cc_error err;
    int rc = png_encode_indexed(pixels, w, h, rgb, 3, &png, &len, &err);
    CHECKF(t, rc == CC_OK, "%s", err.msg);
    decoded d = {.w = 0};
    int ok = rc == CC_OK && decode(png, len, &d);
    CHECKF(t, ok, "%dx%d does not decode: %s", (int)w, (int)h, d.error);
    if (ok) {
        CHECKF(t, d.w == (uint32_t)w && d.h == (uint32_t)h && d.depth == 8 && d.colour_type == 3,
               "header");
        CHECKF(t, d.colours == 3 && memcmp(d.palette, rgb, 9) == 0, "palette");
        CHECKF(t, !memcmp(d.pixels, pixels, (size_t)w * (size_t)h),
               "pixels differ after a round trip");
        /* The pattern repeats: deflate must shrink any image of more than a few hundred pixels. */
        size_t raw = (size_t)h * ((size_t)w + 1);
        long idat = chunk_len(png, len, "IDAT");
        CHECKF(t, raw < 1000 || (idat > 0 && (size_t)idat < raw / 10),
               "IDAT of %ld bytes for %zu bytes of rows: not compressed", idat, raw);
        CHECKF(t, png_crc32(png + 12, 17) == crc_table_crc(png + 12, 17), "IHDR CRC");
        free(d.pixels);
        printf("png %dx%d: %zu bytes (IDAT %ld for %zu bytes of rows), decodes to the same "
               "pixels\n",
               (int)w, (int)h, len, idat, raw);
    }
    free(png);
    free(pixels);
}

/* Bad arguments are refused before libpng; what libpng itself refuses comes back as a message. */
static void test_encode_refused(checks *t) {
    const uint8_t rgb[3] = {0, 0, 0};
    uint8_t one = 0, *png = NULL;
    size_t len = 0;
    cc_error err;
    CHECKF(t, png_encode_indexed(&one, 0, 1, rgb, 1, &png, &len, &err) == CC_ERR_ARG && !png,
           "a 0x1 image");
    CHECKF(t, png_encode_indexed(&one, 1, 1, rgb, 257, &png, &len, &err) == CC_ERR_ARG && !png,
           "257 colours");
    /* Wider than libpng's default limit of a million pixels: its error, through the longjmp. */
    int32_t w = 1000001;
    uint8_t *wide = calloc((size_t)w, 1);
    int rc = png_encode_indexed(wide, w, 1, rgb, 1, &png, &len, &err);
    CHECKF(t, rc == CC_ERR_ARG && !png && strstr(err.msg, "IHDR") && strstr(err.msg, "1000001x1"),
           "libpng's refusal: %d %s", rc, err.msg);
    printf("refused as expected: %s\n", err.msg);
    free(wide);
}

/* One wrong cell of a 251x241 grid: a 128x128 window around it at 4 pixels a cell, the cell
 * red, yellow around it, and the legend beside the picture naming the window. */
static void test_diff_crop(checks *t, const char *dir) {
    cc_grid engine, oracle;
    cc_error err;
    cc_grid_alloc(&engine, 251, 241, &err);
    cc_grid_alloc(&oracle, 251, 241, &err);
    engine.cells[(size_t)200 * 251 + 30] = 1; /* (30,200) */
    png_diff_window win = png_diff_window_of(&engine, &oracle);
    CHECKF(t,
           win.first_x == 30 && win.first_y == 200 && win.x0 == 0 && win.y0 == 241 - 128 &&
               win.w == 128 && win.h == 128 && win.scale == 4,
           "window %d,%d %dx%d x%d, first (%d,%d)", (int)win.x0, (int)win.y0, (int)win.w,
           (int)win.h, (int)win.scale, (int)win.first_x, (int)win.first_y);
    char path[1024], legend[1024];
    snprintf(path, sizeof path, "%s/crop.png", dir);
    snprintf(legend, sizeof legend, "%s/crop.txt", dir);
    int rc = png_write_diff(path, &engine, &oracle, &err);
    char *png = NULL, *text = NULL;
    size_t len = 0, text_len = 0;
    rc = rc ? rc : cc_read_file(path, &png, &len, &err);
    rc = rc ? rc : cc_read_file(legend, &text, &text_len, &err);
    decoded d = {.w = 0};
    if (CHECKF(t, rc == CC_OK && decode((const uint8_t *)png, len, &d), "crop: %s%s", err.msg,
               d.error)) {
        int32_t cx = (30 - win.x0) * 4 + 1, cy = (200 - win.y0) * 4 + 1;
        CHECKF(t, d.w == 512 && d.h == 512, "%ux%u", d.w, d.h);
        CHECKF(t, d.pixels[cy * 512 + cx] == PNG_DIFF_ENGINE_ONLY, "the wrong cell is %d",
               d.pixels[cy * 512 + cx]);
        CHECKF(t, d.pixels[(cy + 8) * 512 + cx + 8] == PNG_DIFF_NEAR &&
                      d.pixels[(cy + 12) * 512 + cx] == PNG_DIFF_BOTH_DEAD,
               "around it: %d two cells off, %d three", d.pixels[(cy + 8) * 512 + cx + 8],
               d.pixels[(cy + 12) * 512 + cx]);
        free(d.pixels);
        CHECKF(t,
               strstr(text, "cells x 0..127, y 113..240 of the 251x241 grid, 4 pixels a cell; "
                            "the first difference at (30,200)") &&
                   strstr(text, "red: alive in the engine's grid only"),
               "legend: %s", text);
        printf("difference picture %s: 512x512 of cells x 0..127, y 113..240, legend beside\n",
               path);
    }
    free(png);
    free(text);
    cc_grid_free(&engine);
    cc_grid_free(&oracle);
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
    decoded d = {.w = 0};
    if (CHECKF(t, rc == CC_OK && decode((const uint8_t *)text, len, &d),
               "cannot read back %s: %s%s", path, err.msg, d.error)) {
        int32_t s = png_diff_scale(2, 2);
        CHECKF(t, s == 32 && d.w == 64 && d.h == 64, "scale %d, %ux%u", (int)s, d.w, d.h);
        /* Pixel (x, y) of the picture is pixels[y * 64 + x]; (1,1), dead in both beside two
         * differences, is drawn as near one. */
        uint8_t tl = d.pixels[0], tr = d.pixels[32], bl = d.pixels[32 * 64],
                br = d.pixels[63 * 64 + 63];
        CHECKF(t,
               tl == PNG_DIFF_BOTH_ALIVE && tr == PNG_DIFF_ENGINE_ONLY &&
                   bl == PNG_DIFF_ORACLE_ONLY && br == PNG_DIFF_NEAR,
               "pixels %d %d %d %d", tl, tr, bl, br);
        const uint8_t *p = d.palette;
        CHECKF(t, p[0] == 255 && p[1] == 255 && p[2] == 255, "both dead is white");
        CHECKF(t, p[3] == p[4] && p[4] == p[5] && p[3] < 128, "both alive is dark grey");
        CHECKF(t, p[6] > 128 && p[7] < 64 && p[8] < 64, "engine only is red");
        CHECKF(t, p[8 + 3] > 128 && p[6 + 3] < 64, "oracle only is blue");
        CHECKF(t, d.colours == 5 && p[12] > 200 && p[13] > 200 && p[14] < 160,
               "near a difference is yellow");
        /* Every pixel: each cell is a 32x32 square of one colour. */
        int squares = 1;
        for (int y = 0; y < 64; y++)
            for (int x = 0; x < 64; x++)
                squares &= d.pixels[y * 64 + x] == d.pixels[(y / 32) * 32 * 64 + (x / 32) * 32];
        CHECKF(t, squares, "cells are not 32x32 squares");
        free(d.pixels);
        printf("difference picture %s: 64x64, the five colours where expected\n", path);
    }
    free(text);
    cc_grid_free(&engine);
    cc_grid_free(&oracle);
    CHECKF(t,
           png_diff_scale(1000, 10) == 1 && png_diff_scale(128, 3) == 4 &&
               png_diff_scale(3, 3) == 32,
           "scales");
    cc_grid other;
    cc_grid_alloc(&other, 3, 2, &err);
    cc_grid_alloc(&engine, 2, 2, &err);
    cc_error_clear(&err);
    CHECKF(t, png_write_diff(path, &engine, &other, &err) == CC_ERR_ARG && strstr(err.msg, path),
           "size mismatch: %s", err.msg);
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
    test_encode(&t, 1, 1);
    test_encode(&t, 7, 3);
    test_encode(&t, 300, 300);
    test_encode(&t, 65535, 1);
    test_encode(&t, 1, 1000);
    test_encode_refused(&t);
    test_diff_file(&t, dir ? dir : "/tmp");
    test_diff_crop(&t, dir ? dir : "/tmp");
    return check_summary(&t);
}
