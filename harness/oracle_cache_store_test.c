/* The oracle cache's store: entries come back as written, and every entry that is truncated,
 * corrupted, misnamed (another key's result under this key's name), a stray file or half
 * written by a racing writer is rejected and removed, never returned. Built a second time
 * against the mutant that trusts any entry of the right length (CC_ORACLE_CACHE_MUTANT_TRUSTING):
 * there the wrong results it returns are counted, and the test passes only if it caught some. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkdtemp */

#include "harness/oracle_cache.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testing/check.h"

#define PAYLOAD 4096

/* A payload that differs for every seed in every byte's low bits. */
static void payload_of(unsigned seed, uint8_t *p) {
    for (size_t i = 0; i < PAYLOAD; i++) p[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8));
}

static void key_of(unsigned i, cc_oracle_key *key) {
    cc_case c;
    memset(&c, 0, sizeof c);
    cc_rule_parse("B3/S23", &c.rule, NULL);
    c.w = 64;
    c.h = 64;
    c.steps = i + 1;
    c.density = 0.5;
    cc_oracle_key_of(&c, "grid", NULL, 0, key);
}

/* What a get of key i returns: 1 the right payload, 0 a miss, -1 a wrong payload. */
static int get_of(cc_oracle_cache *cache, unsigned i) {
    cc_oracle_key key;
    key_of(i, &key);
    uint8_t *p = NULL, want[PAYLOAD];
    size_t len = 0;
    if (!cc_oracle_cache_get(cache, &key, &p, &len)) return 0;
    payload_of(i, want);
    int right = len == PAYLOAD && memcmp(p, want, PAYLOAD) == 0;
    free(p);
    return right ? 1 : -1;
}

static void put_of(cc_oracle_cache *cache, unsigned i) {
    cc_oracle_key key;
    key_of(i, &key);
    uint8_t p[PAYLOAD];
    payload_of(i, p);
    cc_oracle_cache_put(cache, &key, p, PAYLOAD);
}

static void path_of(cc_oracle_cache *cache, unsigned i, char *buf, size_t size) {
    cc_oracle_key key;
    key_of(i, &key);
    cc_oracle_cache_path(cache, &key, buf, size);
}

/* Rewrites byte at of entry i's file (from the end when at < 0) to its complement. */
static int flip_byte(cc_oracle_cache *cache, unsigned i, long at) {
    char path[1200];
    path_of(cache, i, path, sizeof path);
    int fd = open(path, O_RDWR);
    if (fd < 0) return -1;
    off_t where = at < 0 ? lseek(fd, at, SEEK_END) : (off_t)at;
    uint8_t b;
    int ok = pread(fd, &b, 1, where) == 1;
    b = (uint8_t)~b;
    ok = ok && pwrite(fd, &b, 1, where) == 1;
    close(fd);
    return ok ? 0 : -1;
}

static int copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[8192];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = 0;
    return ok ? 0 : -1;
}

/* Tampered entries; returns the wrong payloads the cache handed back. */
static int tampered(checks *t, cc_oracle_cache *cache) {
    int wrong = 0;
    char a[1200], b[1200];
    for (unsigned i = 0; i < 6; i++) put_of(cache, i);
    CHECK_EQ(t, cache->stored, 6);
    CHECK_EQ(t, get_of(cache, 0), 1);
    CHECK_EQ(t, get_of(cache, 99), 0);

    /* Truncated: the last byte gone. */
    path_of(cache, 1, a, sizeof a);
    CHECK(t, truncate(a, PAYLOAD + 80 - 1) == 0);
    /* Corrupted: one payload byte flipped, the length intact. */
    CHECK(t, flip_byte(cache, 2, -1) == 0);
    /* Misnamed: entry 4's whole file, a valid entry of another key, under entry 3's name. */
    path_of(cache, 3, a, sizeof a);
    path_of(cache, 4, b, sizeof b);
    CHECK(t, copy_file(b, a) == 0);
    /* A stray file of the right length that is no entry at all. */
    path_of(cache, 5, a, sizeof a);
    FILE *f = fopen(a, "wb");
    for (int i = 0; f && i < PAYLOAD + 80; i++) fputc(i == 0 ? 'X' : 0, f);
    if (f) fclose(f);

    const uint64_t rejected = cache->rejected;
    for (unsigned i = 1; i <= 5; i++) {
        int got = get_of(cache, i);
        if (got < 0) wrong++;
        /* Entry 4 is intact; the others are rejected, removed and, once stored again, back. */
        if (i == 4) CHECK_EQ(t, got, 1);
    }
    for (unsigned i = 1; i <= 5; i++) {
        if (i == 4) continue;
        path_of(cache, i, a, sizeof a);
#ifndef CC_ORACLE_CACHE_MUTANT_TRUSTING
        CHECKF(t, access(a, F_OK) != 0, "rejected entry %u was left in place", i);
#endif
        put_of(cache, i);
        CHECK_EQ(t, get_of(cache, i), 1);
    }
#ifndef CC_ORACLE_CACHE_MUTANT_TRUSTING
    CHECK_EQ(t, cache->rejected - rejected, 4);
#else
    (void)rejected;
#endif
    return wrong;
}

/* Four writers put the same entries over and over while this process reads them: a reader sees
 * a whole entry or none, never a part (each entry is renamed into place). */
