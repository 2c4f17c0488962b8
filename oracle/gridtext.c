/* Plain text grids: one row per line of '0' and '1'. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/gridtext.h"

int cc_text_parse(const char *text, size_t len, cc_grid *out, cc_error *err) {
    char cb[8];
    if (!out) return cc_fail(err, CC_ERR_ARG, "cc_text_parse: NULL output grid");
    out->w = out->h = 0;
    out->cells = NULL;
    /* A UTF-8 byte-order mark (some editors write one) is not a row's first cell. */
    if (text && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    if (!text || len == 0) return cc_fail(err, CC_ERR_ARG, "text grid: empty file");
    /* First pass: check every character and the row lengths. */
    int64_t w = -1, h = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        size_t next = pos + n + (nl ? 1 : 0);
        /* CRLF line ends, the last line's too, with or without its LF. */
        if (n > 0 && line[n - 1] == '\r') n--;
        h++;
        for (size_t i = 0; i < n; i++)
            if (line[i] != '0' && line[i] != '1')
                return cc_fail(err, CC_ERR_ARG,
                               "text grid line %lld, column %zu: unexpected %s (only 0 and 1)",
                               (long long)h, i + 1, cc_show_byte(cb, line[i]));
        if (n == 0)
            return cc_fail(err, CC_ERR_ARG, "text grid line %lld: empty row", (long long)h);
        if (w < 0) {
            w = (int64_t)n;
            if (w > CC_GRID_SIDE_MAX)
                return cc_fail(err, CC_ERR_UNSUPPORTED,
                               "text grid: rows of %lld cells exceed the largest side %d",
                               (long long)w, CC_GRID_SIDE_MAX);
        } else if ((int64_t)n != w) {
            return cc_fail(err, CC_ERR_ARG,
                           "text grid line %lld: ragged rows: %zu cells where line 1 has %lld",
                           (long long)h, n, (long long)w);
        }
        if (h > CC_GRID_SIDE_MAX)
            return cc_fail(err, CC_ERR_UNSUPPORTED, "text grid: more than %d rows",
                           CC_GRID_SIDE_MAX);
        if (w * h > CC_GRID_FILE_CELLS_MAX)
            return cc_fail(err, CC_ERR_UNSUPPORTED, "text grid: more than %lld cells",
                           (long long)CC_GRID_FILE_CELLS_MAX);
        pos = next;
    }
    cc_grid g;
    int rc = cc_grid_alloc(&g, (int32_t)w, (int32_t)h, err);
    if (rc) return cc_prefix(err, "text grid");
    pos = 0;
    for (int32_t y = 0; y < g.h; y++) {
        for (int32_t x = 0; x < g.w; x++)
            g.cells[(size_t)y * (size_t)g.w + (size_t)x] = (uint8_t)(text[pos + (size_t)x] == '1');
        pos += (size_t)g.w;
        if (pos < len && text[pos] == '\r') pos++;
        if (pos < len && text[pos] == '\n') pos++;
    }
    *out = g;
    return CC_OK;
}

int cc_text_format(const cc_grid *g, char **text, size_t *len, cc_error *err) {
    if (!g || !g->cells || !text || !len)
        return cc_fail(err, CC_ERR_ARG, "cc_text_format: NULL argument");
    *text = NULL;
    *len = 0;
    size_t row = (size_t)g->w + 1;
    if (g->w < 1 || g->h < 1 || (size_t)g->h > (SIZE_MAX - 1) / row)
        return cc_fail(err, CC_ERR_NOMEM, "text grid %dx%d: size overflows", (int)g->w, (int)g->h);
    size_t n = row * (size_t)g->h;
    char *buf = malloc(n + 1);
    if (!buf)
        return cc_fail(err, CC_ERR_NOMEM, "text grid %dx%d: cannot allocate %zu bytes", (int)g->w,
                       (int)g->h, n + 1);
    for (int32_t y = 0; y < g->h; y++) {
        char *out = buf + (size_t)y * row;
        const uint8_t *cells = g->cells + (size_t)y * (size_t)g->w;
        for (int32_t x = 0; x < g->w; x++) out[x] = cells[x] ? '1' : '0';
        out[g->w] = '\n';
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return CC_OK;
}
