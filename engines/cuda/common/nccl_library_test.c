/* NCCL's library loaded as the engines over several GPUs load it, with every function they call:
 * the version it reports is NCCL 2's. Where NCCL is not installed, skipped with the reason. */
#include <stdio.h>
#include <string.h>

#include "engines/cuda/common/nccl_library.h"
#include "testing/check.h"

int main(void) {
    checks t = {"nccl_library_test", 0, 0};
    cc_error err = {0};
    int version = 0;
    const int rc = cc_nccl_library_version(&version, &err);
    if (rc == CC_ERR_UNAVAILABLE && strstr(err.msg, "not installed")) {
        printf("SKIPPED: NCCL: %s\n", err.msg);
        return 0;
    }
    CHECKF(&t, rc == CC_OK, "loading NCCL: %s", err.msg);
    /* NCCL 2's versions are major * 10000 + minor * 100 + patch from 2.9 on. */
    CHECKF(&t, version >= 20900 && version < 30000, "NCCL says it is version %d", version);
    printf("NCCL %d.%d.%d, every function the engines call found\n", version / 10000,
           version / 100 % 100, version % 100);
    return check_summary(&t);
}
