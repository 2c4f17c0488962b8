/* A shard of `cellcheck certify --shard I/N`: its certificate record (record.h) written beside
 * its partial certificate as shard.txt, read back, and the merge of N such records into the one
 * record of a whole run.
 *
 * The file is text, one "key value" line each, so that a shard from any machine can be read
 * back and checked: the build, the master seed and case count, the shard index and count, the
 * host, then one block an engine ("engine NAME" ... "end") with every count and the first
 * failure. Text values are escaped (\n, \t, \\) so that a line holds one value. It carries the
 * fields of cc_certificate_engine up to `seconds`, and of the provenance the build, seed, cases,
 * shard, host, CPU model, GPU and goldens. */
#ifndef CELLCHECK_CLI_CERTIFICATE_SHARD_H
#define CELLCHECK_CLI_CERTIFICATE_SHARD_H

#include <stdio.h>

#include "cli/certificate/record.h"
#include "oracle/error.h"

/* Writes c as a shard file into f. */
void cc_shard_write(FILE *f, const cc_certificate *c);

/* Reads the shard file at path into *c (freed with cc_certificate_free). CC_ERR_IO, or
 * CC_ERR_ARG naming the line that is not a shard file's. */
int cc_shard_read(const char *path, cc_certificate *c, cc_error *err);

/* The one record of n shards: they must be of one build, seed, case count and shard count, with
 * the same engines (and plugin hashes), each index from 0 to count-1 exactly once; otherwise
 * CC_ERR_ARG naming the shard (names[i]) that is missing, repeated or foreign. Counts are summed,
 * the largest step count and the seam classes joined; an engine failed in any shard failed, and
 * its failure is the one a whole run meets first (the lowest check number, the campaign after
 * every other section). The gaps are the shards' together (an engine that passed is CERTIFIED or
 * INCOMPLETE by them: the caller settles which, with its accepted gaps). *out (freed with
 * cc_certificate_free) has index 0 and count 1, merged n, the shards' hosts, the first GPU a
 * shard names, and their CPU model or "several (see the shards)"; the engines' own fields
 * (hardware, caps, plugin path) are the caller's to fill. */
int cc_shards_merge(const cc_certificate *shards, const char *const *names, int n,
                    cc_certificate *out, cc_error *err);

#endif
