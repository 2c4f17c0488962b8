/* Case lines round-trip and malformed ones are refused with a message; seeds derive as
 * BLAKE2b(master || LE64 i) and print as hex (the grids a case draws: case_grid_test.c). */
#include "oracle/case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "testing/check.h"

static void fill_seed(uint8_t seed[CC_SEED_BYTES], uint8_t base) {
    for (int i = 0; i < CC_SEED_BYTES; i++) seed[i] = (uint8_t)(base + 7 * i);
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
    /* Digits of another script are characters, not bytes: "١٢٣" (Arabic-Indic 1 2 3) is 3
     * characters in 6 bytes, and 32 of them (64 bytes) are not a seed either. */
    CHECKF(t,
           case_seed_parse_hex("\xd9\xa1\xd9\xa2\xd9\xa3", back, &err) == CC_ERR_ARG &&
               strstr(err.msg, "has 3 characters, not all of them ASCII"),
           "Arabic-Indic digits: %s", err.msg);
    char wide[65] = "";
    for (int i = 0; i < 32; i++) strcat(wide, "\xd9\xa1");
    CHECKF(t,
           case_seed_parse_hex(wide, back, &err) == CC_ERR_ARG &&
               strstr(err.msg, "has 32 characters, not all of them ASCII"),
           "32 Arabic-Indic digits in 64 bytes: %s", err.msg);
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
    "rule=B3/S23 size=1025x64 steps=2 density=0.5000 grid=patches "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "rule=R7,C2,M1,S10..90,B20..40,NN size=300x129 steps=4 density=0.3000 grid=bands "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "rule=B3/S23 size=449x225 steps=1 density=0.0500 grid=cells "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "rule=R2,C2,M0,S3..12,B5..9,NC size=65x63 steps=3 density=0.2000 grid=holes "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "rule=B3/S23 size=129x257 steps=2 density=0.0000 grid=checker "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "rule=B3/S23 size=9x7 steps=3 density=0.5000 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef threads=3",
    "rule=B3/S23 size=9x7 steps=3 density=0.5000 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef timing=legacy",
    "rule=B3/S23 size=9x7 steps=3 density=0.5000 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef "
    "timing=legacy+copies+kernel+delays+pinned",
    "rule=B3/S23 size=9x7 steps=3 density=0.5000 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef buffers=1",
    "rule=B3/S23 size=9x7 steps=3 density=0.5000 "
    "seed=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef threads=2 "
    "timing=legacy+delays buffers=guard",
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
                   c.grid_kind == again.grid_kind && c.threads == again.threads &&
                   c.timing == again.timing && c.buffers == again.buffers && memcmp(c.seed, again.seed, CC_SEED_BYTES) == 0,
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
        CHECKF(t, c.grid_kind == CC_GRID_UNIFORM, "a line without grid= is uniform");
    }
    /* grid=uniform may be written; it prints back without the key, as the same case. */
    char line[CC_CASE_TEXT_MAX], text0[CC_CASE_TEXT_MAX];
    snprintf(line, sizeof line, "%s grid=uniform", good_lines[0]);
    if (CHECKF(t, case_parse(line, &c, &err) == CC_OK, "grid=uniform: %s", err.msg)) {
        CHECKF(t, case_format(&c, text0, sizeof text0, &err) == CC_OK &&
                      strcmp(text0, good_lines[0]) == 0 && !strstr(text0, "grid="),
               "grid=uniform printed as '%s'", text0);
    }
    /* Each kind by name, in the enum's order. */
    static const char *const kind_names[] = {"uniform", "patches", "bands",
                                             "cells",   "holes",   "checker"};
    for (int k = 0; k < CC_GRID_KIND_COUNT; k++) {
        snprintf(line, sizeof line, "%s grid=%s", good_lines[0], kind_names[k]);
        CHECKF(t, case_parse(line, &c, &err) == CC_OK && (int)c.grid_kind == k &&
                      strcmp(case_grid_kind_name(c.grid_kind), kind_names[k]) == 0,
               "grid=%s read as kind %d", kind_names[k], (int)c.grid_kind);
    }
    c.grid_kind = CC_GRID_KIND_COUNT;
    CHECKF(t, case_format(&c, text0, sizeof text0, &err) != CC_OK && strstr(err.msg, "grid kind"),
           "an unknown kind formatted: %s", err.msg);
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
    "rule=B3/S23 size=16x16 steps=1 density=0.5 grid=stripes " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=0.5 grid= " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=0.5 grid=Bands " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=0.5 grid=cells grid=cells " SEED64,
    "rule=B3/S23 size=16x16 steps=1 density=0.5 grid=holes",
};

