/* Difference pictures through libpng: the image is encoded into memory, then written atomically. */
#include "harness/png.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <zlib.h>

#include "oracle/gridio.h"

uint32_t png_crc32(const uint8_t *data, size_t len) {
    return (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), data, len);
}

uint32_t png_adler32(const uint8_t *data, size_t len) {
    return (uint32_t)adler32_z(adler32_z(0L, Z_NULL, 0), data, len);
}

/* Where libpng writes the file, and what went wrong if it stopped: one per encoding, reached
 * through libpng's io and error pointers. */
typedef struct png_sink {
    uint8_t *data;
    size_t len, cap;
    int out_of_memory;
    char warning[160]; /* the first warning, which often explains the error after it */
    char error[160];
} png_sink;

static void sink_write(png_structp png, png_bytep bytes, size_t n) {
    png_sink *s = png_get_io_ptr(png);
    if (n > s->cap - s->len) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap - s->len < n) {
            if (cap > SIZE_MAX / 2) {
                s->out_of_memory = 1;
                png_error(png, "the PNG outgrows memory");
            }
            cap *= 2;
        }
        uint8_t *p = realloc(s->data, cap);
        if (!p) {
            s->out_of_memory = 1;
            png_error(png, "out of memory for the PNG");
        }
        s->data = p;
        s->cap = cap;
    }
    memcpy(s->data + s->len, bytes, n);
    s->len += n;
}

static void sink_flush(png_structp png) { (void)png; }

/* libpng calls this for a fatal error and must not return: back to the setjmp in encode(). */
static void sink_error(png_structp png, png_const_charp msg) {
    png_sink *s = png_get_error_ptr(png);
    snprintf(s->error, sizeof s->error, "%s", msg);
    png_longjmp(png, 1);
}

static void sink_warning(png_structp png, png_const_charp msg) {
    png_sink *s = png_get_error_ptr(png);
    if (!s->warning[0]) snprintf(s->warning, sizeof s->warning, "%s", msg);
}

/* The libpng calls, alone in their function so that nothing they change lives in the frame that
 * setjmp returns to twice. Returns 0 when libpng stopped with an error (in sink->error). */
static int encode(png_structp png, png_infop info, const uint8_t *pixels, int32_t w, int32_t h,
                  const png_color *palette, int colours) {
    if (setjmp(png_jmpbuf(png))) return 0;
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_PALETTE,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_PLTE(png, info, palette, colours);
    /* Palette indices do not predict from their neighbours: no row filters, best compression. */
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, Z_BEST_COMPRESSION);
    png_write_info(png, info);
    for (int32_t y = 0; y < h; y++) png_write_row(png, pixels + (size_t)y * (size_t)w);
    png_write_end(png, info);
    return 1;
}

int png_encode_indexed(const uint8_t *pixels, int32_t w, int32_t h, const uint8_t *rgb,
                       int colours, uint8_t **out, size_t *out_len, cc_error *err) {
    *out = NULL;
    *out_len = 0;
    if (w < 1 || h < 1 || colours < 1 || colours > 256)
        return cc_fail(err, CC_ERR_ARG, "png: bad image %dx%d with %d colours", (int)w, (int)h,
                       colours);
    if ((uint64_t)h * ((uint64_t)w + 1) > ((uint64_t)1 << 31))
        return cc_fail(err, CC_ERR_NOMEM, "png: image %dx%d is too large", (int)w, (int)h);
    png_color palette[256];
    for (int i = 0; i < colours; i++) {
        palette[i].red = rgb[3 * i];
        palette[i].green = rgb[3 * i + 1];
        palette[i].blue = rgb[3 * i + 2];
    }
    png_sink sink;
    memset(&sink, 0, sizeof sink);
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, sink_error, sink_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return cc_fail(err, CC_ERR_NOMEM, "png: out of memory to start libpng for a %dx%d image",
                       (int)w, (int)h);
    }
    png_set_write_fn(png, &sink, sink_write, sink_flush);
    int ok = encode(png, info, pixels, w, h, palette, colours);
    png_destroy_write_struct(&png, &info);
    if (!ok) {
        free(sink.data);
        return cc_fail(err, sink.out_of_memory ? CC_ERR_NOMEM : CC_ERR_ARG,
                       "png: libpng could not encode the %dx%d image: %s%s%s%s", (int)w, (int)h,
                       sink.error, sink.warning[0] ? " (after the warning: " : "", sink.warning,
                       sink.warning[0] ? ")" : "");
    }
    *out = sink.data;
    *out_len = sink.len;
    return CC_OK;
}

int32_t png_diff_scale(int32_t w, int32_t h) {
    int32_t side = w > h ? w : h;
    int32_t scale = 512 / (side > 0 ? side : 1);
    if (scale < 1) scale = 1;
    if (scale > 32) scale = 32;
    return scale;
}

static const uint8_t diff_palette[5 * 3] = {
    255, 255, 255, /* both dead */
    64,  64,  64,  /* both alive */
    220, 20,  20,  /* engine only */
    20,  60,  230, /* oracle only */
    255, 225, 110, /* near a difference */
};

static int32_t window_start(int32_t first, int32_t side, int32_t window) {
    if (side <= window) return 0;
    int32_t x = first < 0 ? 0 : first - window / 2;
    if (x < 0) x = 0;
    if (x > side - window) x = side - window;
    return x;
}

