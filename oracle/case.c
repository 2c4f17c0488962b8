/* Cases: the initial grid drawn from a seed, campaign seeds, and the one-line text form. */
#include "oracle/case.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

/* randombytes_buf_deterministic is ChaCha20-IETF keyed by the seed with this nonce, counter 0. */
static const unsigned char drg_nonce[crypto_stream_chacha20_ietf_NONCEBYTES] = {
    'L', 'i', 'b', 's', 'o', 'd', 'i', 'u', 'm', 'D', 'R', 'G'};

/* randombytes_buf_deterministic refuses more than this many bytes (256 GiB). */
#define DRG_BYTES_MAX 0x4000000000ULL

/* A multiple of the 64-byte ChaCha20 block, so each chunk starts on a block counter. */
#define CHUNK_BYTES 8192

int case_stream(const uint8_t seed[CC_SEED_BYTES], uint64_t offset, uint8_t *buf, size_t len,
                cc_error *err) {
    if (offset % 64 != 0)
        return cc_fail(err, CC_ERR_ARG, "stream offset %llu is not a multiple of 64",
                       (unsigned long long)offset);
    if (offset > DRG_BYTES_MAX || len > DRG_BYTES_MAX - offset)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "a stream of %llu bytes from offset %llu exceeds the %llu bytes one seed "
                       "gives",
                       (unsigned long long)len, (unsigned long long)offset,
                       (unsigned long long)DRG_BYTES_MAX);
    if (sodium_init() < 0) return cc_fail(err, CC_ERR_DEVICE, "libsodium failed to initialise");
    memset(buf, 0, len);
    crypto_stream_chacha20_ietf_xor_ic(buf, buf, (unsigned long long)len, drg_nonce,
                                       (uint32_t)(offset / 64), seed);
    return CC_OK;
}

uint32_t case_density_threshold(double density) {
    if (!(density > 0.0)) return 0; /* also NaN */
    if (density >= 1.0) return 65536u;
    return (uint32_t)floor(density * 65536.0 + 0.5);
}

int case_grid(const cc_case *c, cc_grid *out, cc_error *err) {
    if (!(c->density >= 0.0 && c->density <= 1.0))
        return cc_fail(err, CC_ERR_ARG, "density %g is outside 0..1", c->density);
    if (c->w < 1 || c->h < 1)
        return cc_fail(err, CC_ERR_ARG, "grid size %dx%d is not positive", (int)c->w, (int)c->h);
    uint64_t cells = (uint64_t)c->w * (uint64_t)c->h;
    if (cells * 2 > DRG_BYTES_MAX)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "grid %dx%d needs %llu random bytes, more than one seed gives", (int)c->w,
                       (int)c->h, (unsigned long long)(cells * 2));
    int rc = cc_grid_alloc(out, c->w, c->h, err);
    if (rc) return rc;
    uint32_t threshold = case_density_threshold(c->density);
    uint8_t chunk[CHUNK_BYTES];
    uint64_t done = 0;
    while (done < cells) {
        uint64_t n = cells - done;
        if (n > CHUNK_BYTES / 2) n = CHUNK_BYTES / 2;
        if ((rc = case_stream(c->seed, done * 2, chunk, (size_t)(n * 2), err))) {
            cc_grid_free(out);
            return rc;
        }
        for (uint64_t i = 0; i < n; i++) {
            uint32_t draw = (uint32_t)chunk[2 * i] | ((uint32_t)chunk[2 * i + 1] << 8);
            out->cells[done + i] = draw < threshold;
        }
        done += n;
    }
    return CC_OK;
}

void case_seed_derive(const uint8_t master[CC_SEED_BYTES], uint64_t i, uint8_t out[CC_SEED_BYTES]) {
    uint8_t in[CC_SEED_BYTES + 8];
    memcpy(in, master, CC_SEED_BYTES);
    for (int b = 0; b < 8; b++) in[CC_SEED_BYTES + b] = (uint8_t)(i >> (8 * b));
    crypto_generichash(out, CC_SEED_BYTES, in, sizeof in, NULL, 0);
}

