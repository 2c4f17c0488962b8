/* Every Life-like rule's network against the rule's definition, on all 512 neighbourhoods:
 * 2^18 rules under M0 (B and S any subsets of 0..8) and 2^20 under M1 (of 0..9); and every
 * hexagonal rule on all 128 neighbourhoods; other shapes and radii refused. Gate counts
 * are printed for the rules the benchmarks use. */
#include "engines/lifenet/lifenet.h"
#include "engines/lifenet/lifenet_stages.h"

#include <stdio.h>

#include "testing/check.h"

/* Inputs for neighbourhoods j = 64 * part + bit: cell k of the 3x3 block (row-major, centre 4)
 * is bit k of j. */
static void inputs_of(int part, uint64_t in[LIFENET_INPUTS], int counts[64], int alive[64]) {
    for (int i = 0; i < LIFENET_INPUTS; i++) in[i] = 0;
    for (int bit = 0; bit < 64; bit++) {
        int j = 64 * part + bit, total = 0;
        for (int row = 0; row < 3; row++) {
            int l = j >> (3 * row) & 1, c = j >> (3 * row + 1) & 1, r = j >> (3 * row + 2) & 1;
            int s = l + c + r;
            total += s;
            in[2 * row] |= (uint64_t)(s & 1) << bit;
            in[2 * row + 1] |= (uint64_t)(s >> 1) << bit;
        }
        alive[bit] = j >> 4 & 1;
        counts[bit] = total; /* nine cells, centre included */
        in[6] |= (uint64_t)alive[bit] << bit;
    }
}

static cc_rule rule_of_bits(uint32_t bits, int centre) {
    cc_rule r = {.shape = CC_SHAPE_MOORE, .radius = 1, .centre = centre};
    cc_error err;
    const int counts = 9 + centre; /* 0..8, or 0..9 with the centre counted */
    for (int c = 0; c < counts; c++) {
        if (bits >> c & 1) cc_set_add(&r.birth, c, c, &err);
        if (bits >> (counts + c) & 1) cc_set_add(&r.survive, c, c, &err);
    }
    return r;
}

/* Every hexagonal rule (2^14 under M0, B and S subsets of 0..6; 2^16 under M1, of 0..7) on all
 * 128 neighbourhoods: the six neighbours and the centre are bits 0..5 and 6 of j, in the order
 * (x-1,y-1) (x,y-1) (x-1,y) (x+1,y) (x,y+1) (x+1,y+1); each row's pair is a half adder of its
 * two. */
static void hexagonal(checks *t) {
    uint64_t in[2][LIFENET_INPUTS] = {{0}};
    int counts[128], alive[128];
    for (int j = 0; j < 128; j++) {
        const int part = j / 64, bit = j % 64, c[6] = {j & 1,      j >> 1 & 1, j >> 2 & 1,
                                                       j >> 3 & 1, j >> 4 & 1, j >> 5 & 1};
        for (int row = 0; row < 3; row++) {
            const int x = c[2 * row], y = c[2 * row + 1];
            in[part][2 * row] |= (uint64_t)(x ^ y) << bit;
            in[part][2 * row + 1] |= (uint64_t)(x & y) << bit;
        }
        alive[j] = j >> 6 & 1;
        in[part][6] |= (uint64_t)alive[j] << bit;
        counts[j] = c[0] + c[1] + c[2] + c[3] + c[4] + c[5];
    }
    long rules = 0, wrong = 0, gates_max = 0;
    for (int centre = 0; centre <= 1; centre++) {
        const int n = 7 + centre;
        for (uint32_t bits = 0; bits < (1u << (2 * n)); bits++) {
            cc_rule rule = {.shape = CC_SHAPE_HEX, .radius = 1, .centre = centre};
            cc_error err;
            for (int c = 0; c < n; c++) {
                if (bits >> c & 1) cc_set_add(&rule.birth, c, c, &err);
                if (bits >> (n + c) & 1) cc_set_add(&rule.survive, c, c, &err);
            }
            lifenet net;
            if (!CHECKF(t, lifenet_build(&rule, &net, &err) == CC_OK, "%s", err.msg)) return;
            rules++;
            if (net.gates > gates_max) gates_max = net.gates;
            int bad = 0;
            for (int j = 0; j < 128 && !bad; j++) {
                const uint64_t got = lifenet_eval(&net, in[j / 64]) >> (j % 64) & 1;
                const int count = counts[j] + (centre ? alive[j] : 0);
                bad = (int)got != cc_set_has(alive[j] ? &rule.survive : &rule.birth, count);
                if (bad && wrong < 5)
                    fprintf(stderr, "hexagonal rule bits %04x M%d: neighbourhood %d gives %d\n",
                            bits, centre, j, (int)got);
            }
            wrong += bad;
        }
    }
    CHECKF(t, wrong == 0, "%ld of %ld hexagonal rules' networks are wrong", wrong, rules);
    CHECK_EQ(t, rules, (1L << 14) + (1L << 16));
    printf("%ld hexagonal rules, gates: most %ld\n", rules, gates_max);
    cc_rule rule;
    lifenet net;
    cc_error err;
    if (CHECK(t, cc_rule_parse("B2/S34H", &rule, &err) == CC_OK) &&
        CHECK(t, lifenet_build(&rule, &net, &err) == CC_OK))
        printf("B2/S34H: %d gates\n", net.gates);
}

