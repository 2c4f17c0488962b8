/* Rule notations: fields read by hand, canonical forms, parse/print/parse round trips, and the
 * refusal of malformed rules with a message naming the problem. */
#include <stdio.h>
#include <string.h>

#include "oracle/rule.h"
#include "testing/check.h"

static void check_parse_fields(checks *t) {
    cc_rule r;
    cc_error err;
    cc_error_clear(&err);

    CHECK_EQ(t, cc_rule_parse("R5,C2,M0,S34..58,B34..45,NM", &r, &err), CC_OK);
    CHECK_EQ(t, r.shape, CC_SHAPE_MOORE);
    CHECK_EQ(t, r.radius, 5);
    CHECK_EQ(t, r.centre, 0);
    CHECK_EQ(t, r.survive.n, 1);
    CHECK_EQ(t, r.survive.r[0].lo, 34);
    CHECK_EQ(t, r.survive.r[0].hi, 58);
    CHECK_EQ(t, r.birth.n, 1);
    CHECK_EQ(t, r.birth.r[0].lo, 34);
    CHECK_EQ(t, r.birth.r[0].hi, 45);

    CHECK_EQ(t, cc_rule_parse("R3C0M1S2..9B7..7NC", &r, &err), CC_OK);
    CHECK_EQ(t, r.shape, CC_SHAPE_CIRCULAR);
    CHECK_EQ(t, r.radius, 3);
    CHECK_EQ(t, r.centre, 1);
    CHECK_EQ(t, r.survive.r[0].lo, 2);
    CHECK_EQ(t, r.survive.r[0].hi, 9);
    CHECK_EQ(t, r.birth.r[0].lo, 7);

    CHECK_EQ(t, cc_rule_parse("R2,C1,M0,S1..3,B2..2,N+", &r, &err), CC_OK);
    CHECK_EQ(t, r.shape, CC_SHAPE_CROSS);
    CHECK_EQ(t, cc_rule_parse("R4,C2,M0,S1..3,B2..2,NN", &r, &err), CC_OK);
    CHECK_EQ(t, r.shape, CC_SHAPE_VON_NEUMANN);
    CHECK_EQ(t, r.radius, 4);

    /* B36/S23 (HighLife): B is {3} and {6}, two ranges; S is 2..3, one range. */
    CHECK_EQ(t, cc_rule_parse("B36/S23", &r, &err), CC_OK);
    CHECK_EQ(t, r.shape, CC_SHAPE_MOORE);
    CHECK_EQ(t, r.radius, 1);
    CHECK_EQ(t, r.centre, 0);
    CHECK_EQ(t, r.birth.n, 2);
    CHECK_EQ(t, r.birth.r[0].lo, 3);
    CHECK_EQ(t, r.birth.r[0].hi, 3);
    CHECK_EQ(t, r.birth.r[1].lo, 6);
    CHECK_EQ(t, r.birth.r[1].hi, 6);
    CHECK_EQ(t, r.survive.n, 1);
    CHECK_EQ(t, r.survive.r[0].lo, 2);
    CHECK_EQ(t, r.survive.r[0].hi, 3);

    /* B02468/S: five separate ranges, the most a Life-like set can need. */
    CHECK_EQ(t, cc_rule_parse("B02468/S", &r, &err), CC_OK);
    CHECK_EQ(t, r.birth.n, 5);
    CHECK_EQ(t, r.survive.n, 0);
    CHECK_EQ(t, r.birth.r[4].lo, 8);

    CHECK_EQ(t, cc_rule_parse("B2/S34H", &r, &err), CC_OK);
    CHECK_EQ(t, r.shape, CC_SHAPE_HEX);
    CHECK_EQ(t, r.radius, 1);
    CHECK_EQ(t, r.centre, 0);
    CHECK_EQ(t, r.birth.n, 1);
    CHECK_EQ(t, r.birth.r[0].lo, 2);
    CHECK_EQ(t, r.birth.r[0].hi, 2);
    CHECK_EQ(t, r.survive.r[0].lo, 3);
    CHECK_EQ(t, r.survive.r[0].hi, 4);

    CHECK_EQ(t, cc_rule_parse("B/S", &r, &err), CC_OK);
    CHECK_EQ(t, r.birth.n, 0);
    CHECK_EQ(t, r.survive.n, 0);
}

