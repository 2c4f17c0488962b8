/* The oracle's results on disk (see oracle_cache.h). */
#define _XOPEN_SOURCE 700 /* lstat, mkstemp, O_NOFOLLOW, utimensat */
#include "harness/oracle_cache.h"
#include "oracle/files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "harness/oracle_sources_hash.h"

/* An entry's file: magic, key, payload length (little-endian), payload hash, payload. */
static const char entry_magic[8] = {'C', 'C', 'O', 'R', 'A', 'C', 'L', '1'};
#define HEADER_BYTES (8 + CC_ORACLE_KEY_BYTES + 8 + 32)

void cc_oracle_cache_off(cc_oracle_cache *cache, const char *why) {
    memset(cache, 0, sizeof *cache);
    snprintf(cache->note, sizeof cache->note, "%s", why);
}

static void note_once(cc_oracle_cache *cache, const char *what, const char *path, int e) {
    if (cache->note[0]) return;
    snprintf(cache->note, sizeof cache->note, "%s %.200s%s%s", what, path, e ? ": " : "",
             e ? strerror(e) : "");
}

/* mkdir -p: each missing component made in turn. */
static int make_dirs(const char *dir) {
    char path[sizeof ((cc_oracle_cache *)0)->dir];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) return ENAMETOOLONG;
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0') continue;
        const char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) return errno;
        *p = saved;
        if (!saved) break;
    }
    struct stat st;
    if (stat(dir, &st) != 0) return errno;
    if (!S_ISDIR(st.st_mode)) return ENOTDIR;
    return access(dir, W_OK | X_OK) == 0 ? 0 : errno;
}

/* Calls visit on every entry file (dir/xx/<64 hex>), with its size and time of last use (ns). */
typedef void (*entry_visit)(void *arg, const char *path, uint64_t size, int64_t used);
static void each_entry(const cc_oracle_cache *cache, entry_visit visit, void *arg) {
    for (int i = 0; i < 256; i++) {
        char sub[sizeof cache->dir + 8], path[sizeof sub + 80];
        snprintf(sub, sizeof sub, "%s/%02x", cache->dir, i);
        DIR *d = opendir(sub);
        if (!d) continue;
        struct dirent *de;
        while ((de = readdir(d))) {
            struct stat st;
            if (strlen(de->d_name) != 2 * CC_ORACLE_KEY_BYTES) continue;
            snprintf(path, sizeof path, "%s/%s", sub, de->d_name);
            if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
                visit(arg, path, (uint64_t)st.st_size,
                      (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec);
        }
        closedir(d);
    }
}

static void add_size(void *arg, const char *path, uint64_t size, int64_t used) {
    (void)path;
    (void)used;
    *(uint64_t *)arg += size;
}

void cc_oracle_cache_open(cc_oracle_cache *cache, const char *dir, uint64_t max_bytes) {
    memset(cache, 0, sizeof *cache);
    if (strlen(dir) + 80 >= sizeof cache->dir) {
        cc_oracle_cache_off(cache, "off: its directory's name is too long");
        return;
    }
    int e = sodium_init() < 0 ? EIO : make_dirs(dir);
    if (e) {
        snprintf(cache->note, sizeof cache->note, "off: cannot use %.200s: %s", dir, strerror(e));
        return;
    }
    snprintf(cache->dir, sizeof cache->dir, "%s", dir);
    cache->enabled = 1;
    cache->max_bytes = max_bytes;
    each_entry(cache, add_size, &cache->bytes);
}

int cc_oracle_cache_open_env(cc_oracle_cache *cache, cc_error *err) {
    const char *set = getenv("CELLCHECK_ORACLE_CACHE"), *max = getenv("CELLCHECK_ORACLE_CACHE_MAX_MIB");
    uint64_t mib = CC_ORACLE_CACHE_DEFAULT_MAX_MIB;
    if (max && *max) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(max, &end, 10);
        if (errno || *end || v < 1 || v > (1ull << 30) || max[0] == '-')
            return cc_fail(err, CC_ERR_ARG,
                           "CELLCHECK_ORACLE_CACHE_MAX_MIB='%.64s' is not a number of MiB in 1..2^30",
                           max);
        mib = v;
    }
    if (set && strcmp(set, "off") == 0) {
        cc_oracle_cache_off(cache, "off: CELLCHECK_ORACLE_CACHE=off");
        return CC_OK;
    }
    char dir[sizeof cache->dir], root[sizeof cache->dir - sizeof "/oracle" + 1];
    cc_error no_root;
    if (set && *set) {
        if (set[0] != '/')
            return cc_fail(err, CC_ERR_ARG,
                           "CELLCHECK_ORACLE_CACHE='%.64s' is neither an absolute directory nor off",
                           set);
        snprintf(dir, sizeof dir, "%s", set);
    } else if (cc_cache_dir(root, sizeof root, &no_root) == CC_OK) {
        snprintf(dir, sizeof dir, "%s/oracle", root);
    } else {
        cc_oracle_cache_off(cache, "off: no CELLCHECK_ORACLE_CACHE, XDG_CACHE_HOME or HOME to put it in");
        return CC_OK;
    }
    cc_oracle_cache_open(cache, dir, mib << 20);
    return CC_OK;
}