void case_seed_format_hex(const uint8_t seed[CC_SEED_BYTES], char out[2 * CC_SEED_BYTES + 1]) {
    sodium_bin2hex(out, 2 * CC_SEED_BYTES + 1, seed, CC_SEED_BYTES);
}

int case_seed_parse_hex(const char *hex, uint8_t out[CC_SEED_BYTES], cc_error *err) {
    size_t len = strlen(hex);
    if (len != 2 * CC_SEED_BYTES)
        return cc_fail(err, CC_ERR_ARG, "seed '%.80s' has %zu hex digits, not %d", hex, len,
                       2 * CC_SEED_BYTES);
    uint8_t bytes[CC_SEED_BYTES];
    size_t n = 0;
    const char *end = NULL;
    int rc = sodium_hex2bin(bytes, sizeof bytes, hex, len, NULL, &n, &end);
    if (rc != 0 || n != CC_SEED_BYTES) {
        /* hex2bin stops at the first non-hex character; when that is the second digit of a
         * byte it fails and leaves end at the first digit, one before the culprit. */
        size_t at = (size_t)(end - hex) + (rc != 0);
        return cc_fail(err, CC_ERR_ARG, "seed has a non-hex character '%c' at position %zu",
                       hex[at], at + 1);
    }
    memcpy(out, bytes, CC_SEED_BYTES);
    return CC_OK;
}

/* Four decimals when they read back exactly (every generated density), otherwise every digit. */
static void format_density(double d, char *buf, size_t size) {
    snprintf(buf, size, "%.4f", d);
    if (strtod(buf, NULL) != d) snprintf(buf, size, "%.17g", d);
}

int case_format(const cc_case *c, char *buf, size_t size, cc_error *err) {
    char rule[CC_RULE_TEXT_MAX];
    int rc = cc_rule_print(&c->rule, rule, sizeof rule, err);
    if (rc) return cc_prefix(err, "formatting a case");
    if (!(c->density >= 0.0 && c->density <= 1.0))
        return cc_fail(err, CC_ERR_ARG, "formatting a case: density %g is outside 0..1",
                       c->density);
    if (c->steps < 0)
        return cc_fail(err, CC_ERR_ARG, "formatting a case: negative step count %lld",
                       (long long)c->steps);
    char density[40], seed[2 * CC_SEED_BYTES + 1];
    format_density(c->density, density, sizeof density);
    case_seed_format_hex(c->seed, seed);
    int n = snprintf(buf, size, "rule=%s size=%dx%d steps=%lld density=%s seed=%s", rule,
                     (int)c->w, (int)c->h, (long long)c->steps, density, seed);
    if (n < 0 || (size_t)n >= size)
        return cc_fail(err, CC_ERR_ARG, "formatting a case: %d characters do not fit in %zu", n,
                       size);
    return CC_OK;
}

