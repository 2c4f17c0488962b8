/* Whole files: read into memory, and written whole or not at all (a temporary beside the target,
 * then rename). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/gridio.h"

int cc_read_file(const char *path, char **text, size_t *len, cc_error *err) {
    if (!path || !text || !len) return cc_fail(err, CC_ERR_ARG, "cc_read_file: NULL argument");
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return cc_fail(err, CC_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    size_t cap = 4096;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if (st.st_size < 0 || (uintmax_t)st.st_size >= (uintmax_t)SIZE_MAX - 1) {
            fclose(f);
            return cc_fail(err, CC_ERR_NOMEM, "%s: %lld bytes are too big for memory", path,
                           (long long)st.st_size);
        }
        cap = (size_t)st.st_size + 1;
    } else if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return cc_fail(err, CC_ERR_IO, "cannot read %s: it is a directory", path);
    }
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate %zu bytes to read it", path, cap);
    }
    size_t n = 0;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > SIZE_MAX / 2) {
                free(buf);
                fclose(f);
                return cc_fail(err, CC_ERR_NOMEM, "%s: too big for memory", path);
            }
            char *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                fclose(f);
                return cc_fail(err, CC_ERR_NOMEM, "%s: too big for memory (%zu bytes read)", path,
                               n);
            }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return cc_fail(err, CC_ERR_IO, "reading %s failed: %s", path, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return CC_OK;
}

/* The process's umask, read without changing it (umask() would, for a moment); 022 where the
 * kernel does not say. A new file gets 0666 less it, as open() would give it. */
static mode_t process_umask(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[128];
    unsigned int mask = 022;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Umask: %o", &mask) == 1) break;
    if (f) fclose(f);
    return (mode_t)mask;
}

int cc_write_file_atomic(const char *path, const char *data, size_t len, cc_error *err) {
    if (!path || (!data && len)) return cc_fail(err, CC_ERR_ARG, "cc_write_file_atomic: NULL argument");
    size_t plen = strlen(path);
    if (plen == 0) return cc_fail(err, CC_ERR_ARG, "cannot write a file with an empty path");
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dir_len;
    if (*base == '\0') return cc_fail(err, CC_ERR_ARG, "cannot write %s: it names a directory", path);
    /* The temporary lives beside the target so that rename replaces it in one step. */
    size_t tlen = dir_len + 1 + strlen(base) + sizeof ".tmp.XXXXXX";
    char *tmp = malloc(tlen);
    if (!tmp) return cc_fail(err, CC_ERR_NOMEM, "writing %s: out of memory", path);
    snprintf(tmp, tlen, "%.*s.%s.tmp.XXXXXX", (int)dir_len, path, base);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return cc_fail(err, CC_ERR_IO, "cannot write %s: creating a temporary file failed: %s", path,
                       strerror(e));
    }
    const char *failed = NULL;
    int e = 0;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            failed = "write";
            e = errno;
            break;
        }
        done += (size_t)w;
    }
    if (!failed && fchmod(fd, 0666 & ~process_umask()) != 0) failed = "chmod", e = errno;
    if (!failed && fsync(fd) != 0) failed = "fsync", e = errno;
    if (close(fd) != 0 && !failed) failed = "close", e = errno;
    if (!failed && rename(tmp, path) != 0) failed = "rename", e = errno;
    if (failed) {
        unlink(tmp);
        free(tmp);
        return cc_fail(err, CC_ERR_IO, "cannot write %s: %s failed: %s", path, failed, strerror(e));
    }
    free(tmp);
    /* Make the rename itself durable; a failure here leaves a complete file, so it is ignored. */
    char dir[PATH_MAX];
    if (dir_len == 0)
        snprintf(dir, sizeof dir, ".");
    else if (dir_len < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)dir_len, path);
    else
        dir[0] = '\0';
    if (dir[0]) {
        int dfd = open(dir, O_RDONLY);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    return CC_OK;
}
