/* The supervisor's side of the sandbox (sandbox.h): the environment's allowlist, the scratch
 * directory made and removed, and the parts in words. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "supervise/sandbox.h"

/* Variables passed whole by their prefix: the OpenMP runtime's, CUDA's, NCCL's and cellcheck's
 * own settings. */
static const char *const allowed_prefixes[] = {"OMP_", "GOMP_", "CUDA_", "NCCL_", "CELLCHECK_"};
/* And by their exact name: the search paths, the locale and clock, the heap's poison and the
 * sanitizers' options. */
static const char *const allowed_names[] = {
    "PATH", "LD_LIBRARY_PATH", "LANG", "LC_ALL", "TZ", "MALLOC_PERTURB_", "ASAN_OPTIONS",
    "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "MSAN_OPTIONS",
};
/* Set to the scratch directory by the supervisor, whatever the caller's say. */
static const char *const scratch_names[] = {"CUDA_CACHE_PATH"};

/* Is NAME (len bytes) one of the comma-separated names of list? */
static int listed(const char *name, size_t len, const char *list) {
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && !strncmp(p, name, len)) return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

int cc_sandbox_env_allowed(const char *entry, const char *extra) {
    const char *eq = strchr(entry, '=');
    if (!eq) return 0;
    size_t len = (size_t)(eq - entry);
    for (size_t i = 0; i < sizeof scratch_names / sizeof *scratch_names; i++)
        if (len == strlen(scratch_names[i]) && !strncmp(entry, scratch_names[i], len)) return 0;
    for (size_t i = 0; i < sizeof allowed_names / sizeof *allowed_names; i++)
        if (len == strlen(allowed_names[i]) && !strncmp(entry, allowed_names[i], len)) return 1;
    for (size_t i = 0; i < sizeof allowed_prefixes / sizeof *allowed_prefixes; i++) {
        size_t p = strlen(allowed_prefixes[i]);
        if (len > p && !strncmp(entry, allowed_prefixes[i], p)) return 1;
    }
    return listed(entry, len, extra);
}

/* A scratch directory is made as NEW_PREFIX, locked, then renamed to SCRATCH_PREFIX: a sweep
 * never sees one that is not locked yet. */
#define NEW_PREFIX "cellcheck-new-"
#define SCRATCH_PREFIX "cellcheck-worker-"

static const char *scratch_base(void) {
    const char *base = getenv("TMPDIR");
    return base && base[0] == '/' ? base : "/tmp";
}

int cc_sandbox_scratch_make(char *path, size_t size, int *lock, cc_error *err) {
    *lock = -1;
    const char *base = scratch_base();
    char made[4096];
    int n = snprintf(made, sizeof made, "%s/" NEW_PREFIX "XXXXXX", base);
    int m = snprintf(path, size, "%s/" SCRATCH_PREFIX "XXXXXX", base);
    if (n < 0 || (size_t)n >= sizeof made || m < 0 || (size_t)m >= size)
        return cc_fail(err, CC_ERR_ARG, "sandbox: TMPDIR is too long for a scratch directory");
    if (!mkdtemp(made))
        return cc_fail(err, CC_ERR_IO, "sandbox: cannot make a scratch directory under %s: %s",
                       base, strerror(errno));
    memcpy(path + m - 6, made + n - 6, 6);
    int fd = open(made, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || flock(fd, LOCK_EX) != 0 || rename(made, path) != 0) {
        int e = errno;
        if (fd >= 0) close(fd);
        rmdir(made);
        return cc_fail(err, CC_ERR_IO, "sandbox: cannot hold the scratch directory %s: %s", path,
                       strerror(e));
    }
    *lock = fd;
    return CC_OK;
}

static int remove_one(const char *path, const struct stat *s, int type, struct FTW *ftw) {
    (void)s, (void)type, (void)ftw;
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

int cc_sandbox_scratch_remove(const char *path, int lock, cc_error *err) {
    int rc = CC_OK;
    /* Depth first, never crossing into another file system nor following a link. */
    if (path && path[0] && nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) != 0 &&
        errno != ENOENT)
        rc = cc_fail(err, CC_ERR_IO, "sandbox: cannot remove the scratch directory %s: %s", path,
                     strerror(errno));
    if (lock >= 0) close(lock);
    return rc;
}

void cc_sandbox_scratch_sweep(void) {
    const char *base = scratch_base();
    DIR *d = opendir(base);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, SCRATCH_PREFIX, sizeof SCRATCH_PREFIX - 1) != 0) continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", base, e->d_name) >= (int)sizeof path) continue;
        int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat s;
        if (fstat(fd, &s) == 0 && s.st_uid == geteuid() && flock(fd, LOCK_EX | LOCK_NB) == 0)
            (void)cc_sandbox_scratch_remove(path, -1, NULL);
        close(fd);
    }
    closedir(d);
}

void cc_sandbox_parts_describe(uint32_t parts, char *buf, size_t size) {
    static const char *const names[] = {"network",   "filesystem", "environment", "processes",
                                        "signals",   "privileges", "limits"};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (!(parts & (1u << i))) continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", names[i]);
        if (n < 0 || (size_t)n >= size - used) return;
        used += (size_t)n;
    }
    if (!used) snprintf(buf, size, "none");
}
