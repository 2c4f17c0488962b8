/* The engine fields of a shard file (shard.h): each one's key, how it is stored, and how shards
 * combine into a whole run's value. Shared by the file's reader and writer and the merge. */
#ifndef CELLCHECK_CLI_CERTIFICATE_SHARD_FIELDS_H
#define CELLCHECK_CLI_CERTIFICATE_SHARD_FIELDS_H

#include <stddef.h>

typedef enum { F_INT, F_I32, F_U32, F_I64, F_U64, F_SIZE, F_DOUBLE, F_TEXT } cc_shard_field_type;
typedef enum {
    M_SUM,   /* each shard ran its share: the whole run ran them all */
    M_MAX,   /* the largest over shards */
    M_OR,    /* bits any shard covered */
    M_SAME,  /* the same in every shard that says it (else the merge refuses) */
    M_FAILED /* from the shard whose failure a whole run meets first */
} cc_shard_merge_op;

typedef struct cc_shard_field {
    const char *key;
    cc_shard_field_type type;
    size_t offset, size; /* in cc_certificate_engine */
    cc_shard_merge_op merge;
} cc_shard_field;

extern const cc_shard_field cc_shard_fields[];
extern const size_t cc_shard_field_count;

#endif
