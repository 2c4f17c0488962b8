/* The oracle's results kept on disk, so that every engine, shard and rerun on one machine that
 * checks the same case reuses them instead of stepping the oracle again.
 *
 * An entry is addressed by a key that hashes everything its result depends on: the sources of
 * the oracle, the case generator and the light-cone planner (CC_ORACLE_SOURCES_HASH, computed by
 * the build), the case line without its run settings (threads=, timing=), and, for light cones,
 * the options that place the windows. Its file holds the key again, the payload's length and the
 * payload's hash: a file that is truncated, corrupted, misnamed or from another build fails one of
 * them, is removed and recomputed, never trusted. Files are written beside their final name and
 * renamed into place, so concurrent writers (shards, lanes) never show a reader half an entry.
 *
 * The cache only saves time: any failure to read or write it leaves the check as it would be
 * without it, and is counted and said once. */
#ifndef CELLCHECK_HARNESS_ORACLE_CACHE_H
#define CELLCHECK_HARNESS_ORACLE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/case.h"
#include "oracle/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CC_ORACLE_KEY_BYTES 32
/* The default bound on the cache's files, past which the least recently used are removed. */
#define CC_ORACLE_CACHE_DEFAULT_MAX_MIB 2048
/* Below this many cell-neighbour visits the oracle is faster than a file. */
#define CC_ORACLE_CACHE_MIN_WORK 2e5

typedef struct cc_oracle_key {
    uint8_t b[CC_ORACLE_KEY_BYTES];
} cc_oracle_key;

typedef struct cc_oracle_cache {
    int enabled;
    char dir[1024];
    uint64_t max_bytes, bytes; /* the bound; the bytes held, as counted at open plus writes */
    uint64_t hits, misses, stored, rejected, failed_writes;
    char note[320]; /* why it is off, or the first entry rejected or write that failed */
} cc_oracle_cache;

/* The cache where CELLCHECK_ORACLE_CACHE says: a directory, "off", or unset for
 * $XDG_CACHE_HOME/cellcheck/oracle (else $HOME/.cache/cellcheck/oracle); its bound in MiB from
 * CELLCHECK_ORACLE_CACHE_MAX_MIB. CC_ERR_ARG for a malformed setting; a directory that cannot be
 * made leaves the cache off, with cache->note saying why. */
int cc_oracle_cache_open_env(cc_oracle_cache *cache, cc_error *err);
/* The cache in dir (created when missing) bounded by max_bytes; off with a note on failure. */
void cc_oracle_cache_open(cc_oracle_cache *cache, const char *dir, uint64_t max_bytes);
void cc_oracle_cache_off(cc_oracle_cache *cache, const char *why);

/* The key of kind ("grid", "cones") for case c and the bytes of extra (the options that shape
 * the result beyond the case; NULL, 0 for none). c's threads and timing do not enter it. */
void cc_oracle_key_of(const cc_case *c, const char *kind, const void *extra, size_t extra_len,
                      cc_oracle_key *key);

/* 1 and *payload (the caller frees it) for an entry that passed every check; 0 for a miss, with
 * an entry that failed one removed and counted as rejected. */
int cc_oracle_cache_get(cc_oracle_cache *cache, const cc_oracle_key *key, uint8_t **payload,
                        size_t *len);
/* Stores payload under key; failures are counted, never returned. */
void cc_oracle_cache_put(cc_oracle_cache *cache, const cc_oracle_key *key, const uint8_t *payload,
                         size_t len);
/* The path of key's entry (for tests that tamper with it). */
int cc_oracle_cache_path(const cc_oracle_cache *cache, const cc_oracle_key *key, char *buf,
                         size_t size);

/* "oracle cache DIR: H hits, M computed, S stored, R rejected" or why it is off. */
void cc_oracle_cache_describe(const cc_oracle_cache *cache, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