int main(void) {
    checks t = {"lifenet_test", 0, 0};
    uint64_t in[8][LIFENET_INPUTS];
    int counts[8][64], alive[8][64];
    for (int p = 0; p < 8; p++) inputs_of(p, in[p], counts[p], alive[p]);
    long wrong_rules = 0, gates_total = 0, gates_max = 0, rules = 0;
    for (int centre = 0; centre <= 1; centre++)
        for (uint32_t bits = 0; bits < (1u << (2 * (9 + centre))); bits++) {
            cc_rule rule = rule_of_bits(bits, centre);
            lifenet net;
            cc_error err;
            if (!CHECKF(&t, lifenet_build(&rule, &net, &err) == CC_OK, "%s", err.msg)) break;
            rules++;
            gates_total += net.gates;
            if (net.gates > gates_max) gates_max = net.gates;
            int bad = 0;
            for (int p = 0; p < 8 && !bad; p++) {
                uint64_t got = lifenet_eval(&net, in[p]);
                for (int bit = 0; bit < 64; bit++) {
                    int a = alive[p][bit], count = counts[p][bit] - (centre ? 0 : a);
                    int want = cc_set_has(a ? &rule.survive : &rule.birth, count);
                    if ((int)(got >> bit & 1) != want) {
                        if (wrong_rules < 5)
                            fprintf(stderr, "rule bits %05x M%d: neighbourhood %d gives %d, not %d\n",
                                    bits, centre, 64 * p + bit, (int)(got >> bit & 1), want);
                        bad = 1;
                        break;
                    }
                }
            }
            wrong_rules += bad;
        }
    CHECKF(&t, wrong_rules == 0, "%ld of %ld rules' networks are wrong", wrong_rules, rules);
    printf("%ld rules, gates: mean %.2f, most %ld\n", rules, (double)gates_total / (double)rules,
           gates_max);
    static const char *const named[] = {"B3/S23", "B36/S23", "B3678/S34678", "B2/S", "B0/S8",
                                        "B1357/S1357"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        cc_rule rule;
        lifenet net;
        cc_error err;
        if (CHECKF(&t, cc_rule_parse(named[i], &rule, &err) == CC_OK, "%s", err.msg) &&
            CHECKF(&t, lifenet_build(&rule, &net, &err) == CC_OK, "%s", err.msg))
            printf("%s: %d gates\n", named[i], net.gates);
    }
    hexagonal(&t);
    /* Each stage of the table is taken for its rule (the loops above proved it right): the
     * network is no longer than the adder the stage reads (4 or 6 gates) and the stage. */
    for (int i = 0; i < lifenet_stages_count; i++) {
        const lifenet_stage *st = &lifenet_stages[i];
        cc_rule rule = {.shape = (cc_shape)st->shape, .radius = 1, .centre = st->centre};
        cc_error err;
        for (int c = 0; c <= 9; c++) {
            if (st->birth >> c & 1) cc_set_add(&rule.birth, c, c, &err);
            if (st->survive >> c & 1) cc_set_add(&rule.survive, c, c, &err);
        }
        lifenet net;
        if (CHECKF(&t, lifenet_build(&rule, &net, &err) == CC_OK, "stage %d: %s", i, err.msg))
            CHECKF(&t, net.gates <= (st->set ? 6 : 4) + st->gates,
                   "stage %d: %d gates, the stage promises %d", i, net.gates,
                   (st->set ? 6 : 4) + st->gates);
    }
    cc_rule other;
    cc_error err;
    lifenet net;
    if (CHECK(&t, cc_rule_parse("R2,C2,M0,S2..3,B3..3,NM", &other, &err) == CC_OK))
        CHECK(&t, lifenet_build(&other, &net, &err) == CC_ERR_UNSUPPORTED);
    if (CHECK(&t, cc_rule_parse("R1,C2,M0,S2..3,B3..3,NN", &other, &err) == CC_OK))
        CHECK(&t, lifenet_build(&other, &net, &err) == CC_ERR_UNSUPPORTED);
    return check_summary(&t);
}
