/* Rule stages shorter than the builder's for well-known rules, found by lifenet_search
 * (exhaustive over stages of up to three gates) and printed by it as they stand here; lifenet_build
 * uses one where the rule matches (shape, centre, B and S as count masks). lifenet_test checks
 * every rule's network, these included, on every neighbourhood. To add a rule: run
 * `lifenet_search RULE` and paste its line. */
/* clang-format off */
#include "engines/lifenet/lifenet_stages.h"

const lifenet_stage lifenet_stages[] = {
    {0, 0, 0x008, 0x00c, 1, 3, {{0, 1, 2, 0x01}, {0, 1, 4, 0x3d}, {3, 5, 6, 0x41}}}, /* B3/S23: 9 gates before folding, the builder's 11 */
    {0, 0, 0x048, 0x00c, 1, 3, {{0, 1, 2, 0x05}, {0, 1, 4, 0x39}, {3, 5, 6, 0x41}}}, /* B36/S23: 9 gates before folding, the builder's 11 */
    {0, 0, 0x004, 0x000, 0, 2, {{0, 1, 2, 0x06}, {3, 4, 5, 0x02}}}, /* B2/S: 6 gates before folding, the builder's 7 */
    {0, 0, 0x001, 0x100, 0, 3, {{0, 1, 2, 0x2b}, {0, 3, 4, 0x71}, {2, 5, 6, 0x18}}}, /* B0/S8: 7 gates before folding, the builder's 11 */
    {0, 0, 0x0aa, 0x0aa, 0, 3, {{0, 1, 2, 0x2b}, {2, 3, 5, 0x42}, {0, 4, 6, 0x14}}}, /* B1357/S1357: 7 gates before folding, the builder's 12 */
    {0, 0, 0x148, 0x034, 1, 3, {{0, 2, 3, 0x69}, {0, 2, 4, 0x5b}, {1, 5, 6, 0x34}}}, /* B368/S245: 9 gates before folding, the builder's 12 */
    {0, 0, 0x008, 0x1ff, 0, 3, {{0, 1, 2, 0x34}, {2, 3, 5, 0x21}, {0, 4, 6, 0xe4}}}, /* B3/S012345678: 7 gates before folding, the builder's 9 */
    {0, 0, 0x1e8, 0x1e0, 0, 3, {{0, 3, 4, 0x63}, {1, 2, 5, 0x2b}, {3, 5, 6, 0x91}}}, /* B35678/S5678: 7 gates before folding, the builder's 12 */
    {0, 0, 0x018, 0x018, 0, 3, {{0, 1, 4, 0x63}, {1, 2, 3, 0x56}, {2, 5, 6, 0x28}}}, /* B34/S34: 7 gates before folding, the builder's 11 */
    {0, 0, 0x048, 0x026, 0, 2, {{0, 3, 4, 0x3e}, {1, 2, 5, 0x28}}}, /* B36/S125: 6 gates before folding, the builder's 8 */
    {0, 0, 0x008, 0x01e, 0, 3, {{0, 1, 2, 0x60}, {1, 2, 3, 0x56}, {4, 5, 6, 0xa8}}}, /* B3/S1234: 7 gates before folding, the builder's 11 */
    {0, 0, 0x002, 0x002, 0, 3, {{0, 1, 2, 0x16}, {0, 1, 4, 0x1a}, {3, 5, 6, 0x08}}}, /* B1/S1: 7 gates before folding, the builder's 8 */
    {0, 0, 0x004, 0x018, 1, 3, {{0, 1, 2, 0x11}, {0, 1, 4, 0x26}, {3, 5, 6, 0x82}}}, /* B2/S34: 9 gates before folding, the builder's 11 */
    {0, 0, 0x028, 0x04c, 1, 3, {{0, 1, 4, 0x2d}, {1, 3, 4, 0x43}, {2, 5, 6, 0x21}}}, /* B35/S236: 9 gates before folding, the builder's 11 */
    {4, 0, 0x004, 0x018, 1, 3, {{0, 1, 2, 0x01}, {0, 1, 4, 0x79}, {3, 5, 6, 0x41}}}, /* B2/S34H: 9 gates before folding, the builder's 11 */
    {4, 0, 0x048, 0x00c, 0, 2, {{0, 3, 4, 0x36}, {1, 2, 5, 0x28}}}, /* B36/S23H: 6 gates before folding, the builder's 8 */
};
/* clang-format on */

const int lifenet_stages_count = (int)(sizeof lifenet_stages / sizeof lifenet_stages[0]);
