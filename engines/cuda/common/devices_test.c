/* CELLCHECK_DEVICES against the visible devices, and the estimate that reads it without CUDA. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "engines/cuda/common/devices.h"

#include <stdlib.h>

#include "testing/check.h"

static void setting(checks *t) {
    unsetenv("CELLCHECK_DEVICES");
    CHECK_EQ(t, cc_devices_setting(4), 4);
    CHECK_EQ(t, cc_devices_setting(0), 0);
    setenv("CELLCHECK_DEVICES", "", 1);
    CHECK_EQ(t, cc_devices_setting(3), 3);
    setenv("CELLCHECK_DEVICES", "2", 1);
    CHECK_EQ(t, cc_devices_setting(4), 2);
    CHECK_EQ(t, cc_devices_setting(2), 2);
    CHECK_EQ(t, cc_devices_setting(1), -1); /* more than are visible */
    CHECK_EQ(t, cc_devices_setting(0), 2);  /* visible not known: taken as asked */
    const char *bad[] = {"0", "-1", "two", "2x", "1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        setenv("CELLCHECK_DEVICES", bad[i], 1);
        CHECKF(t, cc_devices_setting(8) == -1, "CELLCHECK_DEVICES=%s was taken", bad[i]);
    }
    unsetenv("CELLCHECK_DEVICES");
}

static void expected(checks *t) {
    setenv("CUDA_VISIBLE_DEVICES", "0,1,2", 1);
    unsetenv("CELLCHECK_DEVICES");
    CHECK_EQ(t, cc_devices_expected(), 3);
    setenv("CELLCHECK_DEVICES", "2", 1);
    CHECK_EQ(t, cc_devices_expected(), 2);
    setenv("CELLCHECK_DEVICES", "7", 1); /* refused at create; the estimate keeps the visible */
    CHECK_EQ(t, cc_devices_expected(), 3);
    setenv("CUDA_VISIBLE_DEVICES", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", 1);
    unsetenv("CELLCHECK_DEVICES");
    CHECK_EQ(t, cc_devices_expected(), CC_DEVICES_MAX);
    unsetenv("CUDA_VISIBLE_DEVICES");
    CHECK(t, cc_devices_expected() >= 1); /* whatever /proc says here, at least one */
}

/* CELLCHECK_HALOS: peer copies unless it says NCCL; anything else refused, case and all. */
static void halos(checks *t) {
    unsetenv("CELLCHECK_HALOS");
    CHECK_EQ(t, cc_halos_setting(), CC_HALOS_PEER);
    setenv("CELLCHECK_HALOS", "", 1);
    CHECK_EQ(t, cc_halos_setting(), CC_HALOS_PEER);
    setenv("CELLCHECK_HALOS", "peer", 1);
    CHECK_EQ(t, cc_halos_setting(), CC_HALOS_PEER);
    setenv("CELLCHECK_HALOS", "nccl", 1);
    CHECK_EQ(t, cc_halos_setting(), CC_HALOS_NCCL);
    setenv("CELLCHECK_HALOS", "NCCL", 1);
    CHECK_EQ(t, cc_halos_setting(), -1);
    setenv("CELLCHECK_HALOS", "mpi", 1);
    CHECK_EQ(t, cc_halos_setting(), -1);
    unsetenv("CELLCHECK_HALOS");
}

int main(void) {
    checks t = {"devices_test", 0, 0};
    setting(&t);
    expected(&t);
    halos(&t);
    return check_summary(&t);
}
