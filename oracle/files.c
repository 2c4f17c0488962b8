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
#include <dirent.h>

#include "oracle/files.h"

/* What a file's mode is, for a refusal: "a FIFO", "a directory", ... */
static const char *file_type(mode_t mode) {
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a regular file";
}

int cc_read_file_head(const char *path, size_t max, char **text, size_t *len, int64_t *size,
                      cc_error *err) {
    if (!path || !text || !len) return cc_fail(err, CC_ERR_ARG, "cc_read_file: NULL argument");
    *text = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return cc_fail(err, CC_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return cc_fail(err, CC_ERR_IO, "cannot read %s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode))
            return cc_fail(err, CC_ERR_IO, "cannot read %s: it is a directory", path);
        return cc_fail(err, CC_ERR_IO, "cannot read %s: it is %s; only regular files are read",
                       path, file_type(st.st_mode));
    }
    if (size) *size = (int64_t)st.st_size;
    /* Never more than the size the file had when opened, so a file that grows is not followed. */
    size_t want = (uintmax_t)st.st_size < (uintmax_t)max ? (size_t)st.st_size : max;
    if (want >= SIZE_MAX - 1) {
        close(fd);
        return cc_fail(err, CC_ERR_NOMEM, "%s: %lld bytes are too big for memory", path,
                       (long long)st.st_size);
    }
    char *buf = malloc(want + 1);
    if (!buf) {
        close(fd);
        return cc_fail(err, CC_ERR_NOMEM, "%s: cannot allocate %zu bytes to read it", path,
                       want + 1);
    }
    size_t n = 0;
    while (n < want) {
        ssize_t got = read(fd, buf + n, want - n);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return cc_fail(err, CC_ERR_IO, "reading %s failed: %s", path, strerror(e));
        }
        if (got == 0) break; /* shrunk since fstat */
        n += (size_t)got;
    }
    close(fd);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return CC_OK;
}

int cc_read_file(const char *path, char **text, size_t *len, cc_error *err) {
    return cc_read_file_head(path, SIZE_MAX, text, len, NULL, err);
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

/* ---- A set of files replaced as one ---------------------------------------------------------
 * dir/NAME is a symbolic link to .SET/NAME, and dir/.SET a link to the generation directory
 * .SET.XXXXXX holding the files. A new generation is written whole beside the old one, then
 * .SET is switched by one rename: a reader sees the old set or the new one, never a mix, and a
 * run killed at any moment leaves one of them (and at most an unused generation, removed by the
 * next run). */

/* a/b into buf; 0 when it does not fit. */
static int joined(char *buf, size_t size, const char *a, const char *b) {
    int n = snprintf(buf, size, "%s/%s", a, b);
    return n >= 0 && (size_t)n < size;
}

/* Writes a symbolic link at path pointing to target, replacing what is there in one rename. */
static int replace_with_link(const char *path, const char *target, cc_error *err) {
    char tmp[PATH_MAX + 16];
    int n = snprintf(tmp, sizeof tmp, "%s.link.tmp", path);
    if (n < 0 || (size_t)n >= sizeof tmp) return cc_fail(err, CC_ERR_ARG, "%s: name too long", path);
    unlink(tmp);
    if (symlink(target, tmp) != 0 || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return cc_fail(err, CC_ERR_IO, "cannot link %s to %s: %s", path, target, strerror(e));
    }
    return CC_OK;
}

/* Removes a generation directory and everything in it: its files, and the temporaries of a
 * write that was killed. */
static void remove_generation(const char *gen) {
    char path[2 * PATH_MAX];
    DIR *d = opendir(gen);
    struct dirent *ent;
    while (d && (ent = readdir(d)) != NULL)
        if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, "..") &&
            joined(path, sizeof path, gen, ent->d_name))
            unlink(path);
    if (d) closedir(d);
    rmdir(gen);
}

