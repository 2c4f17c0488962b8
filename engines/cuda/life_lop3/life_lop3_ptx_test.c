/* The rule's gates as written into PTX: read back by a small interpreter of the two instructions
 * written (lop3.b32, mov.b32) and run on every 3x3 neighbourhood against the rule's definition,
 * for every M0 rule and every seventh M1 rule; malformed placeholders refused; and the kernels'
 * own PTX (both modules), specialised to rules whose networks differ in kind (a constant, an
 * input, many gates), with the rule at every place the kernels apply it, assembled by ptxas for
 * sm_90. */
#define _POSIX_C_SOURCE 200809L
#include "engines/cuda/life_lop3/life_lop3_ptx.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "engines/cuda/life_lop3/life_lop3_steps.h"
#include "testing/check.h"

#define REGS 48

/* The registers a block names, each given an index in the order first named. */
typedef struct reg_names {
    int n;
    char name[REGS][32];
} reg_names;

/* The index of register name, named now if it is new; -1 when REGS are named already. */
static int reg_index(reg_names *f, const char *name) {
    for (int i = 0; i < f->n; i++)
        if (strcmp(f->name[i], name) == 0) return i;
    if (f->n == REGS) return -1;
    snprintf(f->name[f->n], sizeof f->name[0], "%s", name);
    return f->n++;
}

/* A block read once into this, then run on each of its 8 (or 2) sets of 64 neighbourhoods. */
typedef struct operand {
    int reg;      /* a register's index in the names, or -1: the immediate */
    uint64_t imm;
} operand;

typedef struct instr {
    int lop3; /* else mov.b32 */
    uint8_t table;
    int dst;
    operand src[3];
} instr;

#define INSTRS 512

typedef struct program {
    reg_names names; /* a run keeps the values, by these indices */
    int n;
    instr code[INSTRS];
} program;

/* A source operand: a register or an immediate. */
static int source(reg_names *names, const char *tok, operand *o) {
    if (tok[0] == '%') return (o->reg = reg_index(names, tok)) < 0 ? -1 : 0;
    long long x = strtoll(tok, NULL, 0);
    o->reg = -1;
    o->imm = x == -1 ? ~UINT64_C(0) : (uint64_t)x;
    return 0;
}

/* Reads the lines of text that are lop3.b32 or mov.b32 into p; -1 on anything else it cannot
 * read. */
static int read_block(const char *text, program *p) {
    char line[256];
    for (const char *q0 = text; *q0;) {
        const char *end = strchr(q0, '\n');
        size_t n = end ? (size_t)(end - q0) : strlen(q0);
        if (n >= sizeof line) return -1;
        memcpy(line, q0, n);
        line[n] = 0;
        q0 += n + (end ? 1 : 0);
        char op[16], d[32], a[32], b[32], c[32];
        unsigned imm;
        for (char *q = line; *q; q++)
            if (*q == ',' || *q == ';' || *q == '\t') *q = ' ';
        if (sscanf(line, "%15s", op) != 1) continue;
        const int lop3 = strcmp(op, "lop3.b32") == 0;
        if (!lop3 && strcmp(op, "mov.b32") != 0) continue;
        if (p->n == INSTRS) return -1;
        instr *i = &p->code[p->n++];
        *i = (instr){.lop3 = lop3};
        if (lop3) {
            if (sscanf(line, "%*s %31s %31s %31s %31s %x", d, a, b, c, &imm) != 5) return -1;
            i->table = (uint8_t)imm;
            if (source(&p->names, a, &i->src[0]) || source(&p->names, b, &i->src[1]) ||
                source(&p->names, c, &i->src[2]))
                return -1;
        } else {
            if (sscanf(line, "%*s %31s %31s", d, a) != 2) return -1;
            if (source(&p->names, a, &i->src[0])) return -1;
        }
        if ((i->dst = reg_index(&p->names, d)) < 0) return -1;
    }
    return 0;
}

static uint64_t value_of(const operand *o, const uint64_t *v) {
    return o->reg >= 0 ? v[o->reg] : o->imm;
}

static void run_program(const program *p, uint64_t *v) {
    for (int k = 0; k < p->n; k++) {
        const instr *i = &p->code[k];
        v[i->dst] = i->lop3 ? lifenet_lop3(i->table, value_of(&i->src[0], v),
                                           value_of(&i->src[1], v), value_of(&i->src[2], v))
                            : value_of(&i->src[0], v);
    }
}