/* Input and its canonical print, written by hand. */
static const char *const canonical[][2] = {
    {"B3/S23", "B3/S23"},
    {"b3/s23", "B3/S23"},
    {"B3/S32", "B3/S23"},
    {"  B3/S23\n", "B3/S23"},
    {"R1,C2,M0,S2..3,B3..3,NM", "B3/S23"},
    {"R1C2M0S2..3B3..3NM", "B3/S23"},
    {"r1,c0,m0,s2..3,b3..3,nm", "B3/S23"},
    {"B3/S", "B3/S"},
    {"B/S23", "B/S23"},
    {"B/S", "B/S"},
    {"B012345678/S876543210", "B012345678/S012345678"},
    {"B0/S8", "B0/S8"},
    {"B2/S34H", "B2/S34H"},
    {"b2/s43h", "B2/S34H"},
    {"B/S0123456H", "B/S0123456H"},
    {"R1,C2,M0,S3..4,B2..2,NH", "B2/S34H"},
    {"R1,C2,M1,S3..4,B2..2,NH", "R1,C2,M1,S3..4,B2..2,NH"},
    {"R1,C2,M1,S2..3,B3..3,NM", "R1,C2,M1,S2..3,B3..3,NM"},
    {"R1,C2,M0,S2..3,B3..3,NN", "R1,C2,M0,S2..3,B3..3,NN"},
    {"R5,C0,M1,S34..58,B34..45,NM", "R5,C2,M1,S34..58,B34..45,NM"},
    {"R5C1M0S34..58B34..45NN", "R5,C2,M0,S34..58,B34..45,NN"},
    {"r2,c2,m0,s1..2,b3..4,n+", "R2,C2,M0,S1..2,B3..4,N+"},
    {"R2,C2,M0,S0..0,B20..20,NC", "R2,C2,M0,S0..0,B20..20,NC"},
    {"R500,C2,M1,S1..1002001,B1002001..1002001,NM", "R500,C2,M1,S1..1002001,B1002001..1002001,NM"},
    {"R16,C2,M1,S1089..1089,B0..1089,NM", "R16,C2,M1,S1089..1089,B0..1089,NM"},
};

/* The CAT paper's Table VI, r = 1..16, transcribed. */
static const char *const table_vi[16] = {
    "R1,C2,M0,S2..3,B3..3,NM",       "R2,C2,M0,S7..12,B8..11,NM",
    "R3,C2,M0,S15..23,B14..17,NM",   "R4,C2,M0,S40..80,B41..80,NM",
    "R5,C2,M0,S35..59,B34..45,NM",   "R6,C2,M0,S49..81,B46..65,NM",
    "R7,C2,M0,S101..201,B75..170,NM", "R8,C2,M0,S163..223,B74..252,NM",
    "R9,C2,M0,S108..181,B100..140,NM", "R10,C2,M0,S122..211,B123..170,NM",
    "R11,C2,M0,S156..265,B147..205,NM", "R12,C2,M0,S170..296,B170..240,NM",
    "R13,C2,M0,S213..364,B203..283,NM", "R14,C2,M0,S245..420,B234..326,NM",
    "R15,C2,M0,S170..296,B170..240,NM", "R16,C2,M0,S170..296,B170..300,NM",
};
static const char *const table_vi_commaless[16] = {
    "R1C2M0S2..3B3..3NM",        "R2C2M0S7..12B8..11NM",       "R3C2M0S15..23B14..17NM",
    "R4C2M0S40..80B41..80NM",    "R5C2M0S35..59B34..45NM",     "R6C2M0S49..81B46..65NM",
    "R7C2M0S101..201B75..170NM", "R8C2M0S163..223B74..252NM",  "R9C2M0S108..181B100..140NM",
    "R10C2M0S122..211B123..170NM", "R11C2M0S156..265B147..205NM", "R12C2M0S170..296B170..240NM",
    "R13C2M0S213..364B203..283NM", "R14C2M0S245..420B234..326NM", "R15C2M0S170..296B170..240NM",
    "R16C2M0S170..296B170..300NM",
};

