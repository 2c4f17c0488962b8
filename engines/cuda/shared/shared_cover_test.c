/* cuda.shared's tile loading, checked on the host (no device needed): at every radius its own
 * cells, Topa's four halo shares and the zeroed padding write each byte of the tile that the
 * counting reads exactly once, so nothing is read unwritten and no two threads write one byte. */
#include <stdio.h>

#include "engines/cuda/shared/shared_kernels.h"
#include "testing/check.h"

int main(void) {
    checks t = {"shared_cover_test", 0, 0};
    for (int32_t r = 1; r <= 16; r++) {
        cc_error err;
        cc_error_clear(&err);
        int rc = cuda_shared_check_cover(r, &err);
        CHECKF(&t, rc == CC_OK, "radius %d: %s", (int)r, err.msg);
    }
    /* The check itself refuses what it cannot check. */
    cc_error err;
    CHECK_REFUSED(&t, cuda_shared_check_cover(17, &err), &err, "outside 1..16", "radius 17");
    return check_summary(&t);
}