/* A decimal integer of digits only (no sign, no spaces) into *out, at most max. */
static int parse_uint(const char *s, size_t len, int64_t max, int64_t *out) {
    if (len == 0 || len > 19) return 0;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        int d = s[i] - '0';
        if (v > (max - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

enum { KEY_RULE, KEY_SIZE, KEY_STEPS, KEY_DENSITY, KEY_SEED, KEY_COUNT };
static const char *const key_names[KEY_COUNT] = {"rule", "size", "steps", "density", "seed"};

int case_parse(const char *line, cc_case *out, cc_error *err) {
    cc_case c;
    memset(&c, 0, sizeof c);
    int seen[KEY_COUNT] = {0};
    const char *p = line;
    char value[CC_CASE_TEXT_MAX];
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (!*p) break;
        const char *tok = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') p++;
        size_t tok_len = (size_t)(p - tok);
        const char *eq = memchr(tok, '=', tok_len);
        if (!eq)
            return cc_fail(err, CC_ERR_ARG, "case: '%.*s' is not key=value", (int)tok_len, tok);
        size_t key_len = (size_t)(eq - tok);
        int key = -1;
        for (int k = 0; k < KEY_COUNT; k++)
            if (strlen(key_names[k]) == key_len && strncmp(tok, key_names[k], key_len) == 0)
                key = k;
        if (key < 0)
            return cc_fail(err, CC_ERR_ARG,
                           "case: unknown key '%.*s' (want rule, size, steps, density, seed)",
                           (int)key_len, tok);
        if (seen[key]) return cc_fail(err, CC_ERR_ARG, "case: %s given twice", key_names[key]);
        seen[key] = 1;
        size_t value_len = tok_len - key_len - 1;
        if (value_len == 0) return cc_fail(err, CC_ERR_ARG, "case: %s has no value", key_names[key]);
        if (value_len >= sizeof value)
            return cc_fail(err, CC_ERR_ARG, "case: %s value is too long", key_names[key]);
        memcpy(value, eq + 1, value_len);
        value[value_len] = '\0';
        int rc;
        switch (key) {
        case KEY_RULE:
            if ((rc = cc_rule_parse(value, &c.rule, err))) return cc_prefix(err, "case: rule");
            break;
        case KEY_SIZE: {
            const char *x = strchr(value, 'x');
            int64_t w, h;
            if (!x || !parse_uint(value, (size_t)(x - value), CC_GRID_SIDE_MAX, &w) ||
                !parse_uint(x + 1, strlen(x + 1), CC_GRID_SIDE_MAX, &h))
                return cc_fail(err, CC_ERR_ARG,
                               "case: size '%s' is not WxH with sides 1..%d", value,
                               CC_GRID_SIDE_MAX);
            if (w < 1 || h < 1)
                return cc_fail(err, CC_ERR_ARG, "case: size '%s' has a zero side", value);
            c.w = (int32_t)w;
            c.h = (int32_t)h;
            break;
        }
        case KEY_STEPS: {
            int64_t steps;
            if (!parse_uint(value, value_len, INT64_MAX, &steps))
                return cc_fail(err, CC_ERR_ARG,
                               "case: steps '%s' is not a non-negative whole number", value);
            c.steps = steps;
            break;
        }
        case KEY_DENSITY: {
            char *end;
            errno = 0;
            if (!((value[0] >= '0' && value[0] <= '9') || value[0] == '.'))
                return cc_fail(err, CC_ERR_ARG, "case: density '%s' is not a number", value);
            double d = strtod(value, &end);
            if (*end || errno)
                return cc_fail(err, CC_ERR_ARG, "case: density '%s' is not a number", value);
            if (!(d >= 0.0 && d <= 1.0))
                return cc_fail(err, CC_ERR_ARG, "case: density %s is outside 0..1", value);
            c.density = d;
            break;
        }
        case KEY_SEED:
            if ((rc = case_seed_parse_hex(value, c.seed, err))) return cc_prefix(err, "case");
            break;
        }
    }
    int any = 0;
    for (int k = 0; k < KEY_COUNT; k++) any |= seen[k];
    if (!any)
        return cc_fail(err, CC_ERR_ARG,
                       "case: empty line (a case is rule=R size=WxH steps=K density=D seed=HEX)");
    for (int k = 0; k < KEY_COUNT; k++)
        if (!seen[k])
            return cc_fail(err, CC_ERR_ARG,
                           "case: %s is missing (a case is rule=R size=WxH steps=K density=D "
                           "seed=HEX)",
                           key_names[k]);
    int32_t min = 2 * c.rule.radius + 1;
    if (c.w < min || c.h < min)
        return cc_fail(err, CC_ERR_ARG,
                       "case: size %dx%d is smaller than 2r+1 = %d on a side (radius %d)",
                       (int)c.w, (int)c.h, (int)min, (int)c.rule.radius);
    *out = c;
    return CC_OK;
}