/* A new generation directory dir/.SET.XXXXXX holding the n files; its name into gen. */
static int write_generation(const char *dir, const char *set, int n, const char *const *names,
                            const char *const *data, const size_t *lens, char *gen, size_t size,
                            cc_error *err) {
    if ((size_t)snprintf(gen, size, "%s/.%s.XXXXXX", dir, set) >= size)
        return cc_fail(err, CC_ERR_ARG, "the directory name %s is too long", dir);
    if (!mkdtemp(gen))
        return cc_fail(err, CC_ERR_IO, "cannot write in %s: %s", dir, strerror(errno));
    /* mkdtemp makes it 0700; the set is read by others as a mkdir'd directory would be. */
    if (chmod(gen, 0777 & ~process_umask()) != 0) {
        int e = errno;
        rmdir(gen);
        return cc_fail(err, CC_ERR_IO, "cannot set the mode of %s: %s", gen, strerror(e));
    }
    char path[2 * PATH_MAX];
    for (int i = 0; i < n; i++) {
        int rc = joined(path, sizeof path, gen, names[i])
                     ? cc_write_file_atomic(path, data[i], lens[i], err)
                     : cc_fail(err, CC_ERR_ARG, "%s: name too long", gen);
        if (rc) {
            remove_generation(gen);
            return rc;
        }
    }
    return CC_OK;
}

int cc_write_files_atomic(const char *dir, const char *set, int n, const char *const *names,
                          const char *const *data, const size_t *lens, cc_error *err) {
    char current[2 * PATH_MAX], old[PATH_MAX] = "", gen[2 * PATH_MAX], path[2 * PATH_MAX],
        target[2 * PATH_MAX];
    int fits = snprintf(current, sizeof current, "%s/.%s", dir, set);
    if (fits < 0 || (size_t)fits >= sizeof current)
        return cc_fail(err, CC_ERR_ARG, "the directory name %s is too long", dir);
    ssize_t len = readlink(current, old, sizeof old - 1);
    old[len > 0 ? len : 0] = '\0';
    int rc;
    /* Files of an older layout (plain files, not links): first made the current generation as
     * they are, so that replacing them by links changes nothing a reader sees. */
    int plain = 0;
    struct stat st;
    for (int i = 0; i < n; i++)
        if (joined(path, sizeof path, dir, names[i]) && lstat(path, &st) == 0 &&
            !S_ISLNK(st.st_mode))
            plain = 1;
    if (plain && !old[0]) {
        char *olds[8] = {0};
        size_t old_lens[8] = {0};
        for (int i = 0; i < n && i < 8; i++) {
            cc_error ignored;
            if (!joined(path, sizeof path, dir, names[i]) ||
                cc_read_file(path, &olds[i], &old_lens[i], &ignored))
                olds[i] = NULL, old_lens[i] = 0;
        }
        rc = write_generation(dir, set, n, names, (const char *const *)olds, old_lens, gen,
                              sizeof gen, err);
        for (int i = 0; i < n && i < 8; i++) free(olds[i]);
        if (rc) return rc;
        const char *base = strrchr(gen, '/') + 1;
        if ((rc = replace_with_link(current, base, err))) return rc;
        if (strlen(base) >= sizeof old) return cc_fail(err, CC_ERR_ARG, "%s: name too long", base);
        memcpy(old, base, strlen(base) + 1);
    }
    /* Each name points through .SET; made before the switch, they show nothing or the old set. */
    for (int i = 0; i < n; i++) {
        char dot_set[PATH_MAX];
        int m = snprintf(dot_set, sizeof dot_set, ".%s", set);
        if (m < 0 || (size_t)m >= sizeof dot_set || !joined(path, sizeof path, dir, names[i]) ||
            !joined(target, sizeof target, dot_set, names[i]))
            return cc_fail(err, CC_ERR_ARG, "%s: name too long", dir);
        char have[2 * PATH_MAX];
        ssize_t l = readlink(path, have, sizeof have - 1);
        if (l > 0 && (size_t)l == strlen(target) && memcmp(have, target, (size_t)l) == 0) continue;
        if ((rc = replace_with_link(path, target, err))) return rc;
    }
    if ((rc = write_generation(dir, set, n, names, data, lens, gen, sizeof gen, err))) return rc;
    if ((rc = replace_with_link(current, strrchr(gen, '/') + 1, err))) {
        remove_generation(gen);
        return rc;
    }
    /* The old generation, and any a killed run left, are no longer read. */
    DIR *d = opendir(dir);
    struct dirent *ent;
    size_t prefix = strlen(set) + 2;
    char doomed[2 * PATH_MAX];
    while (d && (ent = readdir(d)) != NULL) {
        if (ent->d_name[0] != '.' || strncmp(ent->d_name + 1, set, prefix - 2) != 0 ||
            ent->d_name[prefix - 1] != '.' || strcmp(ent->d_name, strrchr(gen, '/') + 1) == 0)
            continue;
        if (joined(doomed, sizeof doomed, dir, ent->d_name) && lstat(doomed, &st) == 0 &&
            S_ISDIR(st.st_mode))
            remove_generation(doomed);
    }
    if (d) closedir(d);
    return CC_OK;
}

