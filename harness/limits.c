/* Work and memory limits, checked before a request starts (limits.h). */
#define _POSIX_C_SOURCE 200809L
#include "harness/limits.h"
#include "oracle/files.h"
#include "supervise/supervisor.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

/* CELLCHECK_MEMORY_AVAILABLE's bytes into *bytes: 0 when unset or empty, -1 when malformed. */
static void memory_setting(double *bytes) {
    const char *stand_in = getenv("CELLCHECK_MEMORY_AVAILABLE");
    *bytes = 0.0;
    if (!stand_in || !*stand_in) return;
    char *end;
    double v = strtod(stand_in, &end);
    /* A whole positive, finite number of bytes; "8G", "-1", "nan", "inf" are not. */
    *bytes = end != stand_in && *end == '\0' && v >= 1.0 && v <= 1e18 ? v : -1.0;
}

int cc_memory_setting_check(cc_error *err) {
    double bytes;
    memory_setting(&bytes);
    if (bytes < 0.0)
        return cc_fail(err, CC_ERR_ARG,
                       "CELLCHECK_MEMORY_AVAILABLE='%.64s' is not a number of bytes in 1..1e18 "
                       "(unset it to use the host's available memory)",
                       getenv("CELLCHECK_MEMORY_AVAILABLE"));
    return CC_OK;
}

extern char **environ;

/* The settings cellcheck reads; ci/examples.sh reads CELLCHECK_EXAMPLE_CASES, the engines
 * over several GPUs CELLCHECK_DEVICES and CELLCHECK_HALOS, and the supervisor
 * CELLCHECK_WORKER_ENV (supervise/sandbox.h). */
static const char *const known_settings[] = {"CELLCHECK_PLUGINS", "CELLCHECK_REQUIRE",
                                             "CELLCHECK_ABSENT",
                                             "CELLCHECK_MEMORY_AVAILABLE",
                                             "CELLCHECK_EXAMPLE_CASES", "CELLCHECK_DEVICES",
                                             "CELLCHECK_HALOS", "CELLCHECK_ORACLE_CACHE",
                                             "CELLCHECK_ORACLE_CACHE_MAX_MIB",
                                             "CELLCHECK_WORKER_ENV"};

/* Levenshtein distance of a (len la, any case) and b, capped at 3: enough to tell a slip from a
 * name. */
static int distance(const char *a, size_t la, const char *b) {
    size_t lb = strlen(b);
    if (la > 64 || lb > 64) return 3;
    int row[65];
    for (size_t j = 0; j <= lb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0], best = row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j], v = diag + (toupper((unsigned char)a[i - 1]) != b[j - 1]);
            if (up + 1 < v) v = up + 1;
            if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
            diag = up;
            row[j] = v;
            if (v < best) best = v;
        }
        if (best >= 3) return 3;
    }
    return row[lb] < 3 ? row[lb] : 3;
}

int cc_settings_check(char *ignored, size_t size, cc_error *err) {
    if (ignored && size) ignored[0] = '\0';
    /* A misspelt name (CELLCHECK_REQUIERE=gpu) would switch a safeguard off without a word: a
     * name within two edits of a setting is refused; any other is a wrapper's own, and named. */
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "CELLCHECK_", 10) != 0) continue;
        size_t len = strcspn(*e, "=");
        int known = 0, near = 0;
        for (size_t i = 0; i < sizeof known_settings / sizeof known_settings[0] && !known; i++) {
            known = strlen(known_settings[i]) == len && strncmp(*e, known_settings[i], len) == 0;
            near |= distance(*e, len, known_settings[i]) <= 2;
        }
        if (!known && near)
            return cc_fail(err, CC_ERR_ARG,
                           "unknown setting %.*s in the environment, close to one cellcheck reads "
                           "(CELLCHECK_PLUGINS, CELLCHECK_REQUIRE, CELLCHECK_ABSENT, "
                           "CELLCHECK_MEMORY_AVAILABLE, "
                           "CELLCHECK_DEVICES, CELLCHECK_HALOS, CELLCHECK_ORACLE_CACHE, "
                           "CELLCHECK_ORACLE_CACHE_MAX_MIB and CELLCHECK_WORKER_ENV); "
                           "unset it",
                           len > 64 ? 64 : (int)len, *e);
        if (!known && ignored && size) {
            size_t used = strlen(ignored);
            snprintf(ignored + used, size - used, "%s%.*s", used ? ", " : "",
                     len > 64 ? 64 : (int)len, *e);
        }
    }
    int rc = cc_require_check(err);
    return rc ? rc : cc_memory_setting_check(err);
}

double cc_time_lower_bound(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                           int64_t steps) {
    double rate = !engine                         ? CC_RATE_ORACLE
                  : engine->hardware == CC_HW_GPU ? CC_RATE_GPU
                                                  : CC_RATE_CPU;
    return cc_work_visits(rule, w, h, steps) / rate + (double)steps * CC_STEP_SECONDS_MIN;
}