void cc_oracle_key_of(const cc_case *c, const char *kind, const void *extra, size_t extra_len,
                      cc_oracle_key *key) {
    static const char scheme[] = "cellcheck oracle cache 1\n" CC_ORACLE_SOURCES_HASH "\n";
    cc_case bare = *c;
    bare.threads = 0; /* the run's settings, not the automaton's: the oracle ignores them */
    bare.timing = 0;
    bare.buffers = 0;
    char line[CC_CASE_TEXT_MAX] = "";
    case_format(&bare, line, sizeof line, NULL);
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, CC_ORACLE_KEY_BYTES);
    crypto_generichash_update(&st, (const unsigned char *)scheme, sizeof scheme);
    crypto_generichash_update(&st, (const unsigned char *)kind, strlen(kind) + 1);
    crypto_generichash_update(&st, (const unsigned char *)line, strlen(line) + 1);
    if (extra_len) crypto_generichash_update(&st, extra, extra_len);
    crypto_generichash_final(&st, key->b, CC_ORACLE_KEY_BYTES);
}

static void hex_of(const cc_oracle_key *key, char out[2 * CC_ORACLE_KEY_BYTES + 1]) {
    for (int i = 0; i < CC_ORACLE_KEY_BYTES; i++) snprintf(out + 2 * i, 3, "%02x", key->b[i]);
}

int cc_oracle_cache_path(const cc_oracle_cache *cache, const cc_oracle_key *key, char *buf,
                         size_t size) {
    char hex[2 * CC_ORACLE_KEY_BYTES + 1];
    hex_of(key, hex);
    int n = snprintf(buf, size, "%s/%.2s/%s", cache->dir, hex, hex);
    return n > 0 && (size_t)n < size ? CC_OK : CC_ERR_ARG;
}

static void payload_hash(const uint8_t *payload, size_t len, uint8_t out[32]) {
    crypto_generichash(out, 32, payload, len, NULL, 0);
}

/* Whether the entry bytes hold key's payload: every part of the header checked. */
static const char *entry_problem(const uint8_t *bytes, size_t n, const cc_oracle_key *key) {
    if (n < HEADER_BYTES) return "shorter than its header";
    if (memcmp(bytes, entry_magic, sizeof entry_magic) != 0) return "not an entry of this format";
    uint64_t len = 0;
    for (int i = 7; i >= 0; i--) len = len << 8 | bytes[8 + CC_ORACLE_KEY_BYTES + i];
    if (len != n - HEADER_BYTES) return "truncated or padded";
#ifndef CC_ORACLE_CACHE_MUTANT_TRUSTING
    /* The mutant of oracle_cache_test: an entry that is the right length is taken as it is. */
    if (memcmp(bytes + 8, key->b, CC_ORACLE_KEY_BYTES) != 0) return "holds another key's result";
    uint8_t h[32];
    payload_hash(bytes + HEADER_BYTES, (size_t)len, h);
    if (memcmp(bytes + HEADER_BYTES - 32, h, 32) != 0) return "its payload fails its hash";
#else
    (void)key;
#endif
    return NULL;
}

int cc_oracle_cache_get(cc_oracle_cache *cache, const cc_oracle_key *key, uint8_t **payload,
                        size_t *len) {
    *payload = NULL;
    *len = 0;
    if (!cache || !cache->enabled) return 0;
    char path[sizeof cache->dir + 80];
    if (cc_oracle_cache_path(cache, key, path, sizeof path)) return 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0) close(fd);
        cache->misses++;
        return 0;
    }
    uint8_t *bytes = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
    size_t got = 0;
    while (bytes && got < (size_t)st.st_size) {
        ssize_t r = read(fd, bytes + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    const char *problem = !bytes ? NULL : entry_problem(bytes, got, key);
    if (!bytes || problem) {
        if (problem) {
            cache->rejected++;
            if (!cache->note[0])
                snprintf(cache->note, sizeof cache->note, "rejected %.200s: %s, recomputed", path,
                         problem);
            unlink(path);
        }
        free(bytes);
        cache->misses++;
        return 0;
    }
    /* Its time of last use, for the bound's eviction. */
    utimensat(AT_FDCWD, path, NULL, 0);
    *len = got - HEADER_BYTES;
    memmove(bytes, bytes + HEADER_BYTES, *len);
    *payload = bytes;
    cache->hits++;
    return 1;
}

typedef struct entry_seen {
    char path[1200];
    uint64_t size;
    int64_t used;
} entry_seen;

typedef struct entry_list {
    entry_seen *e;
    size_t n, cap;
    uint64_t bytes;
} entry_list;

static void collect(void *arg, const char *path, uint64_t size, int64_t used) {
    entry_list *l = arg;
    l->bytes += size;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        entry_seen *e = realloc(l->e, cap * sizeof *e);
        if (!e) return;
        l->e = e;
        l->cap = cap;
    }
    snprintf(l->e[l->n].path, sizeof l->e[l->n].path, "%s", path);
    l->e[l->n].size = size;
    l->e[l->n++].used = used;
}

