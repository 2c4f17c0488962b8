/* The rule's multiplexer constants (bitrule.h). */
#include "engines/cpu/bitrows/bitrule.h"

static uint64_t all_or_none(int bit) { return bit ? ~(uint64_t)0 : 0; }

void bitrows_build_rule(const cc_rule *rule, bitrows_rule *out) {
    uint64_t table[2][9];
    for (int n = 0; n <= 8; n++) {
        int born = cc_set_has(&rule->birth, n);
        int kept = cc_set_has(&rule->survive, n + (rule->centre ? 1 : 0));
        table[0][n] = all_or_none(born);
        table[1][n] = all_or_none(born ^ kept);
    }
    for (int t = 0; t < 2; t++) {
        for (int j = 0; j < 4; j++) {
            out->base[t][j] = table[t][2 * j];
            out->flip[t][j] = table[t][2 * j] ^ table[t][2 * j + 1];
        }
        out->eight[t] = table[t][8];
    }
}

void bitrows_build_rule9(const cc_rule *rule, bitrows_rule9 *out) {
    uint64_t table[2][10];
    for (int c = 0; c <= 9; c++) {
        /* a dead cell never counts 9, a live one never 0: those entries are free */
        int born = c <= 8 && cc_set_has(&rule->birth, c);
        int kept = c >= 1 && cc_set_has(&rule->survive, c - 1 + (rule->centre ? 1 : 0));
        table[0][c] = all_or_none(born);
        table[1][c] = all_or_none(born ^ kept);
    }
    for (int t = 0; t < 2; t++) {
        for (int j = 0; j < 4; j++) {
            out->base[t][j] = table[t][2 * j];
            out->flip[t][j] = table[t][2 * j] ^ table[t][2 * j + 1];
        }
        out->eight[t] = table[t][8];
        out->nine[t] = table[t][8] ^ table[t][9];
    }
}
