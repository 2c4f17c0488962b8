#include "harness/png.h"

#include <stdlib.h>
#include <string.h>

#include "oracle/gridio.h"

uint32_t png_crc32(const uint8_t *data, size_t len) {
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < len; i++) {
        crc ^= data[i];
        for (int b = 0; b < 8; b++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xffffffffu;
}

uint32_t png_adler32(const uint8_t *data, size_t len) {
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < len; i++) {
        a = (a + data[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return b << 16 | a;
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Appends one chunk (length, type, data, CRC of type and data) at *pos. */
static void put_chunk(uint8_t *buf, size_t *pos, const char type[4], const uint8_t *data,
                      size_t len) {
    uint8_t *start = buf + *pos;
    put_be32(start, (uint32_t)len);
    memcpy(start + 4, type, 4);
    if (len) memcpy(start + 8, data, len);
    put_be32(start + 8 + len, png_crc32(start + 4, len + 4));
    *pos += 12 + len;
}

#define STORED_BLOCK_MAX 65535u

int png_encode_indexed(const uint8_t *pixels, int32_t w, int32_t h, const uint8_t *rgb,
                       int colours, uint8_t **out, size_t *out_len, cc_error *err) {
    if (w < 1 || h < 1 || colours < 1 || colours > 256)
        return cc_fail(err, CC_ERR_ARG, "png: bad image %dx%d with %d colours", (int)w, (int)h,
                       colours);
    /* Each row: a filter byte (0, none) then one byte per pixel. */
    uint64_t raw_len = (uint64_t)h * ((uint64_t)w + 1);
    if (raw_len > ((uint64_t)1 << 31))
        return cc_fail(err, CC_ERR_NOMEM, "png: image %dx%d is too large", (int)w, (int)h);
    uint64_t blocks = raw_len / STORED_BLOCK_MAX + 1;
    uint64_t zlib_len = 2 + raw_len + 5 * blocks + 4;
    uint64_t total = 8 + (12 + 13) + (12 + 3 * (uint64_t)colours) + (12 + zlib_len) + 12;
    uint8_t *raw = malloc((size_t)raw_len);
    uint8_t *png = malloc((size_t)total);
    uint8_t *zlib = malloc((size_t)zlib_len);
    if (!raw || !png || !zlib) {
        free(raw);
        free(png);
        free(zlib);
        return cc_fail(err, CC_ERR_NOMEM, "png: out of memory for a %dx%d image", (int)w, (int)h);
    }
    for (int32_t y = 0; y < h; y++) {
        uint8_t *row = raw + (size_t)y * ((size_t)w + 1);
        row[0] = 0;
        memcpy(row + 1, pixels + (size_t)y * (size_t)w, (size_t)w);
    }
    /* zlib: CMF 0x78 (deflate, 32K window), FLG 0x01 (check bits: 0x7801 % 31 == 0). */
    size_t z = 0;
    zlib[z++] = 0x78;
    zlib[z++] = 0x01;
    uint64_t done = 0;
    do {
        uint32_t n = (uint32_t)(raw_len - done > STORED_BLOCK_MAX ? STORED_BLOCK_MAX
                                                                   : raw_len - done);
        int last = done + n == raw_len;
        zlib[z++] = (uint8_t)last; /* BFINAL, BTYPE 00: stored */
        zlib[z++] = (uint8_t)(n & 0xff);
        zlib[z++] = (uint8_t)(n >> 8);
        zlib[z++] = (uint8_t)(~n & 0xff);
        zlib[z++] = (uint8_t)((~n >> 8) & 0xff);
        memcpy(zlib + z, raw + done, n);
        z += n;
        done += n;
    } while (done < raw_len);
    put_be32(zlib + z, png_adler32(raw, (size_t)raw_len));
    z += 4;

    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t pos = 0;
    memcpy(png, signature, 8);
    pos = 8;
    uint8_t ihdr[13];
    put_be32(ihdr, (uint32_t)w);
    put_be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 3;  /* colour type: palette */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    put_chunk(png, &pos, "IHDR", ihdr, sizeof ihdr);
    put_chunk(png, &pos, "PLTE", rgb, 3 * (size_t)colours);
    put_chunk(png, &pos, "IDAT", zlib, z);
    put_chunk(png, &pos, "IEND", NULL, 0);
    free(raw);
    free(zlib);
    *out = png;
    *out_len = pos;
    return CC_OK;
}

int32_t png_diff_scale(int32_t w, int32_t h) {
    int32_t side = w > h ? w : h;
    int32_t scale = 256 / (side > 0 ? side : 1);
    if (scale < 1) scale = 1;
    if (scale > 16) scale = 16;
    return scale;
}

static const uint8_t diff_palette[4 * 3] = {
    255, 255, 255, /* both dead */
    64,  64,  64,  /* both alive */
    220, 20,  20,  /* engine only */
    20,  60,  230, /* oracle only */
};

int png_write_diff(const char *path, const cc_grid *engine, const cc_grid *oracle, cc_error *err) {
    if (engine->w != oracle->w || engine->h != oracle->h)
        return cc_fail(err, CC_ERR_ARG, "png: grids %dx%d and %dx%d differ in size",
                       (int)engine->w, (int)engine->h, (int)oracle->w, (int)oracle->h);
    int32_t s = png_diff_scale(engine->w, engine->h);
    int64_t pw = (int64_t)engine->w * s, ph = (int64_t)engine->h * s;
    if (pw > 32768 || ph > 32768)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "png: grid %dx%d is too large for a difference picture (32768 pixels a side)",
                       (int)engine->w, (int)engine->h);
    uint8_t *pixels = malloc((size_t)(pw * ph));
    if (!pixels) return cc_fail(err, CC_ERR_NOMEM, "png: out of memory");
    for (int64_t py = 0; py < ph; py++) {
        int32_t y = (int32_t)(py / s);
        for (int64_t px = 0; px < pw; px++) {
            int32_t x = (int32_t)(px / s);
            size_t i = (size_t)y * (size_t)engine->w + (size_t)x;
            int e = engine->cells[i] != 0, o = oracle->cells[i] != 0;
            pixels[py * pw + px] = (uint8_t)(e && o   ? PNG_DIFF_BOTH_ALIVE
                                             : e      ? PNG_DIFF_ENGINE_ONLY
                                             : o      ? PNG_DIFF_ORACLE_ONLY
                                                      : PNG_DIFF_BOTH_DEAD);
        }
    }
    uint8_t *png = NULL;
    size_t len = 0;
    int rc = png_encode_indexed(pixels, (int32_t)pw, (int32_t)ph, diff_palette, 4, &png, &len, err);
    free(pixels);
    if (rc) return rc;
    rc = cc_write_file_atomic(path, (const char *)png, len, err);
    free(png);
    return rc;
}