static cc_rule rule_of_bits(uint32_t bits, int centre) {
    cc_rule r = {.shape = CC_SHAPE_MOORE, .radius = 1, .centre = centre};
    cc_error err;
    const int counts = 9 + centre;
    for (int c = 0; c < counts; c++) {
        if (bits >> c & 1) cc_set_add(&r.birth, c, c, &err);
        if (bits >> (counts + c) & 1) cc_set_add(&r.survive, c, c, &err);
    }
    return r;
}

static const char *const site_regs[8] = {"%r9", "%r1", "%r2", "%r3", "%r4", "%r5", "%r6", "%r7"};
static const char synthetic[] =
    ".visible .entry k()\n{\n\tmov.b32 %r8, 5;\n"
    "\t// cellcheck.lifenet %r9, %r1, %r2, %r3, %r4, %r5, %r6, %r7;\n\tret;\n}\n";

static cc_rule rule_of_hex_bits(uint32_t bits, int centre) {
    cc_rule r = {.shape = CC_SHAPE_HEX, .radius = 1, .centre = centre};
    cc_error err;
    const int counts = 7 + centre;
    for (int c = 0; c < counts; c++) {
        if (bits >> c & 1) cc_set_add(&r.birth, c, c, &err);
        if (bits >> (counts + c) & 1) cc_set_add(&r.survive, c, c, &err);
    }
    return r;
}

/* Does the block written for rule give the rule's next state on every neighbourhood (512
 * Moore, 128 hexagonal)? Moore: cell k of the 3x3 block (row-major, centre 4) is bit k of the
 * neighbourhood's number, each row's pair the sum of its three; hexagonal: bits 0..5 the six
 * neighbours two a row, bit 6 the centre, each row's pair a half adder of its two. */
static int block_is_rule(checks *t, const cc_rule *rule, const char *ptx, program *p) {
    const int hex = rule->shape == CC_SHAPE_HEX;
    p->names.n = 0;
    p->n = 0;
    int site[1 + LIFENET_INPUTS];
    for (int i = 0; i <= LIFENET_INPUTS; i++) site[i] = reg_index(&p->names, site_regs[i]);
    if (!CHECKF(t, read_block(ptx, p) == 0, "the block is not lop3/mov lines:\n%s", ptx))
        return 0;
    for (int part = 0; part < (hex ? 2 : 8); part++) {
        uint64_t v[REGS] = {0};
        uint64_t in[LIFENET_INPUTS] = {0};
        int want[64];
        for (int bit = 0; bit < 64; bit++) {
            const int j = 64 * part + bit, alive = hex ? j >> 6 & 1 : j >> 4 & 1;
            int total = 0;
            for (int row = 0; row < 3; row++) {
                const int s = hex ? (j >> 2 * row & 1) + (j >> (2 * row + 1) & 1)
                                  : (j >> 3 * row & 1) + (j >> (3 * row + 1) & 1) +
                                        (j >> (3 * row + 2) & 1);
                total += s;
                in[2 * row] |= (uint64_t)(s & 1) << bit;
                in[2 * row + 1] |= (uint64_t)(s >> 1) << bit;
            }
            in[6] |= (uint64_t)alive << bit;
            const int count = hex ? total + (rule->centre ? alive : 0)
                                  : total - (rule->centre ? 0 : alive);
            want[bit] = cc_set_has(alive ? &rule->survive : &rule->birth, count);
        }
        for (int i = 0; i < LIFENET_INPUTS; i++) v[site[1 + i]] = in[i];
        v[site[0]] = 0x5a5a5a5a5a5a5a5aULL; /* what the block must overwrite */
        run_program(p, v);
        const uint64_t got = v[site[0]];
        for (int bit = 0; bit < 64; bit++)
            if ((int)(got >> bit & 1) != want[bit]) return 0;
    }
    return 1;
}

