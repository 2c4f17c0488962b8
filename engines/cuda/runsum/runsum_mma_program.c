#include "engines/cuda/runsum/runsum_mma_program.h"

#include <string.h>

void runsum_mma_rule_build(const runsum_rule *rule, const runsum_geometry *g, runsum_mma_rule *out) {
    memset(out, 0, sizeof *out);
    const int32_t empty = g->raw_max + 1;
    out->pairs = rule->ranges[0] > rule->ranges[1] ? rule->ranges[0] : rule->ranges[1];
    for (int32_t q = 0; q < out->pairs; q++) {
        int32_t lo[2], hi1[2]; /* raw thresholds: runsum_rule's are less the bias */
        for (int which = 0; which < 2; which++) {
            const int present = q < rule->ranges[which];
            lo[which] = present ? rule->lo[which][q] + rule->bias : empty;
            hi1[which] = present ? rule->hi1[which][q] + rule->bias : empty;
        }
        out->k_lo[q] = ((uint32_t)(0x8000 - lo[1]) << 16) + (uint32_t)(0x8000 - lo[0]);
        out->k_hi[q] = ((uint32_t)(0x8000 - hi1[1]) << 16) + (uint32_t)(0x8000 - hi1[0]);
    }
}

void runsum_mma_tables_of_rule(const runsum_rule *rule, const runsum_geometry *g, uint8_t *tables) {
    runsum_mma_rule tests;
    runsum_mma_rule_build(rule, g, &tests);
    runsum_mma_table_build(&tests, g->raw_max, runsum_mma_table_stride(runsum_mma_reach(g->r)),
                           tables);
}

void runsum_mma_table_build(const runsum_mma_rule *rule, int32_t raw_max, int32_t stride,
                            uint8_t *tables) {
    memset(tables, 0, (size_t)RUNSUM_MMA_TABLES * (size_t)stride);
    for (int32_t raw = 0; raw <= raw_max && raw < stride; raw++) {
        const uint32_t in = runsum_mma_sets(rule, raw);
        const uint32_t stays = in >> 31, born = (in >> 15) & 1u;
        for (int j = 0; j < RUNSUM_MMA_TABLES; j++)
            tables[(size_t)j * (size_t)stride + (size_t)raw] =
                (uint8_t)(stays << (7 - j) | born << (3 - j));
    }
}