/* buffers=: 1..64 or guard, once, never beside timing=pinned; 0 and other values refused. */
static void test_buffers_malformed(checks *t) {
    cc_case c;
    cc_error err;
    const char *bad[] = {"0", "65", "-1", "Guard", "guard+1", "1.5", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[256];
        snprintf(line, sizeof line,
                 "rule=B3/S23 size=5x5 steps=1 density=0.5 buffers=%s seed="
                 "0000000000000000000000000000000000000000000000000000000000000001",
                 bad[i]);
        CHECKF(t, case_parse(line, &c, &err) == CC_ERR_ARG && strstr(err.msg, "buffers"),
               "buffers=%s: %s", bad[i], err.msg);
    }
    CHECKF(t, case_parse("rule=B3/S23 size=5x5 steps=1 density=0.5 buffers=3 timing=pinned seed="
                         "0000000000000000000000000000000000000000000000000000000000000001",
                         &c, &err) == CC_ERR_ARG && strstr(err.msg, "pinned"),
           "buffers with timing=pinned: %s", err.msg);
    if (CHECK(t, case_parse("rule=B3/S23 size=5x5 steps=1 density=0.5 buffers=64 seed="
                            "0000000000000000000000000000000000000000000000000000000000000001",
                            &c, &err) == CC_OK)) {
        CHECK(t, c.buffers == 64);
        char text[CC_CASE_TEXT_MAX];
        c.buffers = CC_BUFFERS_GUARD + 1;
        CHECK(t, case_format(&c, text, sizeof text, &err) == CC_ERR_ARG);
        c.buffers = 5;
        c.timing = CC_TIMING_PINNED;
        CHECK(t, case_format(&c, text, sizeof text, &err) == CC_ERR_ARG);
    }
    char what[CC_BUFFERS_TEXT_MAX];
    case_buffers_describe(CC_BUFFERS_GUARD, what, sizeof what);
    CHECKF(t, strstr(what, "guard") && strstr(what, "unmapped page"), "'%s'", what);
    case_buffers_describe(7, what, sizeof what);
    CHECKF(t, strcmp(what, "buffers=7: 7 bytes past a 64-byte boundary") == 0, "'%s'", what);
    case_buffers_describe(0, what, sizeof what);
    CHECK(t, what[0] == '\0');
}

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
    /* A negative density is named as negative, not as something other than a number. */
    cc_case c;
    cc_error err;
    CHECKF(t,
           case_parse("rule=B3/S23 size=5x5 steps=1 density=-0.25 seed="
                      "0000000000000000000000000000000000000000000000000000000000000001",
                      &c, &err) == CC_ERR_ARG &&
               strstr(err.msg, "density -0.25 is negative"),
           "negative density: %s", err.msg);
    /* The team: 1..CC_CASE_THREADS_MAX, named when it is not one. */
    const char *teams[] = {"0", "1025", "-1", "x", "2.5"};
    for (size_t i = 0; i < sizeof teams / sizeof teams[0]; i++) {
        char line[256];
        snprintf(line, sizeof line,
                 "rule=B3/S23 size=5x5 steps=1 density=0.5 threads=%s seed="
                 "0000000000000000000000000000000000000000000000000000000000000001",
                 teams[i]);
        CHECKF(t, case_parse(line, &c, &err) == CC_ERR_ARG && strstr(err.msg, "team size"),
               "threads=%s: %s", teams[i], err.msg);
    }
    CHECK(t, case_parse("rule=B3/S23 size=5x5 steps=1 density=0.5 threads=1024 seed="
                        "0000000000000000000000000000000000000000000000000000000000000001",
                        &c, &err) == CC_OK &&
                 c.threads == 1024);
    /* The timing: words of legacy, copies, kernel, delays and pinned joined by '+', in any
     * order, each once; printed back in that order. */
    const char *timings[] = {"fast", "legacy+", "+pinned", "legacy+legacy", "pinned,copies",
                             "Legacy"};
    for (size_t i = 0; i < sizeof timings / sizeof timings[0]; i++) {
        char line[256];
        snprintf(line, sizeof line,
                 "rule=B3/S23 size=5x5 steps=1 density=0.5 timing=%s seed="
                 "0000000000000000000000000000000000000000000000000000000000000001",
                 timings[i]);
        CHECKF(t, case_parse(line, &c, &err) == CC_ERR_ARG && strstr(err.msg, "timing"),
               "timing=%s: %s", timings[i], err.msg);
    }
    if (CHECK(t, case_parse("rule=B3/S23 size=5x5 steps=1 density=0.5 timing=pinned+legacy "
                            "seed=0000000000000000000000000000000000000000000000000000000000000001",
                            &c, &err) == CC_OK)) {
        CHECK(t, c.timing == (CC_TIMING_PINNED | CC_TIMING_LEGACY));
        char text[CC_CASE_TEXT_MAX];
        CHECK(t, case_format(&c, text, sizeof text, &err) == CC_OK &&
                     strstr(text, " timing=legacy+pinned"));
    }
    char words[CC_TIMING_TEXT_MAX];
    CHECK(t, case_timing_format(CC_TIMING_ALL, words, sizeof words, &err) == CC_OK &&
                 strcmp(words, "legacy+copies+kernel+delays+pinned") == 0);
    CHECK(t, case_timing_format(0, words, sizeof words, &err) == CC_OK && words[0] == '\0');
    CHECK(t, case_timing_format(CC_TIMING_ALL + 1, words, sizeof words, &err) == CC_ERR_ARG);
    c.timing = 64;
    CHECK(t, case_format(&c, words, sizeof words, &err) == CC_ERR_ARG);
    test_buffers_malformed(t);
}

int main(void) {
    checks t = {"case_test", 0, 0};
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium_init failed\n");
        return 1;
    }
    test_seed_derive(&t);
    test_seed_hex(&t);
    test_round_trips(&t);
    test_malformed(&t);
    return check_summary(&t);
}
