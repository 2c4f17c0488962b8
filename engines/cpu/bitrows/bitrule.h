/* The rule stage of the bit-sliced engines (cpu.bitslice1/2 and the bit-per-cell CUDA engines):
 * any Moore radius-1 rule as the constants of a multiplexer tree over a 4-bit neighbour count.
 *
 * The next state is f(alive, n), n the 8 neighbours' count. Under M1 a live cell's count is one
 * more than its neighbours, so f is built on neighbour counts for both: born iff n in B, kept iff
 * n+M1 in S. Tree 0 is B (the dead cell's next state), tree 1 is B ^ S' (what a live cell
 * changes); next = tree0 ^ (alive & tree1). Each constant is all ones or zero, so it serves words
 * of any width once truncated. */
#ifndef CELLCHECK_ENGINES_CPU_BITROWS_BITRULE_H
#define CELLCHECK_ENGINES_CPU_BITROWS_BITRULE_H

#include <stdint.h>

#include "oracle/rule.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bitrows_rule {
    uint64_t base[2][4]; /* table entry 2j */
    uint64_t flip[2][4]; /* entry 2j ^ entry 2j+1 */
    uint64_t eight[2];   /* entry 8 */
} bitrows_rule;

/* The constants of a Moore radius-1 rule (the caller has checked shape and radius). */
void bitrows_build_rule(const cc_rule *rule, bitrows_rule *out);

/* The same rule on the count of the whole 3x3 block, the cell included (0..9): a dead cell's is
 * its neighbours' count n, a live cell's n + 1, so entry c of tree 0 is c in B and entry c of
 * tree 0 ^ tree 1 is c - 1 + M1 in S. Engines that add three rows' horizontal sums count so. */
typedef struct bitrows_rule9 {
    uint64_t base[2][4]; /* entry 2j */
    uint64_t flip[2][4]; /* entry 2j ^ entry 2j+1 */
    uint64_t eight[2];   /* entry 8 */
    uint64_t nine[2];    /* entry 8 ^ entry 9 */
} bitrows_rule9;

void bitrows_build_rule9(const cc_rule *rule, bitrows_rule9 *out);

#ifdef __cplusplus
}
#endif

#endif
