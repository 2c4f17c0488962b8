/* The rule's gate network (lifenet.h): built from the adder and three three-input tables, then
 * folded (constants, repeats) and fused (a gate whose only reader can take its inputs too). */
#include "engines/lifenet/lifenet.h"

#include <string.h>

#include "engines/lifenet/lifenet_stages.h"

/* Truth tables over the 7 inputs: bit j is the signal's value where input i is bit i of j. */
typedef struct table {
    uint64_t w[2];
} table;

typedef struct builder {
    lifenet *net;
    table tt[LIFENET_INPUTS + LIFENET_GATES_MAX];
} builder;

static table table_of(const builder *b, uint8_t s) {
    if (s == LIFENET_ZERO) return (table){{0, 0}};
    if (s == LIFENET_ONE) return (table){{~UINT64_C(0), ~UINT64_C(0)}};
    return b->tt[s];
}

static int table_equal(table x, table y) { return x.w[0] == y.w[0] && x.w[1] == y.w[1]; }

/* A gate, unless its function is a constant or a signal there is already. */
static uint8_t add(builder *b, uint8_t imm, uint8_t x, uint8_t y, uint8_t z, cc_error *err,
                   int *rc) {
    table tx = table_of(b, x), ty = table_of(b, y), tz = table_of(b, z), t;
    for (int i = 0; i < 2; i++) t.w[i] = lifenet_lop3(imm, tx.w[i], ty.w[i], tz.w[i]);
    if (table_equal(t, table_of(b, LIFENET_ZERO))) return LIFENET_ZERO;
    if (table_equal(t, table_of(b, LIFENET_ONE))) return LIFENET_ONE;
    int signals = LIFENET_INPUTS + b->net->gates;
    for (int s = 0; s < signals; s++)
        if (table_equal(t, b->tt[s])) return (uint8_t)s;
    if (b->net->gates == LIFENET_GATES_MAX) {
        *rc = cc_fail(err, CC_ERR_UNSUPPORTED, "lifenet: more than %d gates", LIFENET_GATES_MAX);
        return LIFENET_ZERO;
    }
    b->net->gate[b->net->gates] = (lifenet_gate){imm, x, y, z};
    b->tt[signals] = t;
    b->net->gates++;
    return (uint8_t)signals;
}

/* LOP3 truth tables of common functions, in (a, b, c) order. */
#define IMM_XOR3 0x96
#define IMM_MAJ3 0xE8
#define IMM_XOR2 0x3C /* a ^ b */
#define IMM_AND2 0xC0 /* a & b */
#define IMM_MUX 0xCA  /* a ? b : c */

/* The rule's three-input table for a sum of t0 + 2 u1 + 4 m (inputs t0, u1, alive). Moore: the
 * nine-cell sum, centre included; born on sum in B, survives on sum - 1 in S (M0). Hexagonal:
 * the six neighbours' sum; born on it in B, survives on it in S (plus one under M1). Sums that
 * cannot occur give 0. */
static uint8_t rule_table(const cc_rule *rule, int hex, int m) {
    uint8_t imm = 0;
    for (int i = 0; i < 8; i++) {
        int t0 = i >> 2 & 1, u1 = i >> 1 & 1, alive = i & 1;
        int sum = t0 + 2 * u1 + 4 * m;
        int next = 0;
        if (hex && sum <= 6) {
            int count = sum + (rule->centre ? alive : 0);
            next = cc_set_has(alive ? &rule->survive : &rule->birth, count);
        }
        /* A live centre is one of the nine: sums below it cannot occur. */
        if (!hex && sum <= 9 && sum >= alive) {
            int count = rule->centre ? sum : sum - alive;
            next = cc_set_has(alive ? &rule->survive : &rule->birth, count);
        }
        imm |= (uint8_t)(next << i);
    }
    return imm;
}

/* Readers of each signal: gates, and the output. */
static void count_readers(const lifenet *net, int readers[LIFENET_INPUTS + LIFENET_GATES_MAX]) {
    memset(readers, 0, sizeof(int) * (LIFENET_INPUTS + LIFENET_GATES_MAX));
    for (int g = 0; g < net->gates; g++) {
        const uint8_t in[3] = {net->gate[g].a, net->gate[g].b, net->gate[g].c};
        for (int k = 0; k < 3; k++)
            if (in[k] < LIFENET_INPUTS + LIFENET_GATES_MAX) readers[in[k]]++;
    }
    if (net->out < LIFENET_INPUTS + LIFENET_GATES_MAX) readers[net->out]++;
}