static int by_use(const void *a, const void *b) {
    const entry_seen *x = a, *y = b;
    return (x->used > y->used) - (x->used < y->used);
}

/* The least recently used entries removed until the cache holds three quarters of its bound. */
static void evict(cc_oracle_cache *cache) {
    entry_list l = {0};
    each_entry(cache, collect, &l);
    qsort(l.e, l.n, sizeof *l.e, by_use);
    const uint64_t target = cache->max_bytes / 4 * 3;
    for (size_t i = 0; i < l.n && l.bytes > target; i++)
        if (unlink(l.e[i].path) == 0) l.bytes -= l.e[i].size;
    cache->bytes = l.bytes;
    free(l.e);
}

void cc_oracle_cache_put(cc_oracle_cache *cache, const cc_oracle_key *key, const uint8_t *payload,
                         size_t len) {
    if (!cache || !cache->enabled) return;
    const uint64_t size = HEADER_BYTES + (uint64_t)len;
    if (size > cache->max_bytes / 4) return; /* one entry never takes the cache */
    if (cache->bytes + size > cache->max_bytes) evict(cache);
    char path[sizeof cache->dir + 80], tmp[sizeof path + 32];
    cc_oracle_cache_path(cache, key, path, sizeof path);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        cache->failed_writes++;
        note_once(cache, "cannot write into", path, errno);
        return;
    }
    *slash = '/';
    /* Beside its final name, so that one rename puts the whole entry in place. */
    snprintf(tmp, sizeof tmp, "%.*s/.tmp.%ld.XXXXXX", (int)(slash - path), path, (long)getpid());
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cache->failed_writes++;
        note_once(cache, "cannot write into", cache->dir, errno);
        return;
    }
    uint8_t header[HEADER_BYTES];
    memcpy(header, entry_magic, sizeof entry_magic);
    memcpy(header + 8, key->b, CC_ORACLE_KEY_BYTES);
    for (int i = 0; i < 8; i++) header[8 + CC_ORACLE_KEY_BYTES + i] = (uint8_t)((uint64_t)len >> (8 * i));
    payload_hash(payload, len, header + HEADER_BYTES - 32);
    /* No fsync: an entry torn by a crash fails its length or hash and is recomputed. */
    int ok = 1;
    const uint8_t *parts[2] = {header, payload};
    const size_t sizes[2] = {HEADER_BYTES, len};
    for (int p = 0; p < 2 && ok; p++)
        for (size_t done = 0; done < sizes[p] && ok;) {
            ssize_t w = write(fd, parts[p] + done, sizes[p] - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) ok = 0;
            else done += (size_t)w;
        }
    int e = ok ? 0 : errno;
    if (close(fd) != 0 && ok) ok = 0, e = errno;
    if (ok && rename(tmp, path) != 0) ok = 0, e = errno;
    if (!ok) {
        unlink(tmp);
        cache->failed_writes++;
        note_once(cache, "cannot write", path, e);
        return;
    }
    cache->stored++;
    cache->bytes += size;
}

void cc_oracle_cache_describe(const cc_oracle_cache *cache, char *buf, size_t size) {
    if (!cache->enabled) {
        snprintf(buf, size, "oracle cache %s", cache->note[0] ? cache->note : "off");
        return;
    }
    int n = snprintf(buf, size,
                     "oracle cache %s: %llu results reused, %llu computed, %llu stored, %llu "
                     "rejected and recomputed, %llu writes failed (%.1f of %.0f MiB)",
                     cache->dir, (unsigned long long)cache->hits,
                     (unsigned long long)cache->misses, (unsigned long long)cache->stored,
                     (unsigned long long)cache->rejected, (unsigned long long)cache->failed_writes,
                     (double)cache->bytes / 1048576.0, (double)cache->max_bytes / 1048576.0);
    if (cache->note[0] && n > 0 && (size_t)n < size) snprintf(buf + n, size - (size_t)n, "; %s", cache->note);
}