/* parse -> print -> parse gives the same rule, and printing again gives the same text. */
static void round_trip(checks *t, const char *text) {
    cc_rule a, b;
    cc_error err;
    cc_error_clear(&err);
    char p1[CC_RULE_TEXT_MAX], p2[CC_RULE_TEXT_MAX];
    int rc = cc_rule_parse(text, &a, &err);
    if (!CHECK_EQ(t, rc, CC_OK)) {
        fprintf(stderr, "  rule \"%s\": %s\n", text, err.msg);
        return;
    }
    rc = cc_rule_print(&a, p1, sizeof p1, &err);
    if (!CHECK_EQ(t, rc, CC_OK)) {
        fprintf(stderr, "  printing \"%s\": %s\n", text, err.msg);
        return;
    }
    CHECK_EQ(t, cc_rule_parse(p1, &b, &err), CC_OK);
    if (!CHECK(t, cc_rule_equal(&a, &b))) fprintf(stderr, "  \"%s\" -> \"%s\"\n", text, p1);
    CHECK_EQ(t, cc_rule_print(&b, p2, sizeof p2, &err), CC_OK);
    CHECK_STR(t, p2, p1);
}

static void check_canonical(checks *t) {
    cc_error err;
    cc_error_clear(&err);
    for (size_t i = 0; i < sizeof canonical / sizeof canonical[0]; i++) {
        cc_rule r;
        char buf[CC_RULE_TEXT_MAX];
        int rc = cc_rule_parse(canonical[i][0], &r, &err);
        if (!CHECK_EQ(t, rc, CC_OK)) {
            fprintf(stderr, "  rule \"%s\": %s\n", canonical[i][0], err.msg);
            continue;
        }
        CHECK_EQ(t, cc_rule_print(&r, buf, sizeof buf, &err), CC_OK);
        CHECK_STR(t, buf, canonical[i][1]);
        round_trip(t, canonical[i][0]);
    }
    /* Comma and comma-less forms of the same rule parse equal. */
    cc_rule a, b;
    CHECK_EQ(t, cc_rule_parse("R7,C2,M1,S10..20,B30..40,NC", &a, &err), CC_OK);
    CHECK_EQ(t, cc_rule_parse("R7C2M1S10..20B30..40NC", &b, &err), CC_OK);
    CHECK(t, cc_rule_equal(&a, &b));
    CHECK_EQ(t, cc_rule_parse("R1,C2,M0,S2..3,B3..3,NM", &a, &err), CC_OK);
    CHECK_EQ(t, cc_rule_parse("B3/S23", &b, &err), CC_OK);
    CHECK(t, cc_rule_equal(&a, &b));
}

static void check_table_vi(checks *t) {
    cc_error err;
    cc_error_clear(&err);
    for (int i = 0; i < 16; i++) {
        cc_rule a, b;
        char buf[CC_RULE_TEXT_MAX];
        CHECK_EQ(t, cc_rule_parse(table_vi[i], &a, &err), CC_OK);
        CHECK_EQ(t, cc_rule_parse(table_vi_commaless[i], &b, &err), CC_OK);
        CHECK(t, cc_rule_equal(&a, &b));
        CHECK_EQ(t, a.radius, i + 1);
        CHECK_EQ(t, a.shape, CC_SHAPE_MOORE);
        CHECK_EQ(t, cc_rule_print(&a, buf, sizeof buf, &err), CC_OK);
        /* r = 1 is Life itself and prints as B3/S23; the rest print as transcribed. */
        CHECK_STR(t, buf, i == 0 ? "B3/S23" : table_vi[i]);
        round_trip(t, table_vi[i]);
        round_trip(t, table_vi_commaless[i]);
    }
}