/* The 8-bit pattern of signal s where the fused gate's inputs are p, q, r. */
static uint8_t pattern(uint8_t s, const uint8_t in[3]) {
    static const uint8_t lanes[3] = {0xF0, 0xCC, 0xAA};
    if (s == LIFENET_ONE) return 0xFF;
    for (int k = 0; k < 3; k++)
        if (in[k] == s) return lanes[k];
    return 0x00; /* LIFENET_ZERO, or a slot left empty */
}

/* Gate y takes gate x's place among its inputs where the union of their inputs is at most three
 * signals and y is x's only reader. Returns 1 when it fused. */
static int fuse_once(lifenet *net) {
    int readers[LIFENET_INPUTS + LIFENET_GATES_MAX];
    count_readers(net, readers);
    for (int yi = 0; yi < net->gates; yi++) {
        lifenet_gate *y = &net->gate[yi];
        const uint8_t yin[3] = {y->a, y->b, y->c};
        for (int k = 0; k < 3; k++) {
            uint8_t xs = yin[k];
            if (xs < LIFENET_INPUTS || xs >= LIFENET_INPUTS + LIFENET_GATES_MAX ||
                readers[xs] != 1)
                continue;
            const lifenet_gate *x = &net->gate[xs - LIFENET_INPUTS];
            uint8_t u[3] = {LIFENET_ZERO, LIFENET_ZERO, LIFENET_ZERO};
            int n = 0, fits = 1;
            const uint8_t cand[5] = {x->a, x->b, x->c, yin[(k + 1) % 3], yin[(k + 2) % 3]};
            for (int c = 0; c < 5 && fits; c++) {
                uint8_t s = cand[c];
                if (s == LIFENET_ZERO || s == LIFENET_ONE) continue;
                int seen = 0;
                for (int j = 0; j < n; j++) seen |= u[j] == s;
                if (seen) continue;
                if (n == 3) fits = 0;
                else u[n++] = s;
            }
            if (!fits) continue;
            /* y's table over u: x evaluated on u's patterns, then y. */
            uint8_t px = (uint8_t)lifenet_lop3(x->imm, pattern(x->a, u), pattern(x->b, u),
                                               pattern(x->c, u));
            uint8_t p[3];
            for (int j = 0; j < 3; j++) p[j] = j == k ? px : pattern(yin[j], u);
            y->imm = (uint8_t)lifenet_lop3(y->imm, p[0], p[1], p[2]);
            y->a = u[0];
            y->b = u[1];
            y->c = u[2];
            return 1;
        }
    }
    return 0;
}

/* Drops gates nothing reads, numbering the rest in order. */
static void drop_dead(lifenet *net) {
    int readers[LIFENET_INPUTS + LIFENET_GATES_MAX];
    for (int changed = 1; changed;) {
        changed = 0;
        count_readers(net, readers);
        for (int g = net->gates - 1; g >= 0; g--) {
            if (readers[LIFENET_INPUTS + g]) continue;
            /* Gate g goes; later signals move down by one. */
            for (int h = g; h + 1 < net->gates; h++) net->gate[h] = net->gate[h + 1];
            net->gates--;
            uint8_t moved = (uint8_t)(LIFENET_INPUTS + g);
            for (int h = 0; h < net->gates; h++) {
                uint8_t *in[3] = {&net->gate[h].a, &net->gate[h].b, &net->gate[h].c};
                for (int k = 0; k < 3; k++)
                    if (*in[k] > moved && *in[k] < LIFENET_INPUTS + LIFENET_GATES_MAX) (*in[k])--;
            }
            if (net->out > moved && net->out < LIFENET_INPUTS + LIFENET_GATES_MAX) net->out--;
            changed = 1;
            break;
        }
    }
}

