/* What `cellcheck certify` and `certify --merge` share: writing the certificate record's files,
 * and the merge itself (certify.c runs the engines; certify_merge.c merges shards). */
#ifndef CELLCHECK_CLI_CERTIFY_H
#define CELLCHECK_CLI_CERTIFY_H

#include "cli/certificate/record.h"
#include "engines/engine_set.h"
#include "oracle/error.h"

/* certificate.md and certificate.json into dir, as one pair: both new or both old, whenever the
 * run stops. */
int cli_certificate_write(const char *dir, const cc_certificate *c, cc_error *err);

/* The JUnit report at path, whole or not at all. */
int cli_junit_write(const char *path, const cc_certificate *c, cc_error *err);

/* shard.txt into dir, beside the partial certificate: what the merge reads back. */
int cli_shard_file_write(const char *dir, const cc_certificate *c, cc_error *err);

/* certify --merge DIR: the shards' records into one certificate, as one run would have written
 * it. Returns the command's exit status. */
int cli_certify_merge(const cc_engine_set *engines, const char *dir, const char *out_dir,
                      const char *junit, const char *accept, int argc, char **argv);

#endif