static int raced(checks *t, cc_oracle_cache *cache) {
    int wrong = 0;
    pid_t kids[4];
    for (int k = 0; k < 4; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            cc_oracle_cache mine;
            cc_oracle_cache_open(&mine, cache->dir, cache->max_bytes);
            for (int round = 0; round < 60; round++)
                for (unsigned i = 100; i < 108; i++) put_of(&mine, i);
            _exit(mine.failed_writes ? 1 : 0);
        }
    }
    const uint64_t rejected = cache->rejected;
    int seen = 0;
    for (int round = 0; round < 300; round++)
        for (unsigned i = 100; i < 108; i++) {
            int got = get_of(cache, i);
            seen += got == 1;
            wrong += got < 0;
        }
    for (int k = 0; k < 4; k++) {
        int status = -1;
        CHECK(t, kids[k] > 0 && waitpid(kids[k], &status, 0) == kids[k]);
        CHECKF(t, WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer %d failed to write", k);
    }
    CHECK_EQ(t, cache->rejected - rejected, 0);
    CHECKF(t, seen > 0, "the reader never saw an entry the writers put");
    for (unsigned i = 100; i < 108; i++) CHECK_EQ(t, get_of(cache, i), 1);
    return wrong;
}

/* The bound: past it the least recently used entries go, the one just used stays. */
static void bounded(checks *t, const char *dir) {
    cc_oracle_cache cache;
    cc_oracle_cache_open(&cache, dir, 16 * (PAYLOAD + 80));
    CHECK(t, cache.enabled);
    for (unsigned i = 200; i < 240; i++) {
        put_of(&cache, i);
        CHECK_EQ(t, get_of(&cache, 200), 1); /* used after every write: the last to go */
    }
    CHECKF(t, cache.bytes <= cache.max_bytes, "the cache holds %llu bytes, past its bound %llu",
           (unsigned long long)cache.bytes, (unsigned long long)cache.max_bytes);
    cc_oracle_cache again;
    cc_oracle_cache_open(&again, dir, cache.max_bytes);
    CHECK_EQ(t, again.bytes, cache.bytes);
    CHECK_EQ(t, get_of(&again, 239), 1);
}

static void settings(checks *t, const char *dir) {
    cc_oracle_cache cache;
    cc_error err;
    setenv("CELLCHECK_ORACLE_CACHE", "relative/dir", 1);
    CHECK_EQ(t, cc_oracle_cache_open_env(&cache, &err), CC_ERR_ARG);
    CHECK(t, strstr(err.msg, "CELLCHECK_ORACLE_CACHE='relative/dir'") != NULL);
    setenv("CELLCHECK_ORACLE_CACHE", "off", 1);
    CHECK_EQ(t, cc_oracle_cache_open_env(&cache, &err), CC_OK);
    CHECK(t, !cache.enabled);
    put_of(&cache, 1);
    CHECK_EQ(t, get_of(&cache, 1), 0);
    setenv("CELLCHECK_ORACLE_CACHE", dir, 1);
    setenv("CELLCHECK_ORACLE_CACHE_MAX_MIB", "lots", 1);
    CHECK_EQ(t, cc_oracle_cache_open_env(&cache, &err), CC_ERR_ARG);
    setenv("CELLCHECK_ORACLE_CACHE_MAX_MIB", "3", 1);
    CHECK_EQ(t, cc_oracle_cache_open_env(&cache, &err), CC_OK);
    CHECK(t, cache.enabled && cache.max_bytes == 3u << 20 && strcmp(cache.dir, dir) == 0);
    unsetenv("CELLCHECK_ORACLE_CACHE_MAX_MIB");
    unsetenv("CELLCHECK_ORACLE_CACHE");
    /* A directory that cannot be made: off, saying why; no error, as the cache only saves time. */
    char file[1100];
    snprintf(file, sizeof file, "%s/a-file", dir);
    FILE *f = fopen(file, "w");
    if (f) fclose(f);
    snprintf(file, sizeof file, "%s/a-file/oracle", dir);
    cc_oracle_cache_open(&cache, file, 1u << 20);
    CHECK(t, !cache.enabled);
    CHECKF(t, strstr(cache.note, "cannot use") != NULL, "note: %s", cache.note);
}

int main(void) {
    checks t = {"oracle_cache_store_test", 0, 0};
    const char *tmp = getenv("TEST_TMPDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/cache.XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char sub[1100];
    snprintf(sub, sizeof sub, "%s/oracle", dir);
    cc_oracle_cache cache;
    cc_oracle_cache_open(&cache, sub, 64u << 20);
    CHECKF(&t, cache.enabled, "the cache is off: %s", cache.note);
    int wrong = tampered(&t, &cache);
    wrong += raced(&t, &cache);
    snprintf(sub, sizeof sub, "%s/bounded", dir);
    bounded(&t, sub);
    settings(&t, dir);
#ifdef CC_ORACLE_CACHE_MUTANT_TRUSTING
    printf("the cache that trusts entries of the right length returned %d wrong results\n", wrong);
    CHECKF(&t, wrong > 0, "the mutant returned no wrong result: this test cannot catch it");
#else
    CHECKF(&t, wrong == 0, "the cache returned %d wrong results", wrong);
#endif
    return check_summary(&t);
}
