/* The in-fragment byte order of cuda.cat8 against the m16n8k32 B-operand layout (PTX ISA: lane
 * 4 * groupID + threadID_in_group holds B[k = 4 * threadID_in_group + i][n = groupID], i < 4, in
 * its first register and k + 16 in its second): hand-placed cells, and a bijection. */
#include <stdlib.h>
#include <string.h>

#include "engines/cuda/cat8/cat8_kernels.h"
#include "testing/check.h"

int main(void) {
    checks t = {"cat8_layout_test", 0, 0};
    /* Row y = 0 (n = 0 of n block 0), columns 0..3 (k = 0..3): lane 0, register 0, bytes 0..3. */
    CHECK_EQ(&t, cuda_cat8_offset(0, 0), 0);
    CHECK_EQ(&t, cuda_cat8_offset(3, 0), 3);
    /* Columns 4..7: lane 1 (threadID_in_group 1), its first register: byte 16. */
    CHECK_EQ(&t, cuda_cat8_offset(4, 0), 16);
    /* Columns 16..19: lane 0's second register of n block 0 (k + 16): byte 4. */
    CHECK_EQ(&t, cuda_cat8_offset(16, 0), 4);
    /* Row 1: groupID 1, lane 4: byte 64. */
    CHECK_EQ(&t, cuda_cat8_offset(0, 1), 64);
    /* Row 8: n block 1 -> registers 2 and 3 of lane 0: bytes 8 and 12. */
    CHECK_EQ(&t, cuda_cat8_offset(0, 8), 8);
    CHECK_EQ(&t, cuda_cat8_offset(16, 8), 12);
    /* Rows 16..31: n blocks 2, 3 -> the second 16-byte load, at 512. */
    CHECK_EQ(&t, cuda_cat8_offset(0, 16), 512);
    CHECK_EQ(&t, cuda_cat8_offset(31, 31), 512 + 31 * 16 + 3 * 4 + 3);
    /* Two columns 2c, 2c+1 of a row are adjacent bytes (the rule writes them as a pair). */
    int pairs = 0;
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x += 2)
            pairs += cuda_cat8_offset(x + 1, y) == cuda_cat8_offset(x, y) + 1;
    CHECK_EQ(&t, pairs, 32 * 16);
    /* A bijection onto 0..1023. */
    unsigned char seen[1024];
    memset(seen, 0, sizeof seen);
    int bad = 0;
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) {
            int o = cuda_cat8_offset(x, y);
            if (o < 0 || o >= 1024 || seen[o]++) bad++;
        }
    CHECK_EQ(&t, bad, 0);
    return check_summary(&t);
}
