/* Work and memory limits, checked before a request starts (limits.h). */
#define _POSIX_C_SOURCE 200809L
#include "harness/limits.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

double cc_work_visits(const cc_rule *rule, int32_t w, int32_t h, int64_t steps) {
    return (double)steps * (double)w * (double)h * ((double)cc_rule_max_count(rule) + 1.0);
}

int cc_limit_work(const char *what, const cc_rule *rule, int32_t w, int32_t h, int64_t steps,
                  double max, cc_error *err) {
    double visits = cc_work_visits(rule, w, h, steps);
    if (visits <= max) return CC_OK;
    return cc_fail(err, CC_ERR_ARG,
                   "%s: %lld steps of %dx%d at radius %d are %.3g cell-neighbour visits, above "
                   "the limit of %.0e; ask for fewer steps or a smaller grid",
                   what, (long long)steps, (int)w, (int)h, (int)rule->radius, visits, max);
}

/* MemAvailable, in bytes; the physical memory where /proc/meminfo cannot be read. */
static double available_bytes(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long kib;
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
            fclose(f);
            return (double)kib * 1024.0;
        }
    }
    if (f) fclose(f);
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0.0;
}

int cc_limit_memory(const char *what, int32_t w, int32_t h, double bytes_per_cell, cc_error *err) {
    double need = (double)w * (double)h * bytes_per_cell, have = available_bytes();
    if (have <= 0.0 || need <= have) return CC_OK;
    return cc_fail(err, CC_ERR_NOMEM,
                   "%s: a %dx%d grid needs about %.1f GiB of memory here (%.0f bytes a cell), and "
                   "%.1f GiB are available",
                   what, (int)w, (int)h, need / 1073741824.0, bytes_per_cell, have / 1073741824.0);
}