static void every_rule_read_into(checks *t, program *p) {
    long rules = 0, wrong = 0;
    for (int shape = 0; shape < 4; shape++)
        for (uint32_t bits = 0; bits < (1u << (2 * (shape / 2 ? 7 : 9) + 2 * (shape % 2)));
             bits += shape == 1 ? 7 : 1) {
            /* Shapes 0, 1: Moore M0, M1 (a seventh of it); 2, 3: hexagonal M0, M1. */
            const int centre = shape % 2;
            cc_rule rule = shape / 2 ? rule_of_hex_bits(bits, centre) : rule_of_bits(bits, centre);
            lifenet net;
            cc_error err;
            char *out = NULL;
            int sites = 0;
            if (!CHECKF(t, lifenet_build(&rule, &net, &err) == CC_OK, "%s", err.msg)) return;
            if (!CHECKF(t, life_lop3_ptx_specialise(synthetic, &net, &out, &sites, &err) == CC_OK,
                        "%s", err.msg))
                return;
            rules++;
            const int kept = strstr(out, "mov.b32 %r8, 5;") && strstr(out, "\tret;\n}\n") &&
                             !strstr(out, "cellcheck.lifenet");
            if (!kept || sites != 1 || !block_is_rule(t, &rule, out, p)) {
                if (wrong++ < 3)
                    fprintf(stderr, "rule bits 0x%x M%d %s: sites %d, kept %d:\n%s\n", bits,
                            centre, shape / 2 ? "NH" : "NM", sites, kept, out);
            }
            free(out);
        }
    printf("%ld rules written into PTX and run, %ld wrong\n", rules, wrong);
    CHECK_EQ(t, wrong, 0);
    CHECK_EQ(t, rules, (1L << 18) + ((1L << 20) + 6) / 7 + (1L << 14) + (1L << 16));
}

static void every_rule(checks *t) {
    program *p = malloc(sizeof *p);
    if (CHECK(t, p != NULL)) every_rule_read_into(t, p);
    free(p);
}

static void refusals(checks *t) {
    cc_rule rule = rule_of_bits(0, 0);
    lifenet net;
    cc_error err;
    char *out = NULL;
    int sites = 0;
    CHECK(t, lifenet_build(&rule, &net, &err) == CC_OK);
    CHECK_REFUSED(t, life_lop3_ptx_specialise(".entry k()\n{\n\tret;\n}\n", &net, &out, &sites, &err),
                  &err, "no placeholder", "PTX without a placeholder");
    CHECK(t, out == NULL);
    CHECK_REFUSED(t,
                  life_lop3_ptx_specialise("a\nb\n\t// cellcheck.lifenet %r1, %r2;\n", &net, &out,
                                           &sites, &err),
                  &err, "line 3", "a placeholder with two operands");
    CHECK(t, out == NULL);
    CHECK_REFUSED(t,
                  life_lop3_ptx_specialise(
                      "\t// cellcheck.lifenet %r1, %r2, %r3, %r4, %r5, %r6, %r7, 9;\n", &net,
                      &out, &sites, &err),
                  &err, "eight register operands", "an immediate operand");
}

