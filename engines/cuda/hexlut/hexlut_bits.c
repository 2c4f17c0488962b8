/* cuda.hexlut's table, built on the host at create (hexlut_bits.h says how it is indexed). */
#include "engines/cuda/hexlut/hexlut_bits.h"

static int bit_of(unsigned v, int i) { return (int)((v >> i) & 1u); }

void hexlut_build_table(const cc_rule *rule, uint8_t *table) {
    for (unsigned index = 0; index < HEXLUT_TABLE_ENTRIES; index++) {
        const unsigned above = index & 31u, own = (index >> 5) & 63u, below = (index >> 11) & 31u;
        unsigned next = 0;
        for (int j = 0; j < 4; j++) {
            /* Cell j of the group is own bit j+1; its neighbours: above j, j+1 (dx -1, 0), own
             * j, j+2 (dx -1, +1), below j, j+1 (dx 0, +1). */
            const int alive = bit_of(own, j + 1);
            int32_t count = bit_of(above, j) + bit_of(above, j + 1) + bit_of(own, j) +
                            bit_of(own, j + 2) + bit_of(below, j) + bit_of(below, j + 1);
            if (rule->centre) count += alive;
            const int on = alive ? cc_set_has(&rule->survive, count)
                                 : cc_set_has(&rule->birth, count);
            next |= (unsigned)on << j;
        }
        table[index] = (uint8_t)next;
    }
}
