/* The rule's multiplexer constants (bitrule.h). */
#include "engines/cpu/bitrows/bitrule.h"

static uint64_t all_or_none(int bit) { return bit ? ~(uint64_t)0 : 0; }

/* Both trees' entries 0..9 for counts that include the cell itself `self` times (0: the
 * neighbours' count, 1: the 3x3 block's): a dead cell's count is its neighbours' n, a live cell's
 * n + self. Entries no cell reaches are 0. */
static void fill_tables(const cc_rule *rule, int self, uint64_t table[2][10]) {
    for (int c = 0; c <= 9; c++) {
        int n = c - self; /* a live cell's neighbours */
        int born = c <= 8 && cc_set_has(&rule->birth, c);
        int kept = n >= 0 && n <= 8 && cc_set_has(&rule->survive, n + (rule->centre ? 1 : 0));
        table[0][c] = all_or_none(born);
        table[1][c] = all_or_none(born ^ kept);
    }
}

/* Entries 0..8 as the multiplexer's pairs and its entry 8. */
static void pack(const uint64_t table[2][10], uint64_t base[2][4], uint64_t flip[2][4],
                 uint64_t eight[2]) {
    for (int t = 0; t < 2; t++) {
        for (int j = 0; j < 4; j++) {
            base[t][j] = table[t][2 * j];
            flip[t][j] = table[t][2 * j] ^ table[t][2 * j + 1];
        }
        eight[t] = table[t][8];
    }
}

void bitrows_build_rule(const cc_rule *rule, bitrows_rule *out) {
    uint64_t table[2][10];
    fill_tables(rule, 0, table);
    pack(table, out->base, out->flip, out->eight);
}

void bitrows_build_rule9(const cc_rule *rule, bitrows_rule9 *out) {
    uint64_t table[2][10];
    fill_tables(rule, 1, table);
    pack(table, out->base, out->flip, out->eight);
    for (int t = 0; t < 2; t++) out->nine[t] = table[t][8] ^ table[t][9];
}
