/* Finds, for each rule named on the command line, the shortest rule stage of at most three gates
 * over five signals of the adder (lifenet.c), by exhaustive search, and prints it as an entry of
 * lifenet_stages.c's table. Two signal sets: 0 = t0 k0 t1 k1 alive (the two full adders' outputs:
 * the network is then 4 + g gates), 1 = t0 u1 cc k1 alive (6 + g). The target is the builder's
 * own function on all 128 input patterns, so a stage found is exact wherever the builder's is.
 * A tool, not a test: about a second a rule.
 *   lifenet_search B3/S23 B36/S23 ... */
#include <stdio.h>
#include <string.h>

#include "engines/lifenet/lifenet.h"

typedef struct tt {
    uint64_t w[2];
} tt;

static tt gate(uint8_t imm, tt a, tt b, tt c) {
    tt r;
    for (int i = 0; i < 2; i++) r.w[i] = lifenet_lop3(imm, a.w[i], b.w[i], c.w[i]);
    return r;
}

/* Is t a function of a, b and c? Its truth table in *imm if so. */
static int function_of(tt t, tt a, tt b, tt c, uint8_t *imm) {
    uint8_t r = 0;
    for (int k = 0; k < 8; k++) {
        int ones = 0, zeros = 0;
        for (int i = 0; i < 2; i++) {
            uint64_t m = (k & 4 ? a.w[i] : ~a.w[i]) & (k & 2 ? b.w[i] : ~b.w[i]) &
                         (k & 1 ? c.w[i] : ~c.w[i]);
            ones |= (m & t.w[i]) != 0;
            zeros |= (m & ~t.w[i]) != 0;
        }
        if (ones && zeros) return 0;
        if (ones) r |= (uint8_t)(1u << k);
    }
    *imm = r;
    return 1;
}

typedef struct found {
    int gates;
    uint8_t op[3][4]; /* a, b, c, imm; operands 0..4 the signals, 5 and 6 the earlier gates */
} found;

/* The last gate over two signals and the newest gate (index n - 1 of s[0..n)). */
static int last_gate(tt target, const tt *s, int n, uint8_t out[4]) {
    for (int x = 0; x < n - 1; x++)
        for (int y = x + 1; y < n - 1; y++)
            if (function_of(target, s[x], s[y], s[n - 1], &out[3])) {
                out[0] = (uint8_t)x, out[1] = (uint8_t)y, out[2] = (uint8_t)(n - 1);
                return 1;
            }
    return 0;
}

static int search(tt target, tt s[7], found *f) {
    for (int a = 0; a < 5; a++)
        for (int b = a + 1; b < 5; b++)
            for (int c = b + 1; c < 5; c++)
                if (function_of(target, s[a], s[b], s[c], &f->op[0][3])) {
                    f->gates = 1;
                    f->op[0][0] = (uint8_t)a, f->op[0][1] = (uint8_t)b, f->op[0][2] = (uint8_t)c;
                    return 1;
                }
    for (int g = 2; g <= 3; g++)
        for (int a = 0; a < 5; a++)
            for (int b = a + 1; b < 5; b++)
                for (int c = b + 1; c < 5; c++)
                    for (int i1 = 0; i1 < 256; i1++) {
                        s[5] = gate((uint8_t)i1, s[a], s[b], s[c]);
                        f->op[0][0] = (uint8_t)a, f->op[0][1] = (uint8_t)b, f->op[0][2] = (uint8_t)c;
                        f->op[0][3] = (uint8_t)i1;
                        if (g == 2) {
                            if (last_gate(target, s, 6, f->op[1])) return f->gates = 2;
                            continue;
                        }
                        for (int d = 0; d < 6; d++)
                            for (int e = d + 1; e < 6; e++)
                                for (int h = e + 1; h < 6; h++)
                                    for (int i2 = 0; i2 < 256; i2++) {
                                        s[6] = gate((uint8_t)i2, s[d], s[e], s[h]);
                                        f->op[1][0] = (uint8_t)d, f->op[1][1] = (uint8_t)e;
                                        f->op[1][2] = (uint8_t)h, f->op[1][3] = (uint8_t)i2;
                                        if (last_gate(target, s, 7, f->op[2])) return f->gates = 3;
                                    }
                    }
    return 0;
}

int main(int argc, char **argv) {
    tt in[LIFENET_INPUTS];
    memset(in, 0, sizeof in);
    for (int i = 0; i < LIFENET_INPUTS; i++)
        for (int j = 0; j < 128; j++)
            if (j >> i & 1) in[i].w[j / 64] |= UINT64_C(1) << (j % 64);
    enum { A0, A1, B0, B1, D0, D1, ALIVE };
    const tt t0 = gate(0x96, in[A0], in[B0], in[D0]), k0 = gate(0xE8, in[A0], in[B0], in[D0]);
    const tt t1 = gate(0x96, in[A1], in[B1], in[D1]), k1 = gate(0xE8, in[A1], in[B1], in[D1]);
    const tt u1 = gate(0x3C, k0, t1, t1), cc = gate(0xC0, k0, t1, t1);
    int status = 0;
    for (int i = 1; i < argc; i++) {
        cc_rule rule;
        cc_error err;
        lifenet net;
        if (cc_rule_parse(argv[i], &rule, &err) || lifenet_build(&rule, &net, &err)) {
            fprintf(stderr, "lifenet_search: %s: %s\n", argv[i], err.msg);
            status = 1;
            continue;
        }
        tt target = {{0, 0}};
        for (int j = 0; j < 128; j++) {
            uint64_t x[LIFENET_INPUTS];
            for (int k = 0; k < LIFENET_INPUTS; k++) x[k] = j >> k & 1 ? ~UINT64_C(0) : 0;
            if (lifenet_eval(&net, x) & 1) target.w[j / 64] |= UINT64_C(1) << (j % 64);
        }
        for (int set = 0; set < 2; set++) {
            tt s[7] = {t0, set ? u1 : k0, set ? cc : t1, k1, in[ALIVE]};
            found f;
            if (!search(target, s, &f)) continue;
            unsigned birth = 0, survive = 0;
            for (int c = 0; c <= 9; c++) {
                birth |= (unsigned)cc_set_has(&rule.birth, c) << c;
                survive |= (unsigned)cc_set_has(&rule.survive, c) << c;
            }
            printf("    {%d, %d, 0x%03x, 0x%03x, %d, %d, {", (int)rule.shape, (int)rule.centre, birth,
                   survive, set, f.gates);
            for (int g = 0; g < f.gates; g++)
                printf("%s{%d, %d, %d, 0x%02x}", g ? ", " : "", f.op[g][0], f.op[g][1], f.op[g][2],
                       f.op[g][3]);
            printf("}}, /* %s: %d gates before folding, the builder's %d */\n", argv[i],
                   (set ? 6 : 4) + f.gates, net.gates);
            break;
        }
    }
    return status;
}