int cc_budget_parse(const char *flag, const char *value, void *dest, cc_error *err) {
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !(v >= 1.0 && v <= CC_TIME_BUDGET_MAX))
        return cc_fail(err, CC_ERR_ARG, "%s: '%s' is not a number of seconds in 1..%.0e", flag,
                       value, CC_TIME_BUDGET_MAX);
    *(double *)dest = v;
    return CC_OK;
}

void cc_format_duration(double seconds, char *buf, size_t size) {
    if (seconds < 120.0)
        snprintf(buf, size, "%.0f s", seconds);
    else if (seconds < 7200.0)
        snprintf(buf, size, "%.0f minutes", seconds / 60.0);
    else if (seconds < 172800.0)
        snprintf(buf, size, "%.1f hours", seconds / 3600.0);
    else if (seconds < 3.15e9)
        snprintf(buf, size, "%.1f days", seconds / 86400.0);
    else
        snprintf(buf, size, "%.2g years", seconds / 3.15576e7);
}

int cc_limit_time(const char *what, double seconds, double budget, const char *basis,
                  cc_error *err) {
    if (budget <= 0.0) budget = CC_TIME_BUDGET_DEFAULT;
    if (seconds <= budget) return CC_OK;
    char need[64], have[64];
    cc_format_duration(seconds, need, sizeof need);
    cc_format_duration(budget, have, sizeof have);
    return cc_fail(err, CC_ERR_ARG,
                   "%s: would take at least %s, past the time budget of %s (%s); give --budget "
                   "SECONDS to allow it",
                   what, need, have, basis);
}

double cc_memory_available(void) {
    double stand_in;
    memory_setting(&stand_in);
    if (stand_in > 0.0) return stand_in;
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

cc_memory cc_engine_memory_need(const cc_engine *engine, const cc_rule *rule, int32_t w, int32_t h,
                                int *stated) {
    cc_memory need;
    cc_error err;
    *stated = cc_call_memory(engine, rule, w, h, &need, &err);
    if (*stated) return need;
    return cc_engine_memory_generic(engine, w, h);
}

int cc_limit_engine_memory(const char *what, const cc_engine *engine, const cc_rule *rule,
                           int32_t w, int32_t h, double grids, cc_error *err) {
    int stated;
    cc_memory need = cc_engine_memory_need(engine, rule, w, h, &stated);
    double held = grids * (double)w * (double)h, total = held + need.host_bytes;
    double have = cc_memory_available();
    if (have <= 0.0 || total <= have) return CC_OK;
    char device[128] = "", grids_held[128] = "";
    if (need.device_bytes > 0.0)
        snprintf(device, sizeof device, "; and %.0f bytes on the device", need.device_bytes);
    if (grids > 0.0)
        snprintf(grids_held, sizeof grids_held, "%.0f for the %g grids held here and ", held,
                 grids);
    return cc_fail(err, CC_ERR_NOMEM,
                   "%s: %s on a %dx%d grid needs %.0f bytes (%.2f GiB) of host memory: %s%.0f "
                   "for %s's context (%s)%s; %.0f bytes (%.2f GiB) are available",
                   what, engine->name, (int)w, (int)h, total, total / 1073741824.0, grids_held,
                   need.host_bytes, engine->name,
                   stated ? "its own estimate from its layout" : "a generic estimate", device,
                   have, have / 1073741824.0);
}

int cc_limit_memory(const char *what, int32_t w, int32_t h, double bytes_per_cell, cc_error *err) {
    double need = (double)w * (double)h * bytes_per_cell, have = cc_memory_available();
    if (have <= 0.0 || need <= have) return CC_OK;
    return cc_fail(err, CC_ERR_NOMEM,
                   "%s: a %dx%d grid needs about %.1f GiB of memory here (%.0f bytes a cell), and "
                   "%.1f GiB are available",
                   what, (int)w, (int)h, need / 1073741824.0, bytes_per_cell, have / 1073741824.0);
}

int cc_limit_large_turn(const char *who, FILE *out, char *note, size_t size) {
    char dir[4096], path[4200];
    cc_error why;
    if (cc_cache_dir(dir, sizeof dir, &why) || cc_make_directories(dir, &why)) {
        snprintf(note, size, "no lock for one case past 2^32 cells at a time: %s", why.msg);
        return -1;
    }
    snprintf(path, sizeof path, "%s/large-case.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        snprintf(note, size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    int waited = 0;
    for (;;) {
        if (flock(fd, waited ? LOCK_EX : LOCK_EX | LOCK_NB) == 0) return fd;
        if (errno == EINTR) continue;
        if (errno != EWOULDBLOCK || waited) break;
        waited = 1;
        fprintf(out, "note: %s: waiting for another cellcheck's case past 2^32 cells on this "
                     "machine to end (%s)\n", who, path);
        fflush(out);
    }
    snprintf(note, size, "cannot lock %s: %s", path, strerror(errno));
    close(fd);
    return -1;
}

void cc_limit_large_turn_end(int fd) {
    if (fd >= 0) close(fd);
}