/* The kernels' PTX for each rule through ptxas: what the driver will be given. */
static void assembled(checks *t) {
    const char *dir = getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp";
    struct {
        uint32_t bits;
        int centre;
        const char *what;
    } cases[] = {
        {1u << 3 | (1u << 11 | 1u << 12), 0, "B3/S23"},
        {1u << 3 | 1u << 6 | (1u << 11 | 1u << 12), 0, "B36/S23"},
        {(1u << 3 | 1u << 6 | 1u << 7 | 1u << 8) |
             (1u << 12 | 1u << 13 | 1u << 15 | 1u << 16 | 1u << 17) << 0,
         0, "B3678/S34678"},
        {1u << 2, 0, "B2/S"},
        {1u << 0 | 1u << (9 + 8), 0, "B0/S8"},
        {0, 0, "B/S: the constant 0"},
        {0x1ffu | 0x1ffu << 9, 0, "B012345678/S012345678: the constant 1"},
        {0x1ffu << 9, 0, "B/S012345678: the centre cell"},
        {1u << 4 | 1u << (10 + 3) | 1u << (10 + 4), 1, "an M1 rule"},
    };
    /* Hexagonal: bits 0..6 B, 7..13 S (M0); 0..7 and 8..15 (M1). */
    const struct {
        uint32_t bits;
        int centre;
        const char *what;
    } hex_cases[] = {
        {1u << 2 | (1u << (7 + 3) | 1u << (7 + 4)), 0, "B2/S34H"},
        {0, 0, "B/SH: the constant 0"},
        {1u << 0 | 1u << (7 + 6), 0, "B0/S6H"},
        {1u << 3 | 1u << (8 + 3) | 1u << (8 + 4), 1, "a hexagonal M1 rule"},
    };
    const struct {
        const char *ptx, *name, *kernels;
        int hex;
        int sites_min;
    } modules[] = {
        /* At least three unrolled rotations of every level of both streaming kernels (the
         * rotations where a band starts and ends run fewer levels, whose number the compiler
         * decides: what it cannot use it drops). */
        {life_lop3_stream_ptx, "stream", "life_lop3_stream(\0life_lop3_stream1(\0", 0,
         3 * (LIFE_LOP3_STEPS + 1)},
        {life_lop3_narrow_ptx, "narrow", "life_lop3_narrow(\0", 0, 1},
        {life_lop3_stream_hex_ptx, "hexagonal stream", "life_lop3_stream(\0life_lop3_stream1(\0",
         1, 3 * (LIFE_LOP3_STEPS + 1)},
        {life_lop3_narrow_hex_ptx, "hexagonal narrow", "life_lop3_narrow(\0", 1, 1},
    };
    for (size_t m = 0; m < sizeof modules / sizeof modules[0]; m++)
        for (size_t i = 0;
             i < (modules[m].hex ? sizeof hex_cases / sizeof hex_cases[0]
                                 : sizeof cases / sizeof cases[0]);
             i++) {
            const char *what = modules[m].hex ? hex_cases[i].what : cases[i].what;
            cc_rule rule = modules[m].hex ? rule_of_hex_bits(hex_cases[i].bits, hex_cases[i].centre)
                                          : rule_of_bits(cases[i].bits, cases[i].centre);
            lifenet net;
            cc_error err;
            char *out = NULL;
            int sites = 0;
            if (!CHECKF(t, lifenet_build(&rule, &net, &err) == CC_OK, "%s: %s", what,
                        err.msg))
                continue;
            if (!CHECKF(t,
                        life_lop3_ptx_specialise(modules[m].ptx, &net, &out, &sites, &err) ==
                            CC_OK,
                        "%s, %s: %s", modules[m].name, what, err.msg))
                continue;
            /* Every placeholder line of the PTX as built replaced, and no fewer than the
             * kernels' levels need. */
            int placeholders = 0;
            for (const char *at = modules[m].ptx; (at = strstr(at, LIFE_LOP3_PTX_SITE)); at++)
                placeholders++;
            CHECKF(t, sites == placeholders && sites >= modules[m].sites_min,
                   "%s, %s: %d places for the rule, of %d in the PTX (at least %d)",
                   modules[m].name, what, sites, placeholders, modules[m].sites_min);
            CHECK(t, strstr(out, "cellcheck.lifenet") == NULL);
            for (const char *k = modules[m].kernels; *k; k += strlen(k) + 1)
                CHECKF(t, strstr(out, k) != NULL, "%s: no kernel %s", modules[m].name, k);
            char ptx_path[512], cubin_path[512], cmd[1400];
            snprintf(ptx_path, sizeof ptx_path, "%s/life_lop3_%zu_%zu.ptx", dir, m, i);
            snprintf(cubin_path, sizeof cubin_path, "%s/life_lop3_%zu_%zu.cubin", dir, m, i);
            FILE *f = fopen(ptx_path, "w");
            if (CHECKF(t, f != NULL, "cannot write %s", ptx_path)) {
                fputs(out, f);
                fclose(f);
                snprintf(cmd, sizeof cmd, "/usr/local/cuda/bin/ptxas -arch=sm_90 -O3 %s -o %s",
                         ptx_path, cubin_path);
                const int status = system(cmd);
                CHECKF(t, status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
                       "%s, %s (%d gates): ptxas refused the specialised PTX (%s)",
                       modules[m].name, what, net.gates, cmd);
                printf("%s kernels, %s: %d gates at %d places, assembled for sm_90\n",
                       modules[m].name, what, net.gates, sites);
            }
            free(out);
        }
}

int main(void) {
    checks t = {"life_lop3_ptx_test", 0, 0};
    refusals(&t);
    assembled(&t);
    every_rule(&t);
    return check_summary(&t);
}