static const lifenet_stage *stage_of(const cc_rule *rule) {
    unsigned birth = 0, survive = 0;
    for (int c = 0; c <= 9; c++) {
        birth |= (unsigned)cc_set_has(&rule->birth, c) << c;
        survive |= (unsigned)cc_set_has(&rule->survive, c) << c;
    }
    for (int i = 0; i < lifenet_stages_count; i++) {
        const lifenet_stage *s = &lifenet_stages[i];
        if (s->shape == (int)rule->shape && s->centre == (int)rule->centre && s->birth == birth &&
            s->survive == survive)
            return s;
    }
    return NULL;
}

int lifenet_build(const cc_rule *rule, lifenet *net, cc_error *err) {
    memset(net, 0, sizeof *net);
    const int hex = rule->shape == CC_SHAPE_HEX;
    if ((rule->shape != CC_SHAPE_MOORE && !hex) || rule->radius != 1)
        return cc_fail(err, CC_ERR_UNSUPPORTED,
                       "lifenet: Moore and hexagonal r = 1 rules only, not %s r = %d",
                       cc_shape_code(rule->shape), (int)rule->radius);
    builder b = {.net = net};
    for (int i = 0; i < LIFENET_INPUTS; i++)
        for (int j = 0; j < 128; j++)
            if (j >> i & 1) b.tt[i].w[j / 64] |= UINT64_C(1) << (j % 64);
    enum { A0, A1, B0, B1, D0, D1, ALIVE };
    int rc = CC_OK;
    /* The three pairs: t0 + 2 k0 (the low bits), t1 + 2 k1 (the high ones, weight 2). */
    uint8_t t0 = add(&b, IMM_XOR3, A0, B0, D0, err, &rc);
    uint8_t k0 = add(&b, IMM_MAJ3, A0, B0, D0, err, &rc);
    uint8_t t1 = add(&b, IMM_XOR3, A1, B1, D1, err, &rc);
    uint8_t k1 = add(&b, IMM_MAJ3, A1, B1, D1, err, &rc);
    /* sum = t0 + 2 (k0 + t1) + 4 k1 = t0 + 2 u1 + 4 (cc + k1). */
    uint8_t u1 = add(&b, IMM_XOR2, k0, t1, LIFENET_ZERO, err, &rc);
    uint8_t cc = add(&b, IMM_AND2, k0, t1, LIFENET_ZERO, err, &rc);
    const lifenet_stage *stage = stage_of(rule);
    if (stage) {
        /* A well-known rule's shorter stage (lifenet_stages.c). */
        uint8_t sig[5 + LIFENET_STAGE_GATES] = {t0, stage->set ? u1 : k0, stage->set ? cc : t1,
                                                k1, ALIVE};
        for (int g = 0; g < stage->gates; g++)
            sig[5 + g] = add(&b, stage->op[g][3], sig[stage->op[g][0]], sig[stage->op[g][1]],
                             sig[stage->op[g][2]], err, &rc);
        net->out = sig[4 + stage->gates];
    } else {
        uint8_t f[3];
        for (int m = 0; m < 3; m++)
            f[m] = add(&b, rule_table(rule, hex, m), t0, u1, ALIVE, err, &rc);
        /* m = cc + k1: k1 ? (cc ? F2 : F1) : (cc ? F1 : F0). */
        uint8_t p = add(&b, IMM_MUX, cc, f[2], f[1], err, &rc);
        uint8_t q = add(&b, IMM_MUX, cc, f[1], f[0], err, &rc);
        net->out = add(&b, IMM_MUX, k1, p, q, err, &rc);
    }
    if (rc) return rc;
    drop_dead(net);
    while (fuse_once(net)) drop_dead(net);
    return CC_OK;
}

uint64_t lifenet_eval(const lifenet *net, const uint64_t in[LIFENET_INPUTS]) {
    uint64_t s[LIFENET_INPUTS + LIFENET_GATES_MAX];
    memcpy(s, in, sizeof(uint64_t) * LIFENET_INPUTS);
#define SIGNAL(x) ((x) == LIFENET_ZERO ? 0 : (x) == LIFENET_ONE ? ~UINT64_C(0) : s[(x)])
    for (int g = 0; g < net->gates; g++) {
        const lifenet_gate *gt = &net->gate[g];
        s[LIFENET_INPUTS + g] = lifenet_lop3(gt->imm, SIGNAL(gt->a), SIGNAL(gt->b), SIGNAL(gt->c));
    }
    return SIGNAL(net->out);
#undef SIGNAL
}
