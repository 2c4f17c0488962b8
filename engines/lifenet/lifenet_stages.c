/* Rule stages shorter than the builder's for well-known rules, found by lifenet_search.py (the
 * fewest gates over either signal set, up to LIFENET_STAGE_GATES, fewer proved impossible by a SAT
 * solver; exact on every neighbourhood, free where no neighbourhood reaches) and printed by it as
 * they stand here; lifenet_build uses one where the rule matches (shape, centre, B and S as count
 * masks). lifenet_test checks every rule's network, these included, on every neighbourhood. To add
 * a rule: run `/usr/bin/python3 engines/lifenet/lifenet_search.py RULE` and paste its line. */
/* clang-format off */
#include "engines/lifenet/lifenet_stages.h"

const lifenet_stage lifenet_stages[] = {
    {0, 0, 0x008, 0x00c, 0, 3, {{1, 2, 3, 0x43}, {0, 3, 5, 0x1a}, {4, 5, 6, 0xa2}}}, /* B3/S23: 7 gates before folding (the fewest over both sets) */
    {0, 0, 0x048, 0x00c, 0, 4, {{1, 2, 4, 0x36}, {0, 1, 4, 0xd7}, {0, 3, 5, 0xc6}, {5, 6, 7, 0x41}}}, /* B36/S23: 8 gates before folding (the fewest over both sets) */
    {0, 0, 0x004, 0x000, 0, 2, {{0, 3, 4, 0xfe}, {1, 2, 5, 0x14}}}, /* B2/S: 6 gates before folding (the fewest over both sets) */
    {0, 0, 0x001, 0x100, 0, 2, {{1, 2, 3, 0x7e}, {0, 1, 5, 0x41}}}, /* B0/S8: 6 gates before folding (the fewest over both sets) */
    {0, 0, 0x0aa, 0x0aa, 0, 1, {{0, 3, 4, 0x5a}}}, /* B1357/S1357: 5 gates before folding (the fewest over both sets) */
    {0, 0, 0x148, 0x034, 0, 4, {{0, 1, 4, 0x6b}, {1, 3, 5, 0x0b}, {2, 5, 6, 0xb5}, {0, 3, 7, 0x68}}}, /* B368/S245: 8 gates before folding (the fewest over both sets) */
    {0, 0, 0x008, 0x1ff, 0, 2, {{0, 1, 2, 0x60}, {3, 4, 5, 0xce}}}, /* B3/S012345678: 6 gates before folding (the fewest over both sets) */
    {0, 0, 0x1e8, 0x1e0, 0, 3, {{0, 1, 4, 0xaf}, {1, 2, 5, 0xfc}, {3, 5, 6, 0xb2}}}, /* B35678/S5678: 7 gates before folding (the fewest over both sets) */
    {0, 0, 0x018, 0x018, 0, 3, {{1, 2, 3, 0xa9}, {0, 2, 4, 0x63}, {1, 5, 6, 0x12}}}, /* B34/S34: 7 gates before folding (the fewest over both sets) */
    {0, 0, 0x048, 0x026, 0, 2, {{0, 3, 4, 0xc1}, {1, 2, 5, 0x14}}}, /* B36/S125: 6 gates before folding (the fewest over both sets) */
    {0, 0, 0x008, 0x01e, 0, 3, {{0, 1, 2, 0x60}, {1, 2, 3, 0x56}, {4, 5, 6, 0xa8}}}, /* B3/S1234: 7 gates before folding (the fewest over both sets) */
    {0, 0, 0x002, 0x002, 0, 3, {{0, 3, 4, 0xe2}, {1, 2, 5, 0x7e}, {0, 5, 6, 0x18}}}, /* B1/S1: 7 gates before folding (the fewest over both sets) */
    {0, 0, 0x004, 0x018, 0, 4, {{1, 2, 4, 0x69}, {2, 3, 4, 0x39}, {0, 4, 6, 0x8a}, {5, 6, 7, 0x2a}}}, /* B2/S34: 8 gates before folding (the fewest over both sets) */
    {0, 0, 0x028, 0x04c, 0, 4, {{1, 2, 4, 0x28}, {1, 2, 3, 0x56}, {0, 4, 6, 0x68}, {5, 6, 7, 0x68}}}, /* B35/S236: 8 gates before folding (the fewest over both sets) */
    {0, 0, 0x1c8, 0x1d8, 0, 3, {{0, 1, 2, 0xe8}, {1, 2, 4, 0x69}, {3, 5, 6, 0xd4}}}, /* B3678/S34678: 7 gates before folding (the fewest over both sets) */
    {4, 0, 0x004, 0x018, 0, 3, {{0, 2, 4, 0x69}, {0, 2, 3, 0xc6}, {1, 5, 6, 0xc2}}}, /* B2/S34H: 7 gates before folding (the fewest over both sets) */
    {4, 0, 0x048, 0x00c, 0, 2, {{0, 3, 4, 0x09}, {1, 2, 5, 0x14}}}, /* B36/S23H: 6 gates before folding (the fewest over both sets) */
};
/* clang-format on */

const int lifenet_stages_count = (int)(sizeof lifenet_stages / sizeof lifenet_stages[0]);
