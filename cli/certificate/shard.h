/* A shard of `cellcheck certify --shard I/N`: what it ran and found, written beside its partial
 * certificate as shard.txt, and the merge of N such records into the one certificate's rows.
 *
 * The record is text, one "key value" line each, so that a shard from any machine can be read
 * back and checked: the build, the master seed and case count, the shard index and count, the
 * host, then one block a engine ("engine NAME" ... "end") with every count and the first
 * failure. Text values are escaped (\n, \t, \\) so that a line holds one value. */
#ifndef CELLCHECK_CLI_SHARD_RECORD_H
#define CELLCHECK_CLI_SHARD_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "golden/golden.h"
#include "harness/harness.h"
#include "oracle/error.h"

/* INCOMPLETE: every check that ran passed, and some were left out (conf.gaps). */
enum { CC_SHARD_CERTIFIED = 0, CC_SHARD_FAILED = 1, CC_SHARD_NOT_RUN = 2, CC_SHARD_INCOMPLETE = 3 };

typedef struct cc_shard_engine {
    char name[64];
    char plugin_sha256[65]; /* "" for a built-in engine */
    int verdict;            /* CC_SHARD_* */
    char reason[640];
    cc_conformance_summary conf;
    golden_report golden;
    double golden_seconds, seconds;
} cc_shard_engine;

typedef struct cc_shard_record {
    char version[64], commit[64], compiler[160], mode[32], flags[512];
    char seed[80];
    uint64_t cases;
    uint32_t index, count;
    char host[256], cpu[256], gpu[320], golden[256];
    int engines;
    cc_shard_engine *engine; /* engines of them */
} cc_shard_record;

/* Writes r as text into f. */
void cc_shard_write(FILE *f, const cc_shard_record *r);

/* Reads path into *r (freed with cc_shard_free). CC_ERR_IO, or CC_ERR_ARG naming the line that
 * is not a shard record's. */
int cc_shard_read(const char *path, cc_shard_record *r, cc_error *err);
void cc_shard_free(cc_shard_record *r);

/* The one record of n shards: they must be of one build, seed, case count and shard count, with
 * the same engines (and plugin hashes), each index from 0 to count-1 exactly once; otherwise
 * CC_ERR_ARG naming the shard (names[i]) that is missing, repeated or foreign. Counts are summed,
 * the largest step count and the seam classes joined; an engine failed in any shard failed, and
 * its failure is the one a whole run meets first (the lowest check number, the campaign after
 * every other section). The gaps are the shards' together (an engine that passed is CERTIFIED or
 * INCOMPLETE by them: the caller settles which, with its accepted gaps). *out has index 0 and
 * count 1. */
int cc_shards_merge(const cc_shard_record *shards, const char *const *names, int n,
                    cc_shard_record *out, cc_error *err);

#endif