static void check_more_round_trips(checks *t) {
    static const char *const rules[] = {
        "B36/S23",   "B3678/S34678", "B1357/S1357",  "B2/S",    "B0123/S45678", "B368/S245",
        "B2/S34H",   "B245/S3H",     "B0/S0123456H", "B/SH",    "B1/S1H",
        "R2,C2,M1,S5..10,B6..8,NN",  "R3,C2,M0,S1..12,B3..3,N+", "R8,C2,M1,S100..150,B80..90,NC",
        "R1,C2,M1,S0..9,B0..0,NM",   "R1,C2,M0,S0..4,B1..1,NN",  "R1,C2,M0,S1..1,B1..2,N+",
        "R1,C2,M0,S0..8,B3..3,NC",   "R500,C2,M0,S0..0,B1..1,NN", "R64,C2,M1,S1..16641,B1..2,NM",
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) round_trip(t, rules[i]);
    /* Every Life-like set of the form B{a..b}/S{c..d} over 0..8 for a handful of values. */
    for (int lo = 0; lo <= 8; lo += 2)
        for (int hi = lo; hi <= 8; hi += 3) {
            char text[64];
            snprintf(text, sizeof text, "R1,C2,M1,S%d..%d,B%d..%d,NM", lo, hi, hi, hi);
            round_trip(t, text);
            snprintf(text, sizeof text, "R2,C2,M0,S%d..%d,B%d..%d,NC", lo, hi + 10, lo, hi);
            round_trip(t, text);
        }
}

typedef struct bad_rule {
    const char *text;
    int code; /* 0: any non-zero code */
    const char *needle;
} bad_rule;

