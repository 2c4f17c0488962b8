/* The devices an engine over several GPUs uses (devices.h). */
#include "engines/cuda/common/devices.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

int cc_devices_setting(int visible) {
    const char *want = getenv("CELLCHECK_DEVICES");
    if (!want || !*want) return visible;
    char *end;
    const long v = strtol(want, &end, 10);
    if (*end || v < 1 || (visible > 0 && v > visible)) return -1;
    return (int)v;
}

int cc_halos_setting(void) {
    const char *how = getenv("CELLCHECK_HALOS");
    if (!how || !*how || !strcmp(how, "peer")) return CC_HALOS_PEER;
    return !strcmp(how, "nccl") ? CC_HALOS_NCCL : -1;
}

int cc_devices_expected(void) {
    int n = 0;
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (visible && *visible) {
        n = 1;
        for (const char *p = visible; *p; p++) n += *p == ',';
    } else {
        DIR *dir = opendir("/proc/driver/nvidia/gpus");
        if (dir) {
            for (struct dirent *d; (d = readdir(dir)) != NULL;) n += d->d_name[0] != '.';
            closedir(dir);
        }
    }
    const int wanted = cc_devices_setting(n);
    if (wanted > 0) n = wanted;
    if (n > CC_DEVICES_MAX) n = CC_DEVICES_MAX;
    return n < 1 ? 1 : n;
}
