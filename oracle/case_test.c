/* The case grid is byte for byte libsodium's randombytes_buf_deterministic stream; case lines
 * round-trip; malformed lines are refused with a message; seeds derive as BLAKE2b(master || LE64 i). */
#include "oracle/case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "testing/check.h"

static void fill_seed(uint8_t seed[CC_SEED_BYTES], uint8_t base) {
    for (int i = 0; i < CC_SEED_BYTES; i++) seed[i] = (uint8_t)(base + 7 * i);
}

/* The grid, cell by cell, against the draws of one randombytes_buf_deterministic call. */
static void test_grid_matches_libsodium(checks *t, int32_t w, int32_t h, double density,
                                        uint32_t threshold) {
    cc_case c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.h = h;
    c.density = density;
    fill_seed(c.seed, (uint8_t)(w * 31 + h));
    size_t bytes = (size_t)w * (size_t)h * 2;
    uint8_t *raw = malloc(bytes);
    if (!CHECKF(t, raw != NULL, "cannot allocate %zu bytes", bytes)) return;
    randombytes_buf_deterministic(raw, bytes, c.seed);
    cc_grid g;
    cc_error err;
    cc_error_clear(&err);
    int rc = case_grid(&c, &g, &err);
    CHECKF(t, rc == CC_OK, "%dx%d: %s", (int)w, (int)h, err.msg);
    if (rc == CC_OK) {
        CHECKF(t, g.w == w && g.h == h, "size %dx%d, want %dx%d", (int)g.w, (int)g.h, (int)w,
               (int)h);
        size_t bad = 0, alive = 0;
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
            uint32_t draw = raw[2 * i] | (uint32_t)raw[2 * i + 1] << 8;
            uint8_t want = draw < threshold;
            if (g.cells[i] != want) bad++;
            alive += g.cells[i];
        }
        CHECKF(t, bad == 0, "%dx%d density %g: %zu cells differ from libsodium's draws", (int)w,
               (int)h, density, bad);
        printf("grid %dx%d (%zu random bytes) density %.4f: %zu alive, identical to "
               "randombytes_buf_deterministic\n",
               (int)w, (int)h, bytes, density, alive);
        cc_grid_free(&g);
    }
    /* The raw stream at a block-aligned offset, as the grid reads it in chunks. */
    if (bytes > 128) {
        size_t off = (bytes / 2) & ~(size_t)63;
        size_t len = bytes - off;
        uint8_t *part = malloc(len);
        if (part) {
            rc = case_stream(c.seed, off, part, len, &err);
            CHECKF(t, rc == CC_OK && memcmp(part, raw + off, len) == 0,
                   "stream at offset %zu differs", off);
            free(part);
        }
    }
    free(raw);
}

static void test_thresholds(checks *t) {
    CHECKF(t, case_density_threshold(0.0) == 0, "0 -> %u", case_density_threshold(0.0));
    CHECKF(t, case_density_threshold(1.0) == 65536, "1 -> %u", case_density_threshold(1.0));
    CHECKF(t, case_density_threshold(0.5) == 32768, "0.5 -> %u", case_density_threshold(0.5));
    /* 0.3 * 65536 = 19660.8 */
    CHECKF(t, case_density_threshold(0.3) == 19661, "0.3 -> %u", case_density_threshold(0.3));
    /* 0.0001 * 65536 = 6.5536 */
    CHECKF(t, case_density_threshold(0.0001) == 7, "0.0001 -> %u", case_density_threshold(0.0001));
}

