/* Writes a rule's gate network into the kernels' PTX in place of each placeholder. */
#define _GNU_SOURCE /* memmem */
#include "engines/cuda/life_lop3/life_lop3_ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPERANDS 8 /* out, then the network's seven inputs */
#define REG_MAX 32

/* The operands of the placeholder at s (just past LIFE_LOP3_PTX_SITE): "%r1, %r2, ...;". */
static int parse_site(const char *s, char reg[OPERANDS][REG_MAX]) {
    for (int i = 0; i < OPERANDS; i++) {
        while (*s == ' ') s++;
        if (*s != '%') return -1;
        size_t n = 0;
        while (s[n] && s[n] != ',' && s[n] != ';' && s[n] != ' ' && s[n] != '\n') n++;
        if (n >= REG_MAX) return -1;
        memcpy(reg[i], s, n);
        reg[i][n] = 0;
        s += n;
        if (*s != (i + 1 < OPERANDS ? ',' : ';')) return -1;
        s++;
    }
    return 0;
}

/* Signal x of the network as a PTX operand. */
static void operand(uint8_t x, char reg[OPERANDS][REG_MAX], char *buf, size_t size) {
    if (x == LIFENET_ZERO) snprintf(buf, size, "%%cc_zero");
    else if (x == LIFENET_ONE) snprintf(buf, size, "%%cc_one");
    else if (x < LIFENET_INPUTS) snprintf(buf, size, "%s", reg[1 + x]);
    else snprintf(buf, size, "%%cc_g%d", (int)(x - LIFENET_INPUTS));
}

/* The block that replaces one placeholder; returns its length (writes nothing when buf is NULL). */
static size_t write_block(const lifenet *net, char reg[OPERANDS][REG_MAX], char *buf) {
    char line[160], a[REG_MAX + 8], b[REG_MAX + 8], c[REG_MAX + 8];
    size_t len = 0;
#define EMIT(...)                                                                                \
    do {                                                                                         \
        int n_ = snprintf(line, sizeof line, __VA_ARGS__);                                        \
        if (buf) memcpy(buf + len, line, (size_t)n_);                                            \
        len += (size_t)n_;                                                                       \
    } while (0)
    EMIT("\t{\n\t.reg .b32 %%cc_zero, %%cc_one, %%cc_g<%d>;\n", net->gates > 0 ? net->gates : 1);
    EMIT("\tmov.b32 %%cc_zero, 0;\n\tmov.b32 %%cc_one, -1;\n");
    for (int g = 0; g < net->gates; g++) {
        const lifenet_gate *gt = &net->gate[g];
        operand(gt->a, reg, a, sizeof a);
        operand(gt->b, reg, b, sizeof b);
        operand(gt->c, reg, c, sizeof c);
        EMIT("\tlop3.b32 %%cc_g%d, %s, %s, %s, 0x%02x;\n", g, a, b, c, (unsigned)gt->imm);
    }
    operand(net->out, reg, a, sizeof a);
    EMIT("\tmov.b32 %s, %s;\n\t}\n", reg[0], a);
#undef EMIT
    return len;
}

/* One pass over ptx: each placeholder becomes its block, every other line is kept. With buf
 * NULL it only measures (the result's length, without the NUL). *bad: the first placeholder line
 * without eight register operands (NULL: none). */
static size_t rewrite(const char *ptx, const lifenet *net, char *buf, int *sites,
                      const char **bad) {
    const size_t site_len = strlen(LIFE_LOP3_PTX_SITE);
    size_t len = 0;
    *sites = 0;
    *bad = NULL;
    for (const char *p = ptx; *p;) {
        const char *end = strchr(p, '\n');
        const size_t n = end ? (size_t)(end - p + 1) : strlen(p);
        const char *at = memmem(p, n, LIFE_LOP3_PTX_SITE, site_len);
        char reg[OPERANDS][REG_MAX];
        if (!at) {
            if (buf) memcpy(buf + len, p, n);
            len += n;
        } else if (parse_site(at + site_len, reg) == 0) {
            len += write_block(net, reg, buf ? buf + len : NULL);
            (*sites)++;
        } else if (!*bad) {
            *bad = p;
        }
        p += n;
    }
    return len;
}

int life_lop3_ptx_specialise(const char *ptx, const lifenet *net, char **out, int *sites,
                             cc_error *err) {
    *out = NULL;
    *sites = 0;
    int count = 0;
    const char *bad = NULL;
    const size_t size = rewrite(ptx, net, NULL, &count, &bad) + 1;
    if (bad) {
        int line_no = 1;
        for (const char *p = ptx; p < bad; p++) line_no += *p == '\n';
        const size_t n = strcspn(bad, "\n");
        return cc_fail(err, CC_ERR_ARG,
                       "cuda.life-lop3: line %d of the kernels' PTX is a placeholder without "
                       "eight register operands: %.*s",
                       line_no, (int)(n > 120 ? 120 : n), bad);
    }
    if (count == 0)
        return cc_fail(err, CC_ERR_ARG,
                       "cuda.life-lop3: the kernels' PTX has no placeholder for the rule");
    char *buf = malloc(size);
    if (!buf)
        return cc_fail(err, CC_ERR_NOMEM, "cuda.life-lop3: cannot allocate %zu bytes of PTX", size);
    buf[rewrite(ptx, net, buf, &count, &bad)] = 0;
    *out = buf;
    *sites = count;
    return CC_OK;
}