static const bad_rule bad_rules[] = {
    {"", CC_ERR_ARG, "empty rule"},
    {"   ", CC_ERR_ARG, "empty rule"},
    {"B9/S23", CC_ERR_ARG, "birth count 9 exceeds 8 for a Life-like rule"},
    {"B3/S239", CC_ERR_ARG, "survival count 9 exceeds 8"},
    {"B7/S23H", CC_ERR_ARG, "birth count 7 exceeds 6 for a hexagonal rule"},
    {"B3/S27H", CC_ERR_ARG, "survival count 7 exceeds 6"},
    {"B3S23", CC_ERR_ARG, "unexpected 'S' in the birth counts"},
    {"B3", CC_ERR_ARG, "missing '/'"},
    {"B3/23", CC_ERR_ARG, "expected S after '/'"},
    {"B3/S2x3", CC_ERR_ARG, "unexpected 'x' in the survival counts"},
    {"B3/S2 3", CC_ERR_ARG, "unexpected ' ' in the survival counts"},
    {"B3/S23\x01", CC_ERR_ARG, "unexpected \\x01"},
    {"B33/S23", CC_ERR_ARG, "birth count 3 appears twice"},
    {"B3/S223", CC_ERR_ARG, "survival count 2 appears twice"},
    {"B3/S23/", CC_ERR_ARG, "unexpected '/' in the survival counts"},
    {"B3/S23HH", CC_ERR_ARG, "unexpected 'H' in the survival counts"},
    {"23/3", CC_ERR_ARG, "unrecognised notation"},
    {"S23/B3", CC_ERR_ARG, "B first"},
    {"Life", CC_ERR_ARG, "unrecognised notation"},
    {"B3/S23V", CC_ERR_UNSUPPORTED, "von Neumann suffix V is unsupported"},
    {"R5,C3,M0,S34..58,B34..45,NM", CC_ERR_UNSUPPORTED, "multi-state rules are unsupported"},
    {"R5,C256,M0,S34..58,B34..45,NM", CC_ERR_UNSUPPORTED, "C256: multi-state"},
    {"R5,C,M0,S34..58,B34..45,NM", CC_ERR_ARG, "number of states C needs a number"},
    {"R5,C2,M2,S34..58,B34..45,NM", CC_ERR_ARG, "M2: the centre flag must be M0 or M1"},
    {"R0,C2,M0,S1..2,B1..2,NM", CC_ERR_UNSUPPORTED, "radius 0 is outside 1..500"},
    {"R501,C2,M0,S1..2,B1..2,NM", CC_ERR_UNSUPPORTED, "radius 501 is outside 1..500"},
    {"R99999999999,C2,M0,S1..2,B1..2,NM", CC_ERR_ARG, "the radius R is too large"},
    {"R,C2,M0,S1..2,B1..2,NM", CC_ERR_ARG, "the radius R needs a number"},
    {"R2,C2,M0,S1..2,B99999999999..2,NM", CC_ERR_ARG, "the B range is too large"},
    {"R5,C2,M0,S34..58,B34..45,NX", CC_ERR_UNSUPPORTED, "neighbourhood NX is unsupported"},
    {"R5,C2,M0,S34..58,B34..45,NQ", CC_ERR_ARG, "unknown neighbourhood"},
    {"R5,C2,M0,S34..58,B34..45", CC_ERR_ARG, "expected ',' before N, found the end"},
    {"R5,C2,M0,S34..58,B34..45,N", CC_ERR_ARG, "N needs a neighbourhood code"},
    {"R5,C2,M0,S58..34,B34..45,NM", CC_ERR_ARG, "S range 58..34 is empty"},
    {"R5,C2,M0,S34..58,B34..45,NMx", CC_ERR_ARG, "trailing text after the neighbourhood"},
    {"R5,C2,M0,S34..58,B34..45,NM,extra", CC_ERR_ARG, "trailing text after the neighbourhood"},
    {"R5,C2,M0,S34..200,B34..45,NM", CC_ERR_ARG, "exceeds the largest possible count 120"},
    {"R1,C2,M1,S0..10,B3..3,NM", CC_ERR_ARG, "exceeds the largest possible count 9"},
    {"R2,C2,M0,S1..13,B1..2,NN", CC_ERR_ARG, "exceeds the largest possible count 12"},
    {"R2,C2,M0,S1..2,B1..9,N+", CC_ERR_ARG, "exceeds the largest possible count 8"},
    {"R2,C2,M0,S1..2,B1..21,NC", CC_ERR_ARG, "exceeds the largest possible count 20"},
    {"R1,C2,M0,S1..2,B7..7,NH", CC_ERR_ARG, "exceeds the largest possible count 6"},
    {"R5,C2,M0,S34-58,B34..45,NM", CC_ERR_ARG, "S needs a range lo..hi"},
    {"R5,C2,M0,S-1..58,B34..45,NM", CC_ERR_ARG, "the S range is negative"},
    {"R5,C2,M0,S34..,B34..45,NM", CC_ERR_ARG, "the S range needs a number, found ','"},
    {"R5C2,M0,S34..58,B34..45,NM", CC_ERR_ARG, "unexpected ',' before M in a rule without commas"},
    {"R5,C2M0,S34..58,B34..45,NM", CC_ERR_ARG, "expected ',' before M"},
    {"R5,C2,M0,B34..45,S34..58,NM", CC_ERR_ARG, "expected S (the survival range), found 'B'"},
    {"R5,C2,M0,S34..58,B34..45,NH", CC_ERR_UNSUPPORTED, "hexagonal neighbourhood has radius 1 only"},
    {"R5,C2,M0,S2..3,5..6,B34..45,NM", CC_ERR_UNSUPPORTED, "S has more than one range"},
    {"R5,X2,M0,S34..58,B34..45,NM", CC_ERR_ARG, "expected C (the number of states)"},
    {"R5 ,C2,M0,S34..58,B34..45,NM", CC_ERR_ARG, "expected C (the number of states), found ' '"},
};