static void test_extreme_densities(checks *t) {
    for (int which = 0; which < 2; which++) {
        cc_case c;
        memset(&c, 0, sizeof c);
        c.w = 37;
        c.h = 41;
        c.density = which ? 1.0 : 0.0;
        fill_seed(c.seed, 99);
        cc_grid g;
        cc_error err;
        int rc = case_grid(&c, &g, &err);
        CHECKF(t, rc == CC_OK, "%s", err.msg);
        if (rc) continue;
        size_t pop = cc_grid_population(&g);
        CHECKF(t, pop == (which ? (size_t)37 * 41 : 0), "density %g: population %zu", c.density,
               pop);
        cc_grid_free(&g);
    }
    cc_case bad;
    memset(&bad, 0, sizeof bad);
    bad.w = 5;
    bad.h = 5;
    bad.density = 1.5;
    cc_grid g;
    cc_error err;
    cc_error_clear(&err);
    CHECKF(t, case_grid(&bad, &g, &err) != CC_OK && err.msg[0], "density 1.5 accepted");
    printf("refused as expected: %s\n", err.msg);
}

static void test_seed_derive(checks *t) {
    uint8_t master[CC_SEED_BYTES];
    fill_seed(master, 3);
    const uint64_t indices[] = {0, 1, 255, 256, 0x0102030405060708ULL};
    for (size_t k = 0; k < sizeof indices / sizeof indices[0]; k++) {
        uint8_t in[CC_SEED_BYTES + 8], want[CC_SEED_BYTES], got[CC_SEED_BYTES];
        memcpy(in, master, CC_SEED_BYTES);
        uint64_t i = indices[k];
        for (int b = 0; b < 8; b++) in[CC_SEED_BYTES + b] = (uint8_t)(i >> (8 * b));
        crypto_generichash(want, sizeof want, in, sizeof in, NULL, 0);
        case_seed_derive(master, i, got);
        CHECKF(t, memcmp(want, got, CC_SEED_BYTES) == 0, "seed of case %llu differs",
               (unsigned long long)i);
    }
    /* LE64 of 0x0102030405060708 is 08 07 06 05 04 03 02 01. */
    uint8_t in[CC_SEED_BYTES + 8], want[CC_SEED_BYTES], got[CC_SEED_BYTES];
    memcpy(in, master, CC_SEED_BYTES);
    const uint8_t le[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    memcpy(in + CC_SEED_BYTES, le, 8);
    crypto_generichash(want, sizeof want, in, sizeof in, NULL, 0);
    case_seed_derive(master, 0x0102030405060708ULL, got);
    CHECKF(t, memcmp(want, got, CC_SEED_BYTES) == 0, "little-endian index bytes");
}

static void test_seed_hex(checks *t) {
    uint8_t seed[CC_SEED_BYTES], back[CC_SEED_BYTES];
    fill_seed(seed, 200);
    char hex[2 * CC_SEED_BYTES + 1];
    case_seed_format_hex(seed, hex);
    CHECKF(t, strncmp(hex, "c8cfd6dd", 8) == 0, "hex starts %.8s", hex);
    cc_error err;
    CHECKF(t, case_seed_parse_hex(hex, back, &err) == CC_OK && memcmp(seed, back, sizeof seed) == 0,
           "hex round trip");
    char upper[2 * CC_SEED_BYTES + 1];
    for (int i = 0; i <= 2 * CC_SEED_BYTES; i++)
        upper[i] = (char)(hex[i] >= 'a' && hex[i] <= 'f' ? hex[i] - 32 : hex[i]);
    CHECKF(t,
           case_seed_parse_hex(upper, back, &err) == CC_OK && memcmp(seed, back, sizeof seed) == 0,
           "upper-case hex");
    /* The first non-hex character is named by its position, whichever digit of a byte it is. */
    static const struct {
        size_t at;
        char c;
    } bad[] = {{0, 'g'}, {1, 'x'}, {30, ' '}, {31, 'G'}, {62, '-'}, {63, 'z'}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[2 * CC_SEED_BYTES + 1], want[96];
        memcpy(text, hex, sizeof text);
        text[bad[i].at] = bad[i].c;
        if (bad[i].at + 2 < 2 * CC_SEED_BYTES) text[bad[i].at + 2] = 'q'; /* a later one too */
        memcpy(back, seed, sizeof back);
        back[0] ^= 1;
        uint8_t before[CC_SEED_BYTES];
        memcpy(before, back, sizeof before);
        snprintf(want, sizeof want, "seed has a non-hex character '%c' at position %zu", bad[i].c,
                 bad[i].at + 1);
        int rc = case_seed_parse_hex(text, back, &err);
        CHECKF(t, rc == CC_ERR_ARG && strcmp(err.msg, want) == 0, "'%s': %d %s", text, rc, err.msg);
        CHECKF(t, memcmp(back, before, sizeof back) == 0, "a refused seed leaves the output alone");
    }
    CHECKF(t,
           case_seed_parse_hex("abc", back, &err) == CC_ERR_ARG &&
               strcmp(err.msg, "seed 'abc' has 3 hex digits, not 64") == 0,
           "short seed: %s", err.msg);
}

static const char *const good_lines[] = {
    "rule=R5,C2,M0,S34..58,B34..45,NM size=64x48 steps=3 density=0.2500 "
    "seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "rule=B3/S23 size=3x3 steps=0 density=0.0000 "
    "seed=ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "rule=B2/S34H size=97x5 steps=12 density=1.0000 "
    "seed=8000000000000000000000000000000000000000000000000000000000000001",
    "rule=R16,C2,M1,S0..1089,B1089..1089,NM size=33x35 steps=1 density=0.9999 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "rule=R3,C2,M1,S2..9,B3..4,N+ size=7x11 steps=100 density=0.0001 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
};

static void test_round_trips(checks *t) {
    for (size_t k = 0; k < sizeof good_lines / sizeof good_lines[0]; k++) {
        cc_case c, again;
        cc_error err;
        cc_error_clear(&err);
        int rc = case_parse(good_lines[k], &c, &err);
        CHECKF(t, rc == CC_OK, "'%s': %s", good_lines[k], err.msg);
        if (rc) continue;
        char text[CC_CASE_TEXT_MAX];
        rc = case_format(&c, text, sizeof text, &err);
        CHECKF(t, rc == CC_OK && strcmp(text, good_lines[k]) == 0, "printed back as '%s' (%s)",
               text, err.msg);
        rc = case_parse(text, &again, &err);
        CHECKF(t,
               rc == CC_OK && cc_rule_equal(&c.rule, &again.rule) && c.w == again.w &&
                   c.h == again.h && c.steps == again.steps && c.density == again.density &&
                   memcmp(c.seed, again.seed, CC_SEED_BYTES) == 0,
               "reparse of '%s'", text);
    }
    /* Fields of the first line, by hand. */
    cc_case c;
    cc_error err;
    if (case_parse(good_lines[0], &c, &err) == CC_OK) {
        CHECKF(t,
               c.rule.radius == 5 && c.rule.centre == 0 && c.rule.shape == CC_SHAPE_MOORE &&
                   c.rule.survive.n == 1 && c.rule.survive.r[0].lo == 34 &&
                   c.rule.survive.r[0].hi == 58 && c.rule.birth.r[0].lo == 34 &&
                   c.rule.birth.r[0].hi == 45,
               "rule fields");
        CHECKF(t, c.w == 64 && c.h == 48 && c.steps == 3 && c.density == 0.25,
               "size/steps/density");
        CHECKF(t, c.seed[0] == 0 && c.seed[1] == 1 && c.seed[31] == 0x1f, "seed bytes");
    }
    /* Fields in another order and extra spaces read the same. */
    const char *shuffled = "  seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "
                           "density=0.25\tsteps=3 size=64x48   rule=R5C2M0S34..58B34..45NM\n";
    char text[CC_CASE_TEXT_MAX];
    int rc = case_parse(shuffled, &c, &err);
    CHECKF(t, rc == CC_OK, "shuffled: %s", err.msg);
    if (rc == CC_OK) {
        rc = case_format(&c, text, sizeof text, &err);
        CHECKF(t, rc == CC_OK && strcmp(text, good_lines[0]) == 0, "shuffled printed as '%s'",
               text);
    }
    /* A density that four decimals cannot hold prints in full and reads back exactly. */
    c.density = 1.0 / 3.0;
    rc = case_format(&c, text, sizeof text, &err);
    cc_case back;
    CHECKF(t, rc == CC_OK && case_parse(text, &back, &err) == CC_OK && back.density == 1.0 / 3.0,
           "density 1/3 printed as '%s'", text);
    /* Too small a buffer is refused, not truncated silently. */
    char small[40];
    CHECKF(t, case_format(&c, small, sizeof small, &err) != CC_OK && err.msg[0],
           "small buffer accepted");
}

#define SEED64 "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static const char *const bad_lines[] = {
    "",
    "rule=B3/S23 size=16x16 steps=1 density=0.5",
    "rule=B3/S23 size=16x16 steps=1 " SEED64,
    "rule=B3/S23 size=16x16 density=0.5 " SEED64,
    "rule=B3/S23 steps=1 density=0.5 " SEED64,
    "size=16x16 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 rule=B3/S23 size=16x16 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=0.5 colour=red " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=0.5 junk " SEED64,
    "rule= size=16x16 steps=1 density=0.5 " SEED64,
    "rule=B9/S23 size=16x16 steps=1 density=0.5 " SEED64,
    "rule=R5,C3,M0,S34..58,B34..45,NM size=16x16 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=16 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=16x steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=x16 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=0x16 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=-4x16 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=16x16x2 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=2000000x16 steps=1 density=0.5 " SEED64,
    "rule=R5,C2,M0,S34..58,B34..45,NM size=10x64 steps=1 density=0.5 " SEED64,
    "rule=B3/S23 size=16x16 steps=-1 density=0.5 " SEED64,
    "rule=B3/S23 size=16x16 steps=1.5 density=0.5 " SEED64,
    "rule=B3/S23 size=16x16 steps=99999999999999999999 density=0.5 " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=1.5 " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=-0.1 " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=nan " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=0.5% " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=0.5 seed=0123",
    "rule=B3/S23 size=16x16 steps=1 density=0.5 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg",
    "rule=B3/S23 size=16x16 steps=1 density=0.5 " SEED64 "00",
};