png_diff_window png_diff_window_of(const cc_grid *engine, const cc_grid *oracle) {
    png_diff_window win = {.first_x = -1, .first_y = -1};
    size_t n = (size_t)engine->w * (size_t)engine->h;
    for (size_t i = 0; i < n; i++)
        if ((engine->cells[i] != 0) != (oracle->cells[i] != 0)) {
            win.first_x = (int32_t)(i % (size_t)engine->w);
            win.first_y = (int32_t)(i / (size_t)engine->w);
            break;
        }
    win.w = engine->w < PNG_DIFF_WINDOW ? engine->w : PNG_DIFF_WINDOW;
    win.h = engine->h < PNG_DIFF_WINDOW ? engine->h : PNG_DIFF_WINDOW;
    win.x0 = window_start(win.first_x, engine->w, PNG_DIFF_WINDOW);
    win.y0 = window_start(win.first_y, engine->h, PNG_DIFF_WINDOW);
    win.scale = png_diff_scale(win.w, win.h);
    return win;
}

/* The palette index of window cell (x, y). */
static uint8_t cell_colour(const cc_grid *engine, const cc_grid *oracle, const png_diff_window *win,
                           int32_t x, int32_t y) {
    size_t i = (size_t)(win->y0 + y) * (size_t)engine->w + (size_t)(win->x0 + x);
    int e = engine->cells[i] != 0, o = oracle->cells[i] != 0;
    if (e != o) return e ? PNG_DIFF_ENGINE_ONLY : PNG_DIFF_ORACLE_ONLY;
    if (e) return PNG_DIFF_BOTH_ALIVE;
    for (int32_t dy = -PNG_DIFF_NEAR_CELLS; dy <= PNG_DIFF_NEAR_CELLS; dy++)
        for (int32_t dx = -PNG_DIFF_NEAR_CELLS; dx <= PNG_DIFF_NEAR_CELLS; dx++) {
            int32_t nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= win->w || ny >= win->h) continue;
            size_t j = (size_t)(win->y0 + ny) * (size_t)engine->w + (size_t)(win->x0 + nx);
            if ((engine->cells[j] != 0) != (oracle->cells[j] != 0)) return PNG_DIFF_NEAR;
        }
    return PNG_DIFF_BOTH_DEAD;
}

/* The words beside a picture: what it shows and what its colours mean. */
static int write_legend(const char *png_path, const cc_grid *engine, const png_diff_window *win,
                        cc_error *err) {
    char path[1100];
    size_t n = strlen(png_path);
    if (n > 4 && !strcmp(png_path + n - 4, ".png"))
        snprintf(path, sizeof path, "%.*s.txt", (int)(n - 4), png_path);
    else
        snprintf(path, sizeof path, "%s.txt", png_path);
    char text[1024], first[96];
    if (win->first_x >= 0)
        snprintf(first, sizeof first, "the first difference at (%d,%d)", (int)win->first_x,
                 (int)win->first_y);
    else
        snprintf(first, sizeof first, "no difference");
    int len = snprintf(
        text, sizeof text,
        "cells x %d..%d, y %d..%d of the %dx%d grid, %d pixels a cell; %s\n"
        "red: alive in the engine's grid only\n"
        "blue: alive in the oracle's grid only\n"
        "dark grey: alive in both\n"
        "white: dead in both\n"
        "yellow: dead in both, within %d cells of a difference\n",
        (int)win->x0, (int)(win->x0 + win->w - 1), (int)win->y0, (int)(win->y0 + win->h - 1),
        (int)engine->w, (int)engine->h, (int)win->scale, first, PNG_DIFF_NEAR_CELLS);
    return cc_write_file_atomic(path, text, (size_t)len, err);
}

int png_write_diff(const char *path, const cc_grid *engine, const cc_grid *oracle, cc_error *err) {
    if (engine->w != oracle->w || engine->h != oracle->h)
        return cc_fail(err, CC_ERR_ARG, "png %s: grids %dx%d and %dx%d differ in size", path,
                       (int)engine->w, (int)engine->h, (int)oracle->w, (int)oracle->h);
    png_diff_window win = png_diff_window_of(engine, oracle);
    int32_t s = win.scale;
    int64_t pw = (int64_t)win.w * s, ph = (int64_t)win.h * s;
    uint8_t *pixels = malloc((size_t)(pw * ph));
    if (!pixels)
        return cc_fail(err, CC_ERR_NOMEM, "png %s: out of memory for %lldx%lld pixels", path,
                       (long long)pw, (long long)ph);
    for (int32_t y = 0; y < win.h; y++)
        for (int32_t x = 0; x < win.w; x++) {
            uint8_t c = cell_colour(engine, oracle, &win, x, y);
            for (int32_t py = 0; py < s; py++)
                memset(pixels + ((int64_t)y * s + py) * pw + (int64_t)x * s, c, (size_t)s);
        }
    uint8_t *png = NULL;
    size_t len = 0;
    int rc = png_encode_indexed(pixels, (int32_t)pw, (int32_t)ph, diff_palette, 5, &png, &len, err);
    free(pixels);
    if (rc) return cc_prefix(err, "writing %s", path);
    rc = cc_write_file_atomic(path, (const char *)png, len, err);
    free(png);
    return rc ? rc : write_legend(path, engine, &win, err);
}