static void check_malformed(checks *t, int *refused) {
    cc_error err;
    for (size_t i = 0; i < sizeof bad_rules / sizeof bad_rules[0]; i++) {
        cc_rule r;
        cc_error_clear(&err);
        int rc = cc_rule_parse(bad_rules[i].text, &r, &err);
        if (CHECK_REFUSED(t, rc, &err, bad_rules[i].needle, bad_rules[i].text)) (*refused)++;
        if (bad_rules[i].code) CHECK_EQ(t, rc, bad_rules[i].code);
        /* Every message names the rule it refuses (all of these are printable and short). */
        CHECK(t, strncmp(err.msg, "rule \"", 6) == 0);
    }
    /* Longer than any rule: refused before parsing. */
    char long_rule[400];
    memset(long_rule, '1', sizeof long_rule - 1);
    long_rule[0] = 'R';
    long_rule[sizeof long_rule - 1] = '\0';
    cc_rule r;
    cc_error_clear(&err);
    if (CHECK_REFUSED(t, cc_rule_parse(long_rule, &r, &err), &err, "longer than 256 characters",
                      "a 399-character rule"))
        (*refused)++;
    /* A number just over the limit is refused, not wrapped around. */
    cc_error_clear(&err);
    if (CHECK_REFUSED(t, cc_rule_parse("R4294967297,C2,M0,S1..2,B1..2,NM", &r, &err), &err,
                      "too large", "radius 2^32+1"))
        (*refused)++;
    CHECK_EQ(t, cc_rule_parse(NULL, &r, &err), CC_ERR_ARG);
}

static void check_print_refusals(checks *t) {
    cc_error err;
    cc_error_clear(&err);
    cc_rule r;
    char buf[CC_RULE_TEXT_MAX];
    /* Radius 2 with S = {1, 3}: not one range, so no Larger than Life text exists for it. */
    CHECK_EQ(t, cc_rule_parse("R2,C2,M0,S1..1,B2..2,NM", &r, &err), CC_OK);
    CHECK_EQ(t, cc_set_add(&r.survive, 3, 3, &err), CC_OK);
    CHECK_REFUSED(t, cc_rule_print(&r, buf, sizeof buf, &err), &err, "one non-empty range",
                  "printing S = {1, 3}");
    /* An empty B set in Larger than Life. */
    CHECK_EQ(t, cc_rule_parse("R2,C2,M0,S1..1,B2..2,NM", &r, &err), CC_OK);
    cc_set_clear(&r.birth);
    CHECK_REFUSED(t, cc_rule_print(&r, buf, sizeof buf, &err), &err, "one non-empty range",
                  "printing an empty B");
    /* An invalid rule is not printed. */
    CHECK_EQ(t, cc_rule_parse("R2,C2,M0,S1..1,B2..2,NM", &r, &err), CC_OK);
    r.radius = 0;
    CHECK_REFUSED(t, cc_rule_print(&r, buf, sizeof buf, &err), &err, "radius 0", "printing r = 0");
    /* A buffer too small for the text. */
    CHECK_EQ(t, cc_rule_parse("B3/S23", &r, &err), CC_OK);
    char small[6];
    CHECK_REFUSED(t, cc_rule_print(&r, small, sizeof small, &err), &err, "too small",
                  "printing into 6 bytes");
    CHECK_EQ(t, cc_rule_print(&r, buf, 7, &err), CC_OK); /* "B3/S23" and its NUL fit exactly */
    CHECK_STR(t, buf, "B3/S23");
}

/* The interval a threshold kernel tests: hand-counted hulls. */
static void check_hull(checks *t) {
    cc_set set;
    cc_set_clear(&set);
    int32_t lo, hi;
    cc_set_hull(&set, &lo, &hi);
    CHECKF(t, lo > hi, "empty set: hull %d..%d is not empty", (int)lo, (int)hi);
    cc_set_add(&set, 5, 6, NULL);
    cc_set_add(&set, 2, 3, NULL);
    cc_set_hull(&set, &lo, &hi);
    CHECKF(t, lo == 2 && hi == 6, "hull of 2..3,5..6 is %d..%d", (int)lo, (int)hi);
}

/* Golly's topology suffix: the plane and its sides, the torus by default or by :T, round trips,
 * and the suffixes refused. */