static void test_malformed(checks *t) {
    for (size_t k = 0; k < sizeof bad_lines / sizeof bad_lines[0]; k++) {
        cc_case c;
        cc_error err;
        cc_error_clear(&err);
        int rc = case_parse(bad_lines[k], &c, &err);
        CHECKF(t, rc != CC_OK, "accepted malformed case '%s'", bad_lines[k]);
        CHECKF(t, rc == CC_OK || (err.code == rc && err.msg[0] != '\0'), "no message for '%s'",
               bad_lines[k]);
        if (rc) printf("refused as expected: %s\n", err.msg);
    }
}

int main(void) {
    checks t = {"case_test", 0, 0};
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium_init failed\n");
        return 1;
    }
    test_thresholds(&t);
    /* 2, 30 and 9 bytes-odd sizes; one exactly 64 bytes; more than one 8 KiB chunk; not a
     * multiple of 64 bytes across several chunks. */
    test_grid_matches_libsodium(&t, 1, 1, 0.5, 32768);
    test_grid_matches_libsodium(&t, 3, 5, 0.3, 19661);
    test_grid_matches_libsodium(&t, 4, 8, 0.25, 16384);
    test_grid_matches_libsodium(&t, 67, 71, 0.5, 32768);
    test_grid_matches_libsodium(&t, 64, 64, 0.3, 19661);
    test_grid_matches_libsodium(&t, 331, 97, 0.0001, 7);
    test_grid_matches_libsodium(&t, 1000, 13, 0.9999, 65529);
    test_extreme_densities(&t);
    test_seed_derive(&t);
    test_seed_hex(&t);
    test_round_trips(&t);
    test_malformed(&t);
    return check_summary(&t);
}