int cc_write_files_check(const char *dir, const char *set, int n, const char *const *names,
                         cc_error *err) {
    struct stat st;
    char path[2 * PATH_MAX], dot_set[PATH_MAX];
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0)
        return cc_fail(err, CC_ERR_ARG, "%s is not a writable directory", dir);
    int m = snprintf(dot_set, sizeof dot_set, ".%s", set);
    if (m < 0 || (size_t)m >= sizeof dot_set || !joined(path, sizeof path, dir, dot_set))
        return cc_fail(err, CC_ERR_ARG, "the directory name %s is too long", dir);
    /* .SET is the link a write switches: anything else there stops the switch. */
    if (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode))
        return cc_fail(err, CC_ERR_ARG, "%s is in the way: a write switches a link of that name",
                       path);
    for (int i = 0; i < n; i++) {
        if (!joined(path, sizeof path, dir, names[i]))
            return cc_fail(err, CC_ERR_ARG, "the directory name %s is too long", dir);
        /* A link (to the last set, or anywhere) is replaced; a regular file is kept as the old
         * set; anything else cannot be replaced by a link. */
        if (lstat(path, &st) == 0 && !S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode))
            return cc_fail(err, CC_ERR_ARG, "%s is in the way: it is a %s, not a file", path,
                           S_ISDIR(st.st_mode) ? "directory" : "special file");
    }
    return CC_OK;
}

/* One part of a path made, or found to be a directory already. */
static int make_one(const char *part, const char *whole, cc_error *err) {
    struct stat st;
    if (mkdir(part, 0777) == 0) return CC_OK; /* the umask narrows it, as mkdir(1)'s does */
    int e = errno;
    if (stat(part, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return CC_OK;
        return cc_fail(err, CC_ERR_ARG, "%s: %s exists and is %s, not a directory", whole, part,
                       S_ISREG(st.st_mode) ? "a file" : file_type(st.st_mode));
    }
    return cc_fail(err, CC_ERR_ARG, "%s: cannot make the directory %s: %s", whole, part,
                   strerror(e));
}

int cc_make_directories(const char *path, cc_error *err) {
    if (!path || !path[0]) return cc_fail(err, CC_ERR_ARG, "an empty directory name");
    char part[PATH_MAX];
    size_t n = strlen(path);
    if (n >= sizeof part) return cc_fail(err, CC_ERR_ARG, "the directory name %s is too long", path);
    memcpy(part, path, n + 1);
    /* Each parent in turn, then the whole; a leading / and repeated slashes are no parts. */
    for (size_t i = 1; i <= n; i++) {
        if (i < n && (part[i] != '/' || part[i - 1] == '/')) continue;
        char keep = part[i];
        part[i] = '\0';
        int rc = make_one(part, path, err);
        part[i] = keep;
        if (rc) return rc;
    }
    if (access(path, W_OK | X_OK) != 0)
        return cc_fail(err, CC_ERR_ARG, "%s is not a writable directory: %s", path, strerror(errno));
    return CC_OK;
}

int cc_cache_dir(char *dir, size_t size, cc_error *err) {
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') n = snprintf(dir, size, "%s/cellcheck", xdg);
    else if (home && home[0] == '/') n = snprintf(dir, size, "%s/.cache/cellcheck", home);
    else return cc_fail(err, CC_ERR_ARG, "no XDG_CACHE_HOME or HOME to put it in");
    if (n < 0 || (size_t)n >= size)
        return cc_fail(err, CC_ERR_ARG, "the cache directory's path is too long");
    return CC_OK;
}