static void check_topology(checks *t) {
    cc_rule r;
    cc_error err;
    int32_t w, h;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &r, &err), CC_OK);
    CHECK(t, r.topology == CC_TOPOLOGY_TORUS);
    CHECK_EQ(t, cc_rule_parse("B3/S23:T", &r, &err), CC_OK);
    CHECK(t, r.topology == CC_TOPOLOGY_TORUS);
    CHECK_EQ(t, cc_rule_parse_sized("B3/S23:P64,48", &r, &w, &h, &err), CC_OK);
    CHECK(t, r.topology == CC_TOPOLOGY_PLANE && w == 64 && h == 48);
    CHECK_EQ(t, cc_rule_parse_sized("R2,C2,M1,S3..5,B2..4,NN:p", &r, &w, &h, &err), CC_OK);
    CHECK(t, r.topology == CC_TOPOLOGY_PLANE && r.radius == 2 && w == 0 && h == 0);
    /* Whether the text names a topology at all: a reader takes a file's where it does not. */
    int stated = -1;
    CHECK_EQ(t, cc_rule_parse_stated("B3/S23", &r, &stated, &w, &h, &err), CC_OK);
    CHECK(t, stated == 0 && w == 0 && h == 0 && r.topology == CC_TOPOLOGY_TORUS);
    CHECK_EQ(t, cc_rule_parse_stated("B3/S23:T", &r, &stated, &w, &h, &err), CC_OK);
    CHECK(t, stated == 1 && w == 0 && h == 0 && r.topology == CC_TOPOLOGY_TORUS);
    CHECK_EQ(t, cc_rule_parse_stated("B3/S23:P5,7", &r, &stated, &w, &h, &err), CC_OK);
    CHECK(t, stated == 1 && w == 5 && h == 7 && r.topology == CC_TOPOLOGY_PLANE);
    cc_rule torus;
    CHECK_EQ(t, cc_rule_parse("B3/S23", &torus, &err), CC_OK);
    CHECK_EQ(t, cc_rule_parse("B3/S23:P", &r, &err), CC_OK);
    CHECK(t, !cc_rule_equal(&r, &torus));
    char text[CC_RULE_TEXT_MAX];
    CHECK_EQ(t, cc_rule_print(&r, text, sizeof text, &err), CC_OK);
    CHECK_STR(t, text, "B3/S23:P");
    round_trip(t, "B3/S23:P");
    round_trip(t, "B2/S34H:P");
    round_trip(t, "R5,C2,M0,S34..58,B34..45,NM:P");
    static const struct {
        const char *text;
        int code;
        const char *says;
    } bad[] = {
        {"B3/S23:K", CC_ERR_UNSUPPORTED, "only :T (torus) and :P"},
        {"B3/S23:Q", CC_ERR_ARG, "only :T (torus) and :P"},
        {"B3/S23:", CC_ERR_ARG, "only :T"},
        {"B3/S23:P64", CC_ERR_ARG, "sides are W,H"},
        {"B3/S23:P64,0", CC_ERR_ARG, "must be positive"},
        {"B3/S23:P64,48x", CC_ERR_ARG, "trailing text after the topology"},
        {":P", CC_ERR_ARG, "empty rule"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cc_error_clear(&err);
        int rc = cc_rule_parse(bad[i].text, &r, &err);
        CHECKF(t, rc == bad[i].code && strstr(err.msg, bad[i].says), "\"%s\": %d %s",
               bad[i].text, rc, err.msg);
    }
}

int main(void) {
    checks t = {"rule_test", 0, 0};
    check_topology(&t);
    check_hull(&t);
    int refused = 0;
    check_parse_fields(&t);
    check_canonical(&t);
    check_table_vi(&t);
    check_more_round_trips(&t);
    check_malformed(&t, &refused);
    check_print_refusals(&t);
    printf("rule_test: %d malformed rules refused with the expected message\n", refused);
    CHECK(&t, refused >= 30);
    return check_summary(&t);
}
